"""The Berger tables of FIDE C.05 Annex 1, hand-typed from the printed tables (white
first, board 1 first), against :mod:`pairing.engine.berger`; then properties for every
size from 3 to 16 players, single and double."""

from __future__ import annotations

from collections import Counter
from itertools import combinations

import pytest

from pairing.engine.berger import check_schedule, pairings, table_round, total_rounds

TABLE_4 = [
    "1-4 2-3",
    "4-3 1-2",
    "2-4 3-1",
]
TABLE_6 = [
    "1-6 2-5 3-4",
    "6-4 5-3 1-2",
    "2-6 3-1 4-5",
    "6-5 1-4 2-3",
    "3-6 4-2 5-1",
]
TABLE_8 = [
    "1-8 2-7 3-6 4-5",
    "8-5 6-4 7-3 1-2",
    "2-8 3-1 4-7 5-6",
    "8-6 7-5 1-4 2-3",
    "3-8 4-2 5-1 6-7",
    "8-7 1-6 2-5 3-4",
    "4-8 5-3 6-2 7-1",
]
TABLE_10 = [
    "1-10 2-9 3-8 4-7 5-6",
    "10-6 7-5 8-4 9-3 1-2",
    "2-10 3-1 4-9 5-8 6-7",
    "10-7 8-6 9-5 1-4 2-3",
    "3-10 4-2 5-1 6-9 7-8",
    "10-8 9-7 1-6 2-5 3-4",
    "4-10 5-3 6-2 7-1 8-9",
    "10-9 1-8 2-7 3-6 4-5",
    "5-10 6-4 7-3 8-2 9-1",
]
FIRST_TWO = {  # rounds 1 and 2 of the larger tables
    12: ["1-12 2-11 3-10 4-9 5-8 6-7", "12-7 8-6 9-5 10-4 11-3 1-2"],
    14: ["1-14 2-13 3-12 4-11 5-10 6-9 7-8", "14-8 9-7 10-6 11-5 12-4 13-3 1-2"],
    16: ["1-16 2-15 3-14 4-13 5-12 6-11 7-10 8-9", "16-9 10-8 11-7 12-6 13-5 14-4 15-3 1-2"],
}


def parse(row: str) -> list[tuple[int, int]]:
    return [tuple(int(x) for x in board.split("-")) for board in row.split()]


@pytest.mark.parametrize("size, table", [(4, TABLE_4), (6, TABLE_6), (8, TABLE_8), (10, TABLE_10)])
def test_the_tables_of_c05_annex_1(size, table):
    assert [table_round(size, r) for r in range(1, size)] == [parse(row) for row in table]


@pytest.mark.parametrize("size", sorted(FIRST_TWO))
def test_the_first_rounds_of_the_larger_tables(size):
    assert [table_round(size, r) for r in (1, 2)] == [parse(row) for row in FIRST_TWO[size]]


def test_an_odd_field_uses_the_next_table_and_the_player_against_the_last_number_sits_out():
    """5 players: table of 6; round 1 1-6 -> 1 sits out, 2-5, 3-4 play."""
    assert pairings(5, 1) == ([(2, 5), (3, 4)], 1)
    assert pairings(5, 2) == ([(5, 3), (1, 2)], 4)
    assert pairings(3, 3) == ([(3, 1)], 2)


def test_a_double_round_robin_reverses_colours_and_by_default_the_last_two_rounds_of_cycle_one():
    """6 players: first cycle 1, 2, 3, 5, 4; second cycle the same order, colours reversed."""
    rounds = [pairings(6, r, cycles=2)[0] for r in range(1, 11)]
    assert rounds[3] == parse(TABLE_6[4]) and rounds[4] == parse(TABLE_6[3])
    assert rounds[5] == [(b, w) for w, b in parse(TABLE_6[0])]
    assert rounds[8] == [(b, w) for w, b in parse(TABLE_6[4])]
    plain = [pairings(6, r, cycles=2, reverse_last_two=False)[0] for r in range(1, 11)]
    assert plain[3] == parse(TABLE_6[3])


@pytest.mark.parametrize("players", range(3, 17))
@pytest.mark.parametrize("cycles", [1, 2])
def test_every_pair_meets_once_per_cycle_and_colours_balance(players, cycles):
    rounds = [pairings(players, r, cycles)[0] for r in range(1, total_rounds(players, cycles) + 1)]
    met = Counter(frozenset(b) for boards in rounds for b in boards)
    assert set(met) == {frozenset(p) for p in combinations(range(1, players + 1), 2)}
    assert set(met.values()) == {cycles}
    whites = Counter(w for boards in rounds for w, _ in boards)
    games = Counter(p for boards in rounds for b in boards for p in b)
    for p in range(1, players + 1):
        assert abs(2 * whites[p] - games[p]) <= 1 if cycles == 1 else 2 * whites[p] == games[p]
    byes = [pairings(players, r, cycles)[1] for r in range(1, total_rounds(players, cycles) + 1)]
    assert (byes.count(None) == len(byes)) == (players % 2 == 0)
    if players % 2:
        assert Counter(byes) == {p: cycles for p in range(1, players + 1)}
    if players != 4 or cycles == 1:
        assert check_schedule(rounds, players, cycles) == []


def test_vcl_q101_q102_the_check_finds_a_repeated_pair_and_three_colours_running():
    rounds = [parse(TABLE_4[0]), parse(TABLE_4[0]), [(1, 3), (4, 2)], [(1, 2), (3, 4)]]
    problems = check_schedule(rounds, 4)
    assert "round 2: players 1 and 4 meet again in the same cycle" in problems
    assert "round 3: player 1 has White three rounds running" in problems
    assert check_schedule([parse(TABLE_4[0]), [(1, 1), (2, 3)]], 4) == ["round 2: player 1 plays twice",
                                                                       "round 2: players 2 and 3 meet again in the same cycle"]
