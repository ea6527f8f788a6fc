"""Hand-worked cases proving the literal enumerator (tests/engine/literal.py) itself.

Each docstring works the case from the rule text (C.04.4.1, 2025 numbering) and
the reading decisions of docs/dubov-engine.md.
"""

from __future__ import annotations

from pairing.engine.model import Colour, NoLegalPairing, Player, Result, RoundEntry, Snapshot

from .literal import Round, literal_pair_round, literal_pairs

W, B = Colour.WHITE, Colour.BLACK


def _field(n: int) -> tuple[Player, ...]:
    return tuple(Player(id=i, tpn=i, rating=2500 - 20 * i) for i in range(1, n + 1))


def _snapshot(players, round_number=1, total_rounds=5, **kw) -> Snapshot:
    return Snapshot(players=tuple(players), round_number=round_number, total_rounds=total_rounds, **kw)


def _byes(*results: str) -> tuple[RoundEntry, ...]:
    return tuple(RoundEntry(None, None, Result(r)) for r in results)


def test_round_one_odd_field_gives_the_pab_to_the_last_and_pairs_halves():
    """2.1: everyone is eligible, all scores 0 and no games, so 2.1.5 gives the
    PAB to the lowest ranked, TPN 9.  2.2.3: nobody has played, G1 = 1-4,
    G2 = 5-8; S1 = 1,2,3,4, T2 = 5,6,7,8.  5.2.1 with initial colour White: the
    higher ranked player gets White when their TPN is odd: 1-5, 6-2, 3-7, 8-4."""
    pairs, bye = literal_pairs(_snapshot(_field(9)))
    assert bye == 9
    assert pairs == [(1, 5), (6, 2), (3, 7), (8, 4)]


def test_round_one_with_an_absent_player_keeps_tpn_parity():
    """TPN 2 absent: eight present, no PAB.  G1 = 1,3,4,5, G2 = 6,7,8,9; pairs
    1-6, 3-7, 4-8, 5-9; 5.2.1 uses the TPN (4 even: 8 gets White)."""
    pairs, bye = literal_pairs(_snapshot(_field(9), absent=frozenset({2})))
    assert bye is None
    assert pairs == [(1, 6), (3, 7), (8, 4), (5, 9)]


def test_round_one_initial_colour_black_mirrors_the_colours():
    pairs, _ = literal_pairs(_snapshot(_field(8), initial_colour=B))
    assert pairs == [(5, 1), (2, 6), (7, 3), (4, 8)]


def test_round_one_forbidden_pair_takes_the_next_transposition():
    """2.2.6 / 4.4: {1, 5} forbidden.  T2 transpositions of 5,6,7,8 in order:
    5678 fails (1-5), 5687 ... 5876 all fail, the first legal is 6578:
    1-6, 2-5, 3-7, 4-8."""
    pairs, _ = literal_pairs(_snapshot(_field(8), forbidden=frozenset({frozenset({1, 5})})))
    assert pairs == [(1, 6), (5, 2), (3, 7), (8, 4)]


def test_round_one_step_b_pool_is_the_larger_subgroup_after_step_a_d14():
    """D14: round 1 of 7, forbidden 1-2, 1-6, 2-6, 3-5, 3-6, 3-7.  PAB 7 (2.1.5).
    G1 = {1, 2, 3}, G2 = {4, 5, 6}; 6 plays nobody in G1, so one pair inside G1 is
    unavoidable (2.2.4.1): G1 middle-out 2, 1, 3, and moving 2 works.  2.2.4.2: the
    pool is every possible shifter of G2 as it now stands, {2, 4, 5, 6} (all mild
    Black seekers, 1.5.2.4), middle-out by initial ranking 4, 5, 2, 6; {4} allows a
    crossing pairing.  S1 = 1, 3, 4; T2 = 5, 2, 6; 5.2.1 by the TPN parity of the
    higher ranked player: 1-5, 3-2, 6-4."""
    forbidden = frozenset(frozenset(p) for p in [(1, 2), (1, 6), (2, 6), (3, 5), (3, 6), (3, 7)])
    pairs, bye = literal_pairs(_snapshot(_field(7), forbidden=forbidden))
    assert bye == 7
    assert pairs == [(1, 5), (3, 2), (6, 4)]


def test_middle_out_sequence_numbers_of_article_4_3_3():
    """4.3.3 example: A..G are numbered D, C, E, B, F, A, G.  Seven players who
    never played are Black seekers sorted by TPN, so the example is literal."""
    r = Round(_snapshot(_field(7)))
    assert r.shifter_order([1, 2, 3, 4, 5, 6, 7], by_tpn_only=False) == [4, 3, 5, 2, 6, 1, 7]
    assert r.shifter_order([1, 2, 3, 4], by_tpn_only=True) == [2, 3, 1, 4]


def _round_two_field() -> tuple[Player, ...]:
    """Round 1 (not a Dubov round 1, only a history): 1-4 beat 7-10 with Black,
    5 and 6 beat 11 and 12 with White.  Ratings 2500 - 20 x TPN."""
    ratings = {i: 2500 - 20 * i for i in range(1, 13)}
    games = {1: 7, 2: 8, 3: 9, 4: 10, 5: 11, 6: 12}
    first = {}
    for winner, loser in games.items():
        winner_colour = B if winner <= 4 else W
        first[winner] = RoundEntry(loser, winner_colour, Result.WIN)
        first[loser] = RoundEntry(winner, winner_colour.opposite, Result.LOSS)
    return tuple(Player(id=i, tpn=i, rating=ratings[i], history=(first[i],)) for i in range(1, 13))


def test_shift_from_the_larger_subgroup_takes_the_middle_white_seeker():
    """Bracket 1 point: White seekers 1-4 (G1, won with Black), Black seekers 5, 6
    (G2).  2.2.4: S = G2, L = G1, no pair inside S is needed (u = 0), so one
    White seeker moves to G2.  4.3.2: White seekers by ARO ascending: 4 (met 10),
    3, 2, 1; 4.3.3 middle-out gives #1 = 3.  G1 = 1, 2, 4, S1 by ARO = 4, 2, 1;
    T2 = 3, 5, 6: pairs 4-3, 2-5, 1-6.  Colours: 4 and 3 both strong White with
    the same history, 5.2.5 gives White to the higher ranked 3.
    Bracket 0 points: Black seekers 7-10 (G2, lost with White), White seekers
    11, 12 (G1).  One Black seeker moves, by TPN middle-out: 8.  G1 = 11, 12, 8,
    S1 by ARO = 12 (met 6), 11 (met 5), 8 (met 2); T2 = 7, 9, 10: 12-7, 11-9,
    8-10, and 8 and 10 both want Black: 5.2.5 gives it to 8.  Board order by
    the higher ranked player's TPN within equal scores."""
    pairs, bye = literal_pairs(_snapshot(_round_two_field(), round_number=2))
    assert bye is None
    assert pairs == [(1, 6), (2, 5), (3, 4), (12, 7), (10, 8), (11, 9)]


def test_c6_containers_maximise_the_lowest_upfloater_score():
    """D12 / 4.2.3: residents A (TPN 1) and B (TPN 2) have 4 points and may not
    meet (forbidden), so two upfloaters are needed (C5).  Pool: X 3 points,
    Y and Z 2.5, W 1.5.  With Z-W and Y-W forbidden, {X, Y} and {X, Z} leave an
    unpairable rest (C4), so the legal containers are {2.5, 2.5} and {3, 1.5}.
    C6 maximises the lowest score: {Y, Z} wins (the "highest score first"
    reading would take {X, W}).  Nobody has played: G1 = A, B; T2 = Y, Z;
    5.2.1: A (odd) White, B (even) Black.  X-W last, X (TPN 3) White."""
    scores = {1: "FFFFZZ", 2: "FFFFZZ", 3: "FFFZZZ", 4: "FFHZZZ", 5: "FFHZZZ", 6: "FHZZZZ"}
    players = [Player(id=i, tpn=i, rating=2500 - 20 * i, history=_byes(*scores[i])) for i in scores]
    forbidden = frozenset(frozenset(p) for p in ({1, 2}, {5, 6}, {4, 6}))
    pairs, bye = literal_pairs(_snapshot(players, round_number=7, total_rounds=9, forbidden=forbidden))
    assert bye is None
    assert pairs == [(1, 4), (5, 2), (3, 6)]


def test_pab_skips_a_player_whose_removal_leaves_no_complete_pairing():
    """2.1.2 (C4): round 1, three players, {1, 2} forbidden.  By 2.1.5 the PAB
    would go to 3, but then 1 and 2 must meet; 2 is next (1-3 is legal)."""
    pairs, bye = literal_pairs(_snapshot(_field(3), forbidden=frozenset({frozenset({1, 2})})))
    assert bye == 2
    assert pairs == [(1, 3)]


def test_pab_goes_to_the_lowest_score_then_most_games():
    """2.1.3 before 2.1.5: TPN 1 has a zero-point bye and so the lowest score."""
    players = [Player(id=i, tpn=i, rating=2500 - 20 * i, history=_byes("H")) for i in range(1, 6)]
    players[0] = Player(id=1, tpn=1, rating=2480, history=_byes("Z"))
    _, bye = literal_pairs(_snapshot(players, round_number=2))
    assert bye == 1


def test_no_legal_pairing_is_raised_not_a_partial_pairing():
    """1.8.3: two players who may not meet."""
    try:
        literal_pair_round(_snapshot(_field(2), forbidden=frozenset({frozenset({1, 2})})))
    except NoLegalPairing:
        pass
    else:  # pragma: no cover
        raise AssertionError("expected NoLegalPairing")


def test_pairing_object_numbers_boards_in_order():
    p = literal_pair_round(_snapshot(_field(5)))
    assert [(b.number, b.white, b.black) for b in p.boards] == [(1, 1, 3), (2, 4, 2)]
    assert p.bye == 5


def _forfeit_ladder() -> tuple[Player, ...]:
    """Round 7 of 9 (MaxT = 3, C8-C10 on).  Nobody has played a game (D2):
    T (TPN 1) took full-point byes in rounds 1-6 (6 points).  Helpers G1-G5
    (TPN 2-6) took a full-point bye in round 1 and then won by forfeit against
    X (TPN 7; rounds 2-6) and Y (TPN 8; rounds 4-6), who stay on 0 points.
    A forfeit is a pairing (D7), and every helper had more points, so X has
    upfloated 5 times and Y 3 times, both in round 6."""
    t, g, x, y = 1, [2, 3, 4, 5, 6], 7, 8
    schedule = {2: [(g[0], x)], 3: [(g[1], x)], 4: [(g[2], x), (g[3], y)], 5: [(g[3], x), (g[4], y)]}
    schedule[6] = [(g[4], x), (g[0], y)]
    hist: dict[int, list[RoundEntry]] = {p: [] for p in range(1, 9)}
    for rnd in range(1, 7):
        paired = set()
        for winner, loser in schedule.get(rnd, []):
            hist[winner].append(RoundEntry(loser, W, Result.FORFEIT_WIN))
            hist[loser].append(RoundEntry(winner, B, Result.FORFEIT_LOSS))
            paired |= {winner, loser}
        for p in hist:
            if p not in paired:
                full = p == t or (rnd == 1 and p in g)
                hist[p].append(RoundEntry(None, None, Result.FULL_BYE if full else Result.ZERO_BYE))
    return tuple(Player(id=p, tpn=p, rating=2500 - 20 * p, history=tuple(hist[p])) for p in hist)


def test_c9_sums_the_upfloats_of_maximum_upfloaters():
    """D13 / C9.  T is alone on 6 points and needs one upfloater; the helpers
    (2-3 points) may not meet T (forbidden), so the candidates are X and Y,
    both on 0 points (C6 ties), both mild Black with no game (C7 ties), both
    maximum upfloaters (C8 ties) and both upfloated in round 6 (C10 ties).
    C9: X has upfloated 5 times, Y 3 times, so Y, although X comes first in
    4.2 order (TPN 7).  A bare count of maximum upfloaters would take X.
    T-Y by 5.2.1 (T odd, initial White).  Then 3 points: G1, G4, G5 need one
    upfloater; C6 takes a 2-point helper, G2 first by TPN; nobody has played:
    G1 = {2, 3}, T2 = 5, 6: 2-5 and 3-6, colours 5.2.1 (2 even: Black; 6 is
    higher ranked than 3 and even: Black).  Last X-G3 (4 even: Black).  Boards
    by the higher ranked player's score, then the sum of scores."""
    forbidden = frozenset(frozenset({1, h}) for h in range(2, 7))
    snapshot = _snapshot(_forfeit_ladder(), round_number=7, total_rounds=9, forbidden=forbidden)
    states = Round(snapshot).st
    assert (states[7].upfloats, states[8].upfloats) == (5, 3)
    assert states[7].max_upfloater and states[8].max_upfloater
    pairs, bye = literal_pairs(snapshot)
    assert bye is None
    assert pairs == [(1, 8), (5, 2), (3, 6), (7, 4)]


def test_c8_to_c10_are_off_in_the_last_round():
    """D9: the same field with Rnds = 7, so round 7 is the last: C9 no longer
    separates X and Y, and 4.2 order takes X."""
    forbidden = frozenset(frozenset({1, h}) for h in range(2, 7))
    snapshot = _snapshot(_forfeit_ladder(), round_number=7, total_rounds=7, forbidden=forbidden)
    pairs, _ = literal_pairs(snapshot)
    assert pairs[0] == (1, 7)
