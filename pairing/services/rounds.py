"""Pairing a round with the engine, the draft and its manual changes, and the rule
checks on a draft.  The only caller of the engine's pairing function."""

from __future__ import annotations

import logging
import re
import secrets
from dataclasses import dataclass, replace

from django.db import IntegrityError, transaction
from django.db.models import F
from django.utils import timezone, translation
from django.utils.translation import gettext as _
from django.utils.translation import ngettext

from .. import engine
from ..engine import Snapshot
from ..models import (
    AuditAction,
    AuditEntry,
    Bye,
    ByeKind,
    Conflict,
    Game,
    GameResult,
    PairedBy,
    Player,
    Round,
    RoundStatus,
    Tournament,
)
from ..reports.aro import aro_lines, aro_spread
from ..reports.standings import points_before
from ..warning_levels import Level, require
from . import acceleration, roundrobin
from .draft_checks import draft_warnings, warnings_for
from .drafts import discard_draft  # noqa: F401 - callers' name (the step lives below the services)
from .numbering import renumber
from .provenance import program_text
from .snapshot import build_snapshot


class PairingRefused(Exception):
    """The round cannot be paired; ``message`` says why in the arbiter's words.
    ``no_legal``: the engine proved that no legal pairing exists (the round can still
    be made by hand in a manual-pairing session)."""

    def __init__(self, message: str, no_legal: bool = False):
        super().__init__(message)
        self.no_legal = no_legal


logger = logging.getLogger(__name__)

_ENGINE_WHO = re.compile(r"\b(\d+) \(TPN (\d+)\)")


def readable(text: str, players: dict[int, Player]) -> str:
    """The engine names a player ``id`` when id == TPN, else ``id (TPN n)`` (ids are
    database keys here); show the latter as ``Name (No n)`` so that every number left
    is a pairing number."""

    def name(m: re.Match) -> str:
        p = players.get(int(m.group(1)))
        return f"{p.name} (No {p.tpn})" if p is not None and str(p.tpn) == m.group(2) else m.group(0)

    return _ENGINE_WHO.sub(name, text)


def named_in(text: str) -> set[int]:
    """The ids of the players an engine sentence names as ``id (TPN n)`` (what
    :func:`readable` resolves)."""
    return {int(m.group(1)) for m in _ENGINE_WHO.finditer(text)}


def explanation_as_json(pairing: engine.Pairing, system: engine.System = engine.System.DUBOV,
                        total_rounds: int = 0) -> dict:
    """The engine's Explanation as plain JSON (ids kept; names resolved when shown), with
    the system whose rules made it (the draft page explains a Dutch bracket in the Dutch
    terms, a Burstein bracket with its players' Index).  A Burstein seeding round (1.6) is
    paired by the Dutch rules: ``system`` is then "dutch" and ``seeding`` says which of
    the tournament's seeding rounds it is."""
    ex = pairing.explanation
    made_by = ex.paired_by or system
    seeding = None
    if system is engine.System.BURSTEIN and made_by is not system:
        seeding = {"round": pairing.round_number, "of": engine.burstein_seeding_rounds(total_rounds)}
    why = ex.bye
    if seeding:  # the page says it is a seeding round; the bye's own criteria follow the engine's note
        note, sep, rest = why.reason.partition("System. ")
        if sep and note.startswith("Seeding round"):
            why = replace(why, reason=rest)
    return {
        "system": made_by.value,
        **({"seeding": seeding} if seeding else {}),
        "bye": {
            "player": ex.bye.player,
            "eligible": list(ex.bye.eligible),
            "rejected_incomplete": list(ex.bye.rejected_incomplete),
            "reason": ex.bye.reason,
            "why": why.criteria(),
        },
        "brackets": [
            {
                "score": str(b.score),
                "residents": list(b.residents),
                "upfloaters": list(b.upfloaters),
                "upfloater_reason": b.upfloater_reason,
                "g1": list(b.g1),
                "g2": list(b.g2),
                "shifted_from_smaller": list(b.shifted_from_smaller),
                "shifted_from_larger": list(b.shifted_from_larger),
                "s1": list(b.s1),
                "t2": list(b.t2),
                "notes": list(b.notes),
                "moved_down": list(b.moved_down),
                "limbo": list(b.limbo),
                "remainder_s1": list(b.remainder_s1),
                "remainder_s2": list(b.remainder_s2),
                "exchanged": [list(b.exchanged[0]), list(b.exchanged[1])],
                "downfloaters": list(b.downfloaters),
                "index": [[pid, str(bh), str(sb)] for pid, bh, sb in b.index],
            }
            for b in ex.brackets
        ],
        "colours": [
            {"white": c.white, "black": c.black, "rule": c.rule, "reason": c.reason} for c in ex.colours
        ],
    }


def open_next_round(t: Tournament) -> Round | int:
    """Under the tournament lock (call it in a transaction): the draft when there is one
    already (a double click), else the number of the round to pair, pairing numbers
    brought up to date.  Raises :class:`PairingRefused` when the round cannot be paired."""
    t.lock()
    existing = t.draft_round()
    if existing is not None:
        return existing
    blocker = t.pairing_blocker()
    if blocker:
        raise PairingRefused(blocker)
    renumber(t)
    return t.next_round_number()


def adjourn_open_boards(t: Tournament, user=None, confirmations: int = 0) -> int:
    """At pairing time (VCL4THP Q158): the boards of the last round still without a
    result become adjourned games -- draws for the pairing and the standings until their
    results come -- after a Level-3 confirmation naming them.  Returns how many."""
    from .results import record_result

    last = t.published_rounds().last()
    if last is None or last.number >= t.rounds:
        return 0
    games = list(last.game_set.filter(result=GameResult.PENDING).select_related("white", "black").order_by("board"))
    if not games:
        return 0
    boards = "; ".join(
        _("board %(board)s (%(white)s – %(black)s)") % {"board": g.board, "white": g.white.shown_name, "black": g.black.shown_name}
        for g in games
    )
    require(Level.CONFIRM, confirmations, _("Pair round %(n)s with the open boards adjourned") % {"n": last.number + 1}, [
        _("Round %(n)s: %(boards)s become adjourned games.") % {"n": last.number, "boards": boards},
        _("They count as draws for the pairing and the standings until you enter their results, in any later round; "
          "a result other than a draw then asks again, since the pairings were made on the draw."),
    ])
    with transaction.atomic():
        t.lock()
        for g in games:
            record_result(g, GameResult.ADJOURNED, user, expected=GameResult.PENDING)
    return len(games)


def pair_next_round(t: Tournament, user=None) -> Round:
    """Run the engine for the next round and store the result as a draft round.

    One transaction, with the tournament row locked: a double click makes one draft
    (the second call returns the existing draft).  Raises :class:`PairingRefused`.
    """
    with transaction.atomic():
        existing = open_next_round(t)
        if isinstance(existing, Round):
            return existing
        number = existing
        if Tournament.objects.get(pk=t.pk).round_robin:
            t.refresh_from_db()
            try:
                return roundrobin.pair(t, number, user)
            except roundrobin.NumbersRefused as exc:
                raise PairingRefused(str(exc)) from exc
        snapshot = build_snapshot(t, number)
        present = len(snapshot.players) - len(snapshot.absent)
        if present < 2:
            raise PairingRefused(ngettext(
                "Only %(n)s player can be paired in round %(round)s.", "Only %(n)s players can be paired in round %(round)s.",
                present) % {"n": present, "round": number})
        try:
            result = engine.pair_round(snapshot)
        except engine.NoLegalPairing as exc:
            players = {p.pk: p for p in t.player_set.all()}
            raise PairingRefused(
                _("No legal pairing exists for round %(round)s: %(why)s What the arbiter can do here: give one of "
                  "these players a bye or mark them absent (Byes), lift a forbidden pair (Forbidden pairs), end the "
                  "tournament after round %(before)s (Settings: number of rounds), or pair the round by hand "
                  "(a manual-pairing session; the departure from the rules is recorded).")
                % {"round": number, "why": readable(str(exc), players), "before": number - 1},
                no_legal=True,
            ) from exc
        except engine.InvalidSnapshot as exc:
            raise PairingRefused(_("The tournament data is inconsistent: %(problem)s") % {"problem": exc}) from exc
        except engine.EngineError as exc:  # an engine bug: say so instead of a server error
            raise PairingRefused(_("The pairing engine failed on round %(n)s: %(problem)s") % {"n": number, "problem": exc}) from exc
        try:
            rnd = Round.objects.create(
                tournament=t, number=number, status=RoundStatus.DRAFT,
                explanation=explanation_as_json(result, snapshot.system, snapshot.total_rounds),
                paired_by=PairedBy.ENGINE, program=program_text(t.system, t.dubov_rules_1997),
            )
        except IntegrityError as exc:  # pragma: no cover - guarded by the lock above
            raise PairingRefused(_("Another arbiter is pairing this round right now.")) from exc
        Game.objects.create_boards(rnd, ((b.number, b.white, b.black, "") for b in result.boards))
        if result.bye is not None:
            Bye.objects.create(tournament=t, player_id=result.bye, round_number=number, kind=ByeKind.PAIRING)
        AuditEntry.log(
            t, user, AuditAction.PAIR, f"Round {number} paired (draft): {len(result.boards)} boards.",
            obj=rnd, label=f"Round {number} (draft)", after=rnd.board_list(),
        )
        revision = Tournament.objects.filter(pk=t.pk).values_list("revision", flat=True).get()
    _compute_ahead(t, rnd, snapshot, revision)
    return rnd


def _compute_ahead(t: Tournament, rnd: Round, snapshot: Snapshot, revision: int) -> None:
    """What the pages of a new draft and of the round once published show, computed from
    the snapshot the engine paired while it is at hand, into the shared cache:

    - the draft's rule warnings, for the state the pairing made (its ``revision``): the
      draft's page reads them instead of building the snapshot again (9,999 x 41: 2-3 s);
    - the points before the round, which the draft's boards and the published round's
      show (kept while only later rounds change: reports.standings.points_before);
    - for Dubov, the ARO list published with the round (Dubov 9), from the figures the
      engine paired with, and the chart of the AROs per scoregroup in the rounds before
      it (a page of its own), from the same snapshot's histories.

    The round is paired and committed already: a failure here is logged, and each page
    computes what it needs when it is asked."""
    try:
        draft_warnings(rnd, snapshot, revision)
        points_before(t, snapshot.round_number)
        if snapshot.system is engine.System.DUBOV:
            aro_lines(t, snapshot.round_number, snapshot)
            aro_spread(t, snapshot)
    except Exception:  # noqa: BLE001 - a cache filled ahead of time must not fail the pairing
        logger.exception("Round %s of tournament %s: computing its pages ahead failed", snapshot.round_number, t.pk)


@dataclass(frozen=True)
class Slot:
    """Where a player sits in a draft: a board and colour, or the PAB."""

    game: Game | None
    colour: str  # "w", "b" or "bye"


def _slot(rnd: Round, player: Player) -> Slot | None:
    g = rnd.game_set.filter(white=player).first()
    if g:
        return Slot(g, "w")
    g = rnd.game_set.filter(black=player).first()
    if g:
        return Slot(g, "b")
    pab = rnd.pab()
    if pab and pab.player_id == player.pk:
        return Slot(None, "bye")
    return None


def swap_players(rnd: Round, a: Player, b: Player, user=None, confirmations: int = 0) -> list[str]:
    """Swap two players' places in a draft (boards, colours or the PAB), inside a
    manual-pairing session (:mod:`.manual`).

    The swap is checked before it is kept: when it breaks a rule (rematch, forbidden
    pair, PAB eligibility, colour limits, both players against their due colour) it
    needs a Level-3 confirmation, and without it nothing is written.  Returns the
    warnings for the boards concerned; the change is logged.  Raises ValueError if
    not possible.
    """
    if not rnd.is_draft:
        raise ValueError(_("Only a draft round can be changed; discard and pair again otherwise."))
    if a.pk == b.pk:
        raise ValueError(_("Choose two different players."))
    with transaction.atomic():
        rnd.tournament.lock()
        if not Round.objects.filter(pk=rnd.pk, status=RoundStatus.DRAFT).exists():
            raise ValueError(
                _("Round %(n)s was published or discarded in the meantime; nothing was changed.") % {"n": rnd.number}
            )
        if not Round.objects.filter(pk=rnd.pk, manual_session=True).exists():
            raise ValueError(_("Start a manual-pairing session first; nothing was changed."))
        sa, sb = _slot(rnd, a), _slot(rnd, b)
        if sa is None or sb is None:
            missing = a if sa is None else b
            raise ValueError(_("%(name)s is not paired in this draft (in the pool, absent or withdrawn).") % {"name": missing.shown_name})
        before = rnd.board_list()
        if sa.game is not None and sb.game is not None and sa.game.pk == sb.game.pk:
            g = sa.game
            Game.objects.filter(pk=g.pk).update(white=g.black_id, black=g.white_id)
        else:
            # Byes first (a player moving into the PAB slot), then the games: the
            # affected games are deleted and written again so that the one-game-per-player
            # constraints hold at every row.
            seats: dict[int, list] = {}
            for slot, newcomer in ((sa, b), (sb, a)):
                if slot.game is None:
                    Bye.objects.filter(
                        tournament_id=rnd.tournament_id, round_number=rnd.number, kind=ByeKind.PAIRING
                    ).update(player=newcomer)
                else:
                    fresh = seats.setdefault(slot.game.pk, [slot.game.board, slot.game.white_id, slot.game.black_id])
                    fresh[1 if slot.colour == "w" else 2] = newcomer.pk
            Game.objects.filter(pk__in=list(seats)).delete()
            Game.objects.create_boards(rnd, ((bd, w, bl, "") for bd, w, bl in seats.values()))
        found = warnings_for(rnd, [a.pk, b.pk])
        if found:  # raising here rolls the swap back: nothing is kept unconfirmed
            require(Level.CONFIRM, confirmations, _("Swap %(a)s and %(b)s") % {"a": a.shown_name, "b": b.shown_name}, found)
        _after_swap(rnd, user, a, b, before)
    return found


def _after_swap(rnd: Round, user, a: Player, b: Player, before: dict) -> None:
    Round.objects.filter(pk=rnd.pk).update(manual_changes=F("manual_changes") + 1)
    rnd.refresh_from_db(fields=["manual_changes"])
    with translation.override("en"):  # the audit trail is a record, written in English
        warnings = warnings_for(rnd, [a.pk, b.pk])
    AuditEntry.log(
        rnd.tournament,
        user,
        AuditAction.SWAP,
        f"Round {rnd.number} draft: swapped {a.name} and {b.name}."
        + (" Warnings: " + " ".join(warnings) if warnings else ""),
        obj=rnd,
        label=f"Round {rnd.number} (draft)",
        before=before,
        after=rnd.board_list(),
    )


def publish(rnd: Round, user=None) -> bool:
    """Publish the draft.  Idempotent: a second call (double click) changes nothing.

    Returns True when this call published it.  The games were written with the
    draft (one transaction); publishing flips the status with a conditional update,
    so two concurrent publishes cannot both succeed.  Raises :class:`Conflict` when
    the draft was discarded in the meantime (by another arbiter, or by a change of
    results, players or byes).
    """
    with transaction.atomic():
        Tournament(pk=rnd.tournament_id).lock()
        if not Round.objects.filter(pk=rnd.pk).exists():
            raise Conflict(rnd.discarded_message(rnd.number))
        if Round.objects.filter(pk=rnd.pk, manual_session=True).exists():
            raise Conflict(_("Round %(n)s has a manual-pairing session open: end it first; nothing was published.") % {"n": rnd.number})
        has_games = rnd.game_set.exists()
        # A conditional UPDATE: only one of two concurrent publishes can match the
        # draft row, on every database (SQLite ignores SELECT ... FOR UPDATE).
        # Chess960: a uniformly random starting position, drawn as the round goes out
        chess960 = secrets.randbelow(960) if Tournament.objects.get(pk=rnd.tournament_id).chess960 else None
        changed = Round.objects.filter(pk=rnd.pk, status=RoundStatus.DRAFT).update(
            status=RoundStatus.PUBLISHED if has_games else RoundStatus.COMPLETE,
            published_at=timezone.now(),
            chess960_position=chess960,
        )
        if not changed:
            rnd.refresh_from_db()
            return False
        if rnd.number >= 4:
            Tournament.objects.filter(pk=rnd.tournament_id).update(ranking_frozen=True)
        if rnd.number == 1:
            acceleration.fix_group_a(Tournament.objects.get(pk=rnd.tournament_id))
        rnd.chess960_position = chess960
        AuditEntry.log(
            rnd.tournament, user, AuditAction.PUBLISH,
            f"Round {rnd.number} published." + (f" Chess960 position {rnd.chess960_array}." if chess960 is not None else ""),
            obj=rnd,
            label=f"Round {rnd.number}", before={"status": RoundStatus.DRAFT.value},
            after={"status": RoundStatus.PUBLISHED.value if has_games else RoundStatus.COMPLETE.value,
                   **rnd.board_list()},
        )
    rnd.refresh_from_db()
    return True
