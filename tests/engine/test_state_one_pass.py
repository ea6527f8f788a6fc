"""The per-player figures computed in one pass over each history (the Dubov states, the
shared core's played colours, PAB eligibility and pairing scores) are the rules' figures
read entry by entry through RoundEntry's own properties, on generated tournaments with
forfeits, byes of every kind, odd results, withdrawals, late entries, Baku acceleration
and other point systems."""

from __future__ import annotations

from decimal import ROUND_HALF_UP, Decimal
from fractions import Fraction

import pytest

from pairing.engine import Colour, PointSystem, Result
from pairing.engine.dubov.state import player_states, upfloat_limit
from pairing.engine.generator import GeneratorConfig, generate_fast
from pairing.engine.history import pab_eligible, pairing_scores, played_colours, preference_of_colours
from pairing.engine.model import Preference, PreferenceStrength, virtual_points

# football points, and byes worth a win
THREE_ONE = PointSystem(win=Decimal(3), draw=Decimal(1), loss=Decimal(0), forfeit_win=Decimal(3),
                        pairing_bye=Decimal(3), full_bye=Decimal(3), half_bye=Decimal(1))
HALF_BYE_WORTH_A_WIN = PointSystem(half_bye=Decimal(1))
# a PAB worth a draw still bars the next one (C.04.1 Art. 4: whatever its value)
HALF_POINT_PAB = PointSystem(pairing_bye=Decimal("0.5"))

CASES = [
    GeneratorConfig(players=41, rounds=9, seed=1, forfeit_rate=0.08, bye_rate=0.1, odd_result_rate=0.05),
    GeneratorConfig(players=30, rounds=7, seed=2, withdrawal_rate=0.05, late_entry_rate=0.2, points=THREE_ONE),
    GeneratorConfig(players=60, rounds=9, seed=3, baku=True, bye_rate=0.08),
    GeneratorConfig(players=25, rounds=11, seed=4, points=HALF_BYE_WORTH_A_WIN, bye_rate=0.15),
    GeneratorConfig(players=33, rounds=9, seed=5, points=HALF_POINT_PAB, withdrawal_rate=0.03),
]


def _literal_played_colours(history):
    return tuple(e.colour for e in history if e.played and e.colour is not None)


def _literal_pab_eligible(history, points):
    for e in history:
        if e.result in (Result.PAIRING_BYE, Result.FORFEIT_WIN):
            return False
        if not e.played and points.points(e.result) >= points.win:
            return False
    return True


def _literal_preference(colours):
    """Dubov 1.5.2 read from the text: absolute when CD > +1 or < -1 or the same colour in
    the last two games (CD decides when both hold); strong when CD = +-1; mild otherwise,
    alternating from the last game; no game: mild Black (1.5.2.4)."""
    if not colours:
        return Preference(Colour.BLACK, PreferenceStrength.MILD)
    cd = sum(1 if c is Colour.WHITE else -1 for c in colours)
    other = Colour.BLACK if colours[-1] is Colour.WHITE else Colour.WHITE
    if abs(cd) > 1:
        return Preference(Colour.BLACK if cd > 0 else Colour.WHITE, PreferenceStrength.ABSOLUTE)
    if len(colours) >= 2 and colours[-1] == colours[-2]:
        return Preference(other, PreferenceStrength.ABSOLUTE)
    if abs(cd) == 1:
        return Preference(Colour.BLACK if cd > 0 else Colour.WHITE, PreferenceStrength.STRONG)
    return Preference(other, PreferenceStrength.MILD)


def _literal_scores(snapshot):
    running, real = {}, {}
    for p in snapshot.players:
        acc = Decimal(0)
        seq = [acc + virtual_points(snapshot.acceleration, p.id, 1)]
        for k, e in enumerate(p.history, start=2):
            acc += snapshot.points.points(e.result)
            seq.append(acc + virtual_points(snapshot.acceleration, p.id, k))
        running[p.id], real[p.id] = seq, acc
    return running, real


@pytest.mark.parametrize("config", CASES, ids=lambda c: f"seed{c.seed}")
def test_the_figures_of_one_pass_are_the_figures_entry_by_entry(config):
    played = generate_fast(config)
    checked = 0
    for number in range(2, played.rounds_played + 1):
        snapshot = played.snapshot(number)
        running, real = _literal_scores(snapshot)
        assert pairing_scores(snapshot) == (running, real)
        ratings = {p.id: p.rating for p in snapshot.players}
        limit = upfloat_limit(snapshot.total_rounds, snapshot.dubov_rules)
        states = player_states(snapshot)
        for p in snapshot.players:
            st = states[p.id]
            colours = _literal_played_colours(p.history)
            opponents = [ratings[e.opponent] for e in p.history if e.played]
            ups = [k for k, e in enumerate(p.history) if e.paired and running[e.opponent][k] > running[p.id][k]]
            assert played_colours(p.history) == colours == st.colours
            assert st.games_played == len(colours)
            assert st.colour_difference == sum(1 if c is Colour.WHITE else -1 for c in colours)
            assert st.preference == _literal_preference(colours)
            assert (preference_of_colours(colours) or Preference(Colour.BLACK, PreferenceStrength.MILD)) == st.preference
            assert pab_eligible(p.history, snapshot.points) == _literal_pab_eligible(p.history, snapshot.points)
            assert st.pab_eligible == _literal_pab_eligible(p.history, snapshot.points)
            assert st.aro == (int((Decimal(sum(opponents)) / len(opponents)).to_integral_value(ROUND_HALF_UP))
                              if opponents else 0)
            assert st.aro_exact == (Fraction(sum(opponents), len(opponents)) if opponents else 0)
            assert (st.upfloats, st.upfloated_previous) == (len(ups), number - 2 in ups)
            assert st.max_upfloater == (len(ups) >= limit)
            assert (st.score, st.points) == (running[p.id][-1], real[p.id])
            checked += 1
    # the cases hold what the one pass skips or tests: unplayed rounds of every kind
    assert checked > 100
    codes = {e.result for p in played.players for e in p.history}
    assert {Result.FORFEIT_WIN, Result.FORFEIT_LOSS, Result.PAIRING_BYE, Result.HALF_BYE, Result.ZERO_BYE} <= codes
