"""Colour allocation, Article 5 (same numbering in the 2026 text)."""

from decimal import Decimal

from pairing.engine import Colour, Preference, PreferenceStrength
from pairing.engine.dubov.colours import allocate
from pairing.engine.dubov.state import PlayerState

W, B = Colour.WHITE, Colour.BLACK
MILD, STRONG, ABS = PreferenceStrength.MILD, PreferenceStrength.STRONG, PreferenceStrength.ABSOLUTE


def player(pid, colours="", pref=None, score=0, tpn=None):
    """A PlayerState with played colours given as a string of W/B."""
    cols = tuple(W if c == "W" else B for c in colours)
    if pref is None:
        pref = Preference(B, MILD)
    return PlayerState(
        id=pid, tpn=tpn or pid, rating=2000, score=Decimal(score), aro=0, games_played=len(cols),
        colour_difference=sum(1 if c is W else -1 for c in cols), colours=cols, preference=pref,
        pab_eligible=True, upfloats=0, upfloated_previous=False, max_upfloater=False,
    )


def test_5_2_1_higher_ranked_odd_tpn_gets_initial_colour():
    """5.2.1: neither has played.  Higher ranked = more points: 4 (1 point from a
    bye) outranks 3 (0 points) although 3 has the smaller TPN; 4 is even, so 4 gets
    the opposite of the initial colour: with initial White, 4 plays Black."""
    a, b = player(3, score=0), player(4, score=1)
    assert allocate(a, b, W)[:3] == (3, 4, "5.2.1")
    assert allocate(a, b, B)[:3] == (4, 3, "5.2.1")


def test_5_2_1_equal_points_smaller_tpn_ranks_higher():
    """5.2.1: equal points: TPN 5 outranks TPN 8; 5 is odd -> initial colour."""
    assert allocate(player(8), player(5), W)[:3] == (5, 8, "5.2.1")


def test_5_2_2_both_preferences_granted():
    """5.2.2: 1 seeks White (strong), 2 seeks Black (mild): both get theirs."""
    a = player(1, "B", Preference(W, STRONG))
    b = player(2, "WB", Preference(B, MILD))
    assert allocate(b, a, W)[:3] == (1, 2, "5.2.2")


def test_5_2_2_no_game_counts_as_mild_black():
    """1.5.2.4 with 5.2.2: a player with no game (mild Black) against a White
    seeker: both granted (5.2.1 needs both to have no game)."""
    a = player(1, "B", Preference(W, STRONG))
    b = player(2)
    assert allocate(a, b, B)[:3] == (1, 2, "5.2.2")


def test_5_2_3_stronger_preference_wins():
    """5.2.3: both seek White; 2's absolute beats 1's strong, though 1 ranks
    higher."""
    a = player(1, "B", Preference(W, STRONG), score=2)
    b = player(2, "BB", Preference(W, ABS))
    assert allocate(a, b, W)[:3] == (2, 1, "5.2.3")


def test_5_2_4_alternate_from_the_latest_difference():
    """5.2.4: both mild White.  1 played W B W B, 2 played B W W B.  Aligned at
    the latest game: B/B, W/W, then B (1) / W (2): the most recent difference.
    Alternating from it, 1 (Black then) gets White and 2 Black - though 2 ranks
    higher and 5.2.5 would have given 2 White."""
    a = player(1, "WBWB", Preference(W, MILD), score=1)
    b = player(2, "BWWB", Preference(W, MILD), score=2)
    assert allocate(a, b, W)[:3] == (1, 2, "5.2.4")


def test_5_2_4_decides_nothing_when_the_shorter_history_runs_out():
    """5.2.4: 1 played W B, 2 played W B W B, both mild White; aligned: B/B, W/W,
    then 1's history ends: no difference, so 5.2.5 decides."""
    a = player(1, "WB", Preference(W, MILD))
    b = player(2, "WBWB", Preference(W, MILD))
    assert allocate(a, b, W)[2] == "5.2.5"


def test_5_2_5_higher_ranked_gets_preference():
    """5.2.5: equal strong Black preferences, equal histories (W): the higher ranked
    player (more points: 6) gets Black."""
    a = player(3, "W", Preference(B, STRONG), score=0)
    b = player(6, "W", Preference(B, STRONG), score=1)
    assert allocate(a, b, W)[:3] == (3, 6, "5.2.5")
