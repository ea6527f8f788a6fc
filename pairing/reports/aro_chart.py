"""The Dubov system's aim, as a picture: how widely the AROs spread within each
scoregroup after each round.

Dubov pairs White seekers with low ARO against strong Black seekers so that, in a
scoregroup, the average ratings of opponents (1.6) draw together.  These functions are
pure (no Django): :func:`running_figures` turns the rounds' columns (each player's
opponents and result codes, as :func:`pairing.services.snapshot.history_table` and
:func:`pairing.engine.history.history_columns` give them) into (score, ARO) after each
round, :func:`spread_by_scoregroup` reduces them to min, max and spread per scoregroup,
and :func:`chart` lays the result out for a small inline SVG.

At 10,000 players x 40 rounds that is 400,000 figures, computed in integers: a score
counts units of ``10**-places`` points (:func:`score_units`: 1, ½ and 0 in tenths, 3/1/0 in
whole points), and a player's (score, ARO) after a round is one integer, the score's
units shifted left by :data:`ARO_BITS` plus the ARO, so that a round's figures sort in C
by score, then ARO: a scoregroup is a run of them, its lowest and highest ARO its ends,
found by bisection.  One pass over the players makes the figures, one sort per round
groups them (at 9,999 x 40 about 0.09 s together, where Decimal scores and a dict of lists per round
took 0.35 s).
"""

from __future__ import annotations

from bisect import bisect_left
from collections.abc import Sequence
from dataclasses import dataclass
from decimal import Decimal

from django.utils.translation import ngettext

from pairing.engine.model import PointSystem, Result

# A figure's low bits hold the ARO: a mean of ratings, below 2**20 (ratings are checked).
ARO_BITS = 20
_PLAYED_CODES = frozenset(r.value for r in Result if r.is_played)


@dataclass(frozen=True)
class GroupSpread:
    """One scoregroup after one round: players with at least one played game."""

    score: Decimal
    players: int
    low: int
    high: int

    @property
    def spread(self) -> int:
        return self.high - self.low


@dataclass(frozen=True)
class RoundSpread:
    number: int  # after this round
    groups: tuple[GroupSpread, ...]  # highest score first


def score_units(points: PointSystem) -> tuple[int, dict[str, int]]:
    """(places, each result code's points in units of ``10**-places``): the fewest
    decimal places that make every value of ``points`` whole (1, ½, 0: one; 3, 1, 0: none)."""
    values = points.by_code
    places = max(max(0, -v.normalize().as_tuple().exponent) for v in values.values())
    return places, {code: int(v.scaleb(places)) for code, v in values.items()}


def running_figures(
    opponents: Sequence[Sequence[int]], codes: Sequence[Sequence[str]], ratings: Sequence[int], points: PointSystem
) -> tuple[list[list[int]], int]:
    """(figures, places): (score, ARO) of every player after each round, each as one
    integer (:func:`figure` reads it back), by player in the order of ``opponents``, round
    by round; the scores in units of ``10**-places`` points.

    ``opponents[i][k]``: the position in ``ratings`` of player i's opponent in round
    k + 1, -1 for none; ``codes[i][k]``: his result code (:class:`Result` values).  ARO as
    in Dubov 1.6: the mean rating of the opponents of played games, rounded half up; 0
    without a game (a forfeit names an opponent but counts for the score only)."""
    places, units = score_units(points)
    if ratings and max(ratings) >> ARO_BITS:
        raise ValueError(f"a rating of {max(ratings)}: an ARO must stay below 2**{ARO_BITS}")
    shifted = {code: value << ARO_BITS for code, value in units.items()}
    # a game adds 2 x rating + 1 and 2: the mean rounded half up is (2 total + games) //
    # (2 games), in integers (ratings are not negative)
    doubled = [2 * rating + 1 for rating in ratings]
    played = _PLAYED_CODES
    figures = []
    for row_opponents, row_codes in zip(opponents, codes, strict=True):
        score = twice_total = twice_games = aro = 0
        row: list[int] = []
        add = row.append
        for opponent, code in zip(row_opponents, row_codes, strict=True):
            score += shifted[code]
            if code in played:
                twice_total += doubled[opponent]
                twice_games += 2
                aro = twice_total // twice_games
            add(score + aro)
        figures.append(row)
    return figures, places


def figure(value: int, places: int) -> tuple[Decimal, int]:
    """(score, ARO) of one of :func:`running_figures`' integers."""
    units = value >> ARO_BITS
    return Decimal(units).scaleb(-places), value - (units << ARO_BITS)


def spread_by_scoregroup(figures: Sequence[Sequence[int]], places: int) -> list[RoundSpread]:
    """Per round, per scoregroup: the lowest and highest ARO and their difference.

    ``figures`` and ``places``: :func:`running_figures`' (by player, round by round).
    Players without a played game yet (ARO 0) have no ARO and are left out; a scoregroup
    of such players only is left out too.  Each round's figures sorted once: a
    scoregroup is a run, from the highest; its ends found by bisection."""
    out = []
    for number, column in enumerate(zip(*figures, strict=True), start=1):
        ordered = sorted(column)
        groups = []
        end = len(ordered)
        while end:
            units = ordered[end - 1] >> ARO_BITS
            base = units << ARO_BITS  # the group's figure with ARO 0
            start = bisect_left(ordered, base, 0, end)
            first = bisect_left(ordered, base + 1, start, end)  # past the players without a game
            if first < end:
                groups.append(GroupSpread(Decimal(units).scaleb(-places), end - first, ordered[first] - base,
                                          ordered[end - 1] - base))
            end = start
        out.append(RoundSpread(number, tuple(groups)))
    return out


@dataclass(frozen=True)
class Bar:
    x: float
    top: float
    bottom: float
    label: str


@dataclass(frozen=True)
class Chart:
    width: int
    height: int
    bars: tuple[Bar, ...]
    ticks: tuple[tuple[float, int], ...]  # (y, ARO)
    rounds: tuple[tuple[float, int], ...]  # (x, round number)
    plot_left: int
    plot_bottom: int
    plot_top: int = 8

    @property
    def axis_label_y(self) -> float:
        """Where the vertical axis's title ("ARO") is centred."""
        return (self.plot_top + self.plot_bottom) / 2


def chart(spreads: Sequence[RoundSpread], width: int = 640, height: int = 200) -> Chart | None:
    """Coordinates for a range chart: one vertical bar per scoregroup per round, from
    its lowest to its highest ARO (higher scoregroups to the left within a round).
    None when there is nothing to draw."""
    values = [v for r in spreads for g in r.groups for v in (g.low, g.high)]
    if not values:
        return None
    left, right, top, bottom = 58, 6, 8, 22
    lo, hi = min(values), max(values)
    if hi == lo:
        lo, hi = lo - 50, hi + 50
    plot_h = height - top - bottom
    slot = (width - left - right) / len(spreads)

    def y(v: int) -> float:
        return round(top + (hi - v) * plot_h / (hi - lo), 1)

    bars = []
    for k, r in enumerate(spreads):
        n = len(r.groups)
        for i, g in enumerate(r.groups):
            x = round(left + slot * k + slot * (i + 1) / (n + 1), 1)
            bars.append(
                Bar(
                    x,
                    y(g.high),
                    y(g.low),
                    ngettext("After round %(n)s, scoregroup %(score)s: %(players)s player, ARO %(low)s–%(high)s "
                             "(spread %(spread)s)", "After round %(n)s, scoregroup %(score)s: %(players)s players, "
                             "ARO %(low)s–%(high)s (spread %(spread)s)", g.players) % {
                        "n": r.number, "score": f"{g.score.normalize():f}", "players": g.players, "low": g.low,
                        "high": g.high, "spread": g.spread},
                )
            )
    ticks = tuple((y(v), v) for v in (hi, (hi + lo) // 2, lo))
    rounds = tuple((round(left + slot * (k + 0.5), 1), r.number) for k, r in enumerate(spreads))
    return Chart(width, height, tuple(bars), ticks, rounds, left, height - bottom, top)
