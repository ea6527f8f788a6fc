"""The pairing-allocated bye, Article 2.1 (2026: 3.1), one test per criterion."""

from pairing.engine import PointSystem, pair_round

from .builders import fresh, from_rounds


def test_pab_2_1_1_skips_a_player_who_had_a_pab():
    """2.1.1 / C2: round 1: 1-2, 3-4 (White wins), 5 gets the PAB (worth 0 here).
    Round 2: 1-3 (1 wins), 2 beats 5, 4 absent.  Before round 3: 1 has 2 points,
    2 and 3 one, 4 and 5 zero with one game each.  Lowest score 0: 4 and 5, equal on
    games (2.1.4), so 2.1.5 would take 5, the lowest ranked; but 5 already had a
    PAB (D8: whatever it was worth), so 4 gets it.  The others 1, 2, 3, 5 can be
    paired (1-5, 2-3), so 2.1.2 holds."""
    snap = from_rounds(
        5,
        [[(1, 2, "1-0"), (3, 4, "1-0"), (5, "U")], [(1, 3, "1-0"), (5, 2, "0-1")]],
        points=PointSystem(pairing_bye=0),
    )
    p = pair_round(snap)
    assert p.bye == 4
    assert 5 not in p.explanation.bye.eligible
    assert p.explanation.bye.eligible[0] == 4


def test_pab_2_1_2_needs_a_complete_pairing_of_the_others():
    """2.1.2 / C4: round 1: 1 beats 2, 3 absent; 1-3 forbidden.  Round 2, three
    players: eligible all; order 2 (0 pts, 1 game), 3 (0 pts, 0 games), 1 (1 pt).
    Without 2 the others are 1 and 3: forbidden.  Without 3: 1 and 2 have met.
    Without 1: 2-3 is legal, so 1 gets the bye although they lead."""
    snap = from_rounds(3, [[(1, 2, "1-0")]], forbidden=[(1, 3)])
    p = pair_round(snap)
    assert p.bye == 1
    assert p.explanation.bye.rejected_incomplete == (2, 3)
    assert [(b.white, b.black) for b in p.boards] in ([(2, 3)], [(3, 2)])


def test_the_bye_reason_names_the_criteria_apart_from_the_player():
    """The explanation's reason opens with the player ("Pairing-allocated bye to 1");
    ``criteria()`` is the rest, which still names the players rejected under 2.1.2;
    with no bye the reason is kept whole."""
    bye = pair_round(from_rounds(3, [[(1, 2, "1-0")]], forbidden=[(1, 3)])).explanation.bye
    assert bye.reason.startswith("Pairing-allocated bye to 1; ")
    assert bye.reason.endswith(bye.criteria())
    assert not bye.criteria().startswith("Pairing-allocated")
    assert "rejected" in bye.criteria() and "2.1.2" in bye.criteria()
    even = pair_round(fresh(4)).explanation.bye
    assert even.player is None and even.criteria() == even.reason != ""


def test_pab_2_1_3_lowest_score_first():
    """2.1.3: round 1: 1 beats 2, 3-4 drawn, 5 the PAB.  Round 2: eligible 1-4
    (5 had the PAB); 2 has 0 points, 3 and 4 half a point: 2 gets the bye although
    4 is lower ranked.  The rest 1, 3, 4, 5 pair as 1-3/1-4 with 5-4/5-3."""
    snap = from_rounds(5, [[(1, 2, "1-0"), (3, 4, "1/2"), (5, "U")]])
    assert pair_round(snap).bye == 2


def test_pab_2_1_4_prefers_most_games_played():
    """2.1.4: round 1: 1 beats 2, 3 beats 4, 5 absent (0 points, no game).
    Round 2: 2, 4 and 5 have 0 points; 2 and 4 have played one game, 5 none, so the
    bye goes to the lowest ranked of 2 and 4, i.e. 4 - not to 5, who is lower
    ranked still but has played fewer games."""
    snap = from_rounds(5, [[(1, 2, "1-0"), (3, 4, "1-0")]])
    p = pair_round(snap)
    assert p.bye == 4
    assert p.explanation.bye.eligible[:3] == (4, 2, 5)


def test_pab_2_1_5_lowest_in_initial_ranking():
    """2.1.5: round 1 with 9 players: all equal on score and games, TPN 9 gets it."""
    p = pair_round(fresh(9))
    assert p.bye == 9
    assert "2.1.5" in p.explanation.bye.reason


def test_no_pab_with_an_even_number():
    p = pair_round(fresh(8))
    assert p.bye is None and p.explanation.bye.player is None
