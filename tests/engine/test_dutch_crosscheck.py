"""Cross-check: the Dutch engine against the literal enumerator, round by round.

Random small tournaments (3-9 players, as many rounds as such a field can mostly pair,
draws, forfeits, requested H/Z/F byes, withdrawals, late entries with re-slotted TPNs,
forbidden pairs, 3-1-0 scoring, a PAB worth half a point) are played with the literal
enumerator (tests/engine/dutch_literal.py, written from the 2026 text without reading
the engine) as the pairer, so that every history is a Dutch history; at every round
``pair_round`` must give the same pairs, the same colours and the same PAB, or both
must find no legal pairing.  Board order is not compared (C.04.2 3.6 recommends it).

The enumerator itself agrees with bbpPairings v6.0.0 on such tournaments
(scripts/compare_pairings_bbp.py --subject literal --small; docs/dutch.md).

Size of the run (environment): ``DUTCH_CROSSCHECK_TOURNAMENTS`` (default 150) seeded
tournaments from ``DUTCH_CROSSCHECK_SEED`` (default 0); ``DUTCH_CROSSCHECK_REPORT``: a
file to which every disagreement is appended as a JSON line.  A bigger run::

    DUTCH_CROSSCHECK_TOURNAMENTS=5000 DUTCH_CROSSCHECK_SEED=1000 \\
        .venv/bin/pytest -q tests/engine/test_dutch_crosscheck.py -s
"""

from __future__ import annotations

import json
import os
import random
from decimal import Decimal

import pytest

from pairing.engine import NoLegalPairing, pair_round
from pairing.engine.generator import GeneratorConfig, generate
from pairing.engine.model import PointSystem, System

from .dutch_literal import literal_pair_round

TOURNAMENTS = int(os.environ.get("DUTCH_CROSSCHECK_TOURNAMENTS", "150"))
SEED = int(os.environ.get("DUTCH_CROSSCHECK_SEED", "0"))
REPORT = os.environ.get("DUTCH_CROSSCHECK_REPORT")
CHUNKS = 5

THREE_ONE = PointSystem(win=Decimal(3), draw=Decimal(1), forfeit_win=Decimal(3), pairing_bye=Decimal(3),
                        full_bye=Decimal(3), half_bye=Decimal(1))
HALF_PAB = PointSystem(pairing_bye=Decimal("0.5"))


def random_config(seed: int) -> GeneratorConfig:
    rng = random.Random(seed)
    players = rng.randint(3, 9)
    return GeneratorConfig(
        players=players,
        rounds=max(1, min(rng.randint(3, 7), players - rng.choice([1, 1, 2]))),
        seed=seed,
        draw_rate=rng.choice([0.0, 0.2, 0.4, 0.7]),
        forfeit_rate=rng.choice([0.0, 0.0, 0.05, 0.1]),
        bye_rate=rng.choice([0.0, 0.04, 0.1]),
        withdrawal_rate=rng.choice([0.0, 0.0, 0.04]),
        late_entry_rate=rng.choice([0.0, 0.0, 0.2]),
        reslot_late=rng.random() < 0.5,
        forbidden_pairs=rng.choice([0, 0, 1, 2]),
        points=rng.choice([PointSystem(), PointSystem(), THREE_ONE, HALF_PAB]),
        system=System.DUTCH,
    )


def _outcome(pairer, snapshot):
    try:
        p = pairer(snapshot)
    except NoLegalPairing as exc:
        return "no legal pairing", exc
    return (frozenset((b.white, b.black) for b in p.boards), p.bye), p


def _check_tournament(seed: int) -> tuple[int, list[dict]]:
    rounds, disagreements = 0, []

    def pairer(snapshot):
        nonlocal rounds
        rounds += 1
        (ours, _), (literal, result) = _outcome(pair_round, snapshot), _outcome(literal_pair_round, snapshot)
        if ours != literal:
            disagreements.append({"seed": seed, "round": snapshot.round_number, "engine": repr(ours),
                                  "literal": repr(literal)})
        if isinstance(result, NoLegalPairing):
            raise result
        return result

    generate(random_config(seed), pairer=pairer)
    return rounds, disagreements


@pytest.mark.parametrize("chunk", range(CHUNKS))
def test_engine_pairs_every_round_as_the_literal_enumerator(chunk):
    """Same pairs, colours and PAB as the literal reading of the 2026 text, or both find
    no legal pairing, in every round of the random small tournaments."""
    seeds = range(SEED + chunk, SEED + TOURNAMENTS, CHUNKS)
    total, found = 0, []
    for seed in seeds:
        rounds, disagreements = _check_tournament(seed)
        total += rounds
        found.extend(disagreements)
    if REPORT:
        with open(REPORT, "a") as out:
            out.write(json.dumps({"chunk": chunk, "rounds": total, "disagreements": len(found)}) + "\n")
            for d in found:
                out.write(json.dumps(d) + "\n")
    assert total >= len(seeds)
    assert not found, f"{len(found)} of {total} rounds differ, first: {found[0]}"
