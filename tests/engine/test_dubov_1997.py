"""The Dubov system's rules of 1997 as switches of the one engine (``DubovRules``).

One hand-worked round per switch, from the 1997 text (FIDE Handbook C.04.4.1 as approved
by the 1997 General Assembly, ``../shared/rules/dubov-1997-handbook.txt``, with the full
wording in ``dubov-1997-vega-notes.txt``): each test pairs the round by the 2025 text, by
the 2025 text with that one switch on, and (where the other switches do not touch it) by
the rules of 1997 as a whole.  docs/dubov-1997.md lists every difference, its switch and
its test.  Ids are TPNs; ratings as each test says.
"""

from __future__ import annotations

from dataclasses import replace

import pytest

from pairing.engine import Colour, DubovRules, InvalidSnapshot, pair_round
from pairing.engine.dubov.floaters import DeadEnd
from pairing.engine.dubov.pairer import _Round
from pairing.engine.dubov.state import max_t, player_states, upfloat_limit

from .builders import boards, fresh, from_rounds, pair_with

RULES_1997 = DubovRules(year=1997)


def by(snap, **switches):
    """``snap`` paired with the given switches of 1997 on (the others as 2025)."""
    return pair_round(replace(snap, dubov_rules=DubovRules(**switches)))


def by_1997(snap):
    return pair_round(replace(snap, dubov_rules=RULES_1997))


def test_the_year_sets_every_switch_and_a_switch_given_overrides_it():
    """``DubovRules()`` is the 2025 text (every switch off), ``DubovRules(year=1997)``
    the rules of 1997 (every switch on); a switch given explicitly wins, so that one
    difference can be tested alone; another year is refused."""
    names = DubovRules.switches()
    assert len(names) == 12
    assert not any(getattr(DubovRules(), n) for n in names)
    assert all(getattr(RULES_1997, n) for n in names)
    one = DubovRules(bye_by_rating=True)
    assert one.bye_by_rating and not one.aro_unrounded and one.year == 2025
    assert not DubovRules(year=1997, colours_by_aro=False).colours_by_aro
    with pytest.raises(InvalidSnapshot, match="1997 and of 2025"):
        DubovRules(year=2018)


def test_aro_unrounded_1997_1_2():
    """1997 1.2 defines ARO as the average rating of the opponents, with no rounding; the
    example of 6.2 lists 2310.0, 2318.4 ... (2025 1.6.1 rounds to an integer, half up).

    Round 3 of 5; players 5-8 are absent.  Rounds 1-2 were all draws:
    1-5, 2-7, 6-3, 8-4, then 6-1, 8-2, 3-5, 4-7.  Ratings: 1 2400, 2 2390, 3 2380,
    4 2370, 5 2311, 6 2311, 7 2321, 8 2300.  Everyone present has 1 point.

    White seekers (W then B): 1, ARO (2311 + 2311) / 2 = 2311; 2, ARO (2321 + 2300) / 2
    = 2310.5.  Black seekers (B then W): 3, 4.

    2025: both AROs round to 2311; S1 by ARO then initial ranking = (1, 2); T2 (3, 4):
    1-3, 2-4.  1997: 2310.5 < 2311, S1 = (2, 1): 2-3 and 1-4 (board 1: 1-4, the higher
    ranked player's TPN orders the boards of equal scores)."""
    ratings = {1: 2400, 2: 2390, 3: 2380, 4: 2370, 5: 2311, 6: 2311, 7: 2321, 8: 2300}
    snap = from_rounds(8, [[(1, 5, "1/2"), (2, 7, "1/2"), (6, 3, "1/2"), (8, 4, "1/2")],
                           [(6, 1, "1/2"), (8, 2, "1/2"), (3, 5, "1/2"), (4, 7, "1/2")]],
                       ratings=ratings, total_rounds=5)
    snap = replace(snap, absent=frozenset({5, 6, 7, 8}))
    states = player_states(snap)
    assert (states[1].aro, states[2].aro) == (2311, 2311)
    assert (float(states[1].aro_exact), float(states[2].aro_exact)) == (2311.0, 2310.5)
    assert boards(pair_round(snap)) == [(1, 3), (2, 4)]
    assert boards(by(snap, aro_unrounded=True)) == [(1, 4), (2, 3)]
    assert boards(by_1997(snap)) == [(1, 4), (2, 3)]


def test_bye_by_rating_1997_4():
    """1997 4: "The player from the lowest score group, who has the lowest R will get the
    bye" (2025 2.1.4-2.1.5: the most games played, then the lowest initial ranking).

    Seven players rated 2400, 2300 ... 1800 (ids = TPNs).  Round 1: 7 absent (zero-point
    bye); 1-4, 5-2, 3-6 won by 1, 2 and 3.  Round 2 of 5, all seven present: a bye.  The
    lowest score is 0: players 4, 5, 6 (one game each) and 7 (none).

    2025: the most games played leaves 4, 5, 6; the lowest in the initial ranking is 6.
    1997: the lowest rating of the 0-point group is 7 (1800).  Both leave a complete
    pairing of the others (2.1.2 kept, a reading)."""
    ratings = {i: 2500 - 100 * i for i in range(1, 8)}
    snap = from_rounds(7, [[(1, 4, "1-0"), (5, 2, "0-1"), (3, 6, "1-0"), (7, "Z")]], ratings=ratings,
                       total_rounds=5)
    assert pair_round(snap).bye == 6
    assert by(snap, bye_by_rating=True).bye == 7
    assert by_1997(snap).bye == 7
    assert "lowest rating 1800 (4, rules of 1997" in by_1997(snap).explanation.bye.reason


def test_bye_by_rating_1997_4_the_dominating_colour_before_the_aro():
    """1997 4, second sentence: with the lowest R in both colour subgroups, "the player to
    get the bye must be due to the dominating colour", and only then the higher ARO.

    Eight players; 5 and 8 are both rated 1900 (the others 2400, 2300, 2200, 2100, 2050,
    2000).  Round 1: 1-5, 6-2, 3-7, 8-4 (White first); 1, 2, 7 and 4 win.  Round 2 of 5
    with 4 absent (seven players, a bye).  The 0-point group: 5 (Black in round 1: due
    White, ARO 2400), 6 (White: due Black), 3 (White: due Black), 8 (White: due Black).
    Black dominates, three to one.  The lowest R, 1900, is shared by 5 (White subgroup)
    and 8 (Black subgroup): the bye goes to 8, though 5 has the higher ARO (2400 against
    2100) and the ARO alone would have chosen 5."""
    ratings = {1: 2400, 2: 2300, 3: 2200, 4: 2100, 5: 1900, 6: 2050, 7: 2000, 8: 1900}
    snap = from_rounds(8, [[(1, 5, "1-0"), (6, 2, "0-1"), (3, 7, "0-1"), (8, 4, "0-1")]], ratings=ratings,
                       total_rounds=5)
    snap = replace(snap, absent=frozenset({4}))
    assert by(snap, bye_by_rating=True).bye == 8
    assert "dominating due colour" in by(snap, bye_by_rating=True).explanation.bye.reason


def test_upfloat_bars_1997_2_1_not_two_rounds_running():
    """1997 2.1 (Vega's copy: 2.5): "Apart from the last round a player cannot be
    transferred to a higher score group two times running" (2025: C10 only, a quality
    criterion below C6).

    Six players rated 2490 ... 2440.  Round 1: 1-4 1-0, 5-2 0-1, 3-6 draw.  Round 2:
    2-1 draw, 4-3 1-0 (4 upfloated: 0 against 0.5), 6-5 1-0 (5 upfloated: 0 against 0.5).
    Round 3 of 5: 1, 2, 6 have 1.5; 4 has 1; 3 has 0.5; 5 has 0.

    The 1.5 group is odd: one upfloater.  2025: C6 takes the 1-point player, 4 (it
    upfloated last round: C10 counts it, but C6 comes first): 1-6, 4-2, then 3-5.
    1997: 4 is barred, so is 5; the bar ranks above the score difference (reading): 3
    (0.5) upfloats: 1-6, 3-2, and below 5-4 (4's bracket has only 5 left: the bar gives
    way, reading).  In the last round (3 of 3) the bars are off: as 2025."""
    snap = from_rounds(6, [[(1, 4, "1-0"), (5, 2, "0-1"), (3, 6, "1/2")],
                           [(2, 1, "1/2"), (4, 3, "1-0"), (6, 5, "1-0")]], total_rounds=5)
    assert boards(pair_round(snap)) == [(1, 6), (4, 2), (3, 5)]
    p = by(snap, upfloat_bars=True)
    assert boards(p) == [(1, 6), (3, 2), (5, 4)]
    assert p.explanation.brackets[0].upfloaters == (3,)
    assert "barred by 2.1" in p.explanation.brackets[0].upfloater_reason
    assert boards(by_1997(snap))[:2] == [(1, 6), (3, 2)]
    last = replace(snap, total_rounds=3)
    assert boards(by(last, upfloat_bars=True)) == boards(pair_round(last)) == [(1, 6), (4, 2), (3, 5)]


@pytest.mark.parametrize(("rounds", "maxt_2025", "limit_1997"), [(4, 2, 3), (7, 3, 3), (9, 3, 3), (10, 4, 4),
                                                                   (14, 4, 4), (15, 5, 4), (20, 6, 4)])
def test_upfloat_bars_1997_2_1_the_limit(rounds, maxt_2025, limit_1997):
    """1997 2.1: not "more than three times (if the tournament has less than 10 rounds) or
    four times (if the tournament has more than 9 rounds)": a player who has upfloated 3
    (or 4) times is barred.  2025 1.7.2: MaxT = 2 + Rnds / 5 rounded down.  They agree
    from 5 to 14 rounds only."""
    assert max_t(rounds) == upfloat_limit(rounds) == maxt_2025
    assert upfloat_limit(rounds, RULES_1997) == limit_1997


def test_upfloaters_by_rating_1997_7_2():
    """1997 7.2 (as 7.1): of the players of the next lower score group "the player with
    the highest R is to be transferred ... the same R, the one with the lowest ARO"
    (2025 4.2.2: by the initial ranking).

    Six players: 1 2300, 2 2200, 3 and 4 both 2000 (3 ranked first by title or name),
    5 1950, 6 1900.  Round 1 as recorded: 1-2 1-0, 5-3 draw, 6-4 draw.  Round 2 of 5:
    1 alone has 1 point and wants Black (strong).  Of the 0.5 group the White seekers
    are 3 (ARO 1950) and 4 (ARO 1900); C7 takes one of them.

    2025: 3, first by initial ranking: 3-1, then 4-5 and 2-6.  1997: same R, lowest
    ARO: 4: 4-1, then 3-6 and 2-5."""
    ratings = {1: 2300, 2: 2200, 3: 2000, 4: 2000, 5: 1950, 6: 1900}
    snap = from_rounds(6, [[(1, 2, "1-0"), (5, 3, "1/2"), (6, 4, "1/2")]], ratings=ratings, total_rounds=5)
    assert boards(pair_round(snap)) == [(3, 1), (4, 5), (2, 6)]
    p = by(snap, upfloaters_by_rating=True)
    assert boards(p) == [(4, 1), (3, 6), (2, 5)]
    assert "7.1-7.2 (rules of 1997" in p.explanation.brackets[0].upfloater_reason
    assert boards(by_1997(snap))[0] == (4, 1)


def test_lists_by_rating_1997_6_2():
    """1997 6.2: White seekers by increasing ARO, "the ARO being the same the player with
    the lower R is placed higher"; Black seekers by decreasing R (2025 2.2.5: equal AROs
    by the initial ranking; 4.4.2: Black seekers by the initial ranking).

    Eight players: 1 2400, 2 2300, 3 2200, 4 2100, 5 2000, 6-8 1900.  Round 1 (1-5, 6-2,
    3-7, 8-4) all drawn.  Round 2 of 5, one bracket of 0.5.  White seekers and AROs: 2
    (1900), 4 (1900), 7 (2200), 5 (2400); Black seekers 1, 3, 6, 8 (by R: 1, 3, then 6
    and 8 at 1900, the higher ARO first: 6 (2300) before 8 (2100), as their TPNs).

    2025: S1 = (2, 4, 7, 5): 2-1, 4-3, 7-6, 5-8.  1997: 2 and 4 tie on ARO, the lower R
    first: S1 = (4, 2, 7, 5): 4-1, 2-3, 7-6, 5-8."""
    ratings = {1: 2400, 2: 2300, 3: 2200, 4: 2100, 5: 2000, 6: 1900, 7: 1900, 8: 1900}
    snap = from_rounds(8, [[(1, 5, "1/2"), (6, 2, "1/2"), (3, 7, "1/2"), (8, 4, "1/2")]], ratings=ratings,
                       total_rounds=5)
    assert boards(pair_round(snap)) == [(2, 1), (4, 3), (5, 8), (7, 6)]
    assert boards(by(snap, lists_by_rating=True)) == [(4, 1), (2, 3), (5, 8), (7, 6)]
    assert boards(by_1997(snap)) == [(4, 1), (2, 3), (5, 8), (7, 6)]


def test_lists_by_rating_1997_6_2_black_seekers_by_rating():
    """1997 6.2, the Black column: "arranged in order of decreasing R", where 2025 numbers
    G2 by the initial ranking.  They differ when the initial ranking is not the rating
    order: here a late entry who kept the last pairing number.

    Eight players: 1 2400, 2 2300, 3 2100, 4 2000, 6 1900, 7 1800, 8 1700, and 5 rated
    2250, who entered in round 2 with pairing number 5 (5 and 8 absent in round 1).
    Round 1: 1-4, 2-6, 7-3 drawn.  Round 2: 7-1, 4-2, 3-6 drawn, 5-8 1-0.  Round 3 of 5
    with 4, 6, 7, 8 absent: 1, 2, 3, 5 have 1 point.  White seekers 1 (W B, ARO 1900)
    and 2 (W B, ARO 1950): S1 = (1, 2) in both.  Black seekers 3 (B W) and 5 (W).

    2025: T2 = (3, 5) by pairing number: 1-3, 2-5.  1997: by rating, 5 (2250) before 3
    (2100): 1-5, 2-3."""
    ratings = {1: 2400, 2: 2300, 3: 2100, 4: 2000, 5: 2250, 6: 1900, 7: 1800, 8: 1700}
    snap = from_rounds(8, [[(1, 4, "1/2"), (2, 6, "1/2"), (7, 3, "1/2"), (5, "Z"), (8, "Z")],
                           [(7, 1, "1/2"), (4, 2, "1/2"), (3, 6, "1/2"), (5, 8, "1-0")]],
                       ratings=ratings, total_rounds=5)
    snap = replace(snap, absent=frozenset({4, 6, 7, 8}))
    assert boards(pair_round(snap)) == [(1, 3), (2, 5)]
    assert boards(by(snap, lists_by_rating=True)) == [(1, 5), (2, 3)]
    assert boards(by_1997(snap)) == [(1, 5), (2, 3)]


def test_shift_extremes_1997_7_3_and_7_4():
    """1997 7.3: with 2n more White seekers, n of them "who have the lowest ARO, are
    transferred to the black group" (equal ARO: the higher R); 7.4: with 2n more Black
    seekers, n "who have the highest ARO" go to the White group (equal ARO: the lower R).
    2025 4.3.3 takes them from the middle of the list outwards.

    Twelve players rated 2450, 2400 ... 1900 (50 apart).  Round 1: 1-7, 8-2, 3-9, 10-4,
    5-11, 12-6; won by 1, 8, 3, 4, 5, 12.  Round 2 of 5.

    1 point: Black seekers 1 (ARO 2150), 3 (2050), 5 (1950), 8 (2400), 12 (2200); White
    seeker 4 (2000).  Two Black seekers move.  2025: by TPN 1, 3, 5, 8, 12, middle-out
    5, 3, 8, 1, 12: {5, 3}; S1 = (5, 4, 3), T2 = (1, 8, 12).  1997: the highest AROs, 8
    and 12; S1 = (4, 12, 8) by ARO, T2 = (1, 3, 5): 4-1, 12-3, 8-5.

    0 points: White seekers 2 (2100), 6 (1900), 7 (2450), 9 (2350), 11 (2250); Black
    seeker 10.  Two White seekers move.  2025: by ARO 6, 2, 11, 9, 7, middle-out 11, 2 ...:
    {11, 2}.  1997: the lowest AROs, 6 and 2; S1 = (11, 9, 7), T2 = (2, 6, 10): 2-11 (5.2.5
    gives the higher ranked 2 White), 6-9, 7-10."""
    ratings = {i: 2500 - 50 * i for i in range(1, 13)}
    snap = from_rounds(12, [[(1, 7, "1-0"), (8, 2, "1-0"), (3, 9, "1-0"), (10, 4, "0-1"), (5, 11, "1-0"),
                             (12, 6, "1-0")]], ratings=ratings, total_rounds=5)
    p = pair_round(snap)
    assert [b.shifted_from_larger for b in p.explanation.brackets] == [(5, 3), (11, 2)]
    assert boards(p) == [(5, 1), (12, 3), (4, 8), (2, 6), (7, 11), (9, 10)]
    q = by(snap, shift_extremes=True)
    assert [b.shifted_from_larger for b in q.explanation.brackets] == [(8, 12), (6, 2)]
    assert boards(q) == [(4, 1), (12, 3), (8, 5), (2, 11), (6, 9), (7, 10)]
    assert {frozenset((b.white, b.black)) for b in by_1997(snap).boards} == {
        frozenset(b) for b in boards(q)}


def test_shift_spares_absolute_1997_2_2():
    """1997 2.2: "A player shall not be transferred from the subgroup due to a colour to the
    subgroup due to the other colour if this would violate the limitations C.04.1.f or
    C.04.1.g" (the colour difference of two, three of a colour running: an absolute
    preference; Vega's copy numbers the article 2.6).  2025 has no such
    limit (the shift's pairs keep C3 anyway).

    Eight players rated 2400, 2350, 2300, 2250, 2200, 2100, 2000, 1900; 1-4 win every
    game: round 1 1-8, 7-2, 6-3, 4-5; round 2 7-1, 2-5, 8-3, 6-4.  Round 3 of 5, the
    2-point bracket: White seekers 1 (W B, ARO 1950), 3 (B B: absolute,
    ARO 2000), 4 (W B, ARO 2150); Black seeker 2 (B W).  One White seeker moves.

    2025: middle-out of 1, 3, 4 is 3: G1 = (1, 4), G2 = (2, 3): 1-2, and 3-4 by 5.2.3.
    1997: 3 stays; middle-out of 1, 4 is 1: G1 = (3, 4), G2 = (1, 2): 3-1, 4-2."""
    ratings = {1: 2400, 2: 2350, 3: 2300, 4: 2250, 5: 2200, 6: 2100, 7: 2000, 8: 1900}
    snap = from_rounds(8, [[(1, 8, "1-0"), (7, 2, "0-1"), (6, 3, "0-1"), (4, 5, "1-0")],
                           [(7, 1, "0-1"), (2, 5, "1-0"), (8, 3, "0-1"), (6, 4, "0-1")]],
                       ratings=ratings, total_rounds=5)
    top = pair_round(snap).explanation.brackets[0]
    assert top.shifted_from_larger == (3,)
    assert boards(pair_round(snap))[:2] == [(1, 2), (3, 4)]
    p = by(snap, shift_spares_absolute=True)
    assert p.explanation.brackets[0].shifted_from_larger == (1,)
    assert boards(p)[:2] == [(3, 1), (4, 2)]
    assert any("2.2 (rules of 1997)" in n for n in p.explanation.brackets[0].notes)
    assert boards(by_1997(snap))[:2] == [(3, 1), (4, 2)]


def test_colours_by_aro_1997_3():
    """1997 3, the last two lines: "assign white to the player with the higher ARO", then
    "to the player with the lower R" (2025 5.2.5: the higher ranked player's preference).

    Eight players rated 2400 ... 1700 (100 apart).  Round 1 (1-5, 6-2, 3-7, 8-4): White
    wins every game.  Round 2 of 5: the 1-point bracket is 1, 3, 6, 8, all with a strong
    preference for Black from one White game; 3 and 6 move (4.3): 3-1 and 6-8 meet.

    Both players of each pair had White in round 1: 5.2.2-5.2.4 decide nothing.  2025
    5.2.5: Black to the higher ranked, 1 and 6: 3-1, 8-6.  1997: White to the higher
    ARO: 1 (2000 against 1800) and 6 (2300 against 2100): 1-3, 6-8."""
    ratings = {i: 2500 - 100 * i for i in range(1, 9)}
    snap = from_rounds(8, [[(1, 5, "1-0"), (6, 2, "1-0"), (3, 7, "1-0"), (8, 4, "1-0")]], ratings=ratings,
                       total_rounds=5)
    assert boards(pair_round(snap))[:2] == [(3, 1), (8, 6)]
    p = by(snap, colours_by_aro=True)
    assert boards(p)[:2] == [(1, 3), (6, 8)]
    assert [c.rule for c in p.explanation.colours][:2] == ["3 (1997)", "3 (1997)"]


def test_colours_by_aro_1997_3_then_the_lower_rating():
    """1997 3: equal AROs, "white to the player with the lower R" (2025 5.2.5: the higher
    ranked player's preference).

    Round 1: 1-5, 2-6 (5 and 6 both rated 2000) and 3-4, all drawn; round 2 of 5 with
    3-6 absent: 1 and 2 meet, both with White in round 1 and ARO 2000.  Ratings 1 2400,
    2 2300: 2025 gives 1 (higher ranked) Black, 1997 White to the lower R, 2: 2-1 both.
    With the two ratings the other way round (1 2300, 2 2400: a rating changed after the
    ranking was made) 2025 still gives 1 Black, 1997 gives 1 White: 1-2."""
    ratings = {1: 2400, 2: 2300, 3: 2200, 4: 2100, 5: 2000, 6: 2000}
    snap = from_rounds(6, [[(1, 5, "1/2"), (2, 6, "1/2"), (3, 4, "1/2")]], ratings=ratings, total_rounds=5)
    snap = replace(snap, absent=frozenset({3, 4, 5, 6}))
    assert boards(pair_round(snap)) == [(2, 1)]  # 5.2.5: 1 ranks higher and wants Black
    assert boards(by(snap, colours_by_aro=True)) == [(2, 1)]  # same ARO 2000: White to the lower R, 2
    flipped = replace(snap, players=tuple(replace(p, rating={1: 2300, 2: 2400}.get(p.id, p.rating))
                                          for p in snap.players))
    assert boards(pair_round(flipped)) == [(2, 1)]
    assert boards(by(flipped, colours_by_aro=True)) == [(1, 2)]


def test_first_round_by_pair_1997_5():
    """1997 5: the lot decides the colours of pair 1; "all odd-numbered pairs have the same
    colours as the first pair, whereas all even-numbered pairs have the other colour".
    2025 5.2.1 goes by the parity of the higher ranked player's pairing number.

    Nine players registered, 2 absent in round 1, initial colour White: eight play.
    Pairs 1-6, 3-7, 4-8, 5-9.  2025: TPN 1, 3, 5 odd (White), 4 even (Black): 1-6, 3-7,
    8-4, 5-9.  1997: pairs 1 and 3 as pair 1, pairs 2 and 4 the other way: 1-6, 7-3,
    4-8, 9-5."""
    snap = replace(fresh(9), absent=frozenset({2}))
    assert boards(pair_round(snap)) == [(1, 6), (3, 7), (8, 4), (5, 9)]
    p = by(snap, first_round_by_pair=True)
    assert boards(p) == [(1, 6), (7, 3), (4, 8), (9, 5)]
    assert {c.rule for c in p.explanation.colours} == {"5 (1997)"}
    assert boards(by_1997(snap)) == [(1, 6), (7, 3), (4, 8), (9, 5)]
    # with every player present the two rules agree
    assert boards(by_1997(fresh(8))) == boards(pair_round(fresh(8)))


def test_island_opponents_1997_7_1():
    """1997 7.1: "If a player has already played with all the players of his own score
    group, a player from the next possible lower score group is transferred ... who has not
    yet played with the player in question": the due colour opposite to his, then "the
    player with the highest R", then the lowest ARO; Vega pairs the island with him
    ("moving player 22 ... to opponent group"), and only then completes the group by 7.2.
    2025 takes the best set of upfloaters for the whole bracket (2.2.1-2.2.2) and pairs the
    bracket by S1/T2, so the island gets whichever upfloater T2 leaves him.

    Ten players rated 1 2400, 2 2380, 3 2360, 4 2340, 5 2200, 6 2250, 7 1950, 8 1900,
    9 1900, 10 1850.  Round 1: 2-1 1/2, 5-3 0-1, 4-6 1-0, 7-8 1/2, 9-10 1/2; round 2: 1-3
    1/2, 7-2 0-1, 8-4 0-1, 6-9 1-0, 10-5 0-1; round 3: 4-1 0-1, 9-2 1/2, 3-10 1/2,
    5-7 1/2, 6-8 1/2.  Round 4 of 7 with 7-10 absent.

    2 points: 1 (B W B, strong White, ARO 2360) has played 2, 3 and 4: an island.  2
    (W B B, absolute White, ARO 2083.3), 3 (B B W, strong White, ARO 2150), 4 (W B W,
    strong Black).  1.5 points: 5 (W B W, strong Black, 2200) and 6 (B W W, absolute
    Black, 2250).

    2025: two upfloaters, 5 and 6 (the whole group below).  G1 = (1, 2, 3), G2 = (4, 5, 6);
    S1 by ARO = (2, 3, 1), T2 by pairing number: 2-4, 3-5 played in round 1, so 3-6 and
    1-5.  1997 7.1: 1's opponent: both Black seekers, the higher R is 6 (2250): 1-6 (the
    others 2, 3, 4, 5 can still be paired: C4).  2, 3, 4 are odd (7.2): 5 comes up; S1 =
    (2, 3), T2 = (4, 5): 3-5 played, so 2-5, 3-4.  The other switches of 1997 alone give
    2025's pairs here (T2 by R, 4 2340 before 6 and 5, is the same order), except 6.4's
    floaters (``floaters_down``), which without 7.1 float 1 and 4 down."""
    ratings = {1: 2400, 2: 2380, 3: 2360, 4: 2340, 5: 2200, 6: 2250, 7: 1950, 8: 1900, 9: 1900, 10: 1850}
    snap = from_rounds(10, [[(2, 1, "1/2"), (5, 3, "0-1"), (4, 6, "1-0"), (7, 8, "1/2"), (9, 10, "1/2")],
                            [(1, 3, "1/2"), (7, 2, "0-1"), (8, 4, "0-1"), (6, 9, "1-0"), (10, 5, "0-1")],
                            [(4, 1, "0-1"), (9, 2, "1/2"), (3, 10, "1/2"), (5, 7, "1/2"), (6, 8, "1/2")]],
                       ratings=ratings, total_rounds=7)
    snap = replace(snap, absent=frozenset({7, 8, 9, 10}))
    assert boards(pair_round(snap)) == [(2, 4), (1, 5), (3, 6)]
    p = by(snap, island_opponents=True)
    assert boards(p) == [(3, 4), (1, 6), (2, 5)]
    top = p.explanation.brackets[0]
    assert (top.upfloaters, top.s1[0], top.t2[0]) == ((6, 5), 1, 6)
    assert "7.1 (rules of 1997): 1 cannot meet anyone of his score group" in top.notes[0]
    others = {n: True for n in DubovRules.switches() if n not in ("island_opponents", "floaters_down")}
    assert boards(by(snap, **others)) == boards(pair_round(snap))
    # 6.4 without 7.1 (``floaters_down`` alone): the group 1-4 cannot be paired, 1 and 4
    # (6.4 a, the lowest R) float down and 8.2 gives them 6 and 5
    assert boards(by(snap, floaters_down=True)) == [(2, 3), (1, 6), (5, 4)]
    assert boards(by_1997(snap)) == [(3, 4), (1, 6), (2, 5)]


def test_island_opponents_1997_7_1_the_same_due_colour_and_the_bars():
    """1997 7.1, the priorities in turn: with nobody of the opposite due colour below, the
    island takes the highest R of his own due colour (Vega's list: "4. same due color, 5.
    highest rating"); under the bars of 2.1 a barred player comes only when nobody else
    can (reading 8).

    The round of ``test_island_opponents_1997_7_1`` with the games of 5 and 6 in rounds
    1-3 played with the other colours (3-5, 6-4; 5-10, 9-6; 7-5, 8-6): 5 (B W B) and 6
    (W B B) now seek White, as the island 1 does.  7.1 gives 1 the higher R, 6 (2250), a
    player of the same due colour.  If 6 had upfloated in round 3 (his figures changed,
    ``pair_with``), the bars of 2.1 give 1 the other one, 5."""
    ratings = {1: 2400, 2: 2380, 3: 2360, 4: 2340, 5: 2200, 6: 2250, 7: 1950, 8: 1900, 9: 1900, 10: 1850}
    rounds = [[(2, 1, "1/2"), (3, 5, "1-0"), (6, 4, "0-1"), (7, 8, "1/2"), (9, 10, "1/2")],
              [(1, 3, "1/2"), (7, 2, "0-1"), (8, 4, "0-1"), (9, 6, "0-1"), (5, 10, "1-0")],
              [(4, 1, "0-1"), (9, 2, "1/2"), (3, 10, "1/2"), (7, 5, "1/2"), (8, 6, "1/2")]]
    snap = replace(from_rounds(10, rounds, ratings=ratings, total_rounds=7), absent=frozenset({7, 8, 9, 10}))
    states = player_states(snap)
    assert {states[1].preference.colour, states[5].preference.colour, states[6].preference.colour} == {Colour.WHITE}
    p = by(snap, island_opponents=True)
    top = p.explanation.brackets[0]
    assert (top.s1[0], top.t2[0]) == (1, 6)
    assert "the same due colour" in top.notes[0]
    barred = replace(snap, dubov_rules=DubovRules(island_opponents=True, upfloat_bars=True))
    assert (pair_with(barred, {}).explanation.brackets[0].t2[0]) == 6
    q = pair_with(barred, {6: {"upfloated_previous": True}}).explanation.brackets[0]
    assert (q.s1[0], q.t2[0]) == (1, 5)


def test_white_meets_white_1997_6_3_last_paragraph():
    """1997 6.3, its last paragraph: "If the 'white' No. k has already played with all the
    'blacks', we look for an opponent for him, beginning with the 'white' No. k+1 down to
    the end of the column, and then, beginning with the 'white' No. k-1 down to the
    'white' No. 1."  2025 2.2.4.1 moves a White seeker to the other subgroup in the order of
    4.3 (from the middle of the list outwards); 1997 7.3's order (``shift_extremes``, the
    lowest ARO first) is not this article's.

    Twelve players: 1 2400, 2 2390, 3 2380, 4 2300, 5 2290, 6 2280, 7 2200, 8 2200, 9
    2100, 10 2100, 11 2000, 12 2600.  Round 1: 4-2 1/2, 7-1 0-1, 8-3 0-1, 5-9 1-0, 6-10
    1-0, 11-12 1/2; round 2: 2-5 1/2, 1-11 1/2, 3-12 1/2, 7-4 0-1, 9-6 1-0, 8-10 1/2; round
    3: 6-2 1/2, 8-1 1-0, 7-3 1-0, 4-9 0-1, 5-10 0-1.  Round 4 of 7 with 7-12 absent: 1-6
    have 1.5 points.  White seekers (B W B) by ARO: 1 (2133.3), 2 (2290), 3 (2333.3);
    Black seekers (W B W) 4, 5, 6.  2 has played 4, 5 and 6: White No. 2 has played all
    the Blacks, so one pair is two White seekers (u = 1).

    2025: middle-out of (1, 2, 3) is 2 first: 2 moves to G2 and 5 (middle-out of 4, 5, 6)
    to G1; S1 = (1, 5, 3), T2 = (2, 4, 6): 1-2, 5-4, 3-6.  With this switch: No. k+1 = 3
    first: 3 moves and plays 2; 5 moves as before: S1 = (1, 5, 2), T2 = (4, 6, 3): 1-4,
    2-3, 6-5.  By 7.3's order alone (``shift_extremes``) 1 would move, the lowest ARO.
    By the rules of 1997 as a whole, 3 meets 2 too (4, the highest ARO of the Black
    seekers, moves by 7.4's order): 1-5, 3-2, 4-6."""
    ratings = {1: 2400, 2: 2390, 3: 2380, 4: 2300, 5: 2290, 6: 2280, 7: 2200, 8: 2200, 9: 2100, 10: 2100,
               11: 2000, 12: 2600}
    snap = from_rounds(12, [[(4, 2, "1/2"), (7, 1, "0-1"), (8, 3, "0-1"), (5, 9, "1-0"), (6, 10, "1-0"),
                             (11, 12, "1/2")],
                            [(2, 5, "1/2"), (1, 11, "1/2"), (3, 12, "1/2"), (7, 4, "0-1"), (9, 6, "1-0"),
                             (8, 10, "1/2")],
                            [(6, 2, "1/2"), (8, 1, "1-0"), (7, 3, "1-0"), (4, 9, "0-1"), (5, 10, "0-1")]],
                       ratings=ratings, total_rounds=7)
    snap = replace(snap, absent=frozenset(range(7, 13)))
    p = pair_round(snap)
    assert p.explanation.brackets[0].shifted_from_smaller == (2,)
    assert boards(p) == [(1, 2), (3, 6), (5, 4)]
    q = by(snap, white_meets_white=True)
    top = q.explanation.brackets[0]
    assert (top.shifted_from_smaller, top.shifted_from_larger) == ((3,), (5,))
    assert boards(q) == [(1, 4), (2, 3), (6, 5)]
    assert any("6.3 (rules of 1997): 2 has played every Black seeker" in n for n in top.notes)
    assert by(snap, shift_extremes=True).explanation.brackets[0].shifted_from_smaller == (1,)
    assert boards(by_1997(snap)) == [(1, 5), (3, 2), (4, 6)]


# ---------------------------------------------------------------- 6.4 and 8: floaters

def _three_absolute_whites(ratings, second_round):
    """Twelve players, rounds 1-2 as the floater tests give them: 1, 2 and 4 won twice
    with Black (absolute White, 1997 2 / C.04.1 g), 3 won with Black then White (due
    Black)."""
    first = [(5, 1, "0-1"), (6, 2, "0-1"), (7, 3, "0-1"), (8, 4, "0-1")]
    return from_rounds(12, [first + second_round[0], second_round[1]], ratings=ratings, total_rounds=5)


def test_floaters_down_1997_6_4_the_classes():
    """1997 6.4: "The aim of the pairing procedure is to pair all players within a score
    group.  If that cannot be achieved the remaining unpaired players are transferred to
    the next lower score group and treated according to chapter 8.  If there is a choice
    the floaters should be chosen due to these characteristics with decreasing
    preference: the player was not floater from higher score groups and can be paired in
    the lower score group; ... cannot ...; the player was floater ... can ...; ...
    cannot ..."  2025 has no downfloaters: the bracket takes two upfloaters (2.2.1).

    Ratings 1 2300, 2 2250, 3 2200, 4 2150, 5 2100 ... 12 1750 (50 apart).  Round 1: 5-1,
    6-2, 7-3, 8-4 0-1, 9-10, 11-12 1-0; round 2: 9-1, 11-2 0-1, 3-12 1-0, 5-4 0-1, 6-7 and
    10-8 drawn.  Round 3 of 5.  2 points: 1, 2, 4 absolute White (B B), 3 due Black (B W):
    three absolute Whites cannot meet (C.04.1 g), so the group cannot be paired (the only
    pairs are 1-3, 2-3, 4-3) and two of 1, 2, 4 float down to 1 point (9, 11, both
    absolute Black).  Every one of them can be paired there (1 has played 9, 2 has played
    11).  4 was a floater from a higher score group: in round 2 he had 1 point and met 5
    with 0 (reading 15); 1 and 2 met players of their own score.  So 1 and 2 (class a)
    float, not 4 (class c): 4-3.  (By the lowest rating alone 4 and 2 would float.)  8.1:
    both are White floaters, by 6.2's order the lower ARO first: 2 (ARO 1925) before 1
    (2000); 8.2: 2 plays 9 (he has played 11), 1 plays 11.

    2025: 2-3, 1-11, 4-9 (9 and 11 come up).  By the rules of 1997 as a whole as by the
    switch alone."""
    ratings = {i: 2350 - 50 * i for i in range(1, 13)}
    snap = _three_absolute_whites(ratings, ([(9, 10, "1-0"), (11, 12, "1-0")],
                                            [(9, 1, "0-1"), (11, 2, "0-1"), (3, 12, "1-0"), (5, 4, "0-1"),
                                             (6, 7, "1/2"), (10, 8, "1/2")]))
    states = player_states(snap)
    assert {i for i in (1, 2, 3, 4) if states[i].preference.colour is Colour.WHITE} == {1, 2, 4}
    assert boards(pair_round(snap))[:3] == [(2, 3), (1, 11), (4, 9)]
    p = by(snap, floaters_down=True)
    assert boards(p) == [(4, 3), (1, 11), (2, 9), (8, 6), (7, 10), (12, 5)]
    top, one = p.explanation.brackets[:2]
    assert (top.residents, top.downfloaters, top.s1, top.t2) == ((1, 2, 3, 4), (1, 2), (4,), (3,))
    assert "1 (6.4 a), 2 (6.4 a)" in top.upfloater_reason and "4 c" in top.upfloater_reason
    assert (one.moved_down, one.s1, one.t2) == ((1, 2), (2, 1), (9, 11))
    assert one.notes[0].startswith("8.2 (rules of 1997): the floater 2 (2 pts) plays 9")
    assert boards(by_1997(snap)) == boards(p)


def test_floaters_down_1997_8_2_the_opposite_colour_before_the_rating():
    """1997 8.1: "The floaters having due colour white are arranged according to chapter
    6.2.  The floaters having due colour black are arranged according to chapter 6.2.
    Beginning with the highest 'white' floater the floaters are paired one by one going
    down to the lowest floater alternating between 'white' and 'black'."  8.2: "Each of
    the floaters is paired with the player having the highest R, if possible having the
    opposite due colour.  If there are more than one player with equal R, the player with
    the lowest ARO is chosen."  Read as 7.1 and 7.2 order their choice (Vega: "opposite due
    color, highest rating, lowest ARO, same due color ..."): the opposite due colour
    first (reading 15).

    The round of ``test_floaters_down_1997_6_4_the_classes`` with round 1's 9-10 played
    as 10-9 0-1 and round 2's 6-7 and 8-10 won by 6 and 10, and 10 rated 2080: 1 point is
    now 6 (absolute Black, 2050), 9 (due Black, 1900), 10 (due White, 2080), 11
    (absolute Black, 1800).  6.4 floats 1 and 2 as before.  8.1: 2 (ARO 1925) before 1
    (2000).  8.2: 2 has played 6 and 11; of 9 and 10 the highest R is 10, but 10 is due
    White as 2 is: 2 plays 9.  1 has played 9: 6 (2050) before 11 and before 10 (2080,
    due White): 1-6.  10-11 are then paired in their group.

    2025: 2-3, 1-6, 4-9, 10-11."""
    ratings = {i: 2350 - 50 * i for i in range(1, 13)} | {10: 2080}
    snap = _three_absolute_whites(ratings, ([(10, 9, "0-1"), (11, 12, "1-0")],
                                            [(9, 1, "0-1"), (11, 2, "0-1"), (3, 12, "1-0"), (5, 4, "0-1"),
                                             (6, 7, "1-0"), (8, 10, "0-1")]))
    states = player_states(snap)
    assert [states[i].preference.colour for i in (6, 9, 10, 11)] == [Colour.BLACK, Colour.BLACK, Colour.WHITE,
                                                                     Colour.BLACK]
    assert boards(pair_round(snap))[:4] == [(2, 3), (1, 6), (4, 9), (10, 11)]
    p = by(snap, floaters_down=True)
    assert boards(p)[:4] == [(4, 3), (1, 6), (2, 9), (10, 11)]
    one = p.explanation.brackets[1]
    assert (one.moved_down, one.s1, one.t2) == ((1, 2), (2, 1, 10), (9, 6, 11))
    assert "the floater 2 (2 pts) plays 9: the opposite due colour" in one.notes[0]
    assert "the floater 1 (2 pts) plays 6: the opposite due colour, the highest rating (2050)" in one.notes[1]
    assert boards(by_1997(snap))[:4] == boards(p)[:4]


def test_floaters_down_1997_6_4_and_9_an_unpairable_lowest_group():
    """The 1997 text chooses without looking ahead: a score group that can be paired is
    paired (6.1-6.3), and a group below that then cannot be paired floats its players
    further down (6.4); the lowest group has nowhere to float them, and 9 says "A
    situation which cannot be directly resolved by using the given instructions, the
    referee should proceed wisely and impartially".  The engine keeps C4 (readings 7 and
    16): a choice that would leave the players still to pair without a complete pairing
    is passed over, and since such a choice always ends in that dead end, the engine's
    pairing is the text's in every round the text completes.

    Ratings 1 2400, 2 2350, 3 2200, 4 2150, 5 2100, 6 2050, 7 1900, 8 1850.  Round 1: 1-7,
    2-8, 3-5, 4-6 1-0; round 2: 3-1, 4-2 0-1, 5-7, 6-8 1-0.  Round 3 of 5.  2 points: 1, 2;
    1 point: 3, 4 (absolute Black, W W), 5, 6 (due Black); 0: 7, 8 (absolute White, B B:
    they cannot meet).  The text pairs 1-2, then the 1-point group (3-6, 4-5: 3-5 and 4-6
    have played), then 7 and 8 are left: a dead end (``look_ahead`` off: ``DeadEnd``).  The
    engine: pairing the 1-point group among itself would leave 7 and 8 unpaired (C4), so
    6.4 floats two of it: all four are class a (no earlier floats; each can meet 7 or 8);
    the lowest R is 6, and the only set with 6 whose others can be paired is 3 and 6 (4-5
    stay).  8.1: both Black floaters, by R: 3 first; 8.2: 3's highest R of the opposite
    due colour is 7, but then 6 would have to meet 8, whom he has played: 7 is passed over
    (C4), 3-8, 6-7.  No pair has met before and no two absolute Whites meet."""
    ratings = {1: 2400, 2: 2350, 3: 2200, 4: 2150, 5: 2100, 6: 2050, 7: 1900, 8: 1850}
    snap = from_rounds(8, [[(1, 7, "1-0"), (2, 8, "1-0"), (3, 5, "1-0"), (4, 6, "1-0")],
                           [(3, 1, "0-1"), (4, 2, "0-1"), (5, 7, "1-0"), (6, 8, "1-0")]],
                       ratings=ratings, total_rounds=5)
    rules = replace(snap, dubov_rules=DubovRules(floaters_down=True))
    text = _Round(rules, player_states(rules))
    text.look_ahead = False
    with pytest.raises(DeadEnd) as dead:
        text.run()
    assert (dead.value.score, dead.value.players) == (0, [7, 8])  # 6.4 would float them: nowhere to go
    p = pair_round(rules)
    assert boards(p) == [(1, 2), (5, 4), (8, 3), (7, 6)]
    one, zero = p.explanation.brackets[1:]
    assert one.downfloaters == (3, 6) and "3 (6.4 a), 6 (6.4 a)" in one.upfloater_reason
    assert zero.notes[0].endswith("7 passed over: the others could not all be paired after (C4).")
    met = {frozenset((e.opponent, q.id)) for q in snap.players for e in q.history}
    assert not any(frozenset((b.white, b.black)) in met for b in p.boards)
    assert all(player_states(snap)[b.white].preference.colour is Colour.WHITE for b in p.boards[2:])
    assert boards(by_1997(snap)) == boards(p)
