"""1.8.3 (same in 2026): an impossible round raises NoLegalPairing naming players,
never a partial pairing."""

import pytest

from pairing.engine import NoLegalPairing, pair_round

from .builders import from_rounds


def test_two_players_who_have_met():
    """Two players left who played each other: C1 makes the round impossible; both
    are named."""
    snap = from_rounds(2, [[(1, 2, "1-0")]])
    with pytest.raises(NoLegalPairing) as err:
        pair_round(snap)
    assert set(err.value.players) == {1, 2}
    assert "arbiter" in str(err.value)


def test_equal_absolute_preferences_block_everything():
    """R1 3-1, 4-2; R2 4-1, 3-2: 1 and 2 absolute White, 3 and 4 absolute Black,
    and every White/Black pair has met.  C1 and C3 leave no legal pair at all."""
    snap = from_rounds(4, [[(3, 1, "1/2"), (4, 2, "1/2")], [(4, 1, "1/2"), (3, 2, "1/2")]])
    with pytest.raises(NoLegalPairing) as err:
        pair_round(snap)
    assert set(err.value.players) == {1, 2, 3, 4}


def test_nobody_eligible_for_the_pab():
    """Three players, odd: 1 had a PAB, 2 a forfeit win, 3 a full-point bye: nobody
    may receive the PAB (C2)."""
    snap = from_rounds(4, [[(1, "U"), (2, 4, "+-"), (3, "F")]], absent={4})
    with pytest.raises(NoLegalPairing) as err:
        pair_round(snap)
    assert "eligible" in str(err.value)


def test_no_eligible_player_leaves_a_complete_pairing():
    """Three players: 1 and 2 met, 3 had a PAB.  The PAB must go to 1 or 2 (C2), and
    either way the other two... 3 with 2 or 1 is legal, so this pairs: PAB to 2
    (lowest score), 1-3.  With 1-3 forbidden as well, neither choice works."""
    snap = from_rounds(3, [[(1, 2, "1-0"), (3, "U")]])
    assert pair_round(snap).bye == 2
    snap = from_rounds(3, [[(1, 2, "1-0"), (3, "U")]], forbidden=[(1, 3), (2, 3)])
    with pytest.raises(NoLegalPairing) as err:
        pair_round(snap)
    assert err.value.players
