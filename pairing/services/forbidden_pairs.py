"""Forbidden pairs: two players who must never be paired with each other."""

from __future__ import annotations

from django.db import transaction
from django.utils.translation import gettext as _
from django.utils.translation import gettext_lazy

from ..models import (
    AuditAction,
    AuditEntry,
    ForbiddenPair,
    IntegrityKind,
    Player,
    Tournament,
)
from ..wording import in_english
from . import events, integrity, restore
from .drafts import discard_draft

_LATE = {
    "adding": gettext_lazy("Forbidden pairs are set before round 1 is paired; adding one now is a departure from "
                           "FIDE mode (VCL4THP Q195–196)."),
    "removing": gettext_lazy("Forbidden pairs are set before round 1 is paired; removing one now is a departure "
                             "from FIDE mode (VCL4THP Q195–196)."),
}
_WHY = {
    "adding": gettext_lazy("Adding a forbidden pair: %(pair)s"),
    "removing": gettext_lazy("Removing a forbidden pair: %(pair)s"),
}


def _late_change(tournament: Tournament, user, confirmations: int, what: str, label: str) -> dict | None:
    """After round 1 is paired a change of the forbidden pairs is a pairing-integrity
    event, and in FIDE mode it takes the tournament out of FIDE mode (Level 4, chief
    arbiter).  Returns the restore point to record the event with, None before round 1."""
    if tournament.rounds_published() < 1:
        return None
    point = restore.take(tournament)
    if Tournament.objects.get(pk=tournament.pk).fide_mode:
        integrity.leave_fide_mode(
            tournament, user, confirmations, why=str(_WHY[what]) % {"pair": label},
            extra=[str(_LATE[what])], recorded_why=in_english(_WHY[what]) % {"pair": label},
        )
    return point


def _record_late(tournament: Tournament, user, point: dict | None, line: str) -> None:
    if point is not None:
        number = events.last_paired(tournament)
        events.record(tournament, IntegrityKind.FORBIDDEN, number, f"{line} @ Round {number}", user, point=point)


def forbidden_pair_names(tournament: Tournament) -> list[str]:
    """The forbidden pairs for the audit trail: ``No 1 A / No 6 B``."""
    pairs = ForbiddenPair.objects.filter(tournament=tournament).select_related("player_a", "player_b")
    return sorted(p.audit_label() for p in pairs)


def forbid_pair(tournament: Tournament, a: Player, b: Player, user=None, confirmations: int = 0) -> ForbiddenPair:
    """Forbid pairing ``a`` with ``b`` from the next pairing on.  Discards the draft
    (it may pair them) and logs it, under the tournament lock.  Raises ValueError
    (nothing written) for the same player twice, a player of another tournament or
    a pair already forbidden."""
    if a.pk == b.pk:
        raise ValueError(_("Choose two different players."))
    with transaction.atomic():
        tournament.lock()
        found = {p.pk: p for p in tournament.player_set.filter(pk__in=[a.pk, b.pk])}
        for p in (a, b):
            if p.pk not in found:
                raise ValueError(_("%(name)s is not a player of this tournament.") % {"name": p.shown_name})
        low, high = sorted((found[a.pk], found[b.pk]), key=lambda p: p.pk)
        if ForbiddenPair.objects.filter(player_a=low, player_b=high).exists():
            raise ValueError(_("%(a)s and %(b)s are already a forbidden pair.") % {"a": low.shown_name, "b": high.shown_name})
        point = _late_change(tournament, user, confirmations, "adding", f"{low.name} / {high.name}")
        before = forbidden_pair_names(tournament)
        pair = ForbiddenPair.objects.create(tournament=tournament, player_a=low, player_b=high)
        discard_draft(tournament, user, "A forbidden pair was added.")
        AuditEntry.log(
            tournament, user, AuditAction.FORBIDDEN,
            f"{low.name} and {high.name} must not be paired with each other.",
            obj=pair, label=pair.audit_label(),
            before={"forbidden_pairs": before}, after={"forbidden_pairs": forbidden_pair_names(tournament)},
        )
        _record_late(tournament, user, point, f"Forbidden pair added: {low.tpn}-{high.tpn}")
    return pair


def allow_pair(tournament: Tournament, pair_pk: int, user=None, confirmations: int = 0) -> str:
    """Remove a forbidden pair (they may be paired again); discards the draft and
    logs it.  Raises ValueError when the pair is gone (another arbiter removed it).
    Returns a sentence."""
    with transaction.atomic():
        tournament.lock()
        pair = (
            ForbiddenPair.objects.filter(tournament=tournament, pk=pair_pk)
            .select_related("player_a", "player_b")
            .first()
        )
        if pair is None:
            raise ValueError(_("That forbidden pair no longer exists (another arbiter removed it); nothing changed."))
        point = _late_change(tournament, user, confirmations, "removing",
                             f"{pair.player_a.name} / {pair.player_b.name}")
        tpns = f"{pair.player_a.tpn}-{pair.player_b.tpn}"
        before = forbidden_pair_names(tournament)
        label, pk = pair.audit_label(), pair.pk
        text = f"{pair.player_a.name} and {pair.player_b.name} may be paired again."
        shown = _("%(a)s and %(b)s may be paired again.") % {"a": pair.player_a.shown_name, "b": pair.player_b.shown_name}
        pair.delete()
        discard_draft(tournament, user, "A forbidden pair was removed.")
        AuditEntry.log(
            tournament, user, AuditAction.FORBIDDEN, text,
            object_type="forbiddenpair", object_id=pk, label=label,
            before={"forbidden_pairs": before}, after={"forbidden_pairs": forbidden_pair_names(tournament)},
        )
        _record_late(tournament, user, point, f"Forbidden pair removed: {tpns}")
    return shown
