"""The draft's rule checks read the Dubov colour figures from the histories directly
(not through engine.player_states, whose ARO and upfloats they do not need): the same
figures as the engine's, on generated tournaments of every feature."""

from __future__ import annotations

import pytest

from pairing import engine
from pairing.engine.generator import GeneratorConfig, generate
from pairing.engine.model import PointSystem
from pairing.services.draft_checks import _figures


@pytest.mark.parametrize("seed", range(6))
def test_dubov_draft_figures_are_the_engines(seed):
    config = GeneratorConfig(players=14 + seed * 3, rounds=7, seed=seed, bye_rate=0.08, forfeit_rate=0.06,
                             withdrawal_rate=0.02, late_entry_rate=0.1, baku=seed % 2 == 1,
                             points=PointSystem() if seed % 3 else PointSystem(pairing_bye=PointSystem().draw))
    played = generate(config)
    checked = 0
    for number in range(1, played.rounds_played + 1):
        snapshot = played.snapshot(number)
        states = engine.player_states(snapshot)
        figures = _figures(snapshot)
        assert figures.keys() == states.keys()
        for pid, st in states.items():
            f = figures[pid]
            assert (f.colour_difference, f.colours, f.due, f.absolute, f.games_played, f.pab_eligible, f.topscorer) == (
                st.colour_difference, st.colours, st.preference.colour,
                st.preference.strength is engine.PreferenceStrength.ABSOLUTE, st.games_played, st.pab_eligible, False)
            checked += 1
    assert checked > 14 * 6
