"""Baku acceleration (FIDE C.04.5.1) as virtual points the engine pairs with.

The text: before round 1 the pairing list is split in GA, the first ``2 * ceil(N / 4)``
players, and GB, the rest.  The accelerated rounds are the first half (rounded up) of
the tournament; GA players carry one virtual point into the first half (rounded up) of
the accelerated rounds and half a point into the others; GB players never have any,
and nobody has any after the last accelerated round.  A late entry is placed in the
pairing list as usual; the last GA player stays the same, so GA is everyone at or above
that player's pairing number (GA may then be odd).

Only the standard scoring (win 1, draw ½) may be accelerated this way; the caller
checks that, since the engine pairs any point system.
"""

from __future__ import annotations

from collections.abc import Collection, Sequence
from dataclasses import dataclass
from decimal import Decimal

from .model import Acceleration

ONE = Decimal(1)
HALF = Decimal("0.5")


def group_a_size(players: int) -> int:
    """2.1: the first half of the players rounded up to the nearest even number
    (2 * Q, Q = players / 4 rounded up): 161 players -> 82."""
    return 2 * -(-players // 4)


@dataclass(frozen=True)
class GroupA:
    """Baku's GA as the rules give it (:func:`baku_group_a`), with the figures that
    decide it: ``paired`` players paired in round 1 (N), of whom the first ``size``
    (``2 * ceil(N / 4)``) are GA, ``last`` the last of those, ``players`` everyone at or
    above him in pairing-number order."""

    players: frozenset[int]
    paired: int
    size: int
    last: int | None


def baku_group_a(order: Sequence[int], paired: Collection[int]) -> GroupA:
    """2.1 as docs/fide-mode.md readings 20-21 read it (VCL4THP Q111): N counts only the
    players paired in round 1 (``paired``: a requested bye, a withdrawal or a late entry
    is not); the last GA player is the ``2 * ceil(N / 4)``-th of them in pairing-number
    ``order`` (every player's id, by pairing number); GA is every player at or above him
    (a round-1 absentee or a late entry ranked above him is in GA, so GA may be odd).
    O(players).

    8 players, 3 on a round-1 bye: N = 7, size 4, the 4th of 1, 2, 4, 5, 6, 7, 8 is 5,
    GA = 1-5."""
    present = [pid for pid in order if pid in paired]
    size = group_a_size(len(present))
    if not present:
        return GroupA(frozenset(), 0, size, None)
    last = present[min(size, len(present)) - 1]
    return GroupA(group_a(order, last), len(present), size, last)


def group_a_last(order: Sequence[int], paired: Collection[int]) -> int | None:
    """The last GA player of :func:`baku_group_a` (None when nobody is paired)."""
    return baku_group_a(order, paired).last


def group_a(order: Sequence[int], last: int | None) -> frozenset[int]:
    """Reading 21: GA is every player at or above the last GA player in pairing-number
    ``order``; empty without a last GA player."""
    if last is None or last not in order:
        return frozenset()
    ordered = list(order)
    return frozenset(ordered[: ordered.index(last) + 1])


def ranges(ids: Collection[int]) -> str:
    """Ids as runs, the way ``250`` records write them: {1, 2, 3, 5} -> '1-3, 5'."""
    runs: list[list[int]] = []
    for i in sorted(ids):
        if runs and i == runs[-1][1] + 1:
            runs[-1][1] = i
        else:
            runs.append([i, i])
    return ", ".join(f"{a}-{b}" if a != b else f"{a}" for a, b in runs) or "none"


def accelerated_rounds(total_rounds: int) -> tuple[int, int]:
    """(last round with one virtual point, last accelerated round): 9 rounds -> (3, 5),
    11 -> (3, 6), 7 -> (2, 4), 1 -> (1, 1)."""
    last = -(-total_rounds // 2)
    return -(-last // 2), last


def baku_acceleration(total_rounds: int, group_a: frozenset[int] | set[int]) -> tuple[Acceleration, ...]:
    """The virtual points of a Baku-accelerated tournament whose GA holds ``group_a``
    (ids): TRF-2026 ``250`` records in engine form."""
    if not group_a or total_rounds < 1:
        return ()
    full, last = accelerated_rounds(total_rounds)
    players = frozenset(group_a)
    records = [Acceleration(ONE, 1, full, players)]
    if last > full:
        records.append(Acceleration(HALF, full + 1, last, players))
    return tuple(records)


def is_baku(total_rounds: int, acceleration: tuple[Acceleration, ...]) -> bool:
    """Whether ``acceleration`` is exactly Baku's shape for some GA (same players in
    every record, 1 then ½ over the accelerated rounds)."""
    if not acceleration:
        return False
    players = acceleration[0].players
    if any(a.players != players for a in acceleration):
        return False
    return tuple(acceleration) == baku_acceleration(total_rounds, players)
