"""The Burstein system (C.04.4.2, 2026 text): hand-worked cases, one per rule and one per
example the text gives, and a property test of the absolute criteria.  Each case's
docstring gives the reasoning from the text (../shared/rules/burstein-C040402.txt,
readings in docs/burstein.md)."""

from __future__ import annotations

from dataclasses import replace
from decimal import Decimal

from hypothesis import given, settings
from hypothesis import strategies as st

from pairing.engine import Colour, NoLegalPairing, PointSystem, System, burstein_states, pair_round
from pairing.engine.burstein import seeding_rounds
from pairing.engine.burstein.bracket import order_digit
from pairing.engine.generator import GeneratorConfig, generate

from .builders import boards, from_rounds, snapshot
from .burstein_literal import candidates_in_order


def burstein(snap):
    return pair_round(replace(snap, system=System.BURSTEIN))


def pairs(pairing) -> set[frozenset[int]]:
    return {frozenset((b.white, b.black)) for b in pairing.boards}


D = Decimal

# ---------------------------------------------------------------- 4.3 and its note

# The note to 4.3: six players, two pairs, two virtual players (BSN 0), in the order of
# 4.3 -- BSN 1's opponent the larger BSN first, then BSN 2's, ...; a virtual player last.
# Written out by hand from the rule; the handbook's note lists "1-3, 2-0, 4-5, 6-0" twice
# (docs/burstein.md B9): without the repeat there are 45.
NOTE_4_3 = """
1-6, 2-5, 3-0, 4-0 | 1-6, 2-4, 3-0, 5-0 | 1-6, 2-3, 4-0, 5-0 | 1-6, 2-0, 3-5, 4-0 | 1-6, 2-0, 3-4, 5-0
1-6, 2-0, 3-0, 4-5 | 1-5, 2-6, 3-0, 4-0 | 1-5, 2-4, 3-0, 6-0 | 1-5, 2-3, 4-0, 6-0 | 1-5, 2-0, 3-6, 4-0
1-5, 2-0, 3-4, 6-0 | 1-5, 2-0, 3-0, 4-6 | 1-4, 2-6, 3-0, 5-0 | 1-4, 2-5, 3-0, 6-0 | 1-4, 2-3, 5-0, 6-0
1-4, 2-0, 3-6, 5-0 | 1-4, 2-0, 3-5, 6-0 | 1-4, 2-0, 3-0, 5-6 | 1-3, 2-6, 4-0, 5-0 | 1-3, 2-5, 4-0, 6-0
1-3, 2-4, 5-0, 6-0 | 1-3, 2-0, 4-6, 5-0 | 1-3, 2-0, 4-5, 6-0 | 1-3, 2-0, 4-0, 5-6 | 1-2, 3-6, 4-0, 5-0
1-2, 3-5, 4-0, 6-0 | 1-2, 3-4, 5-0, 6-0 | 1-2, 3-0, 4-6, 5-0 | 1-2, 3-0, 4-5, 6-0 | 1-2, 3-0, 4-0, 5-6
1-0, 2-6, 3-5, 4-0 | 1-0, 2-6, 3-4, 5-0 | 1-0, 2-6, 3-0, 4-5 | 1-0, 2-5, 3-6, 4-0 | 1-0, 2-5, 3-4, 6-0
1-0, 2-5, 3-0, 4-6 | 1-0, 2-4, 3-6, 5-0 | 1-0, 2-4, 3-5, 6-0 | 1-0, 2-4, 3-0, 5-6 | 1-0, 2-3, 4-6, 5-0
1-0, 2-3, 4-5, 6-0 | 1-0, 2-3, 4-0, 5-6 | 1-0, 2-0, 3-6, 4-5 | 1-0, 2-0, 3-5, 4-6 | 1-0, 2-0, 3-4, 5-6
"""


def _note() -> list[str]:
    return [c.strip() for line in NOTE_4_3.strip().splitlines() for c in line.split("|")]


def test_4_3_note_the_45_candidates_of_six_players_with_two_pairs():
    """The note's list, written by hand from 4.3, is the order the literal enumerator
    generates; 45 pairings, each once."""
    note = _note()
    assert len(note) == len(set(note)) == 45
    assert candidates_in_order(6, 2) == note


def test_4_3_the_engines_order_level_sorts_the_note_as_written():
    """The engine packs 4.3 into one number (BSN 1's opponent the most significant digit,
    a virtual player 0): sorting the 45 pairings of the note by it, largest first, gives
    the note's order."""
    def weight(text: str) -> int:
        total = 0
        for pair in text.split(", "):
            x, y = (int(v) for v in pair.split("-"))
            if y:
                total += order_digit(x - 1, y - 1, 6)
        return total

    note = _note()
    assert sorted(note, key=weight, reverse=True) == note


# ---------------------------------------------------------------- 1.6 seeding rounds


def test_1_6_2_seeding_rounds_half_the_rounds_at_most_four():
    assert [seeding_rounds(r) for r in (1, 2, 3, 5, 7, 8, 9, 11, 13)] == [0, 1, 1, 2, 3, 4, 4, 4, 4]


def test_1_6_1_seeding_rounds_are_the_dutch_engines_pairings():
    """Every seeding round of a generated Burstein tournament (byes, forfeits,
    withdrawals, late entries) is the Dutch engine's pairing: boards, colours and PAB."""
    for seed in range(4):
        t = generate(GeneratorConfig(players=15 + seed, rounds=9, seed=seed, draw_rate=0.3, forfeit_rate=0.03,
                                     bye_rate=0.05, late_entry_rate=0.05, system=System.BURSTEIN))
        for k in range(1, seeding_rounds(9) + 1):
            snap = t.snapshot(k)
            ours = burstein(snap)
            dutch = pair_round(replace(snap, system=System.DUTCH))
            assert (boards(ours), ours.bye) == (boards(dutch), dutch.bye)
            assert ours.explanation.paired_by is System.DUTCH
        assert burstein(t.snapshot(5)).explanation.paired_by is System.BURSTEIN


def test_1_6_1_seeding_rounds_are_the_dutch_engines_for_every_length_and_with_baku():
    """1.6.1-1.6.2 over the lengths where the number of seeding rounds changes (2 rounds: 1
    seeding round; 3: 1; 5: 2; 7: 3; 8 and 11: 4), with and without Baku acceleration
    (C.04.7 is general): every seeding round is the Dutch engine's pairing (boards,
    colours, PAB), and the round after them is the Burstein engine's own."""
    for rounds in (2, 3, 5, 7, 8, 11):
        for baku in (False, True):
            t = generate(GeneratorConfig(players=13 + rounds, rounds=rounds, seed=rounds * 10 + baku,
                                         draw_rate=0.3, forfeit_rate=0.03, bye_rate=0.05, late_entry_rate=0.05,
                                         baku=baku, system=System.BURSTEIN))
            n = seeding_rounds(rounds)
            for k in range(1, n + 1):
                snap = t.snapshot(k)
                ours = burstein(snap)
                dutch = pair_round(replace(snap, system=System.DUTCH))
                assert (boards(ours), ours.bye) == (boards(dutch), dutch.bye), (rounds, baku, k)
                assert ours.explanation.paired_by is System.DUTCH
            if n < rounds:
                assert burstein(t.snapshot(n + 1)).explanation.paired_by is System.BURSTEIN


# ---------------------------------------------------------------- 1.7 the Index

# A small event, three rounds of six, round 4 of 6 to pair (after the 3 seeding rounds):
#   1: beat 5 (W), drew 2 (B), full-point bye            -> 2.5
#   2: lost to 4 (B), drew 1 (W), beat 6 (B)              -> 1.5
#   3: beat 6 (W), forfeit win over 4 (B), lost to 5 (W)  -> 2
#   4: beat 2 (W), forfeit loss to 3, zero-point bye      -> 1   (then absent: withdrawn)
#   5: lost to 1 (B), zero-point bye, beat 3 (B)          -> 1
#   6: lost to 3 (B), half-point bye, lost to 2 (W)       -> 0.5
INDEX_EVENT = {
    1: "5w1 2b= F",
    2: "4b0 1w= 6b1",
    3: "6w1 4b+ 5w0",
    4: "2w1 3w- Z",
    5: "1b0 Z 3b1",
    6: "3b0 H 2w0",
}


def test_1_7_index_unplayed_rounds_count_against_oneself_and_zero_bye_runs_as_draws():
    """1.7.1 Buchholz and Sonneborn-Berger with the rules of 1.7.2:
    - an unplayed round is a game against oneself with the points registered for it:
      1's full-point bye adds 1's own score 2.5 to the Buchholz and 1 x 2.5 to the SB;
      3's forfeit win adds 2 and 1 x 2; 6's half-point bye 0.5 and 0.5 x 0.5;
    - 4's last round is a zero-point bye (a run reaching the current round): for 4's
      over-the-board opponent 2, 4's score reads 1 + 0.5 = 1.5; 4's own Index counts
      the forfeit and the bye against 4 with 4's real score 1;
    - 5's zero-point bye in round 2 is not at the end: 5's opponents read 5's real 1.
    Real points only (no acceleration here)."""
    st = burstein_states(replace(snapshot(INDEX_EVENT, total_rounds=6, absent={4}), system=System.BURSTEIN))
    got = {pid: (s.buchholz, s.sonneborn_berger) for pid, s in st.items()}
    assert got[1] == (D(1) + D("1.5") + D("2.5"), D(1) * 1 + D("0.5") * D("1.5") + 1 * D("2.5"))  # 5, 2, bye
    assert got[2] == (D("1.5") + D("2.5") + D("0.5"), 0 + D("0.5") * D("2.5") + 1 * D("0.5"))  # 4 as 1.5, 1, 6
    assert got[3] == (D("0.5") + D(2) + D(1), 1 * D("0.5") + 1 * D(2) + 0)  # 6, itself (forfeit), 5
    assert got[4] == (D("1.5") + D(1) + D(1), 1 * D("1.5") + 0 + 0)  # 2, itself twice
    assert got[5] == (D("2.5") + D(1) + D(2), 0 + 0 + 1 * D(2))  # 1, itself (Z), 3
    assert got[6] == (D(2) + D("0.5") + D("1.5"), 0 + D("0.5") * D("0.5") + 0)  # 3, itself (H), 2
    assert st[4].zero_run == 1 and st[5].zero_run == 0


# Round 5 of 6 (three seeding rounds).  1 beat 2 in round 1, then had zero-point byes in
# rounds 2-4: a run up to the round being paired.  4's zero-point bye (round 2) and 6's
# (round 3) are followed by played games: no run.
ZERO_RUN_EVENT = {
    1: "2w1 Z Z Z",          # 1
    2: "1b0 3w1 4b1 5w0",    # 2
    3: "4w0 2b0 5w1 H",      # 1.5
    4: "3b1 Z 2w0 6w1",      # 2
    5: "6w1 H 3b0 2b1",      # 2.5
    6: "5b0 H Z 4b0",        # 0.5
}


def test_1_7_2_a_run_of_three_zero_point_byes_reads_as_three_draws_for_the_opponent_only():
    """1.7.2, the exception: "if a player has a series of consecutive zero-point-byes up
    to the current round, each of the ones gathered in previous rounds, for the benefit of
    the player's actual over-the-board opponents, is considered as a draw" (B3).
    - 1's three byes end the history: 2, 1's only opponent, reads 1's score as
      1 + 3 x 0.5 = 2.5, in the Buchholz (2.5 + 1.5 + 2 + 2.5 = 8.5, not 7) and as the
      factor of the Sonneborn-Berger (0 x 2.5 + 1 x 1.5 + 1 x 2 + 0 x 2.5 = 3.5);
    - 1's own Index is not changed: the byes are games against 1 with 0 points, 1's real
      score 1 each: Buchholz 2 + 1 + 1 + 1 = 5, Sonneborn-Berger 1 x 2 = 2;
    - 4's bye (round 2) and 6's (round 3) are followed by played games: their opponents
      read their real scores (3: 4 as 2, 6's opponent 4: 6 as 0.5)."""
    snap = replace(snapshot(ZERO_RUN_EVENT, total_rounds=6), system=System.BURSTEIN)
    st = burstein_states(snap)
    assert [st[i].zero_run for i in range(1, 7)] == [3, 0, 0, 0, 0, 0]
    assert (st[2].buchholz, st[2].sonneborn_berger) == (D("8.5"), D("3.5"))
    assert (st[1].points, st[1].buchholz, st[1].sonneborn_berger) == (D(1), D(5), D(2))
    assert (st[3].buchholz, st[3].sonneborn_berger) == (D(2) + D(2) + D("2.5") + D("1.5"), D("2.5") + D("0.75"))
    assert (st[4].buchholz, st[4].sonneborn_berger) == (D("1.5") + D(2) + D(2) + D("0.5"), D("1.5") + D("0.5"))
    p = burstein(snap)
    assert p.explanation.paired_by is System.BURSTEIN
    index = {pid: (bh, sb) for b in p.explanation.brackets for pid, bh, sb in b.index}
    assert index[2] == (D("8.5"), D("3.5"))  # the explanation shows the same figures


def test_1_7_2_virtual_points_stay_out_of_the_index():
    """An accelerated round: the pairing scores carry the virtual points, the Index does
    not (1.7.2)."""
    from pairing.engine import Acceleration

    snap = replace(snapshot(INDEX_EVENT, total_rounds=6, absent={4}), system=System.BURSTEIN,
                   acceleration=(Acceleration(D(1), 1, 4, frozenset({1, 2, 3})),))
    plain = burstein_states(replace(snapshot(INDEX_EVENT, total_rounds=6, absent={4}), system=System.BURSTEIN))
    accel = burstein_states(snap)
    assert accel[1].score == plain[1].score + 1 and accel[1].points == plain[1].points
    assert {p: (s.buchholz, s.sonneborn_berger) for p, s in accel.items()} == \
        {p: (s.buchholz, s.sonneborn_berger) for p, s in plain.items()}


def test_1_8_ranking_by_index_then_tpn_not_by_score():
    """1.8: in a bracket the incoming floater ranks by its Index among the residents, not
    above them by score (the note: scores are not used).  Round 4 of 6 of
    INDEX_EVENT: 1 (2.5) floats down into the 2-point scoregroup {3}; 1's Index 5 is
    above 3's 3.5, so 1 is BSN 1 there."""
    p = burstein(snapshot(INDEX_EVENT, total_rounds=6, absent={4}))
    by_score = {b.score: b for b in p.explanation.brackets}
    assert [i for i, _, _ in by_score[D(2)].index] == [1, 3]
    assert by_score[D(2)].moved_down == (1,)


# ---------------------------------------------------------------- 3.1 the PAB


def test_3_1_pab_lowest_score_then_most_games_then_lowest_ranking():
    """Round 3 of 4 (two seeding rounds), seven players.  The lowest score is 0: players
    2, 4 and 7.  3.1.4: 2 and 4 played two games, 7 none (two zero-point byes): 7 is
    out.  3.1.5: the lower ranking by 1.8: 2's opponents 1 and 5 have 2 + 2 = 4, 4's
    opponents 3 and 1 have 1.5 + 2 = 3.5: 4 ranks lower and gets the PAB (3.1.2: the
    others still pair, 1-3, 2-6, 5-7 for instance)."""
    snap = from_rounds(7, [
        [(1, 2, "1-0"), (3, 4, "1-0"), (5, 6, "1-0"), (7, "Z")],
        [(2, 5, "0-1"), (4, 1, "0-1"), (6, 3, "1/2"), (7, "Z")],
    ], total_rounds=4)
    st = burstein_states(replace(snap, system=System.BURSTEIN))
    assert [st[i].points for i in (2, 4, 7)] == [D(0), D(0), D(0)]
    assert [st[i].games_played for i in (2, 4, 7)] == [2, 2, 0]
    assert (st[2].buchholz, st[4].buchholz) == (D(4), D("3.5"))
    p = burstein(snap)
    assert p.bye == 4
    assert p.explanation.bye.eligible[:3] == (4, 2, 7)  # in the order of 3.1.3-3.1.5
    assert "3.1.5" in p.explanation.bye.reason


def test_3_1_1_forfeit_win_full_point_bye_and_pab_bar_the_pab():
    """3.1.1 with [C2] (Basic Rule 4 of the 2026 Basic Rules): 1 won by forfeit, 3 had a
    full-point bye, 5 a PAB: none may receive it, though 1 has the lowest score of
    them.  Of 2 and 4 (0.5 each) 4 played two games, 2 one (its first round was a
    forfeit, not a game): 3.1.4 gives 4 the PAB."""
    snap = from_rounds(5, [
        [(1, 2, "+-"), (3, 4, "1-0"), (5, "U")],
        [(1, 5, "0-1"), (2, 4, "1/2"), (3, "F")],
    ], total_rounds=4)
    st = burstein_states(replace(snap, system=System.BURSTEIN))
    assert [st[i].pab_eligible for i in range(1, 6)] == [False, True, False, True, False]
    p = burstein(snap)
    assert p.bye == 4
    assert pairs(p) == {frozenset((1, 2)), frozenset((3, 5))}  # a forfeit is no game: 1-2 may meet


def test_3_1_1_an_earlier_pab_bars_the_pab():
    event = {1: "2w1 U", 2: "1b0 3w1", 3: "U 2b0"}
    snap = snapshot(event, total_rounds=4)
    # round 3 of 4: 1 and 3 had the PAB; 2 must take it
    assert burstein(snap).bye == 2


def test_3_1_2_the_pab_goes_to_a_player_who_leaves_a_complete_pairing():
    """Round 3 of 4, three players, 3 has the lowest score but 1 and 2 have met: giving
    3 the PAB leaves 1-2, a rematch; 3.1.2 passes to the next, 2 (lowest score of the
    rest... 1 had the PAB)."""
    event = {1: "U 2w1", 2: "3b1 1b0", 3: "2w0 Z"}
    p = burstein(snapshot(event, total_rounds=4))
    assert p.bye == 2
    assert p.explanation.bye.rejected_incomplete == (3,)
    assert pairs(p) == {frozenset((1, 3))}


# ---------------------------------------------------------------- [C7] across two brackets

# Round 4 of 6 (three seeding rounds).  Players 9-12 have withdrawn (absent).
C7_EVENT = {
    1: "9w1 10b1 11w1",     # 3: beat three players who have withdrawn
    2: "4w1 5b1 6w1",       # 3: beat 4, 5 and 6
    3: "7b1 8w1 12b1",      # 3
    4: "2b0 H H",           # 1
    5: "H 2w0 H",           # 1
    6: "H H 2b0",           # 1
    7: "3w0 Z Z",           # 0
    8: "Z 3b0 Z",           # 0
    9: "1b0 Z Z",
    10: "Z 1w0 Z",
    11: "Z Z 1b0",
    12: "F F 3w0",          # 2
}


def test_c7_the_outgoing_floater_lets_the_following_bracket_pair_everyone():
    """The 3-point bracket {1, 2, 3} pairs once and floats one player.  The Index (1.7.2:
    the zero-point byes that end 7's, 8's, 9's and 10's histories read as draws for
    their opponents) gives 3 Buchholz 1 + 0.5 + 2 = 3.5, 2 3 and 1 1 + 0.5 + 0 = 1.5:
    BSN 1 = 3, 2 = 2, 3 = 1.  The first candidate of 4.3, 3-1 with 2 floating, is worse
    on [C7]: 2 has met 4, 5 and 6, so the following bracket {2, 4, 5, 6} pairs only
    once.  The next, 3-2 with 1 floating, lets it pair twice ({1, 4, 5, 6}: 1 met none of
    them): taken although [C8] prefers neither (3 strong White against 2 strong Black).
    The 1-point bracket then ranks 4, 5, 6 (Buchholz 5: 2's 3 and their own 1 twice) above
    1 (1.5) and pairs 4-1, 5-6; the 0-point bracket 7-8."""
    snap = snapshot(C7_EVENT, total_rounds=6, absent={9, 10, 11, 12})
    st = burstein_states(replace(snap, system=System.BURSTEIN))
    assert (st[3].buchholz, st[2].buchholz, st[1].buchholz) == (D("3.5"), D(3), D("1.5"))
    p = burstein(snap)
    assert pairs(p) == {frozenset(x) for x in ((3, 2), (4, 1), (5, 6), (7, 8))}
    top = p.explanation.brackets[0]
    assert [i for i, _, _ in top.index] == [3, 2, 1]
    assert top.downfloaters == (1,)
    assert any("C7" in n for n in top.notes)


def test_c6_the_incoming_floater_is_paired_before_residents_float():
    """[C6]: of a bracket's candidates with the most pairs, the one whose outgoing
    floaters score least: the incoming floater 1 (2.5) is paired in the 2-point bracket
    {1, 3} rather than floating again (INDEX_EVENT round 4, 4 absent)."""
    p = burstein(snapshot(INDEX_EVENT, total_rounds=6, absent={4}))
    assert frozenset((1, 3)) in pairs(p)


def test_c8_fewest_players_without_their_preference_then_the_order():
    """Round 4 of 6.  The 1-point bracket {1, 2, 3, 4}: equal Index (Buchholz 6,
    Sonneborn-Berger 2 each), so BSNs by TPN; 1 and 4 want White (B W B), 2 and 3 Black
    (W B W).  4.3's first candidate 1-4, 2-3 leaves two players without their colour
    ([C8]); 1-3, 2-4 and 1-2, 3-4 leave none, and of these 1-3 comes first (BSN 1's
    opponent 3 > 2).  The 2-point bracket 5 (absolute White), 6 (strong White), 7
    (absolute Black), 8 (strong Black): 5-8, 6-7, the first candidate, grants all."""
    snap = from_rounds(8, [
        [(5, 1, "1-0"), (2, 6, "0-1"), (3, 7, "1-0"), (8, 4, "1-0")],
        [(1, 6, "1-0"), (7, 2, "1-0"), (8, 3, "1-0"), (4, 5, "1-0")],
        [(7, 1, "1-0"), (2, 8, "1-0"), (3, 5, "0-1"), (6, 4, "1-0")],
    ], total_rounds=6)
    st = burstein_states(replace(snap, system=System.BURSTEIN))
    assert [st[i].preference for i in (1, 2, 3, 4)] == [Colour.WHITE, Colour.BLACK, Colour.BLACK, Colour.WHITE]
    assert {(st[i].buchholz, st[i].sonneborn_berger) for i in (1, 2, 3, 4)} == {(D(6), D(2))}
    p = burstein(snap)
    assert pairs(p) == {frozenset(x) for x in ((1, 3), (2, 4), (5, 8), (6, 7))}
    one = next(b for b in p.explanation.brackets if b.score == D(1))
    assert (one.s1, one.t2) == ((1, 2), (3, 4))
    assert any("C8" in n for n in one.notes)
    assert all(c.rule == "5.2.2" for c in p.explanation.colours)


# ---------------------------------------------------------------- 5.2 colours


def _state(pid, cols, pref, strength, score=2, bh=5, tpn=None):
    from pairing.engine.burstein.state import BursteinPlayerState

    return BursteinPlayerState(pid, tpn or pid, D(score), D(score), len(cols), cols,
                               cols.count(Colour.WHITE) - cols.count(Colour.BLACK), pref, strength, True, D(bh), D(0), 0)


def test_5_2_1_neither_has_played_higher_ranked_odd_tpn_takes_the_initial_colour():
    """5.2.1: both have yet to play a game; the higher ranked is the one with more points
    (a player with byes only), else the smaller TPN; an odd TPN (as numbered among the
    players taking part) takes the initial colour, an even one the other."""
    from pairing.engine.burstein.colours import allocate

    W, B = Colour.WHITE, Colour.BLACK
    a, b = _state(5, (), None, None, score=1, tpn=5), _state(6, (), None, None, score=D("1.5"), tpn=6)
    assert allocate(a, b, W)[:3] == (5, 6, "5.2.1")  # 6 has more points, TPN 6 even: Black
    assert allocate(a, b, W, {5: 3, 6: 5})[:3] == (6, 5, "5.2.1")  # 6 is fifth taking part: odd, White
    c, d = _state(7, (), None, None, score=1, tpn=7), _state(8, (), None, None, score=1, tpn=8)
    assert allocate(d, c, B)[:3] == (8, 7, "5.2.1")  # equal points: TPN 7 odd, the initial colour Black


def test_5_2_3_then_5_2_4_then_5_2_5():
    """Round 5 of 8.  5.2.3: an absolute preference beats a strong one.  5.2.4: two mild
    preferences for White alternate from the last round their colours differed.  5.2.5:
    identical histories: the higher ranked by the Index gets the preference."""
    from pairing.engine.burstein.colours import allocate
    from pairing.engine.model import PreferenceStrength as S

    W, B = Colour.WHITE, Colour.BLACK

    def p(pid, cols, pref, strength, bh):
        return _state(pid, cols, pref, strength, bh=bh)

    a = p(1, (W, B, B), W, S.ABSOLUTE, 5)
    b = p(2, (B, W, B), W, S.STRONG, 6)
    assert allocate(a, b, W)[:3] == (1, 2, "5.2.3")
    c = p(3, (B, W, W, B), W, S.MILD, 5)
    d = p(4, (W, B, W, B), W, S.MILD, 6)
    # going back: both B, then 3 W / 4 B: alternate, 3 gets Black
    assert allocate(c, d, W)[:3] == (4, 3, "5.2.4")
    e = p(5, (W, B, W, B), W, S.MILD, 5)
    f = p(6, (W, B, W, B), W, S.MILD, 7)
    assert allocate(e, f, W)[:3] == (6, 5, "5.2.5")


# ---------------------------------------------------------------- properties


def test_no_legal_pairing_is_reported():
    """Round 4 of 6: 1, 2 and 3 have met each other; 4 (three zero-point byes) can take
    one of them, the other two have met: no pairing complies with [C1]; the arbiter
    decides."""
    snap = from_rounds(4, [[(1, 2, "1-0"), (3, "U")], [(1, 3, "1-0"), (2, "U")], [(2, 3, "1-0"), (1, "U")]],
                       total_rounds=6)
    try:
        burstein(snap)
    except NoLegalPairing as exc:
        assert exc.players
    else:  # pragma: no cover
        raise AssertionError("expected NoLegalPairing")


@settings(max_examples=25, deadline=None)
@given(seed=st.integers(0, 10**6), players=st.integers(4, 24), rounds=st.integers(5, 9),
       draws=st.sampled_from([0.0, 0.3, 0.6]), three=st.booleans())
def test_property_every_round_is_legal_and_complete(seed, players, rounds, draws, three):
    """[C1]-[C4] on random tournaments: no rematch of a played game, no forbidden pair,
    no two equal absolute preferences, everyone present paired once, the PAB (if any) to
    an eligible player (the engine's own final check raises otherwise)."""
    points = PointSystem(win=D(3), draw=D(1), forfeit_win=D(3), pairing_bye=D(3), full_bye=D(3),
                         half_bye=D(1)) if three else PointSystem()
    cfg = GeneratorConfig(players=players, rounds=rounds, seed=seed, draw_rate=draws, forfeit_rate=0.05,
                          bye_rate=0.05, withdrawal_rate=0.02, late_entry_rate=0.05, forbidden_pairs=1,
                          points=points, system=System.BURSTEIN)
    try:
        t = generate(cfg)
    except NoLegalPairing:
        return
    for k in range(seeding_rounds(rounds) + 1, t.rounds_played + 1):
        snap = t.snapshot(k)
        st_ = burstein_states(snap)
        p = burstein(snap)
        seen = set()
        for b in p.boards:
            assert b.black not in {e.opponent for e in next(x for x in snap.players if x.id == b.white).history
                                   if e.played}
            assert frozenset((b.white, b.black)) not in snap.forbidden
            w, bl = st_[b.white], st_[b.black]
            assert not (w.absolute and bl.absolute and w.preference is bl.preference)
            seen |= {b.white, b.black}
        if p.bye is not None:
            assert st_[p.bye].pab_eligible
            seen.add(p.bye)
        assert seen == {x.id for x in snap.players} - snap.absent
