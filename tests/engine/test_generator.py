"""The seeded tournament simulator (pairing/engine/generator.py).

The Dubov-mode tests pair with the literal enumerator so that they do not depend
on the fast engine.
"""

from __future__ import annotations

import time

import pytest

from pairing.engine.dubov.state import player_states, validate
from pairing.engine.generator import GeneratedTournament, GeneratorConfig, generate, generate_fast
from pairing.engine.model import Colour, NoLegalPairing, Result

from .literal import literal_pair_round

BUSY = GeneratorConfig(
    players=12,
    rounds=6,
    seed=7,
    bye_rate=0.06,
    withdrawal_rate=0.03,
    late_entry_rate=0.15,
    forfeit_rate=0.05,
    forbidden_pairs=2,
)


def _fingerprint(t: GeneratedTournament) -> tuple:
    return (t.players, t.absences, t.forbidden, t.initial_colour, t.total_rounds)


def test_same_seed_gives_the_same_tournament():
    """Reproducibility: one random.Random(seed), nothing else."""
    a = generate(BUSY, pairer=literal_pair_round)
    b = generate(BUSY, pairer=literal_pair_round)
    assert _fingerprint(a) == _fingerprint(b)


def test_same_seed_gives_the_same_fast_tournament():
    config = GeneratorConfig(players=300, rounds=7, seed=3, late_entry_rate=0.05, forbidden_pairs=5)
    assert _fingerprint(generate_fast(config)) == _fingerprint(generate_fast(config))


def test_different_seeds_give_different_tournaments():
    configs = [GeneratorConfig(players=10, rounds=5, seed=s) for s in range(4)]
    fingerprints = {_fingerprint(generate(c, pairer=literal_pair_round)) for c in configs}
    assert len(fingerprints) == 4


def test_every_generated_snapshot_validates():
    """Every round's snapshot passes state.validate and the pairer's output is
    complete: everyone present is on a board or has the PAB."""
    t = generate(BUSY, pairer=literal_pair_round)
    assert t.rounds_played == BUSY.rounds
    for r in range(1, BUSY.rounds + 1):
        s = t.snapshot(r)
        validate(s)
        present = {p.id for p in s.players} - s.absent
        entries = {p.id: p.history[r - 1] for p in t.players}
        for pid in present:
            assert entries[pid].opponent is not None or entries[pid].result is Result.PAIRING_BYE
        for pid in s.absent:
            assert entries[pid].opponent is None and entries[pid].result in (
                Result.HALF_BYE,
                Result.ZERO_BYE,
                Result.FULL_BYE,
            )


def test_ids_are_tpns_by_rating_and_late_entries_come_after():
    """Players present in round 1 are numbered by rating descending; late
    entries get the next ids, keep them as TPNs, and have Z before arrival."""
    t = generate(BUSY, pairer=literal_pair_round)
    assert all(p.id == p.tpn for p in t.players)
    start = BUSY.players - round(BUSY.late_entry_rate * BUSY.players)
    first = [p for p in t.players if p.id <= start]
    late = [p for p in t.players if p.id > start]
    assert [p.rating for p in first] == sorted((p.rating for p in first), reverse=True)
    assert late, "the config asks for late entries"
    for p in late:
        assert p.history[0].result is Result.ZERO_BYE and p.id in t.absences[0]
        arrived = next(
            (k for k, e in enumerate(p.history) if e.result is not Result.ZERO_BYE), len(p.history)
        )
        for k in range(arrived):
            assert p.id in t.absences[k]


def test_initial_colour_is_honoured_or_drawn():
    t = generate(GeneratorConfig(players=8, rounds=1, initial_colour=Colour.BLACK), pairer=literal_pair_round)
    assert t.initial_colour is Colour.BLACK
    drawn = {generate_fast(GeneratorConfig(players=4, rounds=1, seed=s)).initial_colour for s in range(20)}
    assert drawn == {Colour.WHITE, Colour.BLACK}


def test_partial_tournament_offers_the_next_round():
    """rounds_to_play < rounds: the next round's snapshot (with its absences) exists."""
    t = generate(BUSY, pairer=literal_pair_round, rounds_to_play=3)
    assert t.rounds_played == 3
    s = t.snapshot(4)
    validate(s)
    assert s.round_number == 4 and all(len(p.history) == 3 for p in s.players)
    with pytest.raises(ValueError):
        t.snapshot(5)


def test_no_legal_pairing_is_settled_by_excusing_a_named_player():
    """1.8.3: the simulated arbiter excuses a player named by the error and pairs again."""
    calls = []

    def picky(snapshot):
        calls.append(snapshot.absent)
        if len(calls) == 1:
            raise NoLegalPairing("test", (3,))
        return literal_pair_round(snapshot)

    t = generate(GeneratorConfig(players=6, rounds=1, bye_rate=0.0), pairer=picky)
    assert calls == [frozenset(), frozenset({3})]
    assert t.absences[0] == frozenset({3})
    assert t.players[2].history[0].result is Result.ZERO_BYE


def test_results_follow_the_point_system_and_ratings():
    """Stronger players score more on average over many games (Elo expectation)."""
    t = generate_fast(GeneratorConfig(players=400, rounds=9, seed=11, draw_rate=0.2))
    states = player_states(t.snapshot(9))
    top = sorted(states.values(), key=lambda s: s.tpn)[:100]
    bottom = sorted(states.values(), key=lambda s: s.tpn)[-100:]
    assert sum(s.score for s in top) > sum(s.score for s in bottom)


def test_generate_fast_at_2000_players_validates_quickly():
    config = GeneratorConfig(players=2000, rounds=10, seed=5, late_entry_rate=0.02, forbidden_pairs=10)
    start = time.perf_counter()
    t = generate_fast(config, rounds_to_play=9)
    s = t.snapshot(10)
    validate(s)
    assert time.perf_counter() - start < 20
    met = {}
    for p in s.players:
        opponents = [e.opponent for e in p.history if e.played]
        assert len(opponents) == len(set(opponents)), f"rematch for player {p.id}"
        met[p.id] = set(opponents)
    for pair in s.forbidden:
        a, b = sorted(pair)
        assert b not in met[a]


def test_default_pairer_is_the_fast_engine():
    """No pairer given: pairing.engine.pair_round plays the rounds; the result is
    reproducible and every snapshot validates."""
    config = GeneratorConfig(players=40, rounds=7, seed=21, late_entry_rate=0.05, forbidden_pairs=3)
    a, b = generate(config), generate(config)
    assert _fingerprint(a) == _fingerprint(b)
    for r in range(1, config.rounds + 1):
        validate(a.snapshot(r))
