"""The literal Dutch enumerator (tests/engine/dutch_literal.py) on hand-worked rounds.

Each expected pairing is worked out here from the 2026 text and is also what
bbpPairings v6.0.0 and Gacrux 1.9.57 give for the same file (the campaign files these
came from: scripts/compare_pairings_bbp.py --subject literal); the enumerator is the
independent reading that the engine's cross-check will compare against.
"""

from __future__ import annotations

from pairing.engine.trf import parse_trf

from .dutch_literal import literal_pair_round, players_of


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
    pairing = literal_pair_round(parse_trf(text).snapshot())
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
    pairing = literal_pair_round(parse_trf(text).snapshot())
    assert {frozenset((b.white, b.black)) for b in pairing.boards} == {frozenset((1, 2)), frozenset((4, 5))}
    assert pairing.bye == 3


def test_round_one_colours_count_tpns_of_the_players_present():
    """5.2.5 in round 1 with TPN 1 absent (a zero-point bye): the top player present,
    TPN 2, gets the initial colour (White), as if numbering started at the first player
    who takes part (bbpPairings and Gacrux alike); 9 players, TPN 11 the lowest, PAB."""
    rows = [(i, 2500 - 60 * i, "0.0", "") for i in range(1, 12)]
    text = _trf(rows, ["240 Z   1    1   10", "XXR 10", "XXC white1", "152 W"])
    pairing = literal_pair_round(parse_trf(text).snapshot())
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
