"""Brackets and upfloaters: Articles 2.2.1-2.2.2, criteria C1-C10 and the 4.2 order
(2026: 3.2.1-3.2.2, criteria in Article 2, sorting in Article 4)."""

from decimal import Decimal

import pytest

from pairing.engine import NoLegalPairing, pair_round
from pairing.engine.dubov.upfloaters import containers

from .builders import boards, from_rounds, pair_with, snapshot

# Round 1 of many scenarios below: 1, 2, 3 win with White against 4, 5, 6.
# Afterwards 1, 2, 3 have 1 point and a strong preference for Black; 4, 5, 6 have
# 0 points and a strong preference for White.
WINNERS_WHITE = [[(1, 4, "1-0"), (2, 5, "1-0"), (3, 6, "1-0")]]


def first_bracket(p):
    return p.explanation.brackets[0]


def test_c1_no_rematch_forces_the_second_transposition():
    """C1: round 1: 1-6, 2-5, 3-4 (White wins).  Top bracket 1, 2, 3 (1 pt) is odd:
    one upfloater from 4, 5, 6, all equal on C6-C10 and each able to meet one of
    the residents, so the first in 4.2 order: 4.  G1 = {4} (White seeker),
    G2 = {1, 2, 3}; step (b) shifts one Black seeker, 4.3 order 2, 1, 3 -> 2.
    S1 by ARO: 2 (met 5, 2450) before 4 (met 3, 2470).  T2 from {1, 3} in TPN
    order: (1, 3) pairs 4-3, a rematch, so T2 = (3, 1): 2-3 and 4-1.
    Remaining 5-6 (never met)."""
    snap = from_rounds(6, [[(1, 6, "1-0"), (2, 5, "1-0"), (3, 4, "1-0")]])
    p = pair_round(snap)
    t = first_bracket(p)
    assert t.upfloaters == (4,)
    assert t.shifted_from_larger == (2,)
    assert t.s1 == (2, 4) and t.t2 == (3, 1)
    assert boards(p) == [(3, 2), (4, 1), (5, 6)]


def test_c3_two_equal_absolute_preferences_never_meet():
    """C3: R1 3-1, 4-2, 5-6; R2 4-1, 3-2, 6-5, all drawn.  1 and 2 had Black
    twice (absolute White), 3 and 4 White twice (absolute Black); everyone has 1
    point, one bracket of 6.  1-2 and 3-4 are illegal (C3), 1 and 2 have met 3 and
    4 (C1), so 1 and 2 must play 5 and 6 - and so must 3 and 4: four players for two
    partners.  No legal pairing exists; the engine says so (1.8.3)."""
    snap = from_rounds(
        6,
        [[(3, 1, "1/2"), (4, 2, "1/2"), (5, 6, "1/2")], [(4, 1, "1/2"), (3, 2, "1/2"), (6, 5, "1/2")]],
    )
    with pytest.raises(NoLegalPairing):
        pair_round(snap)


def test_c3_transposition_skips_two_absolute_white_seekers():
    """C3: R1 5-1, 6-2 (1, 2 win with Black), 3-7, 4-8 (3, 4 win with White);
    R2 7-1, 8-2 (1, 2 win with Black again), 5-3 (3 wins with Black), 4-6 (4 wins
    with White again).  Bracket 2 points = {1, 2, 3, 4}: 1 and 2 have BB (absolute
    White), 3 has WB (mild White), 4 has WW (absolute Black).  G1 = {1, 2, 3},
    G2 = {4}: step (b) shifts one White seeker; 4.3 order by ARO: 2 (2430), 1 (2440,
    TPN 1), 3 (2440, TPN 3), middle-out -> 1 first; with 1 in G2 the pairing 2-4,
    3-1 crosses, so 1 is shifted.  S1 = 2 (2430), 3 (2440); G2 = {1, 4}: the first
    transposition (1, 4) would pair 2-1, both absolute White: C3 skips it, T2 =
    (4, 1).  Colours: 2-4 both granted (5.2.2); 3-1: 1's absolute White beats 3's
    mild White (5.2.3)."""
    snap = from_rounds(
        8,
        [
            [(5, 1, "0-1"), (6, 2, "0-1"), (3, 7, "1-0"), (4, 8, "1-0")],
            [(7, 1, "0-1"), (8, 2, "0-1"), (5, 3, "0-1"), (4, 6, "1-0")],
        ],
    )
    p = pair_round(snap)
    t = first_bracket(p)
    assert t.shifted_from_larger == (1,)
    assert t.s1 == (2, 3) and t.t2 == (4, 1)
    assert boards(p) == [(1, 3), (2, 4), (6, 5), (8, 7)]
    assert [c.rule for c in p.explanation.colours][:2] == ["5.2.3", "5.2.2"]


def test_c4_upfloater_keeps_the_rest_completable():
    """C4: round 1 as WINNERS_WHITE, and 5-6 forbidden.  Top bracket 1, 2, 3 needs
    one upfloater from 4, 5, 6 (all equal on C6-C10; C7 = 1 for each).  4 is first
    in 4.2 order but leaves 5 and 6, who may not meet: C4 rejects it; 5 leaves 4-6,
    legal.  Bracket {1, 2, 3, 5}: G1 = {5}, step (b) shifts 2 (4.3: 2, 1, 3);
    S1 by ARO: 2 (met 5, 2450) then 5 (met 2, 2480); T2 from (1, 3): 2-1, 5-3.
    Colours: 2-1 both strong Black, same history -> 5.2.5, 1 ranks higher, gets
    Black; 5-3 preferences granted; 4-6 both strong White -> 5.2.5, 4 White."""
    snap = from_rounds(6, WINNERS_WHITE, forbidden=[(5, 6)])
    p = pair_round(snap)
    assert first_bracket(p).upfloaters == (5,)
    assert "C4" in first_bracket(p).upfloater_reason or "cannot be paired or completed" in first_bracket(p).upfloater_reason
    assert boards(p) == [(2, 1), (5, 3), (4, 6)]


def test_c5_two_upfloaters_when_the_residents_have_met():
    """C5 / 2.2.1: round 1: 1-2 drawn, 3-4 and 5-6 double forfeits (0 points, no
    game: they may meet again, D2).  Top bracket {1, 2} (0.5) has met: the minimum
    is 2 upfloaters, and {3, 4} is the first set in 4.2 order (all equal: 0 points,
    no games, so C7 = 1 for every set).  Bracket {1, 2, 3, 4}: G1 = {2} (strong
    White), G2 = {1, 3, 4}; step (b) 4.3 order of Black seekers by TPN, middle-out:
    3, 1, 4; 3 works (2-4, 3-1).  S1 = 3 (ARO 0), 2 (ARO 2490); T2 = (1, 4).
    Colours: 3-1: 1's strong Black beats 3's mild Black (5.2.3); 2-4 granted (5.2.2);
    5-6 have not played: 5.2.1, 5 odd -> White.  Boards: equal top scores (0.5) and
    sums, then the higher ranked player's TPN: 1 before 2."""
    snap = from_rounds(6, [[(1, 2, "1/2"), (3, 4, "--"), (5, 6, "--")]])
    p = pair_round(snap)
    t = first_bracket(p)
    assert t.upfloaters == (3, 4)
    assert t.shifted_from_larger == (3,)
    assert boards(p) == [(3, 1), (2, 4), (5, 6)]
    assert [c.rule for c in p.explanation.colours] == ["5.2.3", "5.2.2", "5.2.1"]


def test_c6_upfloater_from_the_highest_lower_score():
    """C6: round 1: 1 beats 4, 2 beats 5, 3-6 drawn.  Before round 2: 1, 2 have 1
    point, 3 and 6 have 0.5, 4 and 5 zero.  Top bracket {1, 2}: they can meet, no
    upfloater.  Bracket 0.5 = {3, 6}: they have met, so two upfloaters from {4, 5}
    - the only container.  Checked instead: the top bracket with 1-2 forbidden needs
    2 upfloaters; the container {0.5, 0.5} beats {0.5, 0} and {0, 0} (C6): 3 and 6
    - but they met each other, which is fine as each plays a resident."""
    snap = from_rounds(6, [[(1, 4, "1-0"), (2, 5, "1-0"), (3, 6, "1/2")]], forbidden=[(1, 2)])
    p = pair_round(snap)
    t = first_bracket(p)
    assert t.upfloaters == (3, 6)
    assert "C6" in t.upfloater_reason


def test_c6_container_order_d12_example():
    """4.2.3 / C6 read as D12: upfloater scores 3, 3, 3 (#1-#3), 2.5, 2.5 (#4, #5)
    and 1.5 (#6), two upfloaters: containers by "maximise the lowest score, then
    the second lowest": {3,3}, {3,2.5}, {2.5,2.5}, {3,1.5}, {2.5,1.5}.  A container
    is listed as score levels (0 = 3, 1 = 2.5, 2 = 1.5), lowest score first."""
    order = list(containers([3, 2, 1], 2))
    assert order == [(0, 0), (1, 0), (1, 1), (2, 0), (2, 1)]


def test_c6_d12_picks_two_and_a_half_twice_over_three_and_one_and_a_half():
    """D12 on a whole round.  Scores from byes only (F = 1, H = 0.5, Z = 0; nobody
    has played, so every pair is legal unless forbidden): residents 1, 2 with 4
    points, forbidden to meet, so two upfloaters are needed.  Pool: 3 (3 pts),
    4 and 5 (2.5), 6 (1.5).  Forbidden 4-6 and 5-6: taking 3 with 4 or 5 leaves 6
    with nobody (C4), so the {3, 2.5} container is empty.  Next by D12 comes
    {2.5, 2.5} = {4, 5} (leaving 3-6), before {3, 1.5} = {3, 6} (leaving 4-5), which
    the "highest scores first" reading would choose."""
    snap = snapshot(
        {1: "F F F F", 2: "F F F F", 3: "F F F Z", 4: "F F H Z", 5: "F F H Z", 6: "F H Z Z"},
        forbidden=[(1, 2), (4, 6), (5, 6)],
    )
    p = pair_round(snap)
    t = first_bracket(p)
    assert t.score == Decimal(4)
    assert t.upfloaters == (4, 5)
    assert "{2.5, 3}" in t.upfloater_reason  # the skipped container, lowest score first


def test_c7_upfloater_that_balances_the_colours():
    """C7: round 1: 4-1 (1 wins with Black), 2-5 and 3-6 (White wins).  Top bracket
    1, 2, 3 (1 pt): 1 seeks White, 2 and 3 Black.  Upfloater candidates 4 (seeks
    Black), 5 and 6 (seek White).  With 4 the bracket has one White seeker and three
    Black seekers: at least one pair of equal preferences (C7 = 1).  With 5: 1-2 or
    1-3 and 5-3 (5 met 2): C7 = 0.  So C7 prefers 5 to 4, the first in 4.2 order;
    5 and 6 tie on C7-C10, 4.2 order takes 5.  Bracket: G1 = {1, 5}, G2 = {2, 3};
    S1 by ARO 1 (2460), 5 (2480); T2 = (2, 3)."""
    snap = from_rounds(6, [[(4, 1, "0-1"), (2, 5, "1-0"), (3, 6, "1-0")]])
    p = pair_round(snap)
    t = first_bracket(p)
    assert t.upfloaters == (5,)
    assert "C7" in t.upfloater_reason
    assert boards(p) == [(1, 2), (5, 3), (6, 4)]


def test_c8_avoids_a_maximum_upfloater():
    """C8: the C4 scenario without the forbidden pair: 4, 5, 6 tie on C6 and C7.
    Make 4 a maximum upfloater (3 earlier upfloats, MaxT = 3 for 9 rounds; figures
    set directly, their computation is tested in test_state): C8 takes 5."""
    snap = from_rounds(6, WINNERS_WHITE)
    p = pair_with(snap, {4: {"upfloats": 3, "max_upfloater": True}})
    assert first_bracket(p).upfloaters == (5,)
    assert "C8" in first_bracket(p).upfloater_reason


def test_c9_sum_of_upfloats_d13():
    """C9 as D13: the C5 scenario (two upfloaters from 3, 4, 5, 6, all equal on C6
    and C7), every candidate a maximum upfloater (C8 ties at 2).  Upfloats:
    3 -> 5, 4 -> 6, 5 -> 3, 6 -> 7.  Forbidden 6-4, 6-3, 5-4, 5-3 leave only two
    sets that keep the rest completable: {3, 4} (5 + 6 = 11) and {5, 6} (3 + 7 = 10).
    The sum decides: {5, 6}, although 7 is the single largest count and {3, 4} comes
    first in 4.2 order ({3, 7} beats {5, 6})."""
    snap = from_rounds(
        6, [[(1, 2, "1/2"), (3, 4, "--"), (5, 6, "--")]], forbidden=[(6, 4), (6, 3), (5, 4), (5, 3)]
    )
    counts = {3: 5, 4: 6, 5: 3, 6: 7}
    p = pair_with(snap, {i: {"upfloats": c, "max_upfloater": True} for i, c in counts.items()})
    assert first_bracket(p).upfloaters == (5, 6)
    assert "C9" in first_bracket(p).upfloater_reason


def test_c10_avoids_who_upfloated_last_round():
    """C10: WINNERS_WHITE; 4 upfloated in the previous round (set directly), so C10
    takes 5."""
    snap = from_rounds(6, WINNERS_WHITE)
    p = pair_with(snap, {4: {"upfloats": 1, "upfloated_previous": True}})
    assert first_bracket(p).upfloaters == (5,)
    assert "C10" in first_bracket(p).upfloater_reason


def test_last_round_switches_off_c8_to_c10():
    """D9: in the last round (round 2 of 2) C8-C10 are off: 4, a maximum upfloater
    who also upfloated last round, is taken by 4.2 order."""
    snap = from_rounds(6, WINNERS_WHITE, total_rounds=2)
    p = pair_with(
        snap, {4: {"upfloats": 3, "max_upfloater": True, "upfloated_previous": True}}
    )
    assert first_bracket(p).upfloaters == (4,)
    assert "off in the last round" in first_bracket(p).upfloater_reason


def test_4_2_lexicographic_sets_in_a_container():
    """4.2.3.3: in the C5 scenario every 2-set of {3, 4, 5, 6} ties on C6-C10; the
    lexicographically first on sequence numbers (#1 = 3, #2 = 4) is taken."""
    snap = from_rounds(6, [[(1, 2, "1/2"), (3, 4, "--"), (5, 6, "--")]])
    t = first_bracket(pair_round(snap))
    assert t.upfloaters == (3, 4)
    assert "4.2 order" in t.upfloater_reason


def test_4_2_sequence_numbers_by_score_then_ranking():
    """4.2.2: round 1: 1 beats 4, 2-5 drawn, 3-6 drawn.  Top bracket {1} needs one
    upfloater: sequence numbers #1 = 2, #2 = 3, #3 = 5, #4 = 6 (0.5 points, TPN
    order), #5 = 4 (0 points).  C6 leaves 2, 3, 5, 6; all seek... 2 and 3 seek
    Black, 5 and 6 White, 1 seeks Black: C7 prefers 5 and 6 (C7 = 0); 5 is #3 and
    comes before 6 (#4)."""
    snap = from_rounds(6, [[(1, 4, "1-0"), (2, 5, "1/2"), (3, 6, "1/2")]])
    t = first_bracket(pair_round(snap))
    assert t.upfloaters == (5,)


def test_c10_on_a_real_history():
    """C10 with figures computed from the history (found by the generator, checked
    by hand).  Round 5 of 6 (MaxT = 3), 8 players.  Top bracket: 2 alone (3.5 pts)
    - odd, one upfloater.  2 has met 6, 1, 4 and 5, so the containers {3} (player 4)
    and {2.5} (players 1, 5) hold no legal set.  Container {1.5}: 3 and 7, both
    mild White seekers like 2, so C7 = 1 either way; neither is a maximum upfloater
    (C8, C9 = 0); 7 upfloated in round 4 (paired, 1 point, against 4 with 2.5) and
    3 did not, so C10 prefers 3 (3 is also first in 4.2 order; the explanation
    names C10 as the criterion that decided against 7).  The bracket {2, 3} is all White seekers: G2 empty, one
    White seeker moves, 4.3 order by ARO 3 (1757) then 2 (1864): 3.  Colours
    5.2.4: 2 played W B W B, 3 B W W B: the latest difference is three games back
    (2 Black, 3 White), so 2 gets White."""
    histories = {
        1: "5b= 2w0 3b1 6w1",
        2: "6w1 1b1 4w= 5b1",
        3: "7b= 4w0 1w0 8b1",
        4: "8w= 3b1 2b= 7w1",
        5: "1w= 8b1 6w1 2w0",
        6: "2b0 7w1 5b0 1b0",
        7: "3w= 6b0 8w1 4b0",
        8: "4b= 5w0 7b0 3w0",
    }
    ratings = {1: 2643, 2: 2564, 3: 2165, 4: 2014, 5: 1522, 6: 1275, 7: 1241, 8: 1129}
    from pairing.engine import Colour

    snap = snapshot(histories, ratings=ratings, total_rounds=6, initial_colour=Colour.BLACK)
    p = pair_round(snap)
    t = first_bracket(p)
    assert t.residents == (2,) and t.upfloaters == (3,)
    assert "C10 decides against 7" in t.upfloater_reason
    assert boards(p)[0] == (2, 3)
    assert p.explanation.colours[0].rule == "5.2.4"
