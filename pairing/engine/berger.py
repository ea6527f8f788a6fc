"""Round-robin pairings from the Berger tables (FIDE C.05, Annex 1).  Pure Python.

Players are Berger numbers 1..n.  With an odd n the table of n + 1 is used and the
player drawn against number n + 1 sits out that round (the bye of the table).

The tables follow one rule, which is how C.05 Annex 1 prints them: with N = n rounded
up to even and M = N - 1, round r pairs N with the player x for whom 2x = r + 1 (mod M),
and then, board by board, x + k with x - k (k = 1 .. N/2 - 1, numbers taken 1..M modulo
M).  N has White in even rounds; of two other players, the one from whom the other is an
odd number of steps ahead (modulo M) has White.  Round 1 of 6: 1-6, 2-5, 3-4; round 2:
6-4, 5-3, 1-2.

A double round robin plays the table twice, colours reversed in the second cycle; by
default the last two rounds of the first cycle swap places (C.05 Annex 1: so that nobody
gets the same colour three times running across the two cycles), and the second cycle
follows the first one's order.
"""

from __future__ import annotations

from collections import Counter


def table_size(players: int) -> int:
    if players < 2:
        raise ValueError("a round robin needs at least two players")
    return players + players % 2


def rounds_per_cycle(players: int) -> int:
    return table_size(players) - 1


def total_rounds(players: int, cycles: int = 1) -> int:
    if cycles not in (1, 2):
        raise ValueError("a round robin has one or two cycles")
    return rounds_per_cycle(players) * cycles


def table_round(size: int, r: int) -> list[tuple[int, int]]:
    """Round ``r`` (1-based) of the Berger table of ``size`` (even): (white, black) by
    board."""
    if size < 2 or size % 2:
        raise ValueError("a Berger table has an even number of players")
    m = size - 1
    if not 1 <= r <= m:
        raise ValueError(f"the table of {size} has rounds 1 to {m}")

    def norm(v: int) -> int:
        return (v - 1) % m + 1

    x = next(i for i in range(1, m + 1) if (2 * i - (r + 1)) % m == 0)
    boards = [(size, x) if r % 2 == 0 else (x, size)]
    for k in range(1, size // 2):
        a, b = norm(x + k), norm(x - k)
        boards.append((a, b) if (b - a) % m % 2 == 1 else (b, a))
    return boards


def cycle_order(players: int, cycles: int = 1, reverse_last_two: bool = True) -> list[tuple[int, bool]]:
    """(table round, colours reversed) for each tournament round."""
    m = rounds_per_cycle(players)
    first = list(range(1, m + 1))
    if cycles == 2 and reverse_last_two and m >= 2:
        first[-2], first[-1] = first[-1], first[-2]
    order = [(r, False) for r in first]
    if cycles == 2:
        order += [(r, True) for r in first]
    return order


def pairings(players: int, round_number: int, cycles: int = 1,
             reverse_last_two: bool = True) -> tuple[list[tuple[int, int]], int | None]:
    """Round ``round_number`` of a round robin of ``players``: boards as (white, black)
    Berger numbers, and the number that sits out (None for an even field)."""
    order = cycle_order(players, cycles, reverse_last_two)
    if not 1 <= round_number <= len(order):
        raise ValueError(f"a round robin of {players} players in {cycles} cycle(s) has rounds 1 to {len(order)}")
    table, reversed_colours = order[round_number - 1]
    size = table_size(players)
    boards = []
    bye = None
    for w, b in table_round(size, table):
        if size != players and size in (w, b):
            bye = b if w == size else w
            continue
        boards.append((b, w) if reversed_colours else (w, b))
    return boards, bye


def check_schedule(rounds: list[list[tuple[int, int]]], players: int, cycles: int = 1) -> list[str]:
    """What is wrong with rounds played so far (VCL4THP Q101-102): a pair meeting more
    than once per cycle (twice in all in a double round robin), a player twice in a round,
    and the same colour three rounds running."""
    problems = []
    met: Counter = Counter()
    colours: dict[int, list[str]] = {}
    per_cycle = rounds_per_cycle(players)
    for number, boards in enumerate(rounds, start=1):
        seen: set[int] = set()
        for w, b in boards:
            for p in (w, b):
                if p in seen:
                    problems.append(f"round {number}: player {p} plays twice")
                seen.add(p)
            pair = frozenset((w, b))
            met[pair] += 1
            cycle_limit = 1 if number <= per_cycle else 2
            if met[pair] > min(cycle_limit, cycles):
                problems.append(f"round {number}: players {w} and {b} meet again in the same cycle")
            colours.setdefault(w, []).append("w")
            colours.setdefault(b, []).append("b")
            for p in (w, b):
                last = colours[p][-3:]
                if len(last) == 3 and len(set(last)) == 1:
                    problems.append(f"round {number}: player {p} has {'White' if last[0] == 'w' else 'Black'} "
                                    "three rounds running")
    return problems
