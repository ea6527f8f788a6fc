"""Cross-check of the rules of 1997 (``DubovRules``): the fast engine against the literal
enumerator with the same switches, as tests/engine/test_crosscheck.py does for the 2025
text (its generators and tally are reused).

* ``CROSSCHECK_1997_TOURNAMENTS`` seeded tournaments (default 120) played by the literal
  enumerator with every switch of 1997 on;
* ``CROSSCHECK_1997_CHAOS`` synthetic snapshots (default 1500), each paired with a random
  set of switches (each on with probability one half), so that every switch is checked
  alone and beside the others.
"""

from __future__ import annotations

import os
import random
from dataclasses import replace

import pytest

from pairing.engine.generator import generate
from pairing.engine.model import DubovRules, Snapshot

from .test_crosscheck import CHUNKS, Tally, chaotic_snapshot, compare_once, random_config

TOURNAMENTS = int(os.environ.get("CROSSCHECK_1997_TOURNAMENTS", "120"))
CHAOS = int(os.environ.get("CROSSCHECK_1997_CHAOS", "1500"))
RULES_1997 = DubovRules(year=1997)


def random_rules(seed: int) -> DubovRules:
    rng = random.Random(seed)
    return DubovRules(**{name: rng.random() < 0.5 for name in DubovRules.switches()})


@pytest.mark.parametrize("chunk", range(CHUNKS))
def test_1997_fast_engine_agrees_with_the_literal_enumerator(chunk: int):
    """Seeded tournaments (seeds from 2,000,000 up) paired throughout by the rules of 1997."""
    tally = Tally()
    inner = None

    def pairer(snapshot: Snapshot):
        return inner(replace(snapshot, dubov_rules=RULES_1997))

    for i in range(chunk, TOURNAMENTS, CHUNKS):
        seed = 2_000_000 + i
        inner = tally.pairer(f"1997 seed {seed}: {random_config(seed)}")
        generate(random_config(seed), pairer=pairer)
    tally.report(f"1997 seeded chunk {chunk}")
    assert tally.rounds > 0 or TOURNAMENTS <= chunk
    tally.assert_agreed()


@pytest.mark.parametrize("chunk", range(CHUNKS))
def test_1997_switches_agree_on_chaotic_snapshots(chunk: int):
    """Synthetic histories (maximum upfloaters, absolute preferences, ties of rating and
    ARO), each with a random set of the 1997 switches."""
    tally = Tally()
    for i in range(chunk, CHAOS, CHUNKS):
        rules = random_rules(3_000_000 + i)
        snapshot = replace(chaotic_snapshot(3_000_000 + i), dubov_rules=rules)
        compare_once(tally, snapshot, f"chaotic_snapshot({3_000_000 + i}) with {rules}")
    tally.report(f"1997 chaotic chunk {chunk}")
    tally.assert_agreed()


def test_zz_1997_coverage():
    """Print how often the literal enumerator met the branches of 1997 (run with -s)."""
    from .literal import COVERAGE

    for name, count in sorted(COVERAGE.items()):
        if name.startswith(("1997", "colour 1997")):
            print(f"{count:9d}  {name}")
