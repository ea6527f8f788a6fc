"""Tie-breaks of the FIDE Play-off and Tie-break Regulations (C.07, 2023 text), individual events.

Pure Python, no Django: the input is a :class:`TBTournament` (ids, ratings and the
round-by-round :class:`~pairing.engine.model.RoundEntry` history of every player, with
the tournament's :class:`~pairing.engine.model.PointSystem`); the output is a tuple of
tie-break values per player (:func:`compute`) or the sorted standings (:func:`standings`).

Unplayed rounds (C.07 art. 16, as the commission's exercises apply it):

* An *over-the-board game* is a paired round with a W/D/L result (TRF ``1 = 0 W D L``);
  in a round robin (``TBTournament.round_robin``) forfeits count as games too (art. 15).
* A round is *available to play* when it is a game, a pairing-allocated bye (``U``) or a
  forfeit win (``+``).  Every other round -- forfeit loss (``-``), requested half-,
  full- or zero-point bye (``H F Z``), absence, withdrawal, rounds before a late
  entry (``Z``) -- is a *voluntarily unplayed round* (VUR, 16.1.2).
* Score of a player *as an opponent* (16.3): every round at face value, except the
  requested byes/absences (``H F Z``) that are not followed by any round available to
  play (16.2.5): those count as draws (16.3.2).  A withdrawn player's last rounds
  therefore count as draws for their opponents' Buchholz.  Forfeit losses always count
  at face value (16.2.4).
* A player's *own* unplayed round (bye, forfeit won or lost, absence) counts, for the
  opponent-based tie-breaks (BH, FB, SB, KS), as a game against a dummy opponent whose
  score is the player's own final score, with the result the points awarded (16.4).
* Cut/median modifiers (14, 16.5): the value cut first is the smallest contribution of
  a VUR, unless the least significant value (lowest opponent score, ties by lowest
  contribution) gives a larger contribution -- then that one is cut (exercise 13).  For
  Buchholz a VUR is therefore always cut first.
* Rating-based tie-breaks (ARO, TPR, APRO, PTP, APPO) and AOB use over-the-board games
  only; averages of ratings round half up to an integer, AOB to two decimals.

Every tie-break is O(N·R) once the scores are known (PTP adds a factor log 1472 for its search),
direct encounter is O(N·R) plus the (small) mini-tournaments of the tied groups.
"""

from __future__ import annotations

import enum
import re
from collections.abc import Iterable, Sequence
from dataclasses import dataclass, field
from decimal import ROUND_HALF_UP, Decimal
from typing import Protocol

from pairing.engine.model import Colour, PointSystem, Result, RoundEntry
from pairing.tiebreak_data import EXPECTED_BY_DIFFERENCE, dp_for_percent

__all__ = [
    "StandingRow",
    "TBPlayer",
    "TBTournament",
    "TieBreak",
    "TieBreakError",
    "compute",
    "parse_order",
    "standings",
]

Value = Decimal | int

_ZERO = Decimal(0)
_CENT = Decimal("0.01")


class TieBreakError(ValueError):
    """The tournament data handed to :func:`compute` is inconsistent."""


class _HasHistory(Protocol):
    id: int
    rating: int
    tpn: int
    history: tuple[RoundEntry, ...]


@dataclass(frozen=True)
class TBPlayer:
    """One participant: ``history`` has one entry per completed round (``Z`` when not paired).

    ``tpn`` only orders fully tied players on the standings page (same rank).
    """

    id: int
    rating: int
    history: tuple[RoundEntry, ...]
    tpn: int = 0


@dataclass(frozen=True)
class TBTournament:
    """``rounds``: rounds completed; ``round_robin``: forfeits count as played games (C.07 15)."""

    players: tuple[TBPlayer, ...]
    rounds: int
    points: PointSystem = field(default_factory=PointSystem)
    round_robin: bool = False

    @classmethod
    def from_players(
        cls, players: Iterable[_HasHistory], points: PointSystem | None = None, round_robin: bool = False
    ) -> TBTournament:
        """From the engine's :class:`~pairing.engine.model.Player` objects (or anything with
        ``id``, ``rating``, ``history`` and ``tpn``), all with the same number of rounds."""
        tb_players = tuple(TBPlayer(p.id, p.rating, tuple(p.history), p.tpn) for p in players)
        lengths = {len(p.history) for p in tb_players}
        if len(lengths) > 1:
            raise TieBreakError(f"players have histories of different lengths: {sorted(lengths)}")
        return cls(tb_players, lengths.pop() if lengths else 0, points or PointSystem(), round_robin)


@dataclass(frozen=True)
class StandingRow:
    rank: int
    id: int
    points: Decimal
    tiebreaks: tuple[Value, ...]


class TieBreak(enum.Enum):
    """The tie-breaks an organiser can list, by their C.07 acronym (modifier after a dash)."""

    BH = "BH"
    BH_C1 = "BH-C1"
    BH_C2 = "BH-C2"
    BH_M1 = "BH-M1"
    BH_M2 = "BH-M2"
    FB = "FB"
    FB_C1 = "FB-C1"
    FB_C2 = "FB-C2"
    FB_M1 = "FB-M1"
    FB_M2 = "FB-M2"
    AOB = "AOB"
    SB = "SB"
    SB_C1 = "SB-C1"
    SB_C2 = "SB-C2"
    KS = "KS"
    DE = "DE"
    WIN = "WIN"
    WON = "WON"
    BPG = "BPG"
    BWG = "BWG"
    GE = "GE"
    PS = "PS"
    PS_C1 = "PS-C1"
    PS_C2 = "PS-C2"
    ARO = "ARO"
    ARO_C1 = "ARO-C1"
    ARO_C2 = "ARO-C2"
    TPR = "TPR"
    APRO = "APRO"
    PTP = "PTP"
    APPO = "APPO"

    @property
    def label(self) -> str:
        """Short column heading, e.g. ``BH-C1``."""
        return self.value

    @property
    def description(self) -> str:
        """One-line explanation for the tournament settings and the standings legend."""
        base, low, high = _SPEC[self]
        text = _BASE_DESCRIPTIONS[base]
        if low and high:
            text += f", without the {low} lowest and the {high} highest values (Median-{low})"
        elif low:
            text += f", without the {low} least significant value{'s' if low > 1 else ''} (Cut-{low})"
        return text

    @property
    def base(self) -> str:
        return _SPEC[self][0]


_BASE_DESCRIPTIONS = {
    "BH": "Buchholz: sum of the opponents' scores (C.07 8.1)",
    "FB": "Fore Buchholz: Buchholz with every last-round game counted as a draw (C.07 8)",
    "AOB": "Average of the Buchholz of the opponents met over the board (C.07 8.2)",
    "SB": "Sonneborn-Berger: sum of each opponent's score times the points scored against them (C.07 9.1)",
    "KS": "Koya: points scored against opponents with at least half the maximum score (C.07 9.2)",
    "DE": "Direct encounter: result of the games among the tied players, as a count of tied players ranked below (C.07 6)",
    "WIN": "Number of rounds scored as a win, with or without playing (C.07 7)",
    "WON": "Number of games won over the board (C.07 7)",
    "BPG": "Number of games played over the board with Black (C.07 7)",
    "BWG": "Number of games won over the board with Black (C.07 7)",
    "GE": "Number of rounds the player was available to play (games one elected to play, C.07 7)",
    "PS": "Sum of progressive scores: the running score after each round, added up (C.07 7)",
    "ARO": "Average rating of the opponents met over the board (C.07 10.1)",
    "TPR": "Tournament performance rating: ARO plus the FIDE dp for the score over the board (C.07 10.2)",
    "APRO": "Average of the opponents' performance ratings (C.07 10.4)",
    "PTP": "Perfect tournament performance: lowest rating whose expected score reaches the score over the board (C.07 10.3)",
    "APPO": "Average of the opponents' perfect performances (C.07 10.5)",
}

# tie-break -> (base system, values cut from the bottom, values cut from the top)
_SPEC: dict[TieBreak, tuple[str, int, int]] = {}
for _tb in TieBreak:
    _base, _, _mod = _tb.value.partition("-")
    if not _mod:
        _SPEC[_tb] = (_base, 0, 0)
    elif _mod[0] == "C":
        _SPEC[_tb] = (_base, int(_mod[1:]), 0)
    else:
        _SPEC[_tb] = (_base, int(_mod[1:]), int(_mod[1:]))

_ALIASES: dict[str, TieBreak] = {}
for _tb in TieBreak:
    _ALIASES[_tb.value] = _tb
    _ALIASES[_tb.value.replace("-", "")] = _tb
    _ALIASES[_tb.name] = _tb
_ALIASES["AROC"] = TieBreak.ARO_C1  # the exercises' spelling of ARO Cut-1


def parse_order(text: str) -> tuple[TieBreak, ...]:
    """Parse a tie-break list such as ``"BH-C1, BH, SB"`` (commas, semicolons or spaces).

    Codes are case-insensitive; ``BHC1``/``BH_C1`` and ``AROC1``/``AROC`` are accepted too.
    Raises :class:`ValueError` naming the unknown code and listing the known ones.
    """
    result = []
    tokens = [tok for tok in re.split(r"[,;\s]+", text.strip()) if tok]
    for position, token in enumerate(tokens, start=1):
        tb = _ALIASES.get(token.upper())
        if tb is None:
            known = ", ".join(t.value for t in TieBreak)
            raise ValueError(
                f"unknown tie-break {token!r} (item {position} of {text!r}); known codes: {known}"
            )
        result.append(tb)
    return tuple(result)


# ---------------------------------------------------------------- round classification

_GAME_RESULTS = frozenset(
    {Result.WIN, Result.DRAW, Result.LOSS, Result.WIN_UNRATED, Result.DRAW_UNRATED, Result.LOSS_UNRATED}
)
_FORFEITS = frozenset({Result.FORFEIT_WIN, Result.FORFEIT_LOSS})
_REQUESTED = frozenset({Result.HALF_BYE, Result.FULL_BYE, Result.ZERO_BYE})  # incl. absence, withdrawal
_WON = frozenset({Result.WIN, Result.WIN_UNRATED, Result.FORFEIT_WIN})
_GAME_FRACTION = {
    Result.WIN: 2,
    Result.WIN_UNRATED: 2,
    Result.FORFEIT_WIN: 2,
    Result.DRAW: 1,
    Result.DRAW_UNRATED: 1,
    Result.LOSS: 0,
    Result.LOSS_UNRATED: 0,
    Result.FORFEIT_LOSS: 0,
}  # result in half points, for the rating-based tie-breaks

# The same tables keyed by the TRF code: hashing a str is much cheaper than an Enum member.
_GAME = frozenset(r.value for r in _GAME_RESULTS)
_FORFEIT = frozenset(r.value for r in _FORFEITS)
_REQUESTED_BYE = frozenset(r.value for r in _REQUESTED)
_AVAILABLE_UNPLAYED = frozenset({Result.PAIRING_BYE.value, Result.FORFEIT_WIN.value})
_BYE = frozenset(r.value for r in Result if r.is_bye)
_WON_CODES = frozenset(r.value for r in _WON)
_HALF_POINTS = {r.value: h for r, h in _GAME_FRACTION.items()}
_MIRROR = {r.value: frozenset(m.value for m in r.opponent_results) for r in Result if r.opponent_results}


def _validate(t: TBTournament) -> dict[int, int]:
    """Check every history against the others; return id -> index.  O(N·R)."""
    index: dict[int, int] = {}
    for i, p in enumerate(t.players):
        if p.id in index:
            raise TieBreakError(f"player id {p.id} appears twice")
        index[p.id] = i
    for p in t.players:
        if len(p.history) != t.rounds:
            raise TieBreakError(f"player {p.id} has {len(p.history)} rounds of history, expected {t.rounds}")
        for r, e in enumerate(p.history, start=1):
            if e.result._value_ in _BYE:
                if e.opponent is not None:
                    raise TieBreakError(f"player {p.id}, round {r}: a bye ({e.result.value}) has an opponent")
                continue
            if e.opponent is None:
                raise TieBreakError(f"player {p.id}, round {r}: result {e.result.value!r} needs an opponent")
            if e.opponent not in index:
                raise TieBreakError(f"player {p.id}, round {r}: unknown opponent {e.opponent}")
            if e.opponent == p.id:
                raise TieBreakError(f"player {p.id}, round {r}: paired with themself")
    for p in t.players:
        for r, e in enumerate(p.history, start=1):
            if e.opponent is None:
                continue
            back = t.players[index[e.opponent]].history[r - 1]
            if back.opponent != p.id or back.result._value_ not in _MIRROR[e.result._value_]:
                raise TieBreakError(
                    f"round {r}: player {p.id} has {e.result.value!r} against {e.opponent}, "
                    f"whose history does not match ({back.result.value!r} against {back.opponent})"
                )
    return index


class _Context:
    """Per-round facts and scores, computed once per tournament (O(N·R))."""

    def __init__(self, t: TBTournament, index: dict[int, int]):
        self.t = t
        self.n = len(t.players)
        points = {r.value: t.points.points(r) for r in Result}
        draw = t.points.draw
        self.code: list[list[str]] = []  # TRF result codes
        self.opp: list[list[int]] = []  # opponent index, -1 for no opponent
        self.pts: list[list[Decimal]] = []
        self.otb: list[list[bool]] = []  # over-the-board game (round robin: forfeits too)
        self.avail: list[list[bool]] = []  # available to play (not a VUR)
        self.face: list[Decimal] = []
        self.as_opp: list[Decimal] = []  # score as seen by the opponents (16.3)
        for p in t.players:
            code = [e.result._value_ for e in p.history]
            opp = [index[e.opponent] if e.opponent is not None else -1 for e in p.history]
            pts = [points[c] for c in code]
            otb = [c in _GAME or (t.round_robin and c in _FORFEIT) for c in code]
            avail = [g or c in _AVAILABLE_UNPLAYED for g, c in zip(otb, code, strict=True)]
            face = sum(pts, _ZERO)
            last_available = max((r for r, a in enumerate(avail) if a), default=-1)
            adjusted = face
            for r in range(last_available + 1, len(code)):
                if code[r] in _REQUESTED_BYE:  # 16.2.5 -> 16.3.2
                    adjusted += draw - pts[r]
            self.code.append(code)
            self.opp.append(opp)
            self.pts.append(pts)
            self.otb.append(otb)
            self.avail.append(avail)
            self.face.append(face)
            self.as_opp.append(adjusted)
        self._cache: dict[object, list[Value]] = {}
        self._fore: _Context | None = None
        self._items_cache: list[list[tuple[Decimal, Decimal, bool]]] | None = None

    # ------------------------------------------------------------ opponent-based

    def _items(self, i: int) -> list[tuple[Decimal, Decimal, bool]]:
        """(opponent value, points scored, VUR) per round: real opponent or dummy (16.4)."""
        if self._items_cache is None:
            as_opp, face = self.as_opp, self.face
            self._items_cache = [
                [
                    (as_opp[j], p, False) if game else (face[k], p, not available)
                    for j, p, game, available in zip(
                        self.opp[k], self.pts[k], self.otb[k], self.avail[k], strict=True
                    )
                ]
                for k in range(self.n)
            ]
        return self._items_cache[i]

    def opponent_sum(self, kind: str, low: int, high: int) -> list[Value]:
        key = (kind, low, high)
        if key not in self._cache:
            column: list[Value] = []
            for i in range(self.n):
                items = self._items(i)
                if kind == "BH":
                    rows = [(v, v, vur) for v, _, vur in items]
                elif kind == "SB":
                    rows = [(v, p * v, vur) for v, p, vur in items]
                else:  # KS
                    limit = self.t.points.win * self.t.rounds / 2
                    rows = [(v, p if v >= limit else _ZERO, vur) for v, p, vur in items]
                column.append(_modified_sum(rows, low, high))
            self._cache[key] = column
        return self._cache[key]

    def aob(self) -> list[Value]:
        bh = self.opponent_sum("BH", 0, 0)
        column: list[Value] = []
        for i in range(self.n):
            met = [bh[j] for r, j in enumerate(self.opp[i]) if self.otb[i][r]]
            column.append((sum(met, _ZERO) / len(met)).quantize(_CENT, ROUND_HALF_UP) if met else _ZERO)
        return column

    # ------------------------------------------------------------ player-only

    def count(self, predicate) -> list[Value]:
        return [
            sum(1 for r, e in enumerate(p.history) if predicate(self, i, r, e))
            for i, p in enumerate(self.t.players)
        ]

    def progressive(self, low: int) -> list[Value]:
        column: list[Value] = []
        for i in range(self.n):
            running, addends = _ZERO, []
            for pts in self.pts[i]:
                running += pts
                addends.append(running)
            addends.sort()
            column.append(sum(addends[low:], _ZERO))
        return column

    # ------------------------------------------------------------ rating-based

    def _met(self, i: int) -> list[int]:
        return [j for r, j in enumerate(self.opp[i]) if self.otb[i][r]]

    def aro(self, low: int = 0) -> list[Value]:
        key = ("ARO", low)
        if key not in self._cache:
            column: list[Value] = []
            for i in range(self.n):
                ratings = sorted(self.t.players[j].rating for j in self._met(i))[low:]
                column.append(_round_average(ratings))
            self._cache[key] = column
        return self._cache[key]

    def _half_points_otb(self, i: int) -> int:
        return sum(_HALF_POINTS[c] for c, game in zip(self.code[i], self.otb[i], strict=True) if game)

    def tpr(self) -> list[Value]:
        if "TPR" not in self._cache:
            aro = self.aro()
            column: list[Value] = []
            for i in range(self.n):
                games = len(self._met(i))
                if not games:
                    column.append(0)
                    continue
                # p rounded half up to hundredths: 100 * half / (2 * games)
                p = (100 * self._half_points_otb(i) + games) // (2 * games)
                column.append(int(aro[i]) + dp_for_percent(p))
            self._cache["TPR"] = column
        return self._cache["TPR"]

    def ptp(self) -> list[Value]:
        if "PTP" not in self._cache:
            column: list[Value] = []
            for i in range(self.n):
                ratings = [self.t.players[j].rating for j in self._met(i)]
                column.append(_perfect_performance(ratings, self._half_points_otb(i)))
            self._cache["PTP"] = column
        return self._cache["PTP"]

    def opponents_average(self, per_player: list[Value]) -> list[Value]:
        return [_round_average([int(per_player[j]) for j in self._met(i)]) for i in range(self.n)]

    # ------------------------------------------------------------ dispatch

    def column(self, tb: TieBreak) -> list[Value]:
        base, low, high = _SPEC[tb]
        if base in ("BH", "SB", "KS"):
            return self.opponent_sum(base, low, high)
        if base == "FB":
            if self._fore is None:
                self._fore = _fore_context(self.t)
            return self._fore.opponent_sum("BH", low, high)
        if base == "AOB":
            return self.aob()
        if base == "PS":
            return self.progressive(low)
        if base == "ARO":
            return self.aro(low)
        if base == "TPR":
            return self.tpr()
        if base == "APRO":
            return self.opponents_average(self.tpr())
        if base == "PTP":
            return self.ptp()
        if base == "APPO":
            return self.opponents_average(self.ptp())
        return self.count(_COUNTERS[base])


_COUNTERS = {
    # 7.1: as many points as a win, played or not
    "WIN": lambda c, i, r, e: c.pts[i][r] == c.t.points.win,
    # 7.2 / 7.4: won over the board
    "WON": lambda c, i, r, e: c.otb[i][r] and c.code[i][r] in _WON_CODES,
    "BWG": lambda c, i, r, e: c.otb[i][r] and c.code[i][r] in _WON_CODES and e.colour is Colour.BLACK,
    # 7.3: played over the board with Black
    "BPG": lambda c, i, r, e: c.otb[i][r] and e.colour is Colour.BLACK,
    # 7.5: available to play (not a VUR)
    "GE": lambda c, i, r, e: c.avail[i][r],
}


def _modified_sum(rows: list[tuple[Decimal, Decimal, bool]], low: int, high: int) -> Decimal:
    """Sum of contributions after the Cut/Median modifiers (C.07 14, 16.5).

    ``rows``: (value, contribution, is VUR).  Each low cut removes the least significant
    value (lowest value, ties: lowest contribution) unless the player has a VUR whose
    smallest contribution is at least as large: then that VUR is removed instead.  Each
    high cut removes the most significant value (highest value, ties: highest
    contribution).  O(R) per cut.
    """
    rows = list(rows)
    for _ in range(low):
        if not rows:
            break
        lsv = min(range(len(rows)), key=lambda k: (rows[k][0], rows[k][1]))
        vurs = [k for k in range(len(rows)) if rows[k][2]]
        cut = lsv
        if vurs:
            vur = min(vurs, key=lambda k: (rows[k][1], rows[k][0]))
            if rows[vur][1] >= rows[lsv][1]:
                cut = vur
        rows.pop(cut)
    for _ in range(high):
        if not rows:
            break
        rows.pop(max(range(len(rows)), key=lambda k: (rows[k][0], rows[k][1])))
    return sum((c for _, c, _ in rows), _ZERO)


def _round_average(values: Sequence[int]) -> int:
    """Average rounded half up (C.07 10: 1887.5 -> 1888); 0 when there is nothing to average."""
    if not values:
        return 0
    return int((Decimal(sum(values)) / len(values)).quantize(Decimal(1), ROUND_HALF_UP))


def _perfect_performance(ratings: list[int], half_points: int) -> int:
    """C.07 10.3: the lowest integer rating whose expected score (B.02 8.1.2, no 400 cap)
    reaches the score over the board.  0 points: lowest opponent - 800; 100 %: highest
    opponent + 800 (the dp table's ends).  Binary search, O(R·log 1472)."""
    if not ratings:
        return 0
    if half_points == 0:
        return min(ratings) - 800
    if half_points == 2 * len(ratings):
        return max(ratings) + 800
    target = 50 * half_points  # in hundredths of a point
    table = EXPECTED_BY_DIFFERENCE  # differences beyond +-736 are clamped: 0.00 / 1.00

    def expected(rating: int) -> int:
        return sum(table[min(max(rating - r, -736), 736) + 736] for r in ratings)

    lo, hi = min(ratings) - 736, max(ratings) + 736  # expected(lo) == 0 < target <= expected(hi)
    while hi - lo > 1:
        mid = (lo + hi) // 2
        if expected(mid) >= target:
            hi = mid
        else:
            lo = mid
    return hi


def _fore_context(t: TBTournament) -> _Context:
    """C.07 8.3: the tournament with every paired last-round board counted as a played draw."""
    last = t.rounds - 1
    players = []
    for p in t.players:
        history = p.history
        if last >= 0 and history[last].opponent is not None and not history[last].result.is_bye:
            e = history[last]
            history = history[:last] + (RoundEntry(e.opponent, e.colour, Result.DRAW),)
        players.append(TBPlayer(p.id, p.rating, history, p.tpn))
    fore = TBTournament(tuple(players), t.rounds, t.points, t.round_robin)
    return _Context(fore, {p.id: i for i, p in enumerate(fore.players)})


# ---------------------------------------------------------------- direct encounter


def _de_tiers(ctx: _Context, group: list[int]) -> list[list[int]]:
    """C.07 6: order ``group`` (player indexes) into tiers by their games among themselves.

    When all of them met, rank by the points scored among them and repeat inside every
    sub-group still tied.  When some did not meet, a player is placed first only if their
    score is higher than any other could reach by winning every missing game; the rest
    then form a new mini-tournament.  Otherwise the group stays tied.  O(|group|·R) per
    level; a Swiss group can only be split when it has at most 2R+1 players.
    """
    if len(group) < 2:
        return [group]
    members = set(group)
    score = {i: _ZERO for i in group}
    met: dict[int, set[int]] = {i: set() for i in group}
    for i in group:
        for r, j in enumerate(ctx.opp[i]):
            if j in members and ctx.otb[i][r]:
                score[i] += ctx.pts[i][r]
                met[i].add(j)
    if not any(met.values()):
        return [group]
    if all(len(met[i]) == len(group) - 1 for i in group):
        levels = sorted({score[i] for i in group}, reverse=True)
        if len(levels) == 1:
            return [group]
        tiers: list[list[int]] = []
        for level in levels:
            tiers.extend(_de_tiers(ctx, [i for i in group if score[i] == level]))
        return tiers
    best = max(group, key=lambda i: score[i])
    win = ctx.t.points.win
    ceiling = max(score[j] + win * (len(group) - 1 - len(met[j])) for j in group if j != best)
    if score[best] > ceiling:
        return [[best], *_de_tiers(ctx, [i for i in group if i != best])]
    return [group]


def _direct_encounter(ctx: _Context, keys: list[tuple]) -> list[Value]:
    """DE value: how many players of the same tie group DE ranks strictly below this one."""
    groups: dict[tuple, list[int]] = {}
    for i, key in enumerate(keys):
        groups.setdefault(key, []).append(i)
    column: list[Value] = [0] * ctx.n
    for group in groups.values():
        below = len(group)
        for tier in _de_tiers(ctx, group):
            below -= len(tier)
            for i in tier:
                column[i] = below
    return column


# ---------------------------------------------------------------- public API


def _columns(t: TBTournament, order: Iterable[TieBreak]) -> tuple[_Context, list[list[Value]]]:
    ctx = _Context(t, _validate(t))
    columns: list[list[Value]] = []
    for tb in order:
        if tb is TieBreak.DE:
            keys = [(ctx.face[i], *(col[i] for col in columns)) for i in range(ctx.n)]
            columns.append(_direct_encounter(ctx, keys))
        else:
            columns.append(ctx.column(tb))
    return ctx, columns


def compute(t: TBTournament, order: Sequence[TieBreak]) -> dict[int, tuple[Value, ...]]:
    """Tie-break values per player id, in the order given.

    Decimal for score-based tie-breaks, int for counts and ratings.  DE depends on its
    position: it separates players tied on points and on every tie-break listed before it.
    """
    _, columns = _columns(t, order)
    return {p.id: tuple(col[i] for col in columns) for i, p in enumerate(t.players)}


def standings(t: TBTournament, order: Sequence[TieBreak]) -> list[StandingRow]:
    """Players sorted by points, then by each tie-break (higher is better), then by TPN/id.

    Players equal on points and every tie-break share a rank (1, 2, 2, 4 ...).
    """
    ctx, columns = _columns(t, order)
    rows = []
    for i, p in enumerate(t.players):
        rows.append((ctx.face[i], tuple(col[i] for col in columns), p))
    rows.sort(key=lambda row: (tuple(-v for v in (row[0], *row[1])), row[2].tpn, row[2].id))
    result: list[StandingRow] = []
    for position, (points, values, p) in enumerate(rows, start=1):
        if result and result[-1].points == points and result[-1].tiebreaks == values:
            rank = result[-1].rank
        else:
            rank = position
        result.append(StandingRow(rank, p.id, points, values))
    return result
