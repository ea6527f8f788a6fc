"""The Dutch system (C.04.3, 2026 text): hand-worked cases, one per rule, and a property
test of the absolute criteria.  Each case's docstring gives the reasoning from the text."""

from __future__ import annotations

from dataclasses import replace
from pathlib import Path

from hypothesis import given, settings
from hypothesis import strategies as st

from pairing.engine import Colour, PointSystem, System, pair_round
from pairing.engine.__main__ import main as cli
from pairing.engine.dutch import Float, dutch_states
from pairing.engine.dutch.bracket import exchange_order
from pairing.engine.generator import GeneratorConfig, generate
from pairing.engine.trf import parse_trf

from .builders import boards, fresh, from_rounds, snapshot


def dutch(snap):
    return pair_round(replace(snap, system=System.DUTCH))


def pairs(pairing) -> set[frozenset[int]]:
    return {frozenset((b.white, b.black)) for b in pairing.boards}


# ---------------------------------------------------------------- round 1, colours


def test_round_one_nine_players_top_half_against_bottom_half():
    """Round 1, 9 players: the PAB goes to the lowest ranked (C5 ties, then the
    generation order leaves the last S2 player over); S1 = 1-4, S2 = 5-8 (3.2.1), the
    first candidate 1-5, 2-6, 3-7, 4-8 is perfect; 5.2.5: the higher ranked player takes
    the initial colour (White) with an odd TPN, Black with an even one."""
    p = dutch(fresh(9))
    assert p.bye == 9
    assert boards(p) == [(1, 5), (6, 2), (3, 7), (8, 4)]
    assert {c.rule for c in p.explanation.colours} == {"5.2.5"}


def test_round_one_initial_colour_black():
    p = dutch(fresh(4, initial_colour=Colour.BLACK))
    assert boards(p) == [(3, 1), (2, 4)]


def test_5_2_5_parity_skips_a_player_not_yet_on_the_list():
    """Round 1 with player 2 absent (a pre-set bye): a player who has never been paired
    and is not paired now is not on the pairing list yet (C.04.2 2.4-2.5), so 3 is the
    second player of the list: 3 takes the opposite of the initial colour (as
    bbpPairings v6 and Gacrux do)."""
    p = dutch(fresh(5, absent={2}))
    assert boards(p) == [(1, 4), (5, 3)]


def test_colour_5_2_3_alternation_then_5_2_4():
    """5.2.3: 1 (B W W B) and 2 (W B W B) both have a mild preference for White; going
    back, the most recent round in which they had different colours is the third from
    last (1 White, 2 Black), so the colours alternate from it: 1 Black, 2 White.
    3 (W B) and 4 (W B) never differ: 5.2.4 gives the higher ranked 3 its preference
    (White)."""
    from pairing.engine.dutch.colours import allocate

    snap = snapshot({1: "5b= 6w= 7w= 8b=", 2: "6w= 5b= 8w= 7b=", 3: "7w= 8b= Z Z", 4: "8w= 7b= Z Z",
                     5: "1w= 2w= Z Z", 6: "2b= 1b= Z Z", 7: "3b= 4w= 1b= 2w=", 8: "4b= 3w= 2b= 1w="})
    st = dutch_states(snap)
    assert allocate(st[1], st[2], Colour.WHITE)[:3] == (2, 1, "5.2.3")
    assert allocate(st[3], st[4], Colour.WHITE)[:3] == (3, 4, "5.2.4")


def test_colour_5_2_2_the_stronger_preference():
    """5.2.2: 1 (W W: absolute Black) against 2 (W: mild Black): the absolute one wins."""
    from pairing.engine.dutch.colours import allocate

    snap = snapshot({1: "3w= 4w=", 2: "4w= Z", 3: "1b= Z", 4: "2b= 1b="})
    st = dutch_states(snap)
    assert allocate(st[1], st[2], Colour.WHITE)[:3] == (2, 1, "5.2.2")


# ---------------------------------------------------------------- [C2], [C5], [C9]


def test_c2_a_full_point_bye_bars_the_pab():
    """[C2] (C.04.1 Art. 4, 2026): a player who scored a win's points without playing (F)
    may not receive the PAB; the lowest eligible player gets it."""
    snap = snapshot({1: "2w1", 2: "1b0", 3: "F"})
    p = dutch(snap)
    assert p.bye == 2


def test_c5_the_pab_to_the_lowest_score_before_more_pairs_in_a_bracket():
    """bbpPairings' test dutch_2025_C5 (its input and expected pairing, as facts).  Round 3
    of 3; 4 absent.  Scores: 1 and 3 have 2, 2 and 5 have 1, 6 has 0.  [C5] (above [C6])
    gives the PAB to 6 if the others can be paired: 1-3 is legal but then 2-5 (met in
    round 1) is the only pair left, so the top bracket downfloats 1 and 3 and the pairing
    is 1-5, 3-2 with 6's PAB."""
    snap = snapshot(
        {1: "4w1 2b1", 2: "5b1 1w0", 3: "6w1 4b1", 4: "1b0 3w0", 5: "2w0 6b1", 6: "3b0 5w0"},
        total_rounds=3, absent={4},
    )
    p = dutch(snap)
    assert p.bye == 6
    assert boards(p) == [(1, 5), (3, 2)]


def test_c9_the_pab_to_the_player_with_fewer_unplayed_games():
    """bbpPairings' test dutch_2025_C9 (facts).  Round 2 of 3; 5 was absent in round 1.
    1-2 pair on top; the bracket {3, 4, 5} downfloats one player who gets the PAB; [C9]
    prefers 4 (no unplayed game) to 5 (one), so 3-5 rather than the earlier 3-4."""
    snap = snapshot({1: "3w1", 2: "4b1", 3: "1b0", 4: "2w0", 5: "Z"}, total_rounds=3)
    p = dutch(snap)
    assert p.bye == 4
    assert boards(p) == [(2, 1), (3, 5)]


# ---------------------------------------------------------------- 4.2-4.4 generation order


def test_4_3_exchange_order_rules_c_and_d():
    """4.3 (c): the highest differing BSN moved from S1 to S2 first: 5-2 before 4-3,
    5-4-1 before 5-3-2; (d): the lowest differing BSN moved from S2 to S1 first: 6-9
    before 7-8, 6-7-10 before 6-8-9 (the handbook's examples, 11 players)."""
    s1, s2 = [1, 2, 3, 4, 5], [6, 7, 8, 9, 10, 11]

    def position(k, diff, x, y):
        order = list(exchange_order(s1, s2, k, diff))
        return order.index((tuple(sorted(x)), tuple(sorted(y))))

    assert position(2, 15 - 7, (5, 2), (6, 9)) < position(2, 15 - 7, (4, 3), (6, 9))
    assert position(2, 15 - 7, (5, 2), (6, 9)) < position(2, 15 - 7, (5, 2), (7, 8))
    assert position(3, 23 - 10, (5, 4, 1), (6, 7, 10)) < position(3, 23 - 10, (5, 3, 2), (6, 7, 10))
    assert position(3, 23 - 10, (5, 4, 1), (6, 7, 10)) < position(3, 23 - 10, (5, 4, 1), (6, 8, 9))


def test_4_2_first_legal_transposition():
    """4.2: round 2, bracket of 1.0 = {1, 2, 3, 4} (winners), S1 = 1, 2; S2 = 3, 4.  1 and
    3 met in round 1?  No: 1-5, 2-6, 3-7, 4-8 were played.  A forbidden pair 1-3 makes the
    first transposition (3, 4) illegal; the next one (4, 3) pairs 1-4 and 2-3."""
    snap = from_rounds(8, [[(1, 5, "1-0"), (6, 2, "0-1"), (3, 7, "1-0"), (8, 4, "0-1")]],
                       forbidden=[(1, 3)])
    p = dutch(snap)
    assert {frozenset((1, 4)), frozenset((2, 3))} <= pairs(p)


def _mdp_case(forbidden):
    """Round 2: 1-4 won and may not meet each other (forbidden pairs), 9-10 drew, 5-8
    lost.  The 1.0 bracket downfloats all four; the 0.5 bracket has MDPs 1-4 (BSN 1-4)
    and residents 9, 10, who met: at most two MDPs are paired (M1 = 2)."""
    rounds = [[(1, 5, "1-0"), (2, 6, "1-0"), (3, 7, "1-0"), (4, 8, "1-0"), (9, 10, "1/2")]]
    top = [(a, b) for a in range(1, 5) for b in range(a + 1, 5)]
    return dutch(from_rounds(10, rounds, forbidden=top + forbidden))


def test_4_4_2_valid_mdp_sets_1_3_before_1_4():
    """4.4.2: valid sets sorted by their smallest differing BSN, {1,3} < {1,4} < {3,4}.
    MDP 2 cannot meet 9 or 10, so {1,2} is not pairable; {1,3} is the first valid set."""
    p = _mdp_case([(2, 9), (2, 10)])
    br = next(b for b in p.explanation.brackets if b.moved_down)
    assert set(br.moved_down) == {1, 2, 3, 4}
    assert set(br.limbo) == {2, 4}
    assert {frozenset((1, 9)), frozenset((3, 10))} <= pairs(p)


def test_4_4_2_valid_mdp_sets_1_4_before_3_4():
    """1 and 3 can only meet 9, so {1,3} is not pairable; of {1,4} and {3,4} (both
    valid), {1,4} comes first (smallest differing BSN 1 < 3)."""
    p = _mdp_case([(2, 9), (2, 10), (1, 10), (3, 10)])
    br = next(b for b in p.explanation.brackets if b.moved_down)
    assert set(br.limbo) == {2, 3}
    assert {frozenset((1, 9)), frozenset((4, 10))} <= pairs(p)


# ---------------------------------------------------------------- figures


def test_floats_of_the_2026_text():
    """1.4.2-1.4.3: a played game against a lower score downfloats, a higher one
    upfloats; a half-point bye or forfeit win downfloats; a zero-point bye or forfeit
    loss gives no float."""
    snap = from_rounds(6, [
        [(1, 2, "1-0"), (3, 4, "+-"), (5, "H"), (6, "Z")],
        [(1, 5, "1-0"), (3, 2, "1-0"), (4, 6, "-+")],
    ])
    st = dutch_states(snap)
    assert st[1].float_1 is Float.DOWN  # 1 (1.0) beat 5 (0.5)
    assert st[5].float_1 is Float.UP
    assert st[5].float_2 is Float.DOWN  # H
    assert st[3].float_2 is Float.DOWN  # forfeit win
    assert st[4].float_2 is None  # forfeit loss
    assert st[6].float_2 is None  # zero-point bye


def test_topscorers_only_in_the_last_round():
    """1.8: over half of the maximum possible score, when pairing the final round."""
    snap = snapshot({1: "2w1 3b1", 2: "1b0 4w=", 3: "4w1 1w0", 4: "3b0 2b="}, total_rounds=3)
    st = dutch_states(snap)
    assert st[1].topscorer and st[3].topscorer is False and not st[2].topscorer
    assert not dutch_states(replace(snap, total_rounds=4))[1].topscorer


# ---------------------------------------------------------------- [C1]-[C4] on random tournaments


def _check_round(pairing, snap) -> None:
    met = {p.id: {e.opponent for e in p.history if e.played} for p in snap.players}
    st = dutch_states(snap)
    present = {p.id for p in snap.players} - snap.absent
    seen = set()
    for b in pairing.boards:
        assert b.black not in met[b.white]  # [C1]
        assert frozenset((b.white, b.black)) not in snap.forbidden
        w, k = st[b.white], st[b.black]
        if w.absolute and k.absolute and w.preference is k.preference:  # [C3]
            assert w.topscorer or k.topscorer
        seen |= {b.white, b.black}
    if pairing.bye is not None:
        assert st[pairing.bye].pab_eligible  # [C2]
        seen.add(pairing.bye)
    assert seen == present  # [C4]: everyone but at most one is paired


@settings(max_examples=12, deadline=None)
@given(seed=st.integers(0, 10_000), players=st.integers(5, 13))
def test_property_every_round_keeps_c1_to_c4(seed, players):
    cfg = GeneratorConfig(players=players, rounds=5, seed=seed, bye_rate=0.05, forfeit_rate=0.05,
                          forbidden_pairs=1, late_entry_rate=0.1)
    rounds = []

    def pairer(snap):
        p = dutch(snap)
        rounds.append((p, replace(snap, system=System.DUTCH)))
        return p

    generate(cfg, pairer=pairer)
    for p, snap in rounds:
        _check_round(p, snap)


def test_three_one_zero_scoring_and_a_pab_worth_less_than_a_win():
    """Other point systems: scores and the PAB's value come from the snapshot's points."""
    pts = PointSystem(win=3, draw=1, loss=0, forfeit_win=3, pairing_bye=1, full_bye=3, half_bye=1)
    cfg = GeneratorConfig(players=9, rounds=4, seed=5, points=pts)
    g = generate(cfg, pairer=dutch)
    assert g.rounds_played == 4


# ---------------------------------------------------------------- command line and TRF


def test_cli_generate_then_check_every_round(tmp_path: Path, capsys):
    out = tmp_path / "t.trf"
    assert cli(["--dutch", "-g", "--fixed", "--players", "12", "--rounds", "5", "--seed", "4", "-o", str(out)]) == 0
    text = out.read_text()
    assert "192 FIDE_DUTCH" in text
    assert parse_trf(text).system() is System.DUTCH
    capsys.readouterr()
    assert cli(["--dutch", str(out), "-c"]) == 0
    assert "all 5 rounds identical" in capsys.readouterr().out


def test_cli_pair_and_explain(tmp_path: Path, capsys):
    out = tmp_path / "t.trf"
    cli(["--dutch", "-g", "--fixed", "--players", "7", "--rounds", "3", "--played", "2", "--seed", "1", "-o", str(out)])
    capsys.readouterr()
    assert cli(["--dutch", str(out), "-p", "--explain"]) == 0
    text = capsys.readouterr().out
    first = text.splitlines()[0]
    assert first == "4"  # three boards and the PAB
    assert "Pairing-allocated bye ([C2], [C5], 1.9.1)" in text
    assert "downfloaters:" in text


# ---------------------------------------------------------------- the fast path is the slow path


@settings(max_examples=40, deadline=None)
@given(seed=st.integers(0, 10_000), players=st.integers(8, 40))
def test_property_fast_path_equals_weighted_matching(seed, players):
    """:mod:`pairing.engine.dutch.fast` (kinds, a bound, cardinality checks) against the
    weighted matching with its constrained re-solves, on every round of random
    tournaments: brackets from 4 residents take the fast path when it can prove its
    answer, and must give the same pairs, colours and PAB as the matching."""
    import pairing.engine.dutch.procedure as pairer

    cfg = GeneratorConfig(players=players, rounds=7, seed=seed, bye_rate=0.03, forfeit_rate=0.03)
    snaps = []

    def record(snap):
        pairing = dutch(snap)
        snaps.append(replace(snap, system=System.DUTCH))
        return pairing

    generate(cfg, pairer=record)
    saved = pairer.FAST_MIN
    try:
        for snap in snaps:
            pairer.FAST_MIN = 4
            fast = dutch(snap)
            pairer.FAST_MIN = 10**9
            slow = dutch(snap)
            assert [(b.white, b.black) for b in fast.boards] == [(b.white, b.black) for b in slow.boards]
            assert fast.bye == slow.bye
    finally:
        pairer.FAST_MIN = saved


# ---------------------------------------------------------------- more of section 4's hard cases


def test_4_3_exchange_order_rules_a_and_b():
    """4.3 (a): one exchanged BSN before two; (b) the smaller difference of the sums
    first: in an 11-player bracket 6<->4 (difference 2) before 8<->5 (3), and 8+6<->4+3 (7)
    before 9+8<->5+4 (8)."""
    from pairing.engine.dutch.bracket import exchanges_in_order

    order = list(exchanges_in_order([1, 2, 3, 4, 5], [6, 7, 8, 9, 10, 11]))
    assert order[0] == ((), ())
    assert order.index(((4,), (6,))) < order.index(((5,), (8,)))
    assert max(order.index(((x,), (y,))) for x in range(1, 6) for y in range(6, 12)) < order.index(((4, 5), (6, 7)))
    assert order.index(((3, 4), (6, 8))) < order.index(((4, 5), (8, 9)))


def test_c2_the_pab_goes_up_when_the_lowest_may_not_have_it():
    """[C2]: A (1) had the PAB, B (2) a full-point bye; both have the lowest score, 1, and
    may not receive the PAB again; [C5] then takes the lowest score at which an eligible
    player leaves a complete pairing: 1.5 (C, D, E = 3, 4, 5).  A and B meet."""
    rounds = [[(2, "F"), (1, "U"), (3, 4, "1/2"), (5, 6, "1/2")],
              [(3, 1, "1-0"), (5, 2, "1-0"), (4, 6, "1-0")]]
    snap = from_rounds(6, rounds, absent={6}, total_rounds=5)
    p = dutch(snap)
    assert p.bye in {3, 4, 5}
    assert frozenset((1, 2)) in pairs(p)
    assert set(p.explanation.bye.eligible) == {3, 4, 5}


def test_topscorers_with_the_same_absolute_preference_may_meet_in_the_last_round():
    """[C3] binds non-topscorers only: in the last round 1 and 2 (2 points of 2, both
    Black twice: absolute White) are topscorers (1.8) and meet, rather than both
    downfloating ([C6])."""
    rounds = [[(3, 1, "0-1"), (5, 2, "0-1"), (4, 6, "1/2")],
              [(4, 1, "0-1"), (6, 2, "0-1"), (3, 5, "1/2")]]
    p = dutch(from_rounds(6, rounds, total_rounds=3))
    assert frozenset((1, 2)) in pairs(p)


def test_floats_are_judged_on_the_pairing_score_of_their_round():
    """C.04.7 with 1.4.2: in round 1, 1 and 2 carry a virtual point; 1 beat 3 with a
    pairing score of 1 against 0: a downfloat for 1, an upfloat for 3, though their real
    scores were equal."""
    from pairing.engine import Acceleration

    snap = from_rounds(4, [[(1, 3, "1-0"), (2, 4, "1-0")]], total_rounds=5)
    snap = replace(snap, acceleration=(Acceleration(points=1, first_round=1, last_round=2, players=frozenset({1, 2})),))
    st = dutch_states(snap)
    assert st[1].float_1 is Float.DOWN and st[3].float_1 is Float.UP
    assert st[1].score == 2  # one real point and this round's virtual point


def test_cli_warns_when_the_file_names_the_other_system(tmp_path: Path, capsys):
    out = tmp_path / "t.trf"
    cli(["--dutch", "-g", "--fixed", "--players", "6", "--rounds", "3", "--played", "1", "--seed", "1", "-o", str(out)])
    capsys.readouterr()
    assert cli(["--dubov", str(out), "-p"]) == 0
    assert "tournament type (192) is the FIDE Dutch system" in capsys.readouterr().err


def test_cli_generates_with_another_point_system(tmp_path: Path, capsys):
    """``-g --points 3,1,0 --pab-points 1``: scored 3-1-0 with a one-point PAB, every round
    of the file then checks as identical, and the ### line repeats the options."""
    out = tmp_path / "t.trf"
    args = ["--dutch", "-g", "--fixed", "--players", "9", "--rounds", "4", "--seed", "3", "--points", "3,1,0",
            "--pab-points", "1", "-o", str(out)]
    assert cli(args) == 0
    text = out.read_text()
    assert "--points 3,1,0 --pab-points 1" in text
    t = parse_trf(text)
    assert (t.points.win, t.points.draw, t.points.pairing_bye) == (3, 1, 1)
    capsys.readouterr()
    assert cli(["--dutch", str(out), "-c"]) == 0
    assert cli(["--dutch", "-g", "--fixed", "--players", "9", "--rounds", "4", "--points", "1,2,0"]) == 3


def _forced_mdps(players: int, round_number: int, k: int, seed: int):
    """A late round in which the arbiter has forbidden k players of the top scores (one per
    score from the top, then a second) to meet anyone of the top third: they all float down
    into one bracket as k MDPs of many scores (benchmarks/bench_dutch_brackets.py)."""
    from pairing.engine.generator import generate_fast

    snap = replace(generate_fast(GeneratorConfig(players=players, rounds=11, seed=seed),
                                 rounds_to_play=round_number - 1).snapshot(round_number), system=System.DUTCH)
    st_ = dutch_states(snap)
    order = sorted((p.id for p in snap.players if p.id not in snap.absent), key=lambda i: -st_[i].score)
    top = order[: len(order) // 3]
    chosen: list[int] = []
    for per_score in (1, 2):
        for i in top:
            if len(chosen) < k and i not in chosen and sum(st_[j].score == st_[i].score for j in chosen) < per_score:
                chosen.append(i)
    return replace(snap, forbidden=frozenset(frozenset((c, x)) for c in chosen for x in top if x != c))


def test_4_3_levels_fit_once_the_mdps_pairs_are_settled(monkeypatch):
    """12 MDPs of many scores in one bracket of a 400-player round: the criteria leave no
    room in the weight for 4.3's two levels, so the remainder's exchanges used to be tried
    one matching each.  Once the MDPs' pairs are settled, the levels only they count
    ([C7], [C18]-[C21] per MDP score) leave the weight and 4.3's levels fit.  The pairing
    is the same as without that (and as bbpPairings v6's on this round's file)."""
    import pairing.engine.weighted as weighted

    snap = _forced_mdps(400, 11, 12, 2)
    room = []
    silence = weighted.BracketSolver.silence

    def spy(self, c, fixed):
        before = self.total_bits
        silence(self, c, fixed)
        room.append(before - self.total_bits)

    monkeypatch.setattr(weighted.BracketSolver, "silence", spy)
    quick = dutch(snap)
    assert room and max(room) > 40
    monkeypatch.setattr(weighted.BracketSolver, "silence", lambda self, c, fixed: None)
    slow = dutch(snap)
    assert [(b.white, b.black) for b in quick.boards] == [(b.white, b.black) for b in slow.boards]
    assert quick.bye == slow.bye


def test_4_3_rules_c_and_d_by_levels_or_questions_give_the_first_exchange(monkeypatch):
    """Brackets of 7-11 MDPs of many scores whose remainders need an exchange of one or
    two players (the MDPs' forbidden pairs push the top of S1 to S2): the exchange taken
    is the first in the order of 4.3 whether (c) and (d) are weight levels, or (c) is
    asked player by player from the highest BSN down, or every exchange of the right size
    and difference is tried in order, one matching each (as before)."""
    import pairing.engine.dutch.procedure as procedure

    for case in ((187, 5, 8, 1), (233, 6, 10, 9), (298, 8, 11, 4)):
        snap = _forced_mdps(*case)
        by_levels = dutch(snap)
        monkeypatch.setattr(procedure, "MAX_BITS_RULE_C", 0)
        by_questions = dutch(snap)
        monkeypatch.setattr(procedure.BracketProcedure, "_exchange_by_levels", lambda self, *a: (None, None))
        one_by_one = dutch(snap)
        monkeypatch.undo()
        boards_ = [(b.white, b.black) for b in by_levels.boards]
        assert boards_ == [(b.white, b.black) for b in by_questions.boards] == [(b.white, b.black) for b in one_by_one.boards]
        assert by_levels.bye == by_questions.bye == one_by_one.bye
