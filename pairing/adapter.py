"""The one bridge between the database and the pairing engine.

Models -> :class:`~pairing.engine.Snapshot` (engine ids are ``Player.pk``, TPNs come from
the model, history from games and byes, absences from requested byes and withdrawals,
forbidden pairs from :class:`~pairing.models.ForbiddenPair`),
and the engine's :class:`~pairing.engine.Pairing` -> a draft :class:`~pairing.models.Round`
with its games and pairing-allocated bye.  Nothing else in the web layer imports the
engine's pairing functions; TRF import/export and the ARO list also go through here.
"""

from __future__ import annotations

import datetime
import re
from dataclasses import dataclass
from decimal import ROUND_HALF_UP, Decimal

from django.db import IntegrityError, transaction
from django.db.models import F, Q

from . import engine
from .engine import Colour, PointSystem, Result, RoundEntry, Snapshot
from .engine import trf as trf_module
from .models import (
    SIDES,
    AuditAction,
    AuditEntry,
    Bye,
    ByeKind,
    ColourChoice,
    ColourMethod,
    ForbiddenPair,
    Game,
    GameResult,
    Player,
    Round,
    RoundStatus,
    Title,
    Tournament,
)


class PairingRefused(Exception):
    """The round cannot be paired; ``message`` says why in the arbiter's words."""


def point_system(t: Tournament) -> PointSystem:
    return PointSystem(
        win=t.point_win,
        draw=t.point_draw,
        loss=t.point_loss,
        forfeit_win=t.point_win,
        forfeit_loss=t.point_loss,
        pairing_bye=t.point_pab,
        full_bye=t.point_win,
        half_bye=t.point_half_bye,
        zero_bye=Decimal("0"),
    )


def histories(t: Tournament, up_to: int, players: list[Player] | None = None) -> dict[int, list[RoundEntry]]:
    """Round-by-round entries for rounds 1..up_to of every player (by pk), or of
    ``players`` only when given (their opponents appear as ids).

    A round with neither a game nor a bye (late entry, withdrawn, not paired) is ``Z``.
    Drafts are ignored.  A game still without a result raises ValueError.
    """
    subset = players is not None
    players = players if players is not None else list(t.player_set.all())
    ids = [p.pk for p in players]
    zero = RoundEntry(None, None, Result.ZERO_BYE)
    hist: dict[int, list[RoundEntry]] = {p.pk: [zero] * up_to for p in players}
    games = Game.objects.filter(round__tournament=t, round__number__lte=up_to).exclude(
        round__status=RoundStatus.DRAFT
    )
    byes = Bye.objects.filter(tournament=t, round_number__lte=up_to)
    if subset:
        games = games.filter(Q(white_id__in=ids) | Q(black_id__in=ids))
        byes = byes.filter(player_id__in=ids)
    for g in games.values("round__number", "board", "white_id", "black_id", "result"):
        sides = SIDES.get(g["result"])
        if sides is None:
            raise ValueError(f"round {g['round__number']} board {g['board']} has no result yet")
        k = g["round__number"] - 1
        w, b = g["white_id"], g["black_id"]
        if w in hist:
            hist[w][k] = RoundEntry(b, Colour.WHITE, Result(sides[0]))
        if b in hist:
            hist[b][k] = RoundEntry(w, Colour.BLACK, Result(sides[1]))
    published = set(t.published_rounds().values_list("number", flat=True))
    for bye in byes.values("player_id", "round_number", "kind"):
        if bye["kind"] == ByeKind.PAIRING and bye["round_number"] not in published:
            continue  # the PAB of a draft
        hist[bye["player_id"]][bye["round_number"] - 1] = RoundEntry(None, None, Result(bye["kind"]))
    return hist


def absent_ids(t: Tournament, round_number: int) -> frozenset[int]:
    """Players not to be paired in ``round_number``: requested byes and withdrawals."""
    byes = Bye.objects.requested().filter(tournament=t, round_number=round_number)
    withdrawn = t.player_set.filter(withdrawn_from_round__lte=round_number)
    return frozenset(byes.values_list("player_id", flat=True)) | frozenset(
        withdrawn.values_list("pk", flat=True)
    )


def build_snapshot(t: Tournament, round_number: int | None = None) -> Snapshot:
    """The tournament as it stands before ``round_number`` (default: the next round)."""
    if round_number is None:
        round_number = t.next_round_number()
    t.renumber()
    players = list(t.player_set.order_by("tpn"))
    hist = histories(t, round_number - 1, players)
    return Snapshot(
        players=tuple(
            engine.Player(id=p.pk, tpn=p.tpn, rating=p.rating, name=p.name, history=tuple(hist[p.pk]))
            for p in players
        ),
        round_number=round_number,
        total_rounds=t.rounds,
        initial_colour=Colour(t.initial_colour),
        points=point_system(t),
        absent=absent_ids(t, round_number),
        forbidden=ForbiddenPair.objects.filter(tournament=t).engine_pairs(),
    )


# ---------------------------------------------------------------- pairing


_ENGINE_WHO = re.compile(r"\b(\d+) \(TPN (\d+)\)")


def readable(text: str, players: dict[int, Player]) -> str:
    """The engine names a player ``id`` when id == TPN, else ``id (TPN n)`` (ids are
    database keys here); show the latter as ``Name (No n)`` so that every number left
    is a pairing number."""

    def name(m: re.Match) -> str:
        p = players.get(int(m.group(1)))
        return f"{p.name} (No {p.tpn})" if p is not None and str(p.tpn) == m.group(2) else m.group(0)

    return _ENGINE_WHO.sub(name, text)


def explanation_as_json(pairing: engine.Pairing) -> dict:
    """The engine's Explanation as plain JSON (ids kept; names resolved when shown)."""
    ex = pairing.explanation
    return {
        "bye": {
            "player": ex.bye.player,
            "eligible": list(ex.bye.eligible),
            "rejected_incomplete": list(ex.bye.rejected_incomplete),
            "reason": ex.bye.reason,
            "why": ex.bye.criteria(),
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
            }
            for b in ex.brackets
        ],
        "colours": [
            {"white": c.white, "black": c.black, "rule": c.rule, "reason": c.reason} for c in ex.colours
        ],
    }


def pair_next_round(t: Tournament, user=None) -> Round:
    """Run the engine for the next round and store the result as a draft round.

    One transaction, with the tournament row locked: a double click makes one draft
    (the second call returns the existing draft).  Raises :class:`PairingRefused`.
    """
    with transaction.atomic():
        t.lock()
        existing = t.draft_round()
        if existing is not None:
            return existing
        blocker = t.pairing_blocker()
        if blocker:
            raise PairingRefused(blocker)
        number = t.next_round_number()
        snapshot = build_snapshot(t, number)
        present = len(snapshot.players) - len(snapshot.absent)
        if present < 2:
            raise PairingRefused(f"Only {present} player(s) can be paired in round {number}.")
        try:
            result = engine.pair_round(snapshot)
        except engine.NoLegalPairing as exc:
            players = {p.pk: p for p in t.player_set.all()}
            raise PairingRefused(
                f"No legal pairing exists for round {number}: {readable(str(exc), players)} "
                "What the arbiter can do here: give one of these players "
                "a bye or mark them absent (Byes), lift a forbidden pair (Forbidden pairs), or end the "
                f"tournament after round {number - 1} (Settings: number of rounds)."
            ) from exc
        except engine.InvalidSnapshot as exc:
            raise PairingRefused(f"The tournament data is inconsistent: {exc}") from exc
        except engine.EngineError as exc:  # an engine bug: say so instead of a server error
            raise PairingRefused(f"The pairing engine failed on round {number}: {exc}") from exc
        try:
            rnd = Round.objects.create(
                tournament=t, number=number, status=RoundStatus.DRAFT, explanation=explanation_as_json(result)
            )
        except IntegrityError as exc:  # pragma: no cover - guarded by the lock above
            raise PairingRefused("Another arbiter is pairing this round right now.") from exc
        Game.objects.create_boards(rnd, ((b.number, b.white, b.black, "") for b in result.boards))
        if result.bye is not None:
            Bye.objects.create(tournament=t, player_id=result.bye, round_number=number, kind=ByeKind.PAIRING)
        AuditEntry.log(
            t, user, AuditAction.PAIR, f"Round {number} paired (draft): {len(result.boards)} boards.",
            obj=rnd, label=f"Round {number} (draft)", after=rnd.board_list(),
        )
    return rnd


# ---------------------------------------------------------------- manual changes


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


def swap_players(rnd: Round, a: Player, b: Player, user=None) -> list[str]:
    """Swap two players' places in a draft (boards, colours or the PAB).

    Returns the warnings for the boards concerned; the change is logged either way
    (the arbiter decides, the program warns).  Raises ValueError if not possible.
    """
    if not rnd.is_draft:
        raise ValueError("Only a draft round can be changed; discard and pair again otherwise.")
    if a.pk == b.pk:
        raise ValueError("Choose two different players.")
    with transaction.atomic():
        rnd.tournament.lock()
        if not Round.objects.filter(pk=rnd.pk, status=RoundStatus.DRAFT).exists():
            raise ValueError(
                f"Round {rnd.number} was published or discarded in the meantime; nothing was changed."
            )
        sa, sb = _slot(rnd, a), _slot(rnd, b)
        if sa is None or sb is None:
            missing = a if sa is None else b
            raise ValueError(f"{missing.name} is not paired in this draft (absent or withdrawn).")
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
        _after_swap(rnd, user, a, b, before)
    return warnings_for(rnd, [a.pk, b.pk])


def _after_swap(rnd: Round, user, a: Player, b: Player, before: dict) -> None:
    Round.objects.filter(pk=rnd.pk).update(manual_changes=F("manual_changes") + 1)
    rnd.refresh_from_db(fields=["manual_changes"])
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


def warnings_for(rnd: Round, player_ids: list[int] | None = None, snapshot: Snapshot | None = None) -> list[str]:
    """Rule checks on a draft: rematches, forbidden pairs, colour limits, same absolute
    preference on a board, PAB eligibility.  Limited to the boards of ``player_ids`` when given.
    ``snapshot``: the tournament before the round, when the caller has built it already."""
    t = rnd.tournament
    if snapshot is None:
        snapshot = build_snapshot(t, rnd.number)
    states = engine.player_states(snapshot)
    by_id = {p.id: p for p in snapshot.players}
    out: list[str] = []
    for g in rnd.games():
        if player_ids is not None and g.white_id not in player_ids and g.black_id not in player_ids:
            continue
        w, b = by_id[g.white_id], by_id[g.black_id]
        if any(e.opponent == b.id and e.paired for e in w.history):
            out.append(f"Board {g.board}: {w.name} and {b.name} have met before (rematch, C1).")
        if frozenset((w.id, b.id)) in snapshot.forbidden:
            out.append(
                f"Board {g.board}: {w.name} and {b.name} are a forbidden pair (the arbiters' decision; "
                "see Forbidden pairs)."
            )
        for p, colour in ((w, Colour.WHITE), (b, Colour.BLACK)):
            st = states[p.id]
            cd = st.colour_difference + (1 if colour is Colour.WHITE else -1)
            last_two = st.colours[-2:]
            if abs(cd) > 2:
                out.append(f"Board {g.board}: {p.name} would reach a colour difference of {cd:+d} (C3).")
            elif len(last_two) == 2 and all(c is colour for c in last_two):
                out.append(f"Board {g.board}: {p.name} would get {colour} three times in a row (C3).")
        sw, sb = states[w.id].preference, states[b.id].preference
        if (
            sw.strength == engine.PreferenceStrength.ABSOLUTE
            and sb.strength == engine.PreferenceStrength.ABSOLUTE
            and sw.colour is sb.colour
        ):
            out.append(f"Board {g.board}: {w.name} and {b.name} both have an absolute preference for {sw.colour}.")
    pab = rnd.pab()
    if pab is not None and (player_ids is None or pab.player_id in player_ids):
        if not states[pab.player_id].pab_eligible:
            out.append(
                f"PAB: {pab.player.name} is not eligible for the pairing-allocated bye "
                "(already had a PAB, a forfeit win or a full-point unplayed round; C2)."
            )
    return out


# ---------------------------------------------------------------- ARO list


@dataclass(frozen=True)
class AroRow:
    player: Player
    score: Decimal
    aro: int
    preference: str  # "W", "w", "(w)", "B", ... strength by case and brackets
    upfloats: int
    upfloated_previous: bool
    max_upfloater: bool
    absent: bool


@dataclass(frozen=True)
class AroGroup:
    score: Decimal
    white_seekers: list[AroRow]
    black_seekers: list[AroRow]

    @property
    def columns(self) -> tuple[tuple[str, list[AroRow]], ...]:
        return (("White seekers", self.white_seekers), ("Black seekers", self.black_seekers))


def aro_rounds(t: Tournament) -> list[int]:
    """The rounds an ARO list exists for: each round already paired, and the next one."""
    last = t.published_rounds().last()
    if last is None:
        upto = 1
    elif last.status != RoundStatus.COMPLETE:
        upto = last.number
    else:
        upto = min(last.number + 1, t.rounds)
    return list(range(1, upto + 1))


def aro_list(t: Tournament, number: int | None = None) -> tuple[int, list[AroGroup]]:
    """Dubov 9: per scoregroup, White seekers by ARO (then TPN), Black seekers by rating
    (then TPN), with the figures the engine pairs with.  ``number``: the list published
    before that round (one of :func:`aro_rounds`); default the round in play, else the
    next round to pair."""
    if number is None:
        number = aro_rounds(t)[-1]
    snapshot = build_snapshot(t, number)
    states = engine.player_states(snapshot)
    players = {p.pk: p for p in t.player_set.all()}
    groups: dict[Decimal, AroGroup] = {}
    for pid, st in states.items():
        pref = st.preference
        letter = "W" if pref.colour is Colour.WHITE else "B"
        shown = {
            engine.PreferenceStrength.ABSOLUTE: letter,
            engine.PreferenceStrength.STRONG: letter.lower(),
            engine.PreferenceStrength.MILD: f"({letter.lower()})",
        }[pref.strength]
        row = AroRow(
            player=players[pid],
            score=st.score,
            aro=st.aro,
            preference=shown,
            upfloats=st.upfloats,
            upfloated_previous=st.upfloated_previous,
            max_upfloater=st.max_upfloater,
            absent=pid in snapshot.absent,
        )
        group = groups.setdefault(st.score, AroGroup(st.score, [], []))
        (group.white_seekers if pref.colour is Colour.WHITE else group.black_seekers).append(row)
    for g in groups.values():
        g.white_seekers.sort(key=lambda r: (r.aro, r.player.tpn))
        g.black_seekers.sort(key=lambda r: (-r.player.rating, r.player.tpn))
    return number, [groups[s] for s in sorted(groups, reverse=True)]


# ---------------------------------------------------------------- standings


def figure(value, places: int) -> str:
    """A score or tie-break as the tables show it: whole numbers without decimals,
    others with ``places`` decimals, rounded half up (``3``, ``2.5``, ``4.50``, ``0.75``).
    The template filter ``floatformat:"-N"`` does the same, ten times slower on a
    1,000-row table."""
    if isinstance(value, int):
        return str(value)
    if value == value.to_integral_value():
        return str(int(value))
    return str(Decimal(value).quantize(Decimal(1).scaleb(-places), rounding=ROUND_HALF_UP))


@dataclass(frozen=True)
class StandingRow:
    rank: int
    player: Player
    points: Decimal
    tiebreaks: tuple
    # per tie-break: a rating average or performance of a player without a game (0 in
    # the computation, which orders them last), shown as "—" / left empty in the CSV
    no_value: tuple[bool, ...] = ()

    @property
    def points_text(self) -> str:
        return figure(self.points, 1)

    @property
    def tiebreak_texts(self) -> tuple[str, ...]:
        blank = self.no_value or (False,) * len(self.tiebreaks)
        return tuple("—" if b else figure(v, 2) for v, b in zip(self.tiebreaks, blank, strict=True))

    @property
    def tiebreak_values(self) -> tuple:
        """For the CSV: the numbers, empty where there is none."""
        blank = self.no_value or (False,) * len(self.tiebreaks)
        return tuple("" if b else v for v, b in zip(self.tiebreaks, blank, strict=True))


def complete_rounds(t: Tournament) -> int:
    """The number of the last complete round (0 before round 1 is complete)."""
    done = t.round_set.filter(status=RoundStatus.COMPLETE).order_by("-number").first()
    return done.number if done else 0


@dataclass(frozen=True)
class _Table:
    labels: list[str]
    rows: list[StandingRow]
    rounds: int
    players: list[Player]
    hist: dict[int, list[RoundEntry]]
    data: object  # tiebreaks.TBTournament


def _rating_tiebreaks():
    from . import tiebreaks as tb

    T = tb.TieBreak
    return frozenset({T.ARO, T.ARO_C1, T.ARO_C2, T.TPR, T.APRO, T.PTP})


def _table(t: Tournament, rounds: int | None = None) -> _Table:
    """Standings after ``rounds`` complete rounds (default: the last complete one),
    with the histories they were computed from.  A fixed number of queries."""
    from . import tiebreaks as tb

    done = complete_rounds(t)
    rounds = done if rounds is None else max(0, min(rounds, done))
    # only count complete rounds (a round in play is not in the table)
    players = list(t.player_set.order_by("tpn"))
    hist = histories(t, rounds, players)
    try:
        order = tb.parse_order(t.tiebreaks) if t.tiebreaks.strip() else ()
    except ValueError:
        order = ()
    data = tb.TBTournament(
        players=tuple(
            tb.TBPlayer(id=p.pk, rating=p.rating, history=tuple(hist[p.pk]), tpn=p.tpn or 0) for p in players
        ),
        rounds=rounds,
        points=point_system(t),
    )
    by_pk = {p.pk: p for p in players}
    try:
        rows = tb.standings(data, order)
    except Exception:  # noqa: BLE001 - a tie-break bug must not take the page down
        order = ()
        rows = tb.standings(data, order)
    # ratings are at least 1, so 0 means no game to average over
    rating_based = [o in _rating_tiebreaks() for o in order]
    return _Table(
        [o.label for o in order],
        [
            StandingRow(
                r.rank, by_pk[r.id], r.points, r.tiebreaks,
                tuple(rb and v == 0 for rb, v in zip(rating_based, r.tiebreaks, strict=True)),
            )
            for r in rows
        ],
        rounds,
        players,
        hist,
        data,
    )


def standings(t: Tournament, rounds: int | None = None) -> tuple[list[str], list[StandingRow], int]:
    """Ranked rows after ``rounds`` (default: the last complete round), with the
    tournament's tie-breaks.  Returns (tie-break labels, rows, rounds counted)."""
    table = _table(t, rounds)
    return table.labels, table.rows, table.rounds


# ---------------------------------------------------------------- TRF


def _date_text(d: datetime.date | None) -> str:
    return d.strftime("%Y/%m/%d") if d else ""


def export_trf(t: Tournament) -> str:
    """TRF-16 of the complete rounds, with XXR/XXC/XXS, the forbidden pairs as XXP,
    the players absent from the next round as XXZ (when it is not paired yet) and every
    requested bye of a round not in the file, with its kind, as a TRF-2026 240 record.  A round in play (results missing)
    and a draft are left out: TRF-16 has no code for a pending result.  Starting
    ranks are the TPNs."""
    t.renumber()
    players = list(t.player_set.order_by("tpn"))
    played = t.rounds_published()
    last = t.published_rounds().last()
    if last is not None and last.status != RoundStatus.COMPLETE:
        played -= 1
    hist = histories(t, played, players)
    tpn = {p.pk: p.tpn for p in players}
    _, rows, _ = standings(t)
    rank = {r.player.pk: r.rank for r in rows}
    ps = point_system(t)

    def renumbered(entries: list[RoundEntry]) -> tuple[RoundEntry, ...]:
        return tuple(
            RoundEntry(tpn[e.opponent] if e.opponent is not None else None, e.colour, e.result) for e in entries
        )

    trf_players = tuple(
        trf_module.TrfPlayer(
            id=p.tpn,
            sex={"m": "m", "f": "w"}.get(p.sex, ""),
            title=p.title,
            name=p.name,
            rating=p.rating,
            federation=p.federation,
            fide_id=p.fide_id,
            birth_date=p.birth_date.strftime("%Y/%m/%d") if p.birth_date else "",
            points=sum((ps.points(e.result) for e in hist[p.pk]), Decimal(0)),
            rank=rank.get(p.pk),
            history=renumbered(hist[p.pk]),
        )
        for p in players
    )
    next_round = played + 1
    absent = (
        frozenset(tpn[pk] for pk in absent_ids(t, next_round))
        if next_round <= t.rounds and next_round > t.rounds_published()
        else frozenset()
    )
    # requested byes of every round not in the file, with their kind (TRF-2026 240)
    ahead: dict[tuple[str, int], list[int]] = {}
    for bye in Bye.objects.requested().filter(tournament=t, round_number__gt=played).order_by("round_number", "kind"):
        ahead.setdefault((bye.kind, bye.round_number), []).append(tpn[bye.player_id])
    deputies = tuple(u.get_full_name() or u.get_username() for u in t.deputies.order_by("username"))
    owner = t.owner.get_full_name() or t.owner.get_username()
    tournament = trf_module.TrfTournament(
        name=t.name,
        city=t.place,
        federation=t.federation,
        start_date=_date_text(t.start_date),
        end_date=_date_text(t.end_date),
        chief_arbiter=owner,
        deputies=deputies,
        time_control=t.time_control,
        total_rounds=t.rounds,
        initial_colour=Colour(t.initial_colour),
        points=ps,
        players=trf_players,
        absent_next=absent,
        extra_lines=tuple(trf_module.bye_record(kind, number, ids) for (kind, number), ids in ahead.items()),
        forbidden=frozenset(
            frozenset(tpn[pk] for pk in pair) for pair in ForbiddenPair.objects.filter(tournament=t).engine_pairs()
        ),
    )
    return trf_module.dump_trf(tournament)


class ImportRefused(Exception):
    """The TRF cannot be imported; ``problems`` are (line, column, message)."""

    def __init__(self, problems: list[tuple[int, int, str]]):
        self.problems = problems
        super().__init__("; ".join(f"line {a}, column {b}: {m}" for a, b, m in problems))


_TITLES = {c.value for c in Title}
_GAME_FROM_SIDES = {
    ("1", "0"): GameResult.WHITE_WINS,
    ("W", "L"): GameResult.WHITE_WINS,
    ("=", "="): GameResult.DRAW,
    ("D", "D"): GameResult.DRAW,
    ("0", "1"): GameResult.BLACK_WINS,
    ("L", "W"): GameResult.BLACK_WINS,
    ("+", "-"): GameResult.WHITE_FORFEIT_WIN,
    ("-", "+"): GameResult.BLACK_FORFEIT_WIN,
    ("-", "-"): GameResult.DOUBLE_FORFEIT,
}


def _parse_trf_date(text: str) -> datetime.date | None:
    text = text.strip()
    if not text:
        return None
    for fmt in ("%Y/%m/%d", "%Y-%m-%d", "%Y.%m.%d", "%d.%m.%Y", "%d/%m/%Y"):
        try:
            return datetime.datetime.strptime(text, fmt).date()
        except ValueError:
            continue
    return None


def import_trf(t: Tournament, text: str, user=None, provisional_rating: int = 1000) -> int:
    """Load players, and any rounds already played, from TRF-16 text into an empty
    tournament.  All or nothing; raises :class:`ImportRefused` listing every problem.

    Starting ranks become the TPNs (renumbered by our rules before round 4 is
    published).  Rounds with games become complete rounds (a forfeit and a double
    forfeit are kept; unrated W/D/L are stored as ordinary results); byes become Bye
    rows; players absent for the next round (XXZ) become zero-point byes; forbidden
    pairs (XXP/FOR) become :class:`~pairing.models.ForbiddenPair` rows.  The file's
    number of rounds, initial colour and point system replace the tournament's.
    Returns the number of players created.
    """
    if t.player_set.exists() or t.round_set.exists():
        raise ImportRefused([(0, 0, "This tournament already has players or rounds; import into a new one.")])
    try:
        data = trf_module.parse_trf(text)
    except trf_module.TrfError as exc:
        raise ImportRefused([(p.line, p.column, p.message) for p in exc.problems]) from exc
    problems: list[tuple[int, int, str]] = []
    if not data.players:
        problems.append((0, 0, "The file has no player lines (001)."))
    played = data.rounds_played()
    total = data.total_rounds or t.rounds
    if played > total:
        problems.append((0, 0, f"The file has {played} rounds played but the tournament only {total} rounds."))
    for p in data.players:
        if p.title and p.title.upper() not in _TITLES:
            problems.append((0, 0, f"Player {p.id} ({p.name}): unknown title {p.title!r}."))
        if p.rating is not None and not 0 <= p.rating <= 3500:
            problems.append((0, 0, f"Player {p.id} ({p.name}): rating {p.rating} out of range."))
        if not p.name.strip():
            problems.append((0, 0, f"Player {p.id}: no name."))
    if data.total_rounds is not None and not 1 <= data.total_rounds <= 99:
        problems.append((0, 0, f"The file gives {data.total_rounds} rounds; a tournament has 1 to 99."))
    problems.extend((0, 0, message) for message in _point_system_problems(data.points))
    byes_ahead, forbidden_ahead = _scheduled_trf_records(data, played, total, problems)
    if problems:
        raise ImportRefused(problems)

    with transaction.atomic():
        t.lock()
        if t.player_set.exists() or t.round_set.exists():  # another arbiter was quicker
            raise ImportRefused([(0, 0, "This tournament already has players or rounds; import into a new one.")])
        if data.total_rounds:
            t.rounds = max(data.total_rounds, 1)
        if data.initial_colour is not None or played:
            t.initial_colour = data.effective_initial_colour().value
            t.initial_colour_method = ColourMethod.CHOSEN
        ps = data.points
        t.point_win, t.point_draw, t.point_loss = ps.win, ps.draw, ps.loss
        t.point_pab, t.point_half_bye = ps.pairing_bye, ps.half_bye
        t.ranking_frozen = played >= 4
        t.save()
        created: dict[int, Player] = {}
        for p in sorted(data.players, key=lambda q: q.id):
            created[p.id] = Player.objects.create(
                tournament=t,
                tpn=p.id if t.ranking_frozen else None,
                title=p.title.upper(),
                name=p.name.strip()[:33],
                rating=p.rating if p.rating else provisional_rating,
                rating_provisional=not p.rating,
                federation=p.federation.strip()[:3],
                fide_id=p.fide_id.strip()[:11],
                birth_date=_parse_trf_date(p.birth_date),
                sex={"m": "m", "w": "f", "f": "f"}.get(p.sex.lower(), ""),
            )
        for number in range(1, played + 1):
            rnd = Round.objects.create(tournament=t, number=number, status=RoundStatus.COMPLETE)
            board = 0
            games = []
            for p in sorted(data.players, key=lambda q: q.id):
                if len(p.history) < number:
                    continue
                e = p.history[number - 1]
                if e.opponent is None or e.result.is_bye:
                    if e.result.is_bye:
                        Bye.objects.create(
                            tournament=t, player=created[p.id], round_number=number, kind=e.result.value
                        )
                    continue
                opp = data.player(e.opponent)
                back = opp.history[number - 1]
                if e.colour is Colour.BLACK or (
                    e.colour is None and (back.colour is Colour.WHITE or p.id > opp.id)
                ):
                    continue  # written from White's line (or the lower number's, without colours)
                code = _GAME_FROM_SIDES.get((e.result.value, back.result.value))
                if code is None:
                    raise ImportRefused([(0, 0, f"Round {number}: players {p.id} and {opp.id} have results "
                                                f"{e.result.value}/{back.result.value} that do not form a game.")])
                board += 1
                games.append((created[p.id], created[opp.id], code))
            # boards by the higher score/rank is not known here: keep the file's order
            Game.objects.create_boards(
                rnd, ((i, w.pk, b.pk, r) for i, (w, b, r) in enumerate(games, start=1))
            )
            Round.objects.filter(pk=rnd.pk).update(published_at=rnd.created)
        for pid in data.absent_next:
            if played + 1 <= t.rounds:
                Bye.objects.get_or_create(
                    tournament=t, player=created[pid], round_number=played + 1, defaults={"kind": ByeKind.ZERO}
                )
        for (number, pid), kind in byes_ahead.items():
            Bye.objects.update_or_create(
                tournament=t, player=created[pid], round_number=number, defaults={"kind": kind}
            )
        forbidden_rows = []
        for pair in forbidden_ahead:
            low, high = sorted((created[i] for i in pair), key=lambda p: p.pk)  # the lower id first
            forbidden_rows.append(ForbiddenPair(tournament=t, player_a=low, player_b=high))
        ForbiddenPair.objects.bulk_create(forbidden_rows)
        t.renumber()
        forbidden = t.forbidden_pair_names()
        AuditEntry.log(
            t, user, AuditAction.IMPORT,
            f"TRF import: {len(created)} players, {played} rounds"
            + (f", {len(forbidden)} forbidden pairs." if forbidden else "."),
            label="TRF file", after={
                "players": [p.audit_label() for p in t.player_set.order_by("tpn")],
                "rounds": played,
                **({"forbidden_pairs": forbidden} if forbidden else {}),
                "settings": t.audit_values(["rounds", "initial_colour", "point_win", "point_draw",
                                            "point_loss", "point_pab", "point_half_bye"]),
            },
        )
    return len(created)


def _point_system_problems(ps: PointSystem) -> list[str]:
    """What this application cannot store of a file's point system (XXS / 162): the same
    rules as the settings form, one decimal, and forfeit win / full-point bye scoring as
    a win, forfeit loss as a loss, zero-point bye 0 (README: "Points")."""
    problems = []
    values = {"win": ps.win, "draw": ps.draw, "loss": ps.loss, "PAB": ps.pairing_bye, "half-point bye": ps.half_bye}
    for name, value in values.items():
        if value != value.quantize(Decimal("0.1")) or not 0 <= value < 1000:
            problems.append(f"Point system: {name} = {value}; points need one decimal at most, from 0 to 999.9.")
    if not ps.win > ps.draw >= ps.loss >= 0:
        problems.append(f"Point system: win {ps.win}, draw {ps.draw}, loss {ps.loss}; points must satisfy "
                        "win > draw ≥ loss ≥ 0.")
    for name, value in (("PAB", ps.pairing_bye), ("half-point bye", ps.half_bye)):
        if not 0 <= value <= ps.win:
            problems.append(f"Point system: {name} = {value}; it must be between 0 and the points for a win.")
    for name, value, expected in (("forfeit win", ps.forfeit_win, ps.win), ("full-point bye", ps.full_bye, ps.win),
                                  ("forfeit loss", ps.forfeit_loss, ps.loss), ("zero-point bye", ps.zero_bye, 0)):
        if value != expected:
            problems.append(f"Point system: {name} = {value}, but here it scores {expected} "
                            "(forfeit wins and full-point byes as a win, forfeit losses as a loss, "
                            "zero-point byes 0).")
    return problems


def _scheduled_trf_records(
    data: trf_module.TrfTournament, played: int, total: int, problems: list[tuple[int, int, str]]
) -> tuple[dict[tuple[int, int], str], set[frozenset[int]]]:
    """The TRF-2026 ``240`` byes and ``260`` forbidden pairs that still matter after the
    rounds played: ({(round, player id): bye kind}, forbidden pairs), adding to
    ``problems`` what this application cannot keep.

    Records about rounds already played are history (the player lines hold those
    rounds).  A ``260`` record must cover every round still to pair, because a forbidden
    pair here holds for the whole tournament: forbidding it in more rounds than the file
    says, or dropping it, would both change later pairings, so such a file is refused.
    """
    ids = {p.id for p in data.players}
    byes: dict[tuple[int, int], str] = {}
    for kind, number, pids in data.round_byes():
        if number <= played:
            continue
        if number > total:
            problems.append((0, 0, f"A 240 record gives a bye in round {number}, "
                                   f"but the tournament has {total} rounds."))
            continue
        for pid in pids:
            if pid not in ids:
                problems.append((0, 0, f"A 240 record for round {number} names player {pid}, "
                                       "who is not in the file."))
            else:
                byes[(number, pid)] = kind
    forbidden = set(data.forbidden)
    for first, last, pids in data.round_forbidden():
        if last <= played or first > total:
            continue
        missing = [pid for pid in pids if pid not in ids]
        if missing:
            problems.append((0, 0, f"A 260 record (rounds {first}-{last}) names player(s) "
                                   f"{', '.join(map(str, missing))}, who are not in the file."))
        elif first > played + 1 or last < total:
            problems.append((0, 0, f"A 260 record forbids players {', '.join(map(str, pids))} to meet in rounds "
                                   f"{first}-{last} only; here a forbidden pair holds for every round still to "
                                   f"pair ({played + 1}-{total}). Change the record to cover those rounds, or "
                                   "remove it and add the pair on the Forbidden pairs page after the import."))
        else:
            forbidden |= {frozenset((a, b)) for i, a in enumerate(pids) for b in pids[i + 1:]}
    return byes, forbidden


def colour_choice_label(t: Tournament) -> str:
    colour = ColourChoice(t.initial_colour).label
    return f"{colour} ({ColourMethod(t.initial_colour_method).label.lower()})"


# ---------------------------------------------------------------- crosstable

_CELL_RESULT = {
    Result.WIN: "1", Result.DRAW: "½", Result.LOSS: "0",
    Result.WIN_UNRATED: "1", Result.DRAW_UNRATED: "½", Result.LOSS_UNRATED: "0",
    Result.FORFEIT_WIN: "+", Result.FORFEIT_LOSS: "-",
}
_CELL_BYE = {Result.PAIRING_BYE: "bye", Result.FULL_BYE: "F", Result.HALF_BYE: "H", Result.ZERO_BYE: "–"}


@dataclass(frozen=True)
class CrossRow:
    number: int  # position in the table (opponents are named by it)
    standing: StandingRow
    cells: tuple[str, ...]


def crosstable(t: Tournament, rounds: int | None = None) -> tuple[list[str], list[CrossRow], int]:
    """Standings order, one cell per complete round: ``12w1``, ``5b½``, ``3w+``,
    ``bye``, ``H``; opponents by their line number in this table."""
    table = _table(t, rounds)
    line = {r.player.pk: i for i, r in enumerate(table.rows, start=1)}
    zero = _requested_zero_byes(t, table.rounds)
    out = []
    for i, r in enumerate(table.rows, start=1):
        cells = tuple(
            "Z" if (r.player.pk, k) in zero else _cell(e, line)
            for k, e in enumerate(table.hist[r.player.pk], start=1)
        )
        out.append(CrossRow(i, r, cells))
    return table.labels, out, table.rounds


def _requested_zero_byes(t: Tournament, rounds: int) -> set[tuple[int, int]]:
    """(player pk, round) of the zero-point byes players asked for: the histories give
    those and the rounds a player was not in the tournament (late entry, withdrawal) the
    same entry, ``Z``; the crosstable and the card tell them apart."""
    return set(
        Bye.objects.filter(tournament=t, kind=ByeKind.ZERO, round_number__lte=rounds).values_list(
            "player_id", "round_number"
        )
    )


def _cell(e: RoundEntry, line: dict[int, int]) -> str:
    if e.opponent is None:
        return _CELL_BYE.get(e.result, e.result.value)
    colour = "w" if e.colour is Colour.WHITE else "b"
    return f"{line[e.opponent]}{colour}{_CELL_RESULT[e.result]}"


# ---------------------------------------------------------------- player card

_SIDE_RESULT = {**_CELL_RESULT, Result.FORFEIT_LOSS: "−"}
_CARD_BYE = {
    Result.PAIRING_BYE: "bye", Result.FULL_BYE: "full-point bye", Result.HALF_BYE: "half-point bye",
    Result.ZERO_BYE: "not paired",
}
_CARD_ZERO_BYE = "zero-point bye"  # requested; "not paired" is a round outside the tournament


@dataclass(frozen=True)
class CardRound:
    """One round of a player's card; ``points`` and ``running`` are None while in play."""

    number: int
    board: int | None
    colour: str  # "W", "B" or "" (no game)
    opponent: Player | None
    result: str  # "1", "½", "0", "+", "−", "bye", "half-point bye", ... or "" in play
    points: Decimal | None
    running: Decimal | None
    forfeit: bool = False


@dataclass(frozen=True)
class PlayerCard:
    player: Player
    rounds: int  # complete rounds counted
    rank: int | None
    points: Decimal
    aro: int  # Dubov 1.6: played opponents only, rounded half up; 0 without games
    tpr: int  # C.07 10.2, as in the standings; 0 without games
    games_played: int
    colours: str  # played games only, e.g. "WBW" (Dubov 1.5 / D3)
    colour_difference: int
    rows: list[CardRound]


def player_card(t: Tournament, player: Player) -> PlayerCard:
    """Round-by-round history of one player (complete rounds, then the round in play),
    with points, ARO (the engine's), TPR (the tie-break module's) and colours.

    A fixed number of queries whatever the field size: the standings are computed for
    the rank and TPR from the same histories.
    """
    from . import tiebreaks as tb

    table = _table(t)
    by_pk = {p.pk: p for p in table.players}
    ps = point_system(t)
    hist = table.hist[player.pk]
    boards = {
        g["round__number"]: g
        for g in Game.objects.filter(round__tournament=t)
        .filter(Q(white=player) | Q(black=player))
        .exclude(round__status=RoundStatus.DRAFT)
        .values("round__number", "board", "white_id", "black_id", "result")
    }
    zero = {k for pk, k in _requested_zero_byes(t, table.rounds) if pk == player.pk}
    rows: list[CardRound] = []
    running = Decimal(0)
    for k, e in enumerate(hist, start=1):
        pts = ps.points(e.result)
        running += pts
        if e.opponent is None:
            rows.append(CardRound(k, None, "", None, _CARD_ZERO_BYE if k in zero else _CARD_BYE[e.result], pts, running))
        else:
            rows.append(
                CardRound(
                    k,
                    boards[k]["board"] if k in boards else None,
                    "W" if e.colour is Colour.WHITE else "B",
                    by_pk.get(e.opponent),
                    _SIDE_RESULT[e.result],
                    pts,
                    running,
                    forfeit=e.result in (Result.FORFEIT_WIN, Result.FORFEIT_LOSS),
                )
            )
    in_play = t.published_rounds().filter(number=table.rounds + 1).first()
    if in_play is not None:
        g = boards.get(in_play.number)
        if g is not None:
            white = g["white_id"] == player.pk
            opponent = by_pk.get(g["black_id"] if white else g["white_id"])
            sides = SIDES.get(g["result"])  # a result already in, before the round is complete
            result = Result(sides[0 if white else 1]) if sides else None
            rows.append(
                CardRound(
                    in_play.number, g["board"], "W" if white else "B", opponent,
                    _SIDE_RESULT[result] if result else "", None, None,
                    forfeit=result in (Result.FORFEIT_WIN, Result.FORFEIT_LOSS),
                )
            )
        else:
            bye = Bye.objects.filter(player=player, round_number=in_play.number).first()
            if bye is None:
                text = _CARD_BYE[Result.ZERO_BYE]
            else:
                text = _CARD_ZERO_BYE if bye.kind == ByeKind.ZERO else _CARD_BYE[Result(bye.kind)]
            rows.append(CardRound(in_play.number, None, "", None, text, None, None))
    me = engine.Player(id=player.pk, tpn=player.tpn or 0, rating=player.rating, name=player.name, history=tuple(hist))
    colours = engine.state.played_colours(me.history)
    tpr = tb.compute(table.data, (tb.TieBreak.TPR,))[player.pk][0]
    rank = next((r.rank for r in table.rows if r.player.pk == player.pk), None)
    return PlayerCard(
        player=player,
        rounds=table.rounds,
        rank=rank,
        points=running,
        aro=engine.aro(me, {p.pk: p.rating for p in table.players}),
        tpr=int(tpr),
        games_played=len(colours),
        colours="".join("W" if c is Colour.WHITE else "B" for c in colours),
        colour_difference=engine.colour_difference(me.history),
        rows=rows,
    )


# ---------------------------------------------------------------- ARO spread


def aro_spread(t: Tournament) -> list:
    """Per complete round, per scoregroup: the range of AROs (see :mod:`pairing.aro_chart`)."""
    from . import aro_chart

    players = list(t.player_set.all())
    hist = histories(t, complete_rounds(t), players)
    figures = aro_chart.running_figures(hist, {p.pk: p.rating for p in players}, point_system(t))
    return aro_chart.spread_by_scoregroup(figures)
