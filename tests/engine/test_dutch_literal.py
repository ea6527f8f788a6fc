"""The literal Dutch enumerator (tests/engine/dutch_literal.py) on hand-worked rounds.

Each expected pairing is worked out here from the 2026 text and is also what
bbpPairings v6.0.0 and Gacrux 1.9.57 give for the same file (the campaign files these
came from: scripts/compare_pairings_bbp.py --subject literal); the enumerator is the
independent reading that the engine's cross-check compares against; every named round
here is also paired by the engine (``_paired``).
"""

from __future__ import annotations

import itertools
import math
from dataclasses import replace

from pairing.engine import System, pair_round
from pairing.engine.trf import parse_trf

from .dutch_literal import Literal, literal_pair_round, players_of


def _record(rank: int, rating: int, points: str, blocks: str) -> str:
    """A 001 record: rank in columns 5-8, name 15-47, rating 49-52, points 81-84, rank
    86-89, round blocks from column 92."""
    line = f"001 {rank:4d}      {'Player ' + str(rank):<33} {rating:4d}" + " " * 28 + f"{points:>4} {rank:4d}  "
    assert len(line) == 91
    return line + blocks


def _trf(rows: list[tuple[int, int, str, str]], extra: list[str]) -> str:
    """rows: (rank, rating, points, round blocks)."""
    return "\n".join([_record(*row) for row in rows] + extra) + "\n"


def _pairs(pairing):
    return {(b.white, b.black) for b in pairing.boards}, pairing.bye


def _paired(snapshot):
    """The enumerator's pairing, after checking that the engine pairs the round the same
    way (pairs, colours, PAB): each named case here holds for both."""
    pairing = literal_pair_round(snapshot)
    assert _pairs(pair_round(replace(snapshot, system=System.DUTCH))) == _pairs(pairing)
    return pairing


def test_c5_pab_to_the_lowest_score_moves_the_top_bracket():
    """[C5] ranks above [C6]: the top scoregroup {2, 5} could pair 2-5, but then 1 and 3
    (who met) are left with 4 and the PAB must go to 1 or 3 (0.5).  Both top players
    downfloat instead, so that 4 (0) takes the PAB: 1-2 and 5-3 (bbpPairings, Gacrux)."""
    text = _trf([
        (1, 2673, "0.5", "   3 b ="),
        (2, 2433, "1.0", "   4 w 1"),
        (3, 2425, "0.5", "   1 w ="),
        (4, 2136, "0.0", "   2 b 0"),
        (5, 1099, "1.0", "0000 - U"),
        (6, 2685, "0.0", "0000 - Z"),
    ], ["240 Z   2    6", "XXR 5", "XXC black1", "152 B"])
    pairing = _paired(parse_trf(text).snapshot())
    assert _pairs(pairing) == ({(1, 2), (5, 3)}, 4)


def test_c2_and_c4_choose_the_mdp_set_whose_limbo_takes_the_pab():
    """Last round: 2 and 3 (2.0) met; 2 can only meet 1, 3 only 5; 1 and 4 have had the
    PAB ([C2]).  The one completion is 1-2, 4-5 and the PAB to 3, so in the bracket of 4
    the MDP 3 (2.0) stays in the Limbo and 4 (1.0) is paired, against [C7]'s wish: [C4]
    ranks above it (bbpPairings and Gacrux pair so)."""
    text = _trf([
        (1, 2139, "1.5", "   3 w 0  0000 - U     5 b 1"),
        (2, 1885, "2.0", "   4 b =     5 w =     3 w 1"),
        (3, 1685, "2.0", "   1 b 1     4 w 1     2 b 0"),
        (4, 1225, "1.0", "   2 w =     3 b 0  0000 - U"),
        (5, 1594, "0.5", "0000 - Z     2 b =     1 w 0"),
    ], ["XXR 4", "XXC white1", "152 W", "162  W 1.0    D 0.5    L 0.0    P 0.5"])
    pairing = _paired(parse_trf(text).snapshot())
    assert {frozenset((b.white, b.black)) for b in pairing.boards} == {frozenset((1, 2)), frozenset((4, 5))}
    assert pairing.bye == 3


def test_round_one_colours_count_tpns_of_the_players_present():
    """5.2.5 in round 1 with TPN 1 absent (a zero-point bye): the top player present,
    TPN 2, gets the initial colour (White), as if numbering started at the first player
    who takes part (bbpPairings and Gacrux alike); 9 players, TPN 11 the lowest, PAB."""
    rows = [(i, 2500 - 60 * i, "0.0", "") for i in range(1, 12)]
    text = _trf(rows, ["240 Z   1    1   10", "XXR 10", "XXC white1", "152 W"])
    pairing = _paired(parse_trf(text).snapshot())
    assert _pairs(pairing) == ({(2, 6), (7, 3), (4, 8), (9, 5)}, 11)


def test_floats_and_preferences_are_read_from_the_rounds():
    """1.4.3: a PAB and a half-point bye give a downfloat, a zero-point bye none; 1.7.1:
    two Whites in a row is an absolute preference for Black."""
    text = _trf([
        (1, 2400, "2.0", "   2 w 1     3 w 1"),
        (2, 2300, "1.0", "   1 b 0  0000 - U"),
        (3, 2200, "0.5", "0000 - H     1 b 0"),
        (4, 2100, "0.0", "0000 - Z  0000 - Z"),
    ], ["XXR 5", "XXC white1", "152 W"])
    ps = players_of(parse_trf(text).snapshot())
    assert ps[2].floats == ("D", "")  # the PAB in round 2; round 1 between equal scores: no float
    assert ps[3].floats == ("U", "D")  # met 1 (1.0) with 0.5 in round 2; H in round 1
    assert ps[4].floats == ("", "")
    assert ps[1].pref is not None and ps[1].strength == 3 and ps[1].pref.value == "b"
    assert not ps[2].pab_ok and ps[3].pab_ok


def _round_one(n: int) -> Literal:
    rows = [(i, 2600 - 10 * i, "0.0", "") for i in range(1, n + 1)]
    return Literal(parse_trf(_trf(rows, ["XXR 9", "XXC white1", "152 W"])).snapshot())


def test_4_2_note_eleven_players_give_720_transpositions_in_lexicographic_order():
    """The note to 4.2: an 11-player homogeneous bracket (S1 = 1-5, S2 = 6-11) has 720
    transpositions, sorted on their first five BSNs: 6-7-8-9-10, 6-7-8-9-11, then
    6-7-8-10-9 (the 2017 listing; the 2026 listing's third element is a slip), ...,
    11-10-9-8-7."""
    lit = _round_one(11)
    heads = [tuple(b for _, b in pairs) for pairs, _ in itertools.islice(lit.homogeneous(list(range(1, 12)),
                                                                                          frozenset()), 720)]
    assert len(set(heads)) == 720
    assert heads[:4] == [(6, 7, 8, 9, 10), (6, 7, 8, 9, 11), (6, 7, 8, 10, 9), (6, 7, 8, 10, 11)]
    assert heads[-1] == (11, 10, 9, 8, 7)
    assert all(pairs[0][0] == 1 for pairs, _ in itertools.islice(lit.homogeneous(list(range(1, 12)),
                                                                                   frozenset()), 720))


def test_4_2_note_two_mdps_and_nine_residents_give_72_transpositions():
    """The same note, heterogeneous: two MDPs (BSN 1, 2) over nine residents give 72
    MDP-pairings, 3-4, 3-5, ..., 3-11, 4-3, ..., 11-10 (BSNs)."""
    lit = _round_one(11)
    mdps, residents = [1, 2], list(range(3, 12))
    heads = []
    for pairs, _ in lit.heterogeneous(mdps, residents, frozenset()):
        head = tuple(b for a, b in pairs if a in mdps)
        if len(head) == 2 and head not in heads:
            heads.append(head)
    assert len(heads) == 72
    assert heads[:3] == [(3, 4), (3, 5), (3, 6)] and heads[8] == (4, 3) and heads[-1] == (11, 10)


def _exchange_order(lit: Literal) -> list[tuple[frozenset[int], frozenset[int]]]:
    s1, s2 = list(range(1, 6)), list(range(6, 12))
    return [(frozenset(set(s1) - set(a)), frozenset(set(a) - set(s1))) for a, _ in lit.exchanges(list(range(1, 12)),
                                                                                                   s1, s2)]


def test_4_3_examples_order_the_resident_exchanges():
    """4.3 (2017 D.2) with its own examples, eleven players: (b) 6<->4 before 8<->5, 8+6
    for 4+3 before 9+8 for 5+4; (c) moving 5 before moving 4, 5-2 before 4-3, 5-4-1 before
    5-3-2; (d) 6-9 before 7-8, 6-7-10 before 6-8-9 (each pair equal on the rules above)."""
    order = _exchange_order(_round_one(11))

    def at(out: set[int], into: set[int]) -> int:
        return order.index((frozenset(out), frozenset(into)))

    assert at({4}, {6}) < at({5}, {8})
    assert at({4, 3}, {8, 6}) < at({5, 4}, {9, 8})
    assert at({5}, {7}) < at({4}, {6})  # (b) equal: 7-5 = 6-4
    assert at({5, 2}, {6, 7}) < at({4, 3}, {6, 7})
    assert at({5, 4, 1}, {6, 7, 8}) < at({5, 3, 2}, {6, 7, 8})
    assert at({5, 4}, {6, 9}) < at({5, 4}, {7, 8})
    assert at({5, 4, 3}, {6, 7, 10}) < at({5, 4, 3}, {6, 8, 9})
    assert len(order) == sum(math.comb(5, k) * math.comb(6, k) for k in range(1, 6))
    assert order[0] == (frozenset({5}), frozenset({6}))


def test_4_4_2_mdp_sets_by_their_smallest_differing_bsn():
    """4.4.2's example: with MDPs of BSN 1, 3 and 4 and two to choose,
    {1,3} < {1,4} < {3,4}."""
    assert _round_one(6).mdp_sets([1, 3, 4], 2) == [(1, 3), (1, 4), (3, 4)]


def test_c9_the_pab_goes_to_the_downfloater_with_fewer_unplayed_games():
    """[C9] in a bracket that is not the last: round 6 of 7, the 2.5 bracket (the MDP 4
    and six residents) downfloats one player over the last two (6 and 10, who pair each
    other: both had the PAB), so that player takes the PAB.  5 and 8 are equal on [C5]-[C8];
    5 missed round 4, 8 played every round: 4-5 and the PAB to 8 (bbpPairings and Gacrux
    alike; reading DL4)."""
    text = _trf([
        (1, 2426, "2.5", "   6 b 1  0000 - H     3 w 0     2 w =     8 b ="),
        (2, 2372, "3.5", "   7 w 1     5 b 1     4 w 0     1 b =     3 b +"),
        (3, 2266, "3.0", "   8 b 1    11 w =     1 b 1     4 b =     2 w -"),
        (4, 2214, "4.5", "   9 w 1     6 b 1     2 b 1     3 w =    11 b 1"),
        (5, 1903, "2.5", "  10 b 1     2 w 0    11 b 1  0000 - Z     9 w ="),
        (6, 1621, "1.0", "   1 w 0     4 w 0  0000 - U     9 b 0     7 b 0"),
        (7, 1619, "2.5", "   2 b 0    10 w =     8 b 1    11 w 0     6 w 1"),
        (8, 1614, "2.5", "   3 w 0     9 b 1     7 w 0    10 b 1     1 w ="),
        (9, 1581, "2.5", "   4 b 0     8 w 0    10 b 1     6 w 1     5 b ="),
        (10, 1354, "1.5", "   5 w 0     7 b =     9 w 0     8 w 0  0000 - U"),
        (11, 1351, "2.5", "0000 - U     3 b =     5 w 0     7 b 1     4 w 0"),
    ], ["260   1   7    1   11", "XXR 7", "XXC black1", "152 B"])
    pairing = _paired(parse_trf(text).snapshot())
    assert _pairs(pairing) == ({(1, 7), (3, 2), (4, 5), (6, 10), (9, 11)}, 8)


def test_last_round_topscorer_meets_a_non_topscorer_with_the_same_absolute_preference():
    """1.8 and [C3] in the last round (5 of 5): 1 (3.0, a topscorer: over 50% of 4) and 5
    (2.0, not one) both have an absolute preference for White (1: Black twice in a row;
    5: Black twice in a row).  [C3] bars only two non-topscorers, and 1 can meet no one
    else (1-4, 1-3 and 1-2 were played), so 1-5 is paired; 5.2.2 gives White to the
    wider colour difference (1: -1, 5: 0), and 5 gets a third Black in a row, which [C11]
    allows a topscorer's opponent.  4 (3.0), who has met everyone present, takes the PAB
    (bbpPairings and Gacrux alike)."""
    text = _trf([
        (1, 2680, "3.0", "   4 w 1  0000 - H     3 b =     2 b 1"),
        (2, 1869, "1.0", "   5 b 0     4 w 0     6 b 1     1 w 0"),
        (3, 1672, "2.5", "   6 w 1     5 b 1     1 w =     4 b 0"),
        (4, 1662, "3.0", "   1 b 0     2 b 1     5 w 1     3 w 1"),
        (5, 1468, "2.0", "   2 w 1     3 w 0     4 b 0     6 b 1"),
        (6, 1179, "1.0", "   3 b 0  0000 - U     2 w 0     5 w 0"),
    ], ["240 Z   5    6", "XXR 5", "XXC white1", "152 W"])
    snapshot = parse_trf(text).snapshot()
    ps = players_of(snapshot)
    assert ps[1].topscorer and not ps[5].topscorer
    assert ps[1].strength == ps[5].strength == 3 and ps[1].pref == ps[5].pref
    assert _pairs(_paired(snapshot)) == ({(1, 5), (3, 2)}, 4)


def test_bbppairings_2025_c5_case_pab_to_the_zero_rather_than_pairing_the_leaders():
    """bbpPairings' own test of the new [C5] (its dutch_2025_C5 case, as facts): last round
    of 3, player 4 absent.  Pairing the leaders 1-3 would leave 2, 5, 6, where 2-5 and 5-6
    have met: 2-6 and the PAB to 5 (1 point).  [C5] ranks above [C6]: 1-5, 3-2 and the
    PAB to 6 (0 points), which bbpPairings expects."""
    text = _trf([
        (1, 2720, "2.0", "   4 w 1     2 b 1"),
        (2, 2701, "1.0", "   5 b 1     1 w 0"),
        (3, 2697, "2.0", "   6 w 1     4 b 1"),
        (4, 2689, "0.0", "   1 b 0     3 w 0"),
        (5, 2673, "1.0", "   2 w 0     6 b 1"),
        (6, 2664, "0.0", "   3 b 0     5 w 0"),
    ], ["240 Z   3    4", "XXR 3", "XXC white1", "152 W"])
    assert _pairs(_paired(parse_trf(text).snapshot())) == ({(1, 5), (3, 2)}, 6)


def test_bbppairings_2025_c9_case_pab_to_the_zero_who_has_played():
    """bbpPairings' test of the new [C9] (its dutch_2025_C9 case, as facts): round 2 of 3;
    3, 4 and 5 have 0 points, 5 missed round 1.  The PAB goes to a 0-point player with the
    fewest unplayed games: 2-1, 3-5 and the PAB to 4, which bbpPairings expects."""
    text = _trf([
        (1, 2720, "1.0", "   3 w 1"),
        (2, 2701, "1.0", "   4 b 1"),
        (3, 2697, "0.0", "   1 b 0"),
        (4, 2689, "0.0", "   2 w 0"),
        (5, 2673, "0.0", "0000 - Z"),
    ], ["XXR 3", "XXC white1", "152 W"])
    assert _pairs(_paired(parse_trf(text).snapshot())) == ({(2, 1), (3, 5)}, 4)
