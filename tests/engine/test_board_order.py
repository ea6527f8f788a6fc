"""Board order (C.04.2 / General Handling Rules, as fixed in the engine doc, step 9)."""

from pairing.engine import pair_round

from .builders import boards, fresh, from_rounds


def test_sum_of_scores_breaks_equal_top_scores():
    """Round 1: 1-6, 2-5, 3-4 (White wins).  Pairs (see test_brackets C1): 3-2
    (1 + 1), 4-1 (0 + 1) and 5-6 (0 + 0).  Both first pairs have a 1-point higher
    ranked player; the sum 2 beats 1, so 3-2 is board 1 although 1 has TPN 1."""
    snap = from_rounds(6, [[(1, 6, "1-0"), (2, 5, "1-0"), (3, 4, "1-0")]])
    assert boards(pair_round(snap)) == [(3, 2), (4, 1), (5, 6)]


def test_higher_ranked_tpn_breaks_equal_scores_and_sums():
    """Round 1: 1-2 drawn, 3-4 and 5-6 double forfeits: pairs 3-1 and 2-4 both have
    a 0.5-point higher ranked player and sum 0.5; the higher ranked TPN 1 < 2."""
    snap = from_rounds(6, [[(1, 2, "1/2"), (3, 4, "--"), (5, 6, "--")]])
    assert boards(pair_round(snap)) == [(3, 1), (2, 4), (5, 6)]


def test_higher_ranked_score_first():
    """A pair of a 1-point and a 0-point player precedes a pair of two 0.5-point
    players: the higher ranked player's score decides first (1 > 0.5), before the
    sum (1 = 1).  Round 1: 1 beats 4, 2-5 and 3-6 drawn; the top bracket {1} takes
    upfloater 5 (C7); boards 1-5 first, then the 0.5 bracket 2, 3, 6 ... and the PAB
    is never a board."""
    snap = from_rounds(6, [[(1, 4, "1-0"), (2, 5, "1/2"), (3, 6, "1/2")]])
    p = pair_round(snap)
    first = p.boards[0]
    assert {first.white, first.black} == {1, 5}


def test_pab_is_not_a_board():
    p = pair_round(fresh(5))
    assert p.bye == 5 and len(p.boards) == 2 and all(5 not in (b.white, b.black) for b in p.boards)
