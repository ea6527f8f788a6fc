"""Check-in before round 1: players marked present (by an arbiter, or by themselves from
the QR code of the check-in sheet), entry fees due and paid, and the close of check-in
that gives the players not present a zero-point bye for round 1 instead of a pairing."""

from __future__ import annotations

from decimal import Decimal

from django.db import transaction
from django.utils import timezone
from django.utils.translation import gettext as _

from ..models import AuditAction, AuditEntry, Bye, CheckIn, Player, Tournament, namesakes
from ..warning_levels import Level, require
from .players import set_byes

SELF = "self check-in"


def _open(section: Tournament) -> None:
    if section.rounds_published():
        raise ValueError(_("Round 1 of %(section)s is published: check-in is over.") % {"section": section.name})


def set_present(player: Player, present: bool, user=None, *, by_self: bool = False) -> bool:
    """Mark ``player`` present (or not); returns whether anything changed.  ``by_self``:
    the player did it from the QR code (the audit trail says so)."""
    section = player.tournament
    with transaction.atomic():
        section.lock()
        _open(section)
        row, _created = CheckIn.objects.select_for_update().get_or_create(player=player)
        if row.present == present:
            return False
        who = SELF if by_self else (user.get_username() if user is not None and user.is_authenticated else "")
        row.present, row.at, row.by = present, timezone.now() if present else None, who if present else ""
        row.save(update_fields=["present", "at", "by"])
        text = f"{player.name} checked in" + (" by the QR code." if by_self else ".") if present else \
            f"{player.name}: check-in undone."
        AuditEntry.log(section, None if by_self else user, AuditAction.CHECKIN, text, obj=player,
                       label=player.audit_label(), before={"present": not present}, after={"present": present},
                       username=SELF if by_self else "")
    return True


def set_fee(player: Player, due: Decimal | None, paid: Decimal | None, user) -> bool:
    """The entry fee due and paid (either may be empty)."""
    for value in (due, paid):
        if value is not None and value < 0:
            raise ValueError(_("A fee is not negative."))
    section = player.tournament
    with transaction.atomic():
        section.lock()
        row, _created = CheckIn.objects.select_for_update().get_or_create(player=player)
        before = {"due": row.due, "paid": row.paid}
        if (row.due, row.paid) == (due, paid):
            return False
        row.due, row.paid = due, paid
        row.save(update_fields=["due", "paid"])
        AuditEntry.log(section, user, AuditAction.CHECKIN, f"{player.name}: fee due {due or '—'}, paid {paid or '—'}.",
                       obj=player, label=player.audit_label(),
                       before={k: str(v) if v is not None else None for k, v in before.items()},
                       after={"due": str(due) if due is not None else None, "paid": str(paid) if paid is not None else None})
    return True


def absent(section: Tournament) -> list[Player]:
    """The players who would get a zero-point bye if check-in closed now: not marked
    present, not withdrawn, no bye of their own asked for round 1."""
    present = set(CheckIn.objects.filter(player__tournament=section, present=True).values_list("player_id", flat=True))
    excused = set(Bye.objects.filter(tournament=section, round_number=1).values_list("player_id", flat=True))
    return [p for p in section.player_set.filter(withdrawn_from_round__isnull=True).order_by("tpn", "name")
            if p.pk not in present and p.pk not in excused]


def close(section: Tournament, user, confirmations: int = 0) -> list[Player]:
    """Close check-in: every player not present gets a zero-point bye for round 1 (not
    paired).  A Level-3 confirmation that names them; the byes and the close in the audit
    trail.  Returns the players given the bye."""
    _open(section)
    missing = absent(section)
    shown = namesakes(section.pk)
    if missing:
        names = ", ".join(p.name_among(shown) for p in missing)
        require(Level.CONFIRM, confirmations, _("Close check-in of %(section)s") % {"section": section.name}, [
            _("Not checked in: %(names)s. They get a zero-point bye for round 1 and are not paired in it.") % {
                "names": names},
            _("A player who arrives later can be given back to round 1 on the byes page until it is paired."),
        ])
    with transaction.atomic():
        section.lock()
        if missing:
            set_byes(section, 1, {p.pk: "Z" for p in missing}, user)
        Tournament.objects.filter(pk=section.pk).update(checkin_closed_at=timezone.now())
        AuditEntry.log(section, user, AuditAction.CHECKIN,
                       f"Check-in closed: {len(missing)} not present, zero-point bye in round 1"
                       + (": " + ", ".join(p.name for p in missing) if missing else "") + ".",
                       obj=section, label=section.name, after={"absent": [p.audit_label() for p in missing]})
    return missing
