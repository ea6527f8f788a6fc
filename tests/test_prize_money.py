"""Issue 37: prize money by hand-worked figures: shared equally, by the Hort system, not
shared; one prize per player across a tie of place and category prizes; rounding down."""

from __future__ import annotations

from decimal import Decimal as D

from pairing.reports.prize_money import PLACE, Table, allocate

# A 5, B 4.5, C 4.5, D 4.5, E 4 (final order A B C D E: B, C, D in their tie-break order)
POINTS = {1: D(5), 2: D("4.5"), 3: D("4.5"), 4: D("4.5"), 5: D(4)}
ORDER = (1, 2, 3, 4, 5)
PLACES = Table(PLACE, (D(100), D(60), D(40), D(20)), ORDER)


def paid(result):
    return {pid: a.amount for pid, a in result.awards.items()}


def test_equal_sharing_three_tied_for_places_2_to_4_share_60_40_20():
    """(60 + 40 + 20) / 3 = 40 each; the 5th place has no prize."""
    r = allocate([PLACES], POINTS, "equal")
    assert paid(r) == {1: D(100), 2: D(40), 3: D(40), 4: D(40)}
    assert (r.awards[3].first, r.awards[3].last) == (2, 4) and r.unpaid == 0


def test_hort_system_half_equal_half_by_tie_break_place():
    """Equal share 40, halved: 20 each; plus half the prize of the tie-break place:
    B 20 + 60/2 = 50, C 20 + 40/2 = 40, D 20 + 20/2 = 30 (120 in all, as the places)."""
    assert paid(allocate([PLACES], POINTS, "hort")) == {1: D(100), 2: D(50), 3: D(40), 4: D(30)}


def test_not_shared_the_tie_breaks_decide():
    assert paid(allocate([PLACES], POINTS, "none")) == {1: D(100), 2: D(60), 3: D(40), 4: D(20)}


# A 5, B 4.5 (U12), C 4.5, D 4, E 3.5 (U12); places 100, 60, 40; U12 one prize
CAT_POINTS = {1: D(5), 2: D("4.5"), 3: D("4.5"), 4: D(4), 5: D("3.5")}
CAT_PLACES = Table(PLACE, (D(100), D(60), D(40)), (1, 2, 3, 4, 5))


def u12(amount):
    return Table("U12", (D(amount),), (2, 5))


def test_a_tied_player_keeps_the_place_share_when_the_category_prize_is_not_larger():
    """B and C share places 2-3: (60 + 40) / 2 = 50 each. B's U12 prize is 50 too: equal,
    so the place share (the larger, a place prize when equal); the U12 prize goes to E."""
    r = allocate([CAT_PLACES, u12(50)], CAT_POINTS, "equal")
    assert paid(r) == {1: D(100), 2: D(50), 3: D(50), 5: D(50)}
    assert r.awards[5].table == "U12" and r.awards[2].table == PLACE


def test_a_tied_player_takes_a_larger_category_prize_and_the_tie_is_undone():
    """U12 55 > the 50 of the shared places: B takes the U12 prize and leaves the tie; C
    is then 2nd alone (60) and D 3rd (40); E gets nothing."""
    r = allocate([CAT_PLACES, u12(55)], CAT_POINTS, "equal")
    assert paid(r) == {1: D(100), 2: D(55), 3: D(60), 4: D(40)}
    assert r.awards[2].table == "U12" and (r.awards[3].first, r.awards[3].last) == (2, 2)


def test_hort_across_a_category_and_a_place_prize():
    """Hort: B = 100/2/2 + 60/2 = 55, C = 25 + 20 = 45 at places 2-3; U12 45 < 55, so B
    keeps the place money and E takes the U12 prize."""
    r = allocate([CAT_PLACES, u12(45)], CAT_POINTS, "hort")
    assert paid(r) == {1: D(100), 2: D(55), 3: D(45), 5: D(45)}


def test_regulations_that_put_a_place_prize_first():
    """With 'a place prize before any category prize' B keeps the shared 50 even against
    a U12 prize of 55, which goes to E."""
    r = allocate([CAT_PLACES, u12(55)], CAT_POINTS, "equal", one_prize="place")
    assert paid(r) == {1: D(100), 2: D(50), 3: D(50), 5: D(55)}


def test_shares_are_rounded_down_to_the_cent_and_the_rest_is_stated():
    """Three tied for first with 100 between them: 33.33 each, 0.01 unpaid."""
    points = {1: D(3), 2: D(3), 3: D(3)}
    r = allocate([Table(PLACE, (D(100),), (1, 2, 3))], points, "equal")
    assert paid(r) == {1: D("33.33"), 2: D("33.33"), 3: D("33.33")} and r.unpaid == D("0.01")
    r = allocate([Table(PLACE, (D(100),), (1, 2, 3))], points, "equal", unit=D(5))
    assert paid(r) == {1: D(30), 2: D(30), 3: D(30)} and r.unpaid == D(10)


def test_a_player_in_two_categories_gets_one_prize_the_larger():
    """A (U12 and woman) wins both categories; she takes the larger (Women 70) and the
    U12 prize (50) goes to the next U12, B."""
    points = {1: D(3), 2: D(2), 3: D(1)}
    tables = [Table(PLACE, (), (1, 2, 3)), Table("U12", (D(50),), (1, 2)), Table("W", (D(70),), (1, 3))]
    r = allocate(tables, points)
    assert paid(r) == {1: D(70), 2: D(50)} and r.awards[1].table == "W"
