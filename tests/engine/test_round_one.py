"""Round 1 falls out of the general procedure (engine doc, "Round 1")."""

from pairing.engine import Colour, pair_round

from .builders import boards, fresh


def test_nine_players_present():
    """9 players: odd, so the PAB first (2.1): everyone is eligible, all have 0 points
    and 0 games, so 2.1.5 gives it to the lowest ranked, TPN 9.  The bracket of 8
    has nobody who has played: G1 = 1-4, G2 = 5-8 (2.2.3), no shift, S1 = 1,2,3,4
    (all ARO 0, TPN order), T2 = 5,6,7,8.  Colours 5.2.1: the higher ranked player
    of each pair (the G1 player) gets White (initial colour) with an odd TPN, Black
    with an even one.  Board order by TPN of the higher ranked player."""
    p = pair_round(fresh(9))
    assert p.bye == 9
    assert boards(p) == [(1, 5), (6, 2), (3, 7), (8, 4)]
    assert all(c.rule == "5.2.1" for c in p.explanation.colours)


def test_nine_registered_tpn_two_absent():
    """TPN 2 absent: 8 players to pair, no PAB.  G1 = 1,3,4,5 (first half by TPN),
    G2 = 6,7,8,9: pairs 1-6, 3-7, 4-8, 5-9; 5.2.1 uses the TPN parity of the higher
    ranked player: 1, 3, 5 odd -> White, 4 even -> Black.  TPNs are never renumbered."""
    p = pair_round(fresh(9, absent={2}))
    assert p.bye is None
    assert boards(p) == [(1, 6), (3, 7), (8, 4), (5, 9)]


def test_initial_colour_black():
    """Initial colour Black (5.1): odd-TPN higher ranked players get Black."""
    p = pair_round(fresh(4, initial_colour=Colour.BLACK))
    assert boards(p) == [(3, 1), (2, 4)]


def test_forbidden_pair_forces_a_later_transposition():
    """1-3 forbidden, 4 players: S1 = 1,2; the first transposition (3,4) pairs 1-3,
    so T2 = (4,3): 1-4, 2-3 (2.2.6 / 4.4).  Colours: 1 odd -> White; 2 even ->
    Black."""
    p = pair_round(fresh(4, forbidden=[(1, 3)]))
    assert boards(p) == [(1, 4), (3, 2)]
    trace = p.explanation.brackets[0]
    assert trace.s1 == (1, 2) and trace.t2 == (4, 3)


def test_round_one_c7_counts_the_mild_black_preference_of_players_who_have_not_played():
    """1.5.2.4: a player who has not played has a mild preference for Black.  Round 1
    of 6: three boards of two such players, so one player on each board does not get
    the preference, C7 = 3, and the trace says why instead of a bare 3."""
    p = pair_round(fresh(6))
    (bracket,) = p.explanation.brackets
    note = next(n for n in bracket.notes if n.startswith("C7"))
    assert note == (
        "C7: 3 player(s) do not get their colour preference "
        "(before a first game everyone has a mild preference for Black, 1.5.2.4)."
    )
