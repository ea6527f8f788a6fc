"""One pass over the players' histories (C.07 art. 16): what every round counts as --
game, forfeit, bye, voluntarily unplayed round -- each player's score as an opponent, and
the columns of every tie-break except direct encounter.  O(N·R) per column.

Scores are counted in whole units, a point being :attr:`_Context.unit` of them (10 for
1, ½, 0; 100 for a point system with hundredths): sums, products and comparisons of
Python ints, exact and several times cheaper than Decimal's.  A column's figures are
turned into Decimals once, at the end (:meth:`_Context.column`): a Buchholz in units, a
Sonneborn-Berger in units squared, written with as many decimals as the point system's
figures have (twice as many for a product), as Decimal arithmetic on them would."""

from __future__ import annotations

from decimal import ROUND_HALF_UP, Decimal
from itertools import accumulate, compress
from operator import mul

from pairing.engine.history import history_columns
from pairing.engine.model import Colour, PointSystem, Result, RoundEntry
from pairing.tiebreak_data import dp_for_percent

from .arithmetic import _cut_one, _modified_sum, _perfect_performance, _round_average
from .checks import _entries
from .definitions import (
    _SPEC,
    LIMITS,
    RULES_2026,
    TBPlayer,
    TBTournament,
    TieBreak,
    Unrated,
    Value,
)

_CENT = Decimal("0.01")

# ---------------------------------------------------------------- round classification

_GAME_RESULTS = frozenset(
    {Result.WIN, Result.DRAW, Result.LOSS, Result.WIN_UNRATED, Result.DRAW_UNRATED, Result.LOSS_UNRATED,
     Result.ADJOURNED}  # an adjourned game counts as a draw until its result comes
)
_FORFEITS = frozenset({Result.FORFEIT_WIN, Result.FORFEIT_LOSS})
# incl. absence, withdrawal.  Not the full-point bye: see _AVAILABLE_UNPLAYED.
_REQUESTED = frozenset({Result.HALF_BYE, Result.ZERO_BYE})
_WON = frozenset({Result.WIN, Result.WIN_UNRATED, Result.FORFEIT_WIN})
_GAME_FRACTION = {
    Result.WIN: 2,
    Result.WIN_UNRATED: 2,
    Result.FORFEIT_WIN: 2,
    Result.DRAW: 1,
    Result.DRAW_UNRATED: 1,
    Result.ADJOURNED: 1,
    Result.LOSS: 0,
    Result.LOSS_UNRATED: 0,
    Result.FORFEIT_LOSS: 0,
}  # result in half points, for the rating-based tie-breaks

# The same tables keyed by the TRF code: hashing a str is much cheaper than an Enum member.
_GAME = frozenset(r.value for r in _GAME_RESULTS)
_FORFEIT = frozenset(r.value for r in _FORFEITS)
_REQUESTED_BYE = frozenset(r.value for r in _REQUESTED)
# Rounds without a game the player was available for (16.2.1-2): the PAB, a forfeit win,
# and a full-point bye, counted like the PAB it replaces -- the commission's exercises
# count only the half-point bye as a voluntarily unplayed round with a contribution
# (p. 21, note to Ex 13), and Gacrux, the commission's tool, treats F as a PAB
# (docs/tiebreaks.md, "Reading choices").
_AVAILABLE_UNPLAYED = frozenset({Result.PAIRING_BYE.value, Result.FORFEIT_WIN.value, Result.FULL_BYE.value})
_WON_CODES = frozenset(r.value for r in _WON)
_HALF_POINTS = {r.value: h for r, h in _GAME_FRACTION.items()}
def _places(points: PointSystem) -> int:
    """The most decimals any figure of the point system is written with (1.0, 0.5, 0.0:
    1; 3, 1, 0: 0; 1, 0.25: 2): a point is ten to that many units, and every score a
    whole number of them."""
    return max(0, *(-v.as_tuple().exponent for v in points.by_code.values()))


def _as_decimals(figures: list, places: int | None) -> list[Value]:
    """``figures`` (whole units, ten to ``places`` of them to the point) as Decimals
    written with ``places`` decimals (205 -> 20.5, 200 -> 20.0), each distinct figure
    made once (a big field repeats most of them); ``places`` None: the figures as they
    are (counts, ratings)."""
    if places is None:
        return list(figures)
    made = {f: Decimal(f).scaleb(-places) for f in set(figures)}
    return list(map(made.__getitem__, figures))


class _Context:
    """Per-round facts and scores, computed once per tournament (O(N·R)).  Scores are in
    units (:func:`_unit`): ``pts``, ``face``, ``as_opp`` and the score-based columns'
    figures (:meth:`figures`) are ints."""

    def __init__(self, t: TBTournament, index: dict[int, int],
                 facts: tuple[list[list[str]], list[list[int]], list[list]] | None = None):
        """``facts``: the result codes, opponents' indexes and colours :func:`.checks._facts` read
        while checking the histories (else read here)."""
        self.t = t
        self.n = len(t.players)
        self.places = _places(t.points)
        self.unit = unit = 10**self.places
        points = {code: int(v * unit) for code, v in t.points.by_code.items()}
        self.win = int(t.points.win * unit)
        self.draw = draw = int(t.points.draw * unit)
        if facts is None:
            _index, opps, codes, colours = history_columns(t.players)
            facts = (codes, opps, colours)
        self.code: list[list[str]] = facts[0]  # TRF result codes
        self.opp: list[list[int]] = facts[1]  # opponent index, -1 for no opponent
        self.colour: list[list] = facts[2]  # Colour, None for none
        self.pts: list[list[int]] = []  # each round's points, in units
        self.otb: list[list[bool]] = []  # over-the-board game (round robin: forfeits too)
        self.avail: list[list[bool]] = []  # available to play (not a VUR)
        self.face: list[int] = []  # the score, in units
        self.as_opp: list[int] = []  # score as seen by the opponents (16.3), in units
        over_the_board = _GAME | _FORFEIT if t.round_robin else _GAME
        available = over_the_board | _AVAILABLE_UNPLAYED
        value, is_otb, is_available = points.__getitem__, over_the_board.__contains__, available.__contains__
        for code in self.code:
            pts = list(map(value, code))
            otb = list(map(is_otb, code))
            avail = list(map(is_available, code))
            face = sum(pts)
            last_available = len(avail) - 1
            while last_available >= 0 and not avail[last_available]:
                last_available -= 1
            adjusted = face
            for r in range(last_available + 1, len(code)):
                if code[r] in _REQUESTED_BYE:  # 16.2.5 -> 16.3.2
                    adjusted += draw - pts[r]
            self.pts.append(pts)
            self.otb.append(otb)
            self.avail.append(avail)
            self.face.append(face)
            self.as_opp.append(adjusted)
        self.rating = _ratings(t)
        # rating of each player in each round (events over 30 days: that round's rating)
        if t.ratings_per_round:
            self.rating_at = [
                [
                    (p.round_ratings[r] if r < len(p.round_ratings) and p.round_ratings[r] else None) or self.rating[k]
                    for r in range(t.rounds)
                ]
                for k, p in enumerate(t.players)
            ]
        else:
            self.rating_at = None
        self._cache: dict[object, list[Value]] = {}
        self._fore: _Context | None = None
        self._values_cache: list[list[int]] | None = None
        self._met_cache: list[list[int]] | None = None

    # ------------------------------------------------------------ opponent-based

    def _values(self) -> list[list[int]]:
        """Per player, the value of each round's opponent: the real opponent's score as
        their opponents see it (16.3), or for a round without a game the dummy's (16.4).

        The dummy opponent has the player's own score; under the 2026 text that score is
        capped (16.4.1, 16.4.2): for a forfeit at the scheduled opponent's score as their
        opponents see it, for a round without an opponent at a draw per round (half the
        maximum score of the rounds counted).  A round without a game is a VUR (the cut
        weighs it, 16.5) when the player was not available for it (``avail``).
        """
        if self._values_cache is None:
            as_opp, face = self.as_opp, self.face
            capped = self.t.rules >= RULES_2026
            half = self.draw * self.t.rounds

            # each opponent's value mapped in C, then the rounds without a game (a few)
            # given the dummy's: the player's own score, capped under the 2026 text
            value_of = as_opp.__getitem__
            values: list[list[int]] = []
            for own, opp, otb in zip(face, self.opp, self.otb, strict=True):
                row = list(map(value_of, opp))
                if not all(otb):
                    for r, game in enumerate(otb):
                        if not game:
                            j = opp[r]
                            row[r] = min(own, as_opp[j] if j >= 0 else half) if capped else own
                values.append(row)
            self._values_cache = values
        return self._values_cache

    def twice_koya_limit(self, shift: int = 0) -> int:
        """C.07 9.2: twice the Koya limit, in units: half the maximum possible score,
        moved by ``shift`` half-points (14.5, a half-point being a draw's points).  The
        maximum is a win for every round played; in a round robin of an odd number of
        players each player sits out one round a cycle (Berger's bye), so after r rounds
        of n players nobody can have played more than r - r // n games.  Twice, since
        half a maximum of an odd number of wins is not a whole number of units."""
        rounds = self.t.rounds
        if self.t.round_robin and self.n % 2:
            rounds -= rounds // self.n
        return self.win * rounds + 2 * self.draw * shift

    def opponent_sum(self, kind: str, low: int, high: int, shift: int = 0) -> list[int]:
        """BH, SB or KS with ``low``/``high`` values cut, in units (SB: units squared)."""
        key = (kind, low, high, shift)
        if key not in self._cache:
            column: list[int] = []
            twice_limit = self.twice_koya_limit(shift)
            for values, pts, avail in zip(self._values(), self.pts, self.avail, strict=True):
                if kind == "BH":
                    contributions = values
                elif kind == "SB":
                    contributions = list(map(mul, pts, values))
                else:  # KS
                    contributions = [p if 2 * v >= twice_limit else 0 for v, p in zip(values, pts, strict=True)]
                if not (low or high):  # nothing cut: the sum of the contributions
                    column.append(sum(contributions))
                elif low == 1 and not high and values:  # the usual Cut-1
                    column.append(_cut_one(values, contributions, avail))
                else:
                    rows = list(zip(values, contributions, [not a for a in avail], strict=True))
                    column.append(_modified_sum(rows, low, high))
            self._cache[key] = column
        return self._cache[key]

    def aob(self) -> list[Value]:
        bh = self.opponent_sum("BH", 0, 0)
        column: list[Value] = []
        for i in range(self.n):
            met = [bh[j] for r, j in enumerate(self.opp[i]) if self.otb[i][r]]
            if not met:
                column.append(Decimal(0))
                continue
            column.append((Decimal(sum(met)) / (len(met) * self.unit)).quantize(_CENT, ROUND_HALF_UP))
        return column

    # ------------------------------------------------------------ player-only

    def count(self, predicate) -> list[Value]:
        return [sum(1 for r in range(len(self.code[i])) if predicate(self, i, r)) for i in range(self.n)]

    def standard_points(self) -> list[int]:
        """STD (C.07 2026), in tenths: each round's points read as 1 (more than a draw),
        ½ (a draw's worth) or 0, whatever the tournament's point system."""
        draw = self.draw
        return [sum(10 if p > draw else 5 if p == draw else 0 for p in self.pts[i]) for i in range(self.n)]

    def progressive(self, low: int) -> list[int]:
        """PS, in units: the running scores, the ``low`` lowest cut."""
        column: list[int] = []
        for pts in self.pts:
            addends = list(accumulate(pts))
            addends.sort()
            column.append(sum(addends[low:]))
        return column

    # ------------------------------------------------------------ rating-based

    def _met(self, i: int) -> list[int]:
        """The opponents ``i`` met over the board (computed once for every player)."""
        if self._met_cache is None:
            self._met_cache = [list(compress(opp, otb)) for opp, otb in zip(self.opp, self.otb, strict=True)]
        return self._met_cache[i]

    def _opponent_ratings(self, i: int) -> list[int]:
        """The ratings of the opponents met over the board: the rating each had in the
        round of the game for an event rated per round, else the first (C.07 10)."""
        if self.rating_at is None:
            return list(map(self.rating.__getitem__, self._met(i)))
        return [self.rating_at[j][r] for r, j in enumerate(self.opp[i]) if self.otb[i][r]]

    def aro(self, low: int = 0, high: int = 0) -> list[Value]:
        key = ("ARO", low, high)
        if key not in self._cache:
            column: list[Value] = []
            for i in range(self.n):
                ratings = self._opponent_ratings(i)
                if low or high:
                    ratings = sorted(ratings)[low:len(ratings) - high]
                column.append(_round_average(ratings))
            self._cache[key] = column
        return self._cache[key]

    def _half_points_otb(self, i: int) -> int:
        return sum(map(_HALF_POINTS.__getitem__, compress(self.code[i], self.otb[i])))

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
                column.append(_perfect_performance(self._opponent_ratings(i), self._half_points_otb(i)))
            self._cache["PTP"] = column
        return self._cache["PTP"]

    def opponents_average(self, per_player: list[Value]) -> list[Value]:
        return [_round_average([int(per_player[j]) for j in self._met(i)]) for i in range(self.n)]

    def undefined(self, tb: TieBreak) -> list[bool]:
        """Per player: ``tb`` has no value (C.07 10, 8.2: an average or performance over
        no game).  AOB, TPR, PTP, APRO and APPO need a game over the board; ARO with its
        cut or median needs more games than it leaves out (ARO-C1 of one game: Ex 18).
        Their columns hold 0 there, which orders such a player last."""
        base, low, high = _SPEC[tb]
        if base in ("AOB", "TPR", "PTP", "APRO", "APPO"):
            need = 1
        elif base == "ARO":
            need = 1 + low + high
        else:
            return [False] * self.n
        return [len(self._met(i)) < need for i in range(self.n)]

    # ------------------------------------------------------------ dispatch

    def decimals(self, tb: TieBreak) -> int | None:
        """What :meth:`figures` of ``tb`` counts a point as, as a power of ten: units (BH,
        FB, KS, PS), units squared (SB), tenths (STD); None for the columns that are
        their values (counts, ratings, AOB and EXT, Decimals already)."""
        base = _SPEC[tb][0]
        if base in ("BH", "FB", "KS", "PS"):
            return self.places
        if base == "SB":
            return 2 * self.places
        if base == "STD":
            return 1
        return None

    def points(self) -> list[Decimal]:
        """Each player's score as a Decimal."""
        return _as_decimals(self.face, self.places)

    def column(self, tb: TieBreak) -> list[Value]:
        """The values of ``tb``: Decimals for the score-based tie-breaks, ints for counts
        and ratings."""
        return _as_decimals(self.figures(tb), self.decimals(tb))

    def figures(self, tb: TieBreak) -> list[Value]:
        """The column of ``tb`` as it is computed and ordered (:meth:`decimals`)."""
        base, low, high = _SPEC[tb]
        if base == "RTNG":
            return list(self.rating)
        if base == "TPN":
            return [p.tpn for p in self.t.players]
        if base == "STD":
            return self.standard_points()
        if base == "EXT":
            return [p.external if p.external is not None else Decimal(0) for p in self.t.players]
        if base in ("BH", "SB", "KS"):
            return self.opponent_sum(base, low, high, LIMITS.get(tb, 0))
        if base == "FB":
            if self._fore is None:
                self._fore = _fore_context(self.t)
            return self._fore.opponent_sum("BH", low, high)
        if base == "AOB":
            return self.aob()
        if base == "PS":
            return self.progressive(low)
        if base == "ARO":
            return self.aro(low, high)
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
    "WIN": lambda c, i, r: c.pts[i][r] == c.win,
    # 7.2 / 7.4: won over the board
    "WON": lambda c, i, r: c.otb[i][r] and c.code[i][r] in _WON_CODES,
    "BWG": lambda c, i, r: c.otb[i][r] and c.code[i][r] in _WON_CODES and c.colour[i][r] is Colour.BLACK,
    # 7.3: played over the board with Black
    "BPG": lambda c, i, r: c.otb[i][r] and c.colour[i][r] is Colour.BLACK,
    # 7.5: available to play (not a VUR); REP is its 2026 name
    "GE": lambda c, i, r: c.avail[i][r],
    "REP": lambda c, i, r: c.avail[i][r],
}


def _ratings(t: TBTournament) -> list[int]:
    """Each player's rating for the rating-based tie-breaks, an unrated player's by the
    tournament's rule (FIXED, LOWEST; DROP: the caller has dropped those tie-breaks,
    an unrated player counts 0 and orders last)."""
    rated = [p.rating for p in t.players if p.rating]
    if t.unrated is Unrated.FIXED:
        fallback = t.unrated_rating
    elif t.unrated is Unrated.LOWEST:
        fallback = min(rated, default=0)
    else:
        fallback = 0
    return [p.rating or fallback for p in t.players]


def _fore_context(t: TBTournament) -> _Context:
    """C.07 8.3: the tournament with every paired last-round board counted as a played draw."""
    last = t.rounds - 1
    players = []
    for p, history in zip(t.players, _entries(t), strict=True):
        if last >= 0 and history[last].opponent is not None and not history[last].result.is_bye:
            e = history[last]
            history = history[:last] + (RoundEntry(e.opponent, e.colour, Result.DRAW),)
        players.append(TBPlayer(p.id, p.rating, history, p.tpn, p.round_ratings))
    fore = TBTournament(
        tuple(players), t.rounds, t.points, t.round_robin, t.rules, t.unrated, t.unrated_rating, t.ratings_per_round
    )
    return _Context(fore, {p.id: i for i, p in enumerate(fore.players)})

