"""Input validated up front, output verified at the end (style 8), small edge cases."""

import pytest

from pairing.engine import InvalidSnapshot, pair_round
from pairing.engine.model import Player, Snapshot

from .builders import fresh, from_rounds


def test_round_beyond_rnds_is_rejected():
    snap = from_rounds(4, [[(1, 2, "1-0"), (3, 4, "1-0")]], total_rounds=1)
    with pytest.raises(InvalidSnapshot):
        pair_round(snap)


def test_inconsistent_history_is_rejected():
    """Player 1 says they met 2 in round 1, 2 says they had a bye."""
    from .builders import parse_history

    players = (
        Player(1, 1, 2000, history=parse_history("2w1")),
        Player(2, 2, 1900, history=parse_history("Z")),
    )
    with pytest.raises(InvalidSnapshot):
        pair_round(Snapshot(players=players, round_number=2, total_rounds=5))


def test_missing_rating_is_rejected():
    with pytest.raises(InvalidSnapshot):
        pair_round(Snapshot(players=(Player(1, 1, 0),), round_number=1, total_rounds=5))


def test_nobody_to_pair():
    p = pair_round(fresh(3, absent={1, 2, 3}))
    assert p.boards == () and p.bye is None


def test_a_single_player_gets_the_pab():
    p = pair_round(fresh(1))
    assert p.bye == 1 and p.boards == ()


def test_everyone_present_is_paired_once_on_a_played_tournament():
    """The end-of-round verification holds on every round of a generated event."""
    from pairing.engine.generator import GeneratorConfig, generate

    tour = generate(GeneratorConfig(players=15, rounds=9, seed=3, forfeit_rate=0.05, bye_rate=0.05))
    for rnd in range(1, tour.rounds_played + 1):
        snap = tour.snapshot(rnd)
        p = pair_round(snap)
        ids = [x for b in p.boards for x in (b.white, b.black)] + ([p.bye] if p.bye else [])
        assert sorted(ids) == sorted(q.id for q in snap.players if q.id not in snap.absent)
        assert len(p.explanation.colours) == len(p.boards)
