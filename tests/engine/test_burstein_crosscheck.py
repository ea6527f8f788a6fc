"""Cross-check: the Burstein engine against the literal enumerator, round by round.

Random small tournaments (3-11 players, 3-9 rounds, so one to four seeding rounds, draws,
forfeits, requested H/Z/F byes, withdrawals, late entries with re-slotted TPNs, forbidden
pairs, 3-1-0 scoring, a PAB worth half a point, Baku acceleration) are played with the
literal enumerator (tests/engine/burstein_literal.py, written from the 2026 text without
reading the engine) as the pairer, so that every history is a Burstein history; at every
round ``pair_round`` must give the same pairs, the same colours and the same PAB, or both
must find no legal pairing.  Board order is not compared (C.04.2 3.6 recommends it).
The second test forces the engine's fast path (:mod:`pairing.engine.burstein.fast`) on
every bracket it can prove, from two players up, so that its proofs meet small brackets.

Size of the run (environment): ``BURSTEIN_CROSSCHECK_TOURNAMENTS`` (default 100) seeded
tournaments from ``BURSTEIN_CROSSCHECK_SEED`` (default 0), ``BURSTEIN_CROSSCHECK_PLAYERS``
(default 11, the largest field); ``BURSTEIN_CROSSCHECK_REPORT``: a file to which every
disagreement is appended as a JSON line.  A bigger run (docs/burstein.md)::

    BURSTEIN_CROSSCHECK_TOURNAMENTS=5000 BURSTEIN_CROSSCHECK_SEED=1000 \\
        .venv/bin/pytest -q tests/engine/test_burstein_crosscheck.py -s
"""

from __future__ import annotations

import json
import os
import random
from decimal import Decimal

import pytest

from pairing.engine import NoLegalPairing, pair_round
from pairing.engine.burstein import pairer as burstein_pairer
from pairing.engine.generator import GeneratorConfig, generate
from pairing.engine.model import PointSystem, System

from .burstein_literal import literal_pair_round

TOURNAMENTS = int(os.environ.get("BURSTEIN_CROSSCHECK_TOURNAMENTS", "100"))
SEED = int(os.environ.get("BURSTEIN_CROSSCHECK_SEED", "0"))
MAX_PLAYERS = int(os.environ.get("BURSTEIN_CROSSCHECK_PLAYERS", "11"))
REPORT = os.environ.get("BURSTEIN_CROSSCHECK_REPORT")
CHUNKS = 4

THREE_ONE = PointSystem(win=Decimal(3), draw=Decimal(1), forfeit_win=Decimal(3), pairing_bye=Decimal(3),
                        full_bye=Decimal(3), half_bye=Decimal(1))
HALF_PAB = PointSystem(pairing_bye=Decimal("0.5"))


def random_config(seed: int) -> GeneratorConfig:
    rng = random.Random(seed)
    players = rng.randint(3, MAX_PLAYERS)
    baku = rng.random() < 0.15
    return GeneratorConfig(
        players=players,
        rounds=max(1, min(rng.randint(3, 9), players - rng.choice([0, 1, 1, 2]))),
        seed=seed,
        draw_rate=rng.choice([0.0, 0.2, 0.4, 0.7]),
        forfeit_rate=rng.choice([0.0, 0.0, 0.05, 0.1]),
        bye_rate=rng.choice([0.0, 0.04, 0.1]),
        withdrawal_rate=rng.choice([0.0, 0.0, 0.04]),
        late_entry_rate=rng.choice([0.0, 0.0, 0.2]),
        reslot_late=rng.random() < 0.5,
        forbidden_pairs=rng.choice([0, 0, 1, 2]),
        points=PointSystem() if baku else rng.choice([PointSystem(), PointSystem(), THREE_ONE, HALF_PAB]),
        baku=baku,
        system=System.BURSTEIN,
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

    try:
        generate(random_config(seed), pairer=pairer)
    except NoLegalPairing:
        pass  # the generator gives up when the field cannot be paired; both agreed
    return rounds, disagreements


def _run(seeds) -> None:
    total, found = 0, []
    for seed in seeds:
        rounds, disagreements = _check_tournament(seed)
        total += rounds
        found.extend(disagreements)
    if REPORT:
        with open(REPORT, "a") as out:
            out.write(json.dumps({"seeds": [seeds.start, seeds.stop, seeds.step], "rounds": total,
                                  "disagreements": len(found)}) + "\n")
            for d in found:
                out.write(json.dumps(d) + "\n")
    assert total >= len(seeds)
    assert not found, f"{len(found)} of {total} rounds differ, first: {found[0]}"


@pytest.mark.parametrize("chunk", range(CHUNKS))
def test_engine_pairs_every_round_as_the_literal_enumerator(chunk):
    """Same pairs, colours and PAB as the literal reading of the 2026 text, or both find
    no legal pairing, in every round of the random small tournaments."""
    _run(range(SEED + chunk, SEED + TOURNAMENTS, CHUNKS))


def test_fast_path_pairs_as_the_literal_enumerator(monkeypatch):
    """The same with the fast path tried on every bracket of two players or more."""
    monkeypatch.setattr(burstein_pairer, "FAST_MIN", 2)
    _run(range(SEED + 50_000, SEED + 50_000 + max(1, TOURNAMENTS // 2)))
