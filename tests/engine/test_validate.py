"""The engine's input check (:func:`pairing.engine.history.validate`) reads the histories a
round at a time; every line changed on one side only is still refused, with the problem
named, and a tournament as generated (byes, forfeits, withdrawals, late entries) is read."""

from __future__ import annotations

import dataclasses

import pytest
from hypothesis import given, settings
from hypothesis import strategies as st

from pairing.engine.generator import GeneratorConfig, generate
from pairing.engine.history import validate
from pairing.engine.model import Colour, InvalidSnapshot, Result, RoundEntry

NAMED = r"player \d+, round \d+|round \d+: play|round \d+: player"


@settings(max_examples=60, deadline=None)
@given(seed=st.integers(0, 10_000), players=st.integers(2, 24), rounds=st.integers(2, 6), data=st.data())
def test_every_line_changed_on_one_side_only_is_refused_and_the_generated_one_is_read(seed, players, rounds, data):
    gen = generate(GeneratorConfig(players=players, rounds=rounds + 1, seed=seed, bye_rate=0.1, forfeit_rate=0.1,
                                   withdrawal_rate=0.03), rounds_to_play=rounds)
    snapshot = gen.snapshot(rounds + 1)
    validate(snapshot)  # untouched: read
    k = data.draw(st.integers(0, len(snapshot.players) - 1))
    r = data.draw(st.integers(0, rounds - 1))
    p = snapshot.players[k]
    e = p.history[r]
    ids = [q.id for q in snapshot.players]
    others = [i for i in ids if i not in (p.id, e.opponent)]
    changes = [RoundEntry(p.id, Colour.WHITE, Result.WIN), RoundEntry(10**6, Colour.WHITE, Result.WIN)]
    if e.opponent is None:
        changes.append(RoundEntry(others[0] if others else ids[k - 1], Colour.WHITE, e.result))  # a bye against someone
        changes.append(RoundEntry(None, None, Result.WIN))  # a game against nobody
    else:
        back = snapshot.players[ids.index(e.opponent)].history[r]
        changes.append(RoundEntry(None, None, Result.PAIRING_BYE))  # its opponent still has the game
        if others:
            changes.append(RoundEntry(data.draw(st.sampled_from(others)), e.colour, e.result))
        if e.result.is_played:
            changes.append(RoundEntry(e.opponent, back.colour, e.result))  # the same colour as the opponent
            changes.append(RoundEntry(e.opponent, None, e.result))  # no colour
            changes.append(RoundEntry(e.opponent, e.colour, Result.FORFEIT_WIN))  # played on one side only
        else:
            changes.append(RoundEntry(e.opponent, e.colour or Colour.WHITE, Result.WIN))
    change = data.draw(st.sampled_from(changes))
    history = p.history[:r] + (change,) + p.history[r + 1:]
    broken = dataclasses.replace(
        snapshot, players=snapshot.players[:k] + (dataclasses.replace(p, history=history),) + snapshot.players[k + 1:])
    with pytest.raises(InvalidSnapshot, match=NAMED):
        validate(broken)
