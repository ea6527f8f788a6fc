"""C.07 of 1 March 2026: what the new text changed, one hand-worked test per article.

The 2023 worked examples keep passing under the 2023 rules (``tests/test_tiebreaks.py``,
``rules`` left at its default); here the same crosstables and small ones built for the
purpose are computed under the 2026 text.  The reasoning is in each docstring.
"""

from __future__ import annotations

from dataclasses import replace
from decimal import Decimal

import pytest

from pairing.engine.model import Colour, PointSystem, Result, RoundEntry
from pairing.tiebreaks import (
    RULES_2023,
    RULES_2026,
    TBPlayer,
    TBTournament,
    TieBreak,
    Unrated,
    applicable,
    compute,
    parse_order,
    standings,
)

from .test_tiebreaks import SWISS, crosstable

D = Decimal
TB = TieBreak


def value(t: TBTournament, tb: TieBreak, pid: int):
    return compute(t, (tb,))[pid][0]


SWISS_2026 = replace(SWISS, rules=RULES_2026)


# ---------------------------------------------------------------- 16.4: the dummy opponent


def test_c07_2026_16_4_2_a_bye_counts_a_dummy_at_most_half_the_maximum_score():
    """16.4.2 (2026): a round without an opponent (PAB, requested bye, absence) counts
    against a dummy whose score is the player's own, capped at a draw per round.  Franck
    (#6, 3.0 after 5 rounds) had a PAB in round 3: 2023 dummy 3.0, 2026 dummy 2.5 (5 × ½).
    BH: 2.0 + 3.5 + 2.5 + 1.0 + 2.5 = 11.5 (2023: 12.0); SB: 1 × 2.5 + 1 × 1.0 + 1 × 2.5 =
    6.0 (2023: 6.5)."""
    assert value(SWISS, TB.BH, 6) == D("12.0")
    assert value(SWISS_2026, TB.BH, 6) == D("11.5")
    assert value(SWISS, TB.SB, 6) == D("6.5")
    assert value(SWISS_2026, TB.SB, 6) == D("6.0")


def test_c07_2026_16_4_2_a_half_point_bye_of_a_leader_and_the_cut_that_still_takes_it():
    """16.4.2 with 16.5: David (#4, 3.5) took a half-point bye in round 2.  2026 dummy
    min(3.5, 2.5) = 2.5: BH 3.0 + 2.5 + 1.5 + 3.5 + 3.5 = 14.0 (2023: 15.0).  BH-C1 still
    cuts the bye first (a VUR whose contribution 2.5 is not below the least significant
    1.5), so BH-C1 is 11.5 under both texts."""
    assert (value(SWISS, TB.BH, 4), value(SWISS_2026, TB.BH, 4)) == (D("15.0"), D("14.0"))
    assert value(SWISS, TB.BH_C1, 4) == value(SWISS_2026, TB.BH_C1, 4) == D("11.5")


def test_c07_2026_16_4_1_a_forfeit_counts_a_dummy_at_most_the_scheduled_opponents_score():
    """16.4.1 (2026): a forfeit counts against a dummy whose score is the player's own,
    capped at the scheduled opponent's score (as the opponents see it, 16.3).  Maria (#11,
    2.5) won round 4 by forfeit against Jessica (#9, 1.5): dummy min(2.5, 1.5) = 1.5.
    BH 3.5 + 3.5 + 2.5 + 1.5 + 1.5 = 12.5 (2023: 13.5)."""
    assert value(SWISS, TB.BH, 11) == D("13.5")
    assert value(SWISS_2026, TB.BH, 11) == D("12.5")


def test_c07_2026_16_4_a_player_below_the_caps_keeps_the_own_score():
    """The cap only lowers: Jessica (#9, 1.5) below half the maximum (2.5) and below
    Maria's 2.5 keeps her own 1.5 for her bye and her forfeit loss; Paul (#14, 2.0) forfeited
    to Nick, who counts 3.0 as an opponent (his last two absences are draws, 16.3.2)."""
    for pid in (9, 14, 12):
        assert value(SWISS_2026, TB.BH, pid) == value(SWISS, TB.BH, pid)


def test_c07_2026_16_4_small_case_forfeit_winner_with_a_perfect_score():
    """A wins round 1 by forfeit against B, then beats C and D: 3/3.  B scores ½.
    2023: A's BH = 3 (dummy at A's own 3) + C 1.5 + D 1 = 5.5, SB the same.
    2026: the dummy is capped at B's ½: BH = 0.5 + 1.5 + 1 = 3.0, SB = 3.0.
    B's own forfeit loss: dummy min(½, A's 3) = ½ under both: BH 0.5 + 1 + 1.5 = 3.0."""
    t = crosstable("""
1 A 2000 3.0 +F2 +W3 +W4
2 B 1900 0.5 -F1 -W4 =W3
3 C 1800 1.5 +W4 -B1 =B2
4 D 1700 1.0 -B3 +B2 -B1
""")
    t26 = replace(t, rules=RULES_2026)
    assert (value(t, TB.BH, 1), value(t26, TB.BH, 1)) == (D("5.5"), D("3.0"))
    assert (value(t, TB.SB, 1), value(t26, TB.SB, 1)) == (D("5.5"), D("3.0"))
    assert value(t, TB.BH, 2) == value(t26, TB.BH, 2) == D("3.0")


def test_c07_2026_fore_buchholz_uses_the_capped_dummy_too():
    """FB is Buchholz with the last round drawn: Franck's round-3 PAB dummy in the fore
    tournament is his fore score (round 5 win -> draw: 2.5), capped at 2.5 -- so FB is the
    same under both texts here, while the opponents' fore scores change as in 2023."""
    assert value(SWISS_2026, TB.FB, 6) == value(SWISS, TB.FB, 6)


# ---------------------------------------------------------------- 10.3: PTP of a perfect score

ABCD = """
1 A 2000 3.0 +W2 +B3 +W4
2 B 2042 0.0 -B1 -W4 -B3
3 C 2464 2.0 +W4 -W1 +W2
4 D 2370 1.0 -B3 +B2 -B1
"""


def test_c07_10_3_perfect_score_ptp_is_where_the_table_first_reaches_one():
    """10.3: PTP is the lowest rating whose expected score reaches the score.  3/3 against
    2042, 2464 and 2370 needs an expected 1.00 against 2464: the table (B.02 8.1.2) gives
    1.00 from a difference of 736, so 2464 + 736 = 3200 (the issue's example; not the
    highest + 800: the text's 800 is the zero-score figure, below the lowest opponent).
    B's 0/3 against 2000, 2370 and 2464: 2000 - 800 = 1200."""
    t = crosstable(ABCD)
    assert value(t, TB.PTP, 1) == 3200
    assert value(t, TB.PTP, 2) == 1200


# ---------------------------------------------------------------- new codes of the 2026 text


def test_c07_2026_rep_is_the_former_ge():
    """7 (2026): REP, rounds one elected to play, is GE renamed: Franck 5 (his PAB is a
    round he was available for), Nick 3 (two absences after withdrawing), Jessica 3 (her
    requested half-point bye is not)."""
    for pid, n in ((6, 5), (12, 3), (9, 3)):
        assert value(SWISS_2026, TB.REP, pid) == value(SWISS, TB.GE, pid) == n
    assert parse_order("REP") == (TB.REP,)


def test_c07_2026_std_counts_one_half_zero_whatever_the_point_system():
    """STD (2026): standard points in a tournament scored 3-1-0.  A: win (3), draw (1),
    PAB (3) = 7 points, STD 1 + ½ + 1 = 2.5; B: loss, PAB, win = 6, STD 2; C: PAB, draw,
    loss = 4, STD 1.5."""
    football = PointSystem(win=D(3), draw=D(1), loss=D(0), forfeit_win=D(3), pairing_bye=D(3),
                           full_bye=D(3), half_bye=D(1))
    t = crosstable("""
1 A 2000 7.0 +W2 =B3 +BYE
2 B 1900 6.0 -B1 +BYE +W3
3 C 1800 4.0 +BYE =W1 -B2
""", points=football)
    assert [value(t, TB.STD, pid) for pid in (1, 2, 3)] == [D("2.5"), D("2"), D("1.5")]


ARO_CASE = """
1 A 2000 2.0 =W2 =B3 =W4 =B5
2 B 1800 2.5 =B1 =W5 +BYE =W4
3 C 1900 2.5 =W4 =W1 =W5 +BYE
4 D 2000 2.5 =B3 +BYE =B1 =B2
5 E 2300 2.5 +BYE =B2 =B3 =W1
"""


def test_c07_2026_aro_median_cuts_the_lowest_and_the_highest():
    """14 with 10.1: A met 1800, 1900, 2000 and 2300.  ARO 2000; ARO-C1 drops 1800:
    6200 / 3 = 2066.7 -> 2067; ARO-M1 drops 1800 and 2300: (1900 + 2000) / 2 = 1950;
    ARO-M2 leaves nothing: 0, which the standings show as '—'."""
    t = crosstable(ARO_CASE)
    got = compute(t, parse_order("ARO, ARO-C1, ARO-M1, ARO-M2"))[1]
    assert got == (2000, 2067, 1950, 0)
    assert parse_order("ARO/M1") == (TB.ARO_M1,)


def test_c07_2026_de_p_counts_a_forfeit_between_the_tied_players():
    """6 with the /P modifier: A and B finish on 1 point; A won their round-1 game by
    forfeit.  DE (a Swiss: forfeits are not games, 6.1.1) cannot separate them; DE/P
    counts the forfeit as a game against the scheduled opponent and ranks A first."""
    t = crosstable("""
1 A 2000 1.0 +F2 -B3
2 B 1900 1.0 -F1 +W4
3 C 1800 2.0 +W4 +W1
4 D 1700 0.0 -B3 -B2
""")
    de = compute(t, (TB.DE,))
    dep = compute(t, (TB.DE_P,))
    assert (de[1], de[2]) == ((0,), (0,))
    assert (dep[1], dep[2]) == ((1,), (0,))
    assert parse_order("DE/P") == (TB.DE_P,)


def test_c07_2026_rtng_and_tpn_both_ways():
    """RTNG ranks the higher rating first, RTNG-R the lower; TPN the lower number first,
    TPN-R the higher.  Everyone in ARO_CASE but A is on 2.5 points."""
    t = crosstable(ARO_CASE)
    ids = lambda order: [r.id for r in standings(t, parse_order(order)) if r.points == D("2.5")]  # noqa: E731
    assert ids("RTNG") == [5, 4, 3, 2]
    assert ids("RTNG-R") == [2, 3, 4, 5]
    assert ids("TPN") == [2, 3, 4, 5]
    assert ids("TPN/R") == [5, 4, 3, 2]


# ---------------------------------------------------------------- unrated players (Q208-209)


def _unrated(t: TBTournament, pid: int, **kw) -> TBTournament:
    players = tuple(replace(p, rating=None) if p.id == pid else p for p in t.players)
    return replace(t, players=players, **kw)


def test_vcl_q208_without_a_rule_the_rating_tie_breaks_are_dropped():
    """C.07 10: with unrated players present and no published rule, the rating-based
    tie-breaks are dropped from the list; the others stay in their order."""
    t = _unrated(crosstable(ARO_CASE), 2)
    kept, dropped = applicable(t, parse_order("BH, ARO, TPR, SB, RTNG"))
    assert kept == (TB.BH, TB.SB)
    assert dropped == (TB.ARO, TB.TPR, TB.RTNG)
    assert applicable(crosstable(ARO_CASE), (TB.ARO,)) == ((TB.ARO,), ())


def test_vcl_q209_an_unrated_player_at_a_fixed_rating_or_at_the_lowest_in_the_field():
    """Two published rules: B (unrated) counts at a fixed 1000 -- A's ARO (1000 + 1900 +
    2000 + 2300) / 4 = 1800 -- or at the lowest rating of the rated players, 1900 (C)
    -- A's ARO (1900 + 1900 + 2000 + 2300) / 4 = 2025.  Never at a provisional rating."""
    base = crosstable(ARO_CASE)
    fixed = _unrated(base, 2, unrated=Unrated.FIXED, unrated_rating=1000)
    lowest = _unrated(base, 2, unrated=Unrated.LOWEST)
    assert value(fixed, TB.ARO, 1) == 1800
    assert value(lowest, TB.ARO, 1) == 2025
    assert applicable(fixed, (TB.ARO,)) == ((TB.ARO,), ())


# ---------------------------------------------------------------- events over 30 days (Q212-216)


def test_vcl_q214_each_rounds_rating_for_the_rating_tie_breaks():
    """C.07 10 (2026), events over 30 days: each player may carry the rating of each
    round.  E is 2300 in round 1 and 2200 from round 2; A met E in round 4.  With the
    first rating (the default) A's ARO is 2000; with each round's rating (1800 + 1900 +
    2000 + 2200) / 4 = 1975."""
    base = crosstable(ARO_CASE)
    players = tuple(replace(p, round_ratings=(2300, 2200, 2200, 2200)) if p.id == 5 else p for p in base.players)
    first = replace(base, players=players)
    per_round = replace(base, players=players, ratings_per_round=True)
    assert value(first, TB.ARO, 1) == 2000
    assert value(per_round, TB.ARO, 1) == 1975


# ---------------------------------------------------------------- the full-point bye


def _fpb_case(last: bool) -> TBTournament:
    """A: win, full-point bye (F), win (or: win, win, F).  B loses to A, C too; B-C play."""
    W, B = Colour.WHITE, Colour.BLACK
    fpb = RoundEntry(None, None, Result.FULL_BYE)
    if not last:
        a = (RoundEntry(2, W, Result.WIN), fpb, RoundEntry(3, B, Result.WIN))
        b = (RoundEntry(1, B, Result.LOSS), RoundEntry(3, W, Result.DRAW), RoundEntry(None, None, Result.PAIRING_BYE))
        c = (RoundEntry(None, None, Result.PAIRING_BYE), RoundEntry(2, B, Result.DRAW), RoundEntry(1, W, Result.LOSS))
    else:
        a = (RoundEntry(2, W, Result.WIN), RoundEntry(3, B, Result.WIN), fpb)
        b = (RoundEntry(1, B, Result.LOSS), RoundEntry(None, None, Result.PAIRING_BYE), RoundEntry(3, W, Result.DRAW))
        c = (RoundEntry(None, None, Result.PAIRING_BYE), RoundEntry(1, W, Result.LOSS), RoundEntry(2, B, Result.DRAW))
    return TBTournament((TBPlayer(1, 2000, a, 1), TBPlayer(2, 1900, b, 2), TBPlayer(3, 1800, c, 3)), 3)


def test_a_full_point_bye_counts_like_the_pairing_allocated_bye_it_stands_for():
    """Reading (docs/tiebreaks.md): a full-point bye is a round the player was available
    for, like a PAB -- the commission's exercises count only the half-point bye as a
    voluntarily unplayed round with a contribution (note to Ex 13), and Gacrux, the
    commission's tool, agrees.  A (3 points: win, F, win) has REP 3; BH-C1 cuts the lowest
    value, B's or C's 1.5 (the bye's 3.0 dummy is not cut first): 6.0 - 1.5 = 4.5.  For B
    and C, A's F counts at face value even in A's last round (16.2.5 is for requested
    byes that are VURs): 3.0."""
    middle, last = _fpb_case(last=False), _fpb_case(last=True)
    assert value(middle, TB.REP, 1) == 3
    assert value(middle, TB.BH, 1) == D("3.0") + D("1.5") + D("1.5")
    assert value(middle, TB.BH_C1, 1) == D("4.5")
    assert value(middle, TB.BH, 2) == D("3.0") + D("1.5") + D("1.5")  # A at face value
    assert value(last, TB.BH, 2) == D("3.0") + D("1.5") + D("1.5")  # still face value
    assert value(last, TB.WIN, 1) == 3  # a round scored as a win (7.1)
    # under the 2026 text the dummy of a round without an opponent is capped at 1.5
    assert value(replace(middle, rules=RULES_2026), TB.BH, 1) == D("1.5") + D("1.5") + D("1.5")


def test_rules_default_is_2023_and_2026_is_opt_in_for_the_engine():
    """The engine's default stays the 2023 text (the exercises); the app chooses by the
    tournament's start date."""
    assert SWISS.rules == RULES_2023
    assert SWISS_2026.rules == RULES_2026


@pytest.mark.parametrize("code", ["REP", "STD", "ARO-M1", "ARO-M2", "DE-P", "RTNG-R", "TPN-R"])
def test_new_codes_have_a_description(code):
    tb = parse_order(code)[0]
    assert tb.description and tb.label == code
