"""G1/G2 re-composition (2.2.3-2.2.4; 2026: 3.2.3-3.2.4), the shifter order (4.3;
2026: 4.3 too) and transpositions (2.2.6 / 4.4)."""

import random
from itertools import permutations

import pytest

from pairing.engine import pair_round
from pairing.engine.dubov.brackets import middle_out
from pairing.engine.matching import lex_first_assignment, maximum_matching, min_class_pairs

from .builders import boards, fresh, from_rounds
from .literal import literal_pair_round

# Four White seekers 1-4 who have each played every Black seeker 5-8 (all drawn):
# 1-4 have W B W B (mild White), 5-8 B W B W (mild Black), everybody 2 points.
FOUR_BY_FOUR = [
    [(1, 5, "1/2"), (2, 6, "1/2"), (3, 7, "1/2"), (4, 8, "1/2")],
    [(6, 1, "1/2"), (7, 2, "1/2"), (8, 3, "1/2"), (5, 4, "1/2")],
    [(1, 7, "1/2"), (2, 8, "1/2"), (3, 5, "1/2"), (4, 6, "1/2")],
    [(8, 1, "1/2"), (5, 2, "1/2"), (6, 3, "1/2"), (7, 4, "1/2")],
]


@pytest.mark.parametrize(
    ("items", "expected"),
    [
        ("ABCDEFG", "DCEBFAG"),  # the example of 4.3.3
        ("ABCDEF", "CDBEAF"),  # even: the higher of the two middles first
        ("AB", "AB"),
        ("A", "A"),
        ("", ""),
    ],
)
def test_4_3_3_middle_out(items, expected):
    """4.3.3: sequence numbers from the (remaining) middle; of two middles the one
    higher in the list first.  A..G -> D, C, E, B, F, A, G."""
    assert "".join(middle_out(list(items))) == expected


def test_middle_out_matches_the_literal_description():
    """The closed form equals the text's procedure (take the remaining middle, the
    higher of two) for every length up to 40."""
    for n in range(41):
        rest = list(range(n))
        literal = []
        while rest:
            literal.append(rest.pop((len(rest) - 1) // 2))
        assert middle_out(list(range(n))) == literal


def test_2_2_4_a_four_white_seekers_give_u_two():
    """2.2.4.1 with u = the minimum number of pairs inside the smaller subgroup:
    G1 = {1, 2, 3, 4}, G2 = {5, 6, 7, 8}, equal, so S = G1.  Every White seeker has
    played every Black seeker: every legal pairing has two pairs inside G1 and two
    inside G2, though no single pair is forced.  u = 2.  4.3 order of White seekers
    (ARO all 2435, then TPN): 1, 2, 3, 4 -> middle-out 2, 3, 1, 4; the first 2-set
    {2, 3} works: step (b) then shifts 2 + 0 Black seekers, middle-out of 5, 6, 7, 8
    is 6, 7, 5, 8: {6, 7}.  G1 = {1, 4, 6, 7}, G2 = {2, 3, 5, 8}; S1 by ARO: 1, 4
    (2435), 6, 7 (2475); T2 = (2, 3, 5, 8).  Colours: equal mild preferences and
    equal histories -> 5.2.5, the higher ranked player gets their preference."""
    p = pair_round(from_rounds(8, FOUR_BY_FOUR))
    t = p.explanation.brackets[0]
    assert t.g1 == (1, 2, 3, 4) and t.g2 == (5, 6, 7, 8)
    assert t.shifted_from_smaller == (2, 3)
    assert t.shifted_from_larger == (6, 7)
    assert t.s1 == (1, 4, 6, 7) and t.t2 == (2, 3, 5, 8)
    assert boards(p) == [(1, 2), (3, 4), (6, 5), (8, 7)]
    assert {c.rule for c in p.explanation.colours} == {"5.2.5"}


def test_2_2_4_a_skips_a_shift_set_without_a_crossing_pairing():
    """2.2.4.1, first u-set in 4.3 order *that allows a legal pairing*: the four-by-
    four case with 1-2 and 1-3 forbidden.  1 can then only play 4, so 1 and 4 must
    end in different subgroups: {2, 3} (#1, #2) keeps both in G1 and fails; the next
    set is {2, 1} (#1, #3).  Step (b): {6, 7} as before.  G1 = {3, 4, 6, 7},
    G2 = {1, 2, 5, 8}; T2: 3-1 is forbidden, so 3-2, 4-1, 6-5, 7-8."""
    p = pair_round(from_rounds(8, FOUR_BY_FOUR, forbidden=[(1, 2), (1, 3)]))
    t = p.explanation.brackets[0]
    assert t.shifted_from_smaller == (2, 1)
    assert t.shifted_from_larger == (6, 7)
    assert t.s1 == (3, 4, 6, 7) and t.t2 == (2, 1, 5, 8)
    assert boards(p) == [(1, 4), (2, 3), (6, 5), (8, 7)]


def test_2_2_4_b_first_set_in_4_3_order_that_pairs():
    """2.2.4.2: round 1: 1-2 drawn, 3-4 and 5-6 double forfeits; 3-1 and 3-4
    forbidden.  Top bracket {1, 2} has met: upfloaters {3, 4} (3 can still play 2).
    G1 = {2} (strong White), G2 = {1, 3, 4}; one Black seeker must move, 4.3 order
    by TPN middle-out: 3, 1, 4.  With 3 in G1, 3 must play 1 or 4 - both forbidden;
    so 1 is shifted.  S1 by ARO: 1 (2480), 2 (2490); T2 from (3, 4): 1-3 forbidden,
    so T2 = (4, 3)."""
    snap = from_rounds(6, [[(1, 2, "1/2"), (3, 4, "--"), (5, 6, "--")]], forbidden=[(3, 1), (3, 4)])
    p = pair_round(snap)
    t = p.explanation.brackets[0]
    assert t.upfloaters == (3, 4)
    assert t.shifted_from_larger == (1,)
    assert t.s1 == (1, 2) and t.t2 == (4, 3)
    assert boards(p) == [(4, 1), (2, 3), (5, 6)]


def test_2_2_4_b_takes_only_original_members_of_the_larger_subgroup():
    """D14 where players have played: step (b) draws from the possible shifters of
    L after step (a); 2 and 3, moved to G2 in step (a) of the four-by-four case, seek
    White, so they are not Black shifters (4.3) and the step-(b) set is drawn from 5-8."""
    t = pair_round(from_rounds(8, FOUR_BY_FOUR)).explanation.brackets[0]
    assert set(t.shifted_from_larger) <= {5, 6, 7, 8}


D14_FORBIDDEN = [(1, 2), (1, 6), (2, 6), (3, 5), (3, 6), (3, 7)]


def test_d14_round_one_step_b_pool_includes_the_player_moved_by_step_a():
    """D14, the worked round of the engine doc: round 1 of 7, forbidden 1-2, 1-6,
    2-6, 3-5, 3-6, 3-7.

    PAB (2.1): 7, the lowest ranked; 1-6 still pair (1-3, 2-4, 5-6).  The bracket
    1-6: nobody has played, G1 = {1, 2, 3}, G2 = {4, 5, 6} (2.2.3).  6 can play none
    of G1, so u = 1 (2.2.4.1); G1 middle-out by TPN is 2, 1, 3 and {2} works: 2 moves
    to G2.  Step (b), one player from L = {2, 4, 5, 6}: everyone has a mild Black
    preference (1.5.2.4), so all four are possible shifters (4.3, 4.3.1), numbered
    middle-out by TPN (4.3.3): 4, 5, 2, 6.  {4} gives G1 = {1, 3, 4}, G2 = {2, 5, 6}:
    S1 = 1, 3, 4, T2 = 5, 2, 6 (1-2 and 3-5 forbidden).  Colours 5.2.1: 1 odd -> White;
    2 and 4 even -> Black.  The earlier reading (pool = L's original members 4, 5, 6,
    middle-out 5, 4, 6) moved 5 and paired 1-4, 3-2, 5-6."""
    p = pair_round(fresh(7, forbidden=D14_FORBIDDEN))
    assert p.bye == 7
    t = p.explanation.brackets[0]
    assert t.g1 == (1, 2, 3) and t.g2 == (4, 5, 6)
    assert t.shifted_from_smaller == (2,)
    assert t.shifted_from_larger == (4,)
    assert t.s1 == (1, 3, 4) and t.t2 == (5, 2, 6)
    assert boards(p) == [(1, 5), (3, 2), (6, 4)]
    assert literal_pair_round(fresh(7, forbidden=D14_FORBIDDEN)).boards == p.boards


def test_2_2_5_s1_by_aro_then_ranking():
    """2.2.5: S1 sorts G1 by ascending ARO, equal AROs by initial ranking (see the
    four-by-four case: 1 and 4 share ARO 2435 and keep TPN order, then 6, 7 with
    2475)."""
    t = pair_round(from_rounds(8, FOUR_BY_FOUR)).explanation.brackets[0]
    assert t.s1 == (1, 4, 6, 7)


def test_4_4_transpositions_lexicographic_by_tpn():
    """4.4: with S1 fixed, T2 is the first permutation of G2 (numbered by TPN) with
    every pair legal.  Round 1, players 1-4 with 1-3 forbidden: S1 = (1, 2),
    transpositions (3, 4), (4, 3): the first pairs 1-3, so T2 = (4, 3)."""
    from .builders import fresh

    t = pair_round(fresh(4, forbidden=[(1, 3)])).explanation.brackets[0]
    assert t.t2 == (4, 3)


def brute_lex(n, ok):
    for perm in permutations(range(n)):
        if all(ok(r, c) for r, c in enumerate(perm)):
            return list(perm)
    return None


def test_lex_first_assignment_equals_the_first_legal_permutation():
    """The fast T2 (a perfect matching then row-by-row smallest feasible column) is
    the first legal permutation in 4.4 order, on 400 random small cases."""
    rng = random.Random(7)
    for _ in range(400):
        n = rng.randint(0, 6)
        density = rng.choice([0.3, 0.5, 0.8])
        allowed = {(r, c) for r in range(n) for c in range(n) if rng.random() < density}
        ok = lambda r, c, a=allowed: (r, c) in a  # noqa: E731
        assert lex_first_assignment(n, ok) == brute_lex(n, ok)


def brute_max_matching(n, ok, vs=None):
    vs = list(range(n)) if vs is None else vs
    if len(vs) < 2:
        return 0
    a, rest = vs[0], vs[1:]
    best = brute_max_matching(n, ok, rest)
    for j, b in enumerate(rest):
        if ok(a, b):
            best = max(best, 1 + brute_max_matching(n, ok, rest[:j] + rest[j + 1 :]))
    return best


def test_edmonds_matching_is_maximum():
    """The blossom matching used for C4 and all legality tests finds a maximum
    matching (odd cycles included) on 300 random graphs of up to 10 vertices."""
    rng = random.Random(11)
    for _ in range(300):
        n = rng.randint(0, 10)
        p = rng.choice([0.2, 0.4, 0.7])
        edges = {frozenset((a, b)) for a in range(n) for b in range(a + 1, n) if rng.random() < p}
        ok = lambda a, b, e=edges: frozenset((a, b)) in e  # noqa: E731
        mate = maximum_matching(n, ok)
        size = sum(1 for v in range(n) if mate[v] > v)
        assert all(mate[mate[v]] == v and ok(v, mate[v]) for v in range(n) if mate[v] != -1)
        assert size == brute_max_matching(n, ok)


def test_min_class_pairs_is_exact():
    """u of 2.2.4.1 when the cheap test fails: rustworkx weighted matching gives the
    minimum number of pairs inside the class, checked by enumeration."""
    rng = random.Random(5)

    def perfect(vs, ok):
        if not vs:
            yield []
            return
        a = vs[0]
        for j in range(1, len(vs)):
            if ok(a, vs[j]):
                for m in perfect(vs[1:j] + vs[j + 1 :], ok):
                    yield [(a, vs[j])] + m

    for _ in range(150):
        n = rng.choice([2, 4, 6, 8])
        edges = {frozenset((a, b)) for a in range(n) for b in range(a + 1, n) if rng.random() < 0.6}
        ok = lambda a, b, e=edges: frozenset((a, b)) in e  # noqa: E731
        cls = [rng.random() < 0.5 for _ in range(n)]
        all_m = list(perfect(list(range(n)), ok))
        expected = min((sum(cls[a] and cls[b] for a, b in m) for m in all_m), default=None)
        assert min_class_pairs(n, ok, cls) == expected
