"""The Dubov system's aim, as a picture: how widely the AROs spread within each
scoregroup after each round.

Dubov pairs White seekers with low ARO against strong Black seekers so that, in a
scoregroup, the average ratings of opponents (1.6) draw together.  These functions are
pure (no Django): :func:`running_figures` turns round-by-round histories into (score,
ARO) after each round, :func:`spread_by_scoregroup` reduces them to min, max and
spread per scoregroup, and :func:`chart` lays the result out for a small inline SVG.
All O(N·R).
"""

from __future__ import annotations

from collections.abc import Iterable, Mapping, Sequence
from dataclasses import dataclass
from decimal import Decimal

from django.utils.translation import ngettext

from pairing.engine.model import PointSystem, Result, RoundEntry


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


def running_figures(
    histories: Mapping[int, Sequence[RoundEntry]], ratings: Mapping[int, int], points: PointSystem
) -> list[list[tuple[Decimal, int]]]:
    """(score, ARO) of every player after each round.  ARO as in Dubov 1.6: the mean
    rating of the opponents of played games, rounded half up; 0 without a game."""
    rounds = max((len(h) for h in histories.values()), default=0)
    out: list[list[tuple[Decimal, int]]] = [[] for _ in range(rounds)]
    value = points.by_code  # by code: an enum's hash is a Python call
    played = frozenset(r.value for r in Result if r.is_played)
    for history in histories.values():
        score, total, games, aro = Decimal(0), 0, 0, 0
        # the entries unpacked, their codes tested: RoundEntry.played is two Python calls
        for k, (opponent, _colour, result) in enumerate(history):
            code = result._value_
            score += value[code]
            if opponent is not None and code in played:
                total += ratings[opponent]
                games += 1
                # the mean rounded half up, in integers (ratings are not negative)
                aro = (2 * total + games) // (2 * games)
            out[k].append((score, aro))
    return out


def spread_by_scoregroup(rounds: Sequence[Iterable[tuple[Decimal, int]]]) -> list[RoundSpread]:
    """Per round, per scoregroup: the lowest and highest ARO and their difference.

    ``rounds[k]`` holds (score, ARO) of every player after round k + 1.  Players without
    a played game yet (ARO 0) have no ARO and are left out; a scoregroup of such players
    only is left out too.
    """
    out = []
    for k, figures in enumerate(rounds, start=1):
        groups: dict[Decimal, list[int]] = {}
        for score, aro in figures:
            if aro:
                groups.setdefault(score, []).append(aro)
        out.append(
            RoundSpread(
                k,
                tuple(
                    GroupSpread(score, len(groups[score]), min(groups[score]), max(groups[score]))
                    for score in sorted(groups, reverse=True)
                ),
            )
        )
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
