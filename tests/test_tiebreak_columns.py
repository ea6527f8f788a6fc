"""The tie-breaks of rounds given as columns (``TBTournament.columns``, the players'
histories left empty: how the standings of a big field read them) are the tie-breaks of
the same rounds given as histories -- every tie-break, the 2023 and 2026 texts, Swiss
and round robin, generated tournaments with byes, forfeits, withdrawals and late
entries -- and columns that do not agree are refused with the histories' own message."""

from __future__ import annotations

from dataclasses import replace
from decimal import Decimal

import pytest

from pairing.engine.generator import GeneratorConfig, generate_fast
from pairing.engine.history import history_columns
from pairing.engine.model import PointSystem, Result
from pairing.tiebreaks import (
    RULES_2023,
    RULES_2026,
    HistoryColumns,
    TBPlayer,
    TBTournament,
    TieBreak,
    TieBreakError,
    Unrated,
    compute,
    standings,
)

EVERY = tuple(TieBreak)
CASES = [
    (GeneratorConfig(players=40, rounds=9, seed=11, forfeit_rate=0.06, bye_rate=0.08, odd_result_rate=0.04), RULES_2026, False),
    (GeneratorConfig(players=31, rounds=7, seed=12, withdrawal_rate=0.05, late_entry_rate=0.15), RULES_2023, False),
    (GeneratorConfig(players=24, rounds=9, seed=13, points=PointSystem(win=Decimal(3), draw=Decimal(1), forfeit_win=Decimal(3),
                                                                       pairing_bye=Decimal(3), full_bye=Decimal(3),
                                                                       half_bye=Decimal(1))), RULES_2026, True),
]


def _both(config, rules, round_robin) -> tuple[TBTournament, TBTournament]:
    played = generate_fast(config)
    players = tuple(
        TBPlayer(p.id, p.rating, tuple(p.history), p.tpn, external=Decimal(p.id % 3)) for p in played.players
    )
    given = TBTournament(players, played.rounds_played, config.points, round_robin, rules, Unrated.LOWEST)
    _index, opponents, codes, colours = history_columns(players)
    as_columns = replace(given, players=tuple(replace(p, history=()) for p in players),
                         columns=HistoryColumns(opponents, codes, colours))
    return given, as_columns


@pytest.mark.parametrize(("config", "rules", "round_robin"), CASES, ids=["swiss-2026", "swiss-2023", "football-rr"])
def test_every_tie_break_of_columns_is_the_tie_break_of_histories(config, rules, round_robin):
    given, as_columns = _both(config, rules, round_robin)
    assert compute(as_columns, EVERY) == compute(given, EVERY)
    order = (TieBreak.DE, TieBreak.BH_C1, TieBreak.FB, TieBreak.BWG, TieBreak.TPR)
    assert standings(as_columns, order) == standings(given, order)


def test_columns_that_do_not_agree_are_refused_as_the_histories_are():
    given, as_columns = _both(CASES[0][0], RULES_2026, False)
    k = next(k for k, row in enumerate(as_columns.columns.opponents) if row[0] >= 0)
    j = as_columns.columns.opponents[k][0]
    bad = [list(row) for row in as_columns.columns.codes]
    bad[k][0] = bad[j][0] = "1"  # both won the same game
    with pytest.raises(TieBreakError) as from_columns:
        compute(replace(as_columns, columns=replace(as_columns.columns, codes=bad)), (TieBreak.BH,))
    histories = [list(p.history) for p in given.players]
    for i in (k, j):
        histories[i][0] = histories[i][0]._replace(result=Result.WIN)
    with pytest.raises(TieBreakError) as from_histories:
        compute(replace(given, players=tuple(replace(p, history=tuple(h)) for p, h in zip(given.players, histories, strict=True))),
                (TieBreak.BH,))
    assert str(from_columns.value) == str(from_histories.value) and "does not match" in str(from_columns.value)
    short = replace(as_columns.columns, codes=[row[:-1] for row in as_columns.columns.codes])
    with pytest.raises(TieBreakError, match=r"^the rounds given as columns are not 40 players x 9 rounds$"):
        compute(replace(as_columns, columns=short), (TieBreak.BH,))
