"""Player figures (dubov/state.py): ARO (1.6 / D5), colour preference (1.5 / D4),
upfloats (D7), PAB eligibility (C2 / D8), MaxT (1.7.2 / D6)."""

import gc

import pytest

from pairing.engine import Colour, PointSystem, PreferenceStrength, max_t, player_states
from pairing.engine.dubov.state import colour_preference, pab_eligible

from .builders import from_rounds, parse_history, snapshot

W, B = Colour.WHITE, Colour.BLACK
ABS, STRONG, MILD = PreferenceStrength.ABSOLUTE, PreferenceStrength.STRONG, PreferenceStrength.MILD


def test_aro_rounds_half_up():
    """1.6.1: opponents rated 1500 and 1501 average 1500.5, which rounds to 1501
    (the higher, since the division ends in .5); 1000, 1000, 1001 average 1000.33
    -> 1000.  Forfeits do not count (D2): player 5's forfeit win against 4 adds
    nothing, so 5 has no played game and ARO 0 (1.6.3)."""
    snap = from_rounds(
        6,
        [[(1, 2, "1-0"), (3, 6, "1-0"), (5, 4, "+-")], [(3, 1, "1/2"), (2, 6, "1-0")]],
        ratings={1: 2000, 2: 1500, 3: 1501, 4: 1000, 5: 1000, 6: 1000},
    )
    st = player_states(snap)
    assert st[1].aro == 1501
    assert st[5].aro == 0
    snap2 = snapshot(
        {1: "2w1 3b= 4w1", 2: "1b0 Z Z", 3: "Z 1w= Z", 4: "Z Z 1b0"},
        ratings={1: 2000, 2: 1000, 3: 1000, 4: 1001},
    )
    assert player_states(snap2)[1].aro == 1000


@pytest.mark.parametrize(
    ("history", "colour", "strength"),
    [
        ("", B, MILD),  # 1.5.2.4: no game yet -> mild Black
        ("2w+ 3b-", B, MILD),  # forfeits only: still no played game (D4)
        ("2w1", B, STRONG),  # CD +1
        ("2b1", W, STRONG),  # CD -1
        ("2w1 3b0", W, MILD),  # CD 0: alternate from the last game (Black)
        ("2b1 3w0", B, MILD),
        ("2w1 3w0", B, ABS),  # same colour twice
        ("2b1 3b0", W, ABS),
        ("2w1 3w0 4b= 5w1", B, ABS),  # CD +2
        ("2w1 3w0 4w= 5w1 6b0 7b0", B, ABS),  # WWWWBB: CD +2 decides over the last two
        ("2w1 3w+ 4w=", B, ABS),  # the forfeit is skipped: last two played are W, W
        ("2b1 H 3w= U", B, MILD),  # byes are skipped: last played game White
    ],
)
def test_colour_preference(history, colour, strength):
    """1.5.2 as read in D3/D4 (played games only, in order)."""
    pref = colour_preference(parse_history(history))
    assert (pref.colour, pref.strength) == (colour, strength)


def test_upfloats_count_the_pairing_act_including_forfeits():
    """D7: a player upfloated in round r when paired (played or forfeited, not a bye)
    with an opponent whose score before round r was higher.
    Round 1: 1 beats 2, 3 beats 4, 5 has a PAB.  Scores 1, 0, 1, 0, 1.
    Round 2: 2 (0) v 3 (1) forfeit won by 2 -> 2 upfloated (the pairing counts);
    4 (0) v 5 (1) played -> 4 upfloated; 1 absent.
    Round 3: 1 (1) v 2 (1) equal -> nobody; 4 (0) v 3 (1): 4 upfloated again;
    5 has a PAB (no opponent, no upfloat).  Before round 4: 2 has 1 upfloat, not in
    the previous round; 4 has 2 upfloats, the last in round 3."""
    snap = from_rounds(
        5,
        [
            [(1, 2, "1-0"), (3, 4, "1-0"), (5, "U")],
            [(2, 3, "+-"), (5, 4, "1-0"), (1, "Z")],
            [(1, 2, "1/2"), (3, 4, "1-0"), (5, "U")],
        ],
    )
    st = player_states(snap)
    assert (st[2].upfloats, st[2].upfloated_previous) == (1, False)
    assert (st[4].upfloats, st[4].upfloated_previous) == (2, True)
    assert (st[1].upfloats, st[3].upfloats, st[5].upfloats) == (0, 0, 0)


def test_max_upfloater_is_at_least_maxt():
    """D6: a maximum upfloater has upfloated at least MaxT times; with 4 rounds
    MaxT = 2 + 0 = 2, so player 4 above (2 upfloats) is one, player 2 (1) is not."""
    snap = from_rounds(
        5,
        [
            [(1, 2, "1-0"), (3, 4, "1-0"), (5, "U")],
            [(2, 3, "+-"), (5, 4, "1-0"), (1, "Z")],
            [(1, 2, "1/2"), (3, 4, "1-0"), (5, "U")],
        ],
        total_rounds=4,
    )
    st = player_states(snap)
    assert st[4].max_upfloater and not st[2].max_upfloater


@pytest.mark.parametrize(("rounds", "expected"), [(4, 2), (5, 3), (9, 3), (10, 4), (11, 4), (15, 5)])
def test_max_t(rounds, expected):
    """1.7.2: MaxT = 2 + floor(Rnds / 5)."""
    assert max_t(rounds) == expected


@pytest.mark.parametrize(
    ("history", "eligible"),
    [
        ("2w1 3b0", True),
        ("U 3b0", False),  # an earlier PAB
        ("2w+ 3b0", False),  # a forfeit win
        ("F 3b0", False),  # an unplayed round worth a win
        ("H 3b0", True),  # a half-point bye does not block (D8)
        ("Z 3b0", True),
        ("2w- 3b0", True),  # a forfeit loss does not block
    ],
)
def test_pab_eligibility(history, eligible):
    """C2 as read in D8."""
    assert pab_eligible(parse_history(history), PointSystem()) is eligible


def test_pab_eligibility_zero_valued_pab_still_blocks():
    """D8: an earlier U blocks whatever it was worth."""
    assert not pab_eligible(parse_history("U"), PointSystem(pairing_bye=0))


def test_the_figures_of_the_same_snapshot_are_computed_once_and_given_as_a_new_dict(monkeypatch):
    """The app pairs a round and publishes its ARO list from one snapshot: the second
    call for that snapshot object reuses the figures (a new dict each time, so a caller
    changing its copy changes no one else's); another snapshot, even an equal one,
    computes its own."""
    from pairing.engine.dubov import state
    from pairing.engine.generator import GeneratorConfig, generate

    played = generate(GeneratorConfig(players=12, rounds=5, seed=3), rounds_to_play=3)
    snapshot = played.snapshot(4)
    computed = []
    real = state._player_states
    monkeypatch.setattr(state, "_player_states", lambda s: computed.append(s) or real(s))
    first = state.player_states(snapshot)
    second = state.player_states(snapshot)
    assert first == second and first is not second and len(computed) == 1
    first.clear()
    assert state.player_states(snapshot) == second
    other = played.snapshot(4)
    assert other == snapshot and other is not snapshot
    assert state.player_states(other) == second and len(computed) == 2
    del snapshot, other
    computed.clear()
    gc.collect()
    assert state._last == (None, None)  # the snapshots gone, their figures are not kept
