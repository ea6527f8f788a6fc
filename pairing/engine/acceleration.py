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

from decimal import Decimal

from .model import Acceleration

ONE = Decimal(1)
HALF = Decimal("0.5")


def group_a_size(players: int) -> int:
    """2.1: the first half of the players rounded up to the nearest even number
    (2 * Q, Q = players / 4 rounded up): 161 players -> 82."""
    return 2 * -(-players // 4)


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
