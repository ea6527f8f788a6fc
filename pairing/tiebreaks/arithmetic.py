"""The arithmetic of the tie-break columns (C.07): the Cut and Median modifiers with the
VUR rule (14, 16.5), averages rounded half up, the perfect tournament performance (10.3).
Pure functions of lists of values (scores in whole units, :func:`context._unit`), O(R)
per player."""

from __future__ import annotations

from collections.abc import Sequence
from decimal import ROUND_HALF_UP, Decimal

from pairing.tiebreak_data import EXPECTED_BY_DIFFERENCE


def _vur_to_cut(rows: list[tuple[int, int, bool]], vurs: list[int]) -> int:
    """16.5: the VUR weighed against the least significant value: the one with the smallest
    contribution (the commission's exercises, note to Ex 13; docs/validation.md R1)."""
    return min(vurs, key=lambda k: (rows[k][1], rows[k][0]))


def _cut_one(values: list[int], contributions: list[int], available: list[bool]) -> int:
    """:func:`_modified_sum` with one low cut and no high cut (the usual Cut-1), on the
    columns of a player's rounds without making their rows: the least significant value
    (the lowest, ties: the lowest contribution) is cut, unless a VUR (a round the player
    was not ``available`` for) has a smallest contribution at least as large."""
    total = sum(contributions)
    least = min(values) if contributions is values else min(zip(values, contributions, strict=True))[1]
    if all(available):
        return total - least
    smallest = min(c for c, a in zip(contributions, available, strict=True) if not a)
    return total - (smallest if smallest >= least else least)


def _modified_sum(rows: list[tuple[int, int, bool]], low: int, high: int) -> int:
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
            vur = _vur_to_cut(rows, vurs)
            if rows[vur][1] >= rows[lsv][1]:
                cut = vur
        rows.pop(cut)
    for _ in range(high):
        if not rows:
            break
        rows.pop(max(range(len(rows)), key=lambda k: (rows[k][0], rows[k][1])))
    return sum(c for _, c, _ in rows)


def _round_average(values: Sequence[int]) -> int:
    """Average rounded half up (C.07 10: 1887.5 -> 1888); 0 when there is nothing to average."""
    if not values:
        return 0
    total, n = sum(values), len(values)
    if total >= 0:  # ratings: in integers, (2·total + n) // 2n is the mean rounded half up
        return (2 * total + n) // (2 * n)
    return int((Decimal(total) / n).quantize(Decimal(1), ROUND_HALF_UP))


def _perfect_performance(ratings: list[int], half_points: int) -> int:
    """C.07 10.3: the lowest integer rating whose expected score (B.02 8.1.2, no 400 cap)
    reaches the score over the board.  0 points: lowest opponent - 800 (the text's own
    figure for a zero score).  100 %: found like any other score -- the table first gives
    1.00 at a difference of 736, so the highest opponent + 736.  Binary search,
    O(R·log 1472)."""
    if not ratings:
        return 0
    if half_points == 0:
        return min(ratings) - 800
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
