"""Pairing-integrity events (VCL4THP Q112–115), FIDE mode, and comparing a round with
the engine's pairing of it.

Every act that departs from the engine's pairing or from recorded history is stored as
an :class:`~pairing.models.IntegrityEvent` with a ``###`` line for the TRF-2026 report
and a restore point taken just before it (:mod:`.restore`); the chief arbiter can go
back to it.  Leaving FIDE mode is one of them, and cannot be undone.
"""

from __future__ import annotations

from dataclasses import dataclass

from django.db import transaction
from django.utils import timezone
from django.utils.formats import date_format
from django.utils.translation import gettext as _
from django.utils.translation import ngettext

from .. import engine
from ..models import (
    AuditAction,
    AuditEntry,
    Bye,
    ByeKind,
    IntegrityEvent,
    IntegrityKind,
    Player,
    Round,
    RoundStatus,
    Tournament,
)
from ..warning_levels import Level, require
from . import restore
from .events import last_paired, record  # noqa: F401 - callers' names (the steps live below)
from .snapshot import build_snapshot


@dataclass(frozen=True)
class Pairs:
    """A round's pairing: boards as (white, black) player ids in board order, and the PAB."""

    boards: tuple[tuple[int, int], ...]
    pab: int | None

    def text(self, tpn: dict[int, int]) -> str:
        """``1-4 5-2 PAB 7``: pairing numbers, White first."""
        parts = [f"{tpn[w]}-{tpn[b]}" for w, b in self.boards]
        if self.pab is not None:
            parts.append(f"PAB {tpn[self.pab]}")
        return " ".join(parts) or "no boards"


def round_pairs(rnd: Round) -> Pairs:
    pab = Bye.objects.filter(tournament_id=rnd.tournament_id, round_number=rnd.number, kind=ByeKind.PAIRING).first()
    boards = tuple(rnd.game_set.order_by("board").values_list("white_id", "black_id"))
    return Pairs(boards, pab.player_id if pab else None)


def engine_pairs(t: Tournament, number: int) -> Pairs:
    """The engine's pairing of round ``number`` on the rounds before it, with ``t``'s
    settings as they stand on the instance (a form may have changed them unsaved).
    Raises :class:`~pairing.engine.NoLegalPairing`.  A round robin's is its Berger table's."""
    if t.round_robin:
        from .roundrobin import table_pairs

        return Pairs(table_pairs(t, number)[0], None)  # the table's bye sits out: not a PAB
    result = engine.pair_round(build_snapshot(t, number))
    return Pairs(tuple((b.white, b.black) for b in result.boards), result.bye)


def differences(ours: Pairs, theirs: Pairs, players: dict[int, Player], *, ours_name: str = "",
                theirs_name: str = "") -> list[str]:
    """What differs between two pairings of a round, one sentence each (in the page's
    language; the names default to the engine and the round)."""
    ours_name = ours_name or _("the engine")
    theirs_name = theirs_name or _("the round")

    def who(pk: int) -> str:
        p = players.get(pk)
        return _("%(name)s (No %(tpn)s)") % {"name": p.name, "tpn": p.tpn} if p else str(pk)

    out = []
    mine = {frozenset(b): b for b in ours.boards}
    other = {frozenset(b): b for b in theirs.boards}
    for key, (w, b) in mine.items():
        if key not in other:
            out.append(_("%(a)s pairs %(w)s – %(b)s; %(c)s does not.") % {"a": ours_name, "w": who(w), "b": who(b), "c": theirs_name})
        elif other[key] != (w, b):
            out.append(_("%(w)s – %(b)s: %(a)s gives White to %(w)s, %(c)s to %(b)s.") % {"a": ours_name, "w": who(w), "b": who(b), "c": theirs_name})
    for key, (w, b) in other.items():
        if key not in mine:
            out.append(_("%(a)s pairs %(w)s – %(b)s; %(c)s does not.") % {"a": theirs_name, "w": who(w), "b": who(b), "c": ours_name})
    if ours.pab != theirs.pab:
        a = who(ours.pab) if ours.pab is not None else _("nobody")
        c = who(theirs.pab) if theirs.pab is not None else _("nobody")
        out.append(_("PAB: %(a)s gives it to %(x)s, %(c)s to %(y)s.") % {"a": ours_name, "x": a, "c": theirs_name, "y": c})
    return [s[0].upper() + s[1:] for s in out]


def recheck_rounds(t: Tournament) -> list[tuple[int, list[str]]]:
    """Each published round paired again by the engine with ``t``'s settings as they
    stand on the instance: ``(round, differences)`` for the rounds that now differ
    (VCL4THP Q60, Q76, Q86: a change of the number of rounds, the points or the PAB
    outside FIDE mode)."""
    players = {p.pk: p for p in t.player_set.all()}
    out = []
    for rnd in Round.objects.filter(tournament_id=t.pk).exclude(status=RoundStatus.DRAFT).order_by("number"):
        try:
            found = differences(engine_pairs(t, rnd.number), round_pairs(rnd), players)
        except engine.NoLegalPairing:
            found = [_("The engine finds no legal pairing for this round any more.")]
        except (engine.EngineError, ValueError) as exc:
            found = [_("The round cannot be checked: %(problem)s") % {"problem": exc}]
        if found:
            out.append((rnd.number, found))
    return out


def leave_fide_mode(t: Tournament, user, confirmations: int, *, why: str = "", extra: list[str] | None = None,
                    recorded_why: str = "") -> bool:
    """Take ``t`` out of FIDE mode for good (Level 4, VCL4THP Q42–46).  ``why``: the act
    that takes it out, when it is not the chief arbiter's own choice (``recorded_why``: the
    same in English, for the event's record).  Returns False
    when it was out already.  Call it in the act's transaction when there is one.
    Raises ValueError for anyone but the chief arbiter."""
    if user is None or user.pk != t.owner_id:
        raise ValueError(_("Only the chief arbiter can take the tournament out of FIDE mode; nothing changed."))
    require(
        Level.DOUBLE, confirmations, why or _("Leave FIDE mode"),
        (extra or []) + [
            _("The tournament leaves FIDE mode for good: it cannot go back."),
            _("Every page of the tournament will say 'Not in FIDE mode', and the rating report will carry the line "
              "'### FIDE mode exited'."),
        ],
    )
    with transaction.atomic():
        current = t.lock()
        if not current.fide_mode:
            return False
        number = last_paired(current)
        point = restore.take(current)
        Tournament.objects.filter(pk=t.pk).update(fide_mode=False, fide_mode_left_round=number)
        t.fide_mode, t.fide_mode_left_round = False, number
        record(t, IntegrityKind.FIDE_MODE_EXIT, number, f"FIDE mode exited @ Round {number}", user,
               detail=recorded_why or why, point=point)
    return True


def undo(t: Tournament, event_pk: int, user, confirmations: int) -> IntegrityEvent:
    """Go back to the restore point of event ``event_pk`` (Level 3, chief arbiter): the
    tournament's pairing data as it was just before that event; that event and every
    later one are marked undone; the undo is itself an event.  Raises ValueError.

    Checked before the question and again under the tournament's lock, so two undos of
    the same event posted at once act once.  That the state is still the one the
    question described is the confirmation token's check (:mod:`pairing.views.confirm`)."""
    event = IntegrityEvent.objects.filter(tournament=t, pk=event_pk).first()
    if event is None or event.undone_at is not None:
        raise ValueError(_("That event does not exist or was undone already; nothing changed."))
    if event.kind in (IntegrityKind.FIDE_MODE_EXIT, IntegrityKind.UNDO) or event.restore_point is None:
        raise ValueError(_("Leaving FIDE mode and an undo cannot be undone; nothing changed."))
    later = AuditEntry.objects.filter(tournament=t, at__gt=event.at).exclude(action=AuditAction.INTEGRITY).count()
    require(
        Level.CONFIRM, confirmations, _("Undo: %(line)s") % {"line": event.report_line},
        [_("The tournament goes back to how it was at %(when)s, just before this event.") % {
            "when": date_format(timezone.localtime(event.at), "DATETIME_FORMAT")},
         ngettext("%(n)s later change in the audit trail will be undone with it (results, pairings, players, byes, "
                  "settings).", "%(n)s later changes in the audit trail will be undone with it (results, pairings, "
                  "players, byes, settings).", later) % {"n": later} if later else _("Nothing else has changed since.")],
    )
    with transaction.atomic():
        t.lock()
        # again under the lock: a second undo of the same event (a double click, another
        # tab) waited here for the first one and finds it done
        event = IntegrityEvent.objects.filter(tournament=t, pk=event_pk, undone_at__isnull=True).first()
        if event is None:
            raise ValueError(_("That event does not exist or was undone already; nothing changed."))
        now = timezone.now()
        who = user.get_username() if user is not None and user.is_authenticated else ""
        point = restore.take(t)
        restore.restore(t, event.restore_point)
        IntegrityEvent.objects.filter(tournament=t, at__gte=event.at, undone_at__isnull=True).exclude(
            kind__in=[IntegrityKind.FIDE_MODE_EXIT, IntegrityKind.UNDO]
        ).update(undone_at=now, undone_by=who)
        number = last_paired(t)
        return record(t, IntegrityKind.UNDO, number, f"Undo @ Round {number}: back to before \"{event.line}\"",
                      user, point=point)
