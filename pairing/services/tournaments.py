"""Creating a tournament and its settings (the arbiter team: :mod:`.deputies`)."""

from __future__ import annotations

from collections.abc import Callable

from django.db import transaction
from django.utils.translation import gettext as _

from ..models import (
    SEEN_CHANGED,
    AuditAction,
    AuditEntry,
    Conflict,
    IntegrityKind,
    Tournament,
)
from ..warning_levels import Level, require
from . import events, integrity, player_ratings, restore
from .drafts import discard_draft
from .numbering import renumber


def log_created(tournament: Tournament, user) -> None:
    AuditEntry.log(
        tournament, user, AuditAction.CREATE, f"Tournament created; initial colour {tournament.initial_colour}.",
        obj=tournament, label=tournament.name, after=tournament.audit_values(),
    )
    if tournament.final_ties == "lots" and tournament.lots_seed is None:
        draw_lots_seed(tournament, user)


def too_many_rounds(t: Tournament) -> str:
    """A Level-2 notice before round 1 (VCL4THP Q62) when the players entered cannot play
    the number of rounds without two of them meeting twice: n players have at most n - 1
    rounds of distinct opponents (n with an odd number, one PAB each).  '' otherwise."""
    if t.rounds_published():
        return ""
    n = t.player_set.filter(withdrawn_from_round__isnull=True).count()
    if n < 2:
        return ""
    most = n if n % 2 else n - 1
    if t.rounds <= most:
        return ""
    return _("With %(n)s players at most %(most)s rounds can be paired without two players meeting twice; the "
             "tournament has %(rounds)s. Lower the number of rounds (Settings) or register more players; otherwise "
             "the rounds after that can only be paired by hand, breaking the rules.") % {
        "n": n, "most": most, "rounds": t.rounds}


_FIXED_WORDS = {"rounds": "rounds", "tiebreaks": "tie-breaks", "tie_order": "order of equal ratings"}


def _points_text(values: dict) -> str:
    return "W{point_win} D{point_draw} L{point_loss} PAB{point_pab} HPB{point_half_bye}".format(**values)


def _fixed_change_line(number: int, before: dict, after: dict, fixed: list[str], redone: list[int]) -> str:
    """``Settings changed @ Round 2: rounds 7 => 9; points W1.0 … => W3.0 …; tie-breaks A => B``."""
    parts = [f"{_FIXED_WORDS[f]} {before[f]} => {after[f]}" for f in ("rounds", "tiebreaks", "tie_order") if f in fixed]
    if any(f.startswith("point_") for f in fixed):
        parts.insert(1 if "rounds" in fixed else 0, f"points {_points_text(before)} => {_points_text(after)}")
    line = f"Settings changed @ Round {number}: " + "; ".join(parts)
    if redone:
        line += "; rounds the engine now pairs differently: " + ", ".join(map(str, redone))
    return line


def draw_lots_seed(t: Tournament, user) -> None:
    """The drawing of lots for players tied on everything (VCL4THP Q204, Q206): one seed,
    drawn once and kept, so that every later standings table orders them the same way;
    recorded in the audit trail."""
    import secrets

    t.lots_seed = secrets.randbelow(2**31 - 1) + 1
    t.save(update_fields=["lots_seed"])
    AuditEntry.log(
        t, user, AuditAction.SETTINGS,
        f"Drawing of lots for tied players: seed {t.lots_seed} drawn (kept for the whole tournament).",
        obj=t, label=t.name, after={"lots_seed": t.lots_seed},
    )


def save_settings(tournament: Tournament, save: Callable[[], Tournament], user, before: dict, seen: str = "",
                  fixed: list[str] | None = None, confirmations: int = 0) -> Tournament:
    """Save the settings (``save``: the form's save, which updates this row) under the
    tournament lock; log the fields that changed (``before``: their old values) and
    discard the draft if any changed.  ``seen``: the version the arbiter's form was
    made from; raises :class:`Conflict` if the settings changed since.

    ``fixed``: the settings fixed by the rules (rounds, points, tie-breaks) that change.
    Once round 1 is paired they cannot change in FIDE mode (ValueError); outside FIDE
    mode the change needs a Level-3 confirmation, after the engine has paired every
    published round again with the new values (``tournament`` carries them, unsaved) and
    the differences are shown, and it is a pairing-integrity event."""
    fixed = fixed or []
    started = tournament.pk is not None and tournament.rounds_published() >= 1
    redone: list[tuple[int, list[str]]] = []
    if fixed and started:
        if Tournament.objects.get(pk=tournament.pk).fide_mode:
            raise ValueError(_("In FIDE mode the number of rounds, the points and the tie-breaks are locked once "
                               "round 1 is paired."))
        redone = integrity.recheck_rounds(tournament)
        warnings = [
            _("Changing %(fields)s after round 1 is a pairing-integrity event: it is recorded and written in the "
              "rating report's copy.") % {"fields": ", ".join(str(Tournament._meta.get_field(f).verbose_name) for f in fixed)},
        ]
        if any(f.startswith("point_") for f in fixed):
            warnings.append(_("Every score so far is recomputed with the new points, although the rounds were "
                              "paired on the old ones."))
        for number, found in redone:
            warnings.append(_("Round %(n)s would be paired differently now:") % {"n": number} + " " + " ".join(found))
        if not redone:
            warnings.append(_("The engine pairs every published round the same way with the new settings."))
        require(Level.CONFIRM, confirmations, _("Change settings fixed by the rules"), warnings)
    with transaction.atomic():
        current = tournament.lock()
        if seen and current.version() != seen:
            raise Conflict(SEEN_CHANGED % {"what": _("The settings")})
        point = restore.take(current) if fixed and started else None
        t = save()
        t.refresh_from_db()  # values as stored (3 is 3.0), as ``before`` was read
        after = t.audit_values(list(before))
        changed = [f for f in before if before[f] != after[f]]
        if "acceleration" in changed and started:
            raise ValueError(_("Acceleration is fixed before round 1 and cannot change once round 1 is published."))
        if started and {"system", "dubov_rules", "rr_cycles", "rr_reverse_last_two"} & set(changed):
            raise ValueError(_("The pairing system, the Dubov rules and the round robin's cycles are fixed once round 1 "
                               "is published."))
        if "rating_method" in changed:
            if started:
                raise ValueError(_("The tournament rating method cannot change once round 1 is published."))
            player_ratings.apply_method(t)
        if "tie_order" in changed or "rating_method" in changed:
            renumber(t)  # the pairing numbers follow the announced order (frozen ones stay)
        if t.final_ties == "lots" and t.lots_seed is None:
            draw_lots_seed(t, user)
        if [f for f in changed if f != "schedule_text"]:  # the schedule pairs nobody
            discard_draft(t, user, "Settings changed.")
        if changed:
            AuditEntry.log(
                t, user, AuditAction.SETTINGS, "Settings changed: " + ", ".join(changed),
                obj=t, label=t.name,
                before={f: before[f] for f in changed}, after={f: after[f] for f in changed},
            )
        really = [f for f in fixed if f in changed]
        if point is not None and really:
            number = events.last_paired(t)
            events.record(
                t, IntegrityKind.SETTINGS, number,
                _fixed_change_line(number, before, after, really, [n for n, _ in redone]), user, point=point,
            )
    return t
