"""Cross-check: the fast engine against the literal enumerator, round by round.

Random small tournaments (6-16 players, 5-9 rounds, draws, forfeits, requested
byes, absences, withdrawals, late entries, forbidden pairs) are played with the
literal enumerator as the pairer, so that every history is a Dubov history; at
every round ``pair_round`` must give exactly the same pairing (boards, colours,
board order, PAB), or both must raise NoLegalPairing.

Size of the run (environment):

* ``CROSSCHECK_TOURNAMENTS`` seeded tournaments (default 240), starting at
  ``CROSSCHECK_SEED`` (default 0);
* ``CROSSCHECK_EXAMPLES`` hypothesis examples (default 40);
* ``CROSSCHECK_REPORT``: a file to which the counts and every disagreement are
  appended as JSON lines.

Run ``pytest tests/engine/test_crosscheck.py -s`` to see the counts.
"""

from __future__ import annotations

import json
import os
import random
from dataclasses import dataclass, field

import pytest
from hypothesis import HealthCheck, given, settings
from hypothesis import strategies as st

from pairing.engine import NoLegalPairing, pair_round
from pairing.engine.generator import GeneratorConfig, generate
from pairing.engine.model import Snapshot

from .literal import literal_pair_round

TOURNAMENTS = int(os.environ.get("CROSSCHECK_TOURNAMENTS", "240"))
SEED = int(os.environ.get("CROSSCHECK_SEED", "0"))
EXAMPLES = int(os.environ.get("CROSSCHECK_EXAMPLES", "40"))
REPORT = os.environ.get("CROSSCHECK_REPORT")
CHUNKS = 8


def random_config(seed: int) -> GeneratorConfig:
    """A varied small tournament drawn from ``seed``."""
    rng = random.Random(seed)
    players = rng.randint(6, 16)
    return GeneratorConfig(
        players=players,
        # small fields run out of opponents: keep most rounds pairable
        rounds=min(rng.randint(5, 9), max(5, players - 3)),
        seed=seed,
        draw_rate=rng.choice([0.0, 0.2, 0.35, 0.6]),
        forfeit_rate=rng.choice([0.0, 0.03, 0.08]),
        bye_rate=rng.choice([0.0, 0.03, 0.08]),
        withdrawal_rate=rng.choice([0.0, 0.02, 0.05]),
        late_entry_rate=rng.choice([0.0, 0.0, 0.1, 0.2]),
        rating_min=rng.choice([1000, 1800]),
        rating_max=rng.choice([2000, 2700]),
        forbidden_pairs=rng.choice([0, 0, 1, 2, 4]),
    )


def outcome(pairer, snapshot: Snapshot):
    """("pairs", ((white, black), ...), bye) or ("impossible",) or ("error", repr)."""
    try:
        p = pairer(snapshot)
    except NoLegalPairing:
        return ("impossible",)
    except Exception as exc:  # noqa: BLE001 - a crash is a disagreement too
        return ("error", repr(exc))
    return ("pairs", tuple((b.white, b.black) for b in p.boards), p.bye)


def describe(snapshot: Snapshot) -> str:
    """A compact, human-readable dump of a snapshot (enough to rebuild it)."""
    lines = [
        f"round {snapshot.round_number}/{snapshot.total_rounds} initial {snapshot.initial_colour.name}"
        f" absent {sorted(snapshot.absent)} forbidden {sorted(sorted(p) for p in snapshot.forbidden)}"
    ]
    for p in snapshot.players:
        h = " ".join(
            f"{e.opponent or 0}{e.colour.value if e.colour else '-'}{e.result.value}" for e in p.history
        )
        lines.append(f"  {p.id:>3} tpn {p.tpn:>3} {p.rating}  {h}")
    return "\n".join(lines)


@dataclass
class Tally:
    rounds: int = 0
    agreed: int = 0
    impossible: int = 0
    disagreements: list[dict] = field(default_factory=list)

    def pairer(self, label: str):
        """A pairer for the generator that compares both engines and plays the
        literal enumerator's pairing."""

        def pair(snapshot: Snapshot):
            literal = outcome(literal_pair_round, snapshot)
            fast = outcome(pair_round, snapshot)
            self.rounds += 1
            if literal == fast:
                self.agreed += 1
                self.impossible += literal == ("impossible",)
            else:
                self.disagreements.append(
                    {"case": label, "literal": literal, "fast": fast, "snapshot": describe(snapshot)}
                )
            if literal[0] == "error":  # pragma: no cover - the enumerator itself broke
                raise AssertionError(f"literal enumerator failed: {literal[1]}\n{describe(snapshot)}")
            return literal_pair_round(snapshot)

        return pair

    def report(self, name: str) -> str:
        text = (
            f"{name}: {self.rounds} rounds compared, {self.agreed} agreed "
            f"({self.impossible} both NoLegalPairing), {len(self.disagreements)} disagreed"
        )
        print(text)
        if REPORT:
            with open(REPORT, "a", encoding="utf-8") as f:
                f.write(
                    json.dumps({"test": name, "rounds": self.rounds, "agreed": self.agreed}, default=str)
                    + "\n"
                )
                for d in self.disagreements:
                    f.write(json.dumps(d, default=str) + "\n")
        return text

    def assert_agreed(self) -> None:
        if self.disagreements:
            d = self.disagreements[0]
            raise AssertionError(
                f"{len(self.disagreements)} of {self.rounds} rounds disagree; first: {d['case']}\n"
                f"literal: {d['literal']}\nfast:    {d['fast']}\n{d['snapshot']}"
            )


@pytest.mark.parametrize("chunk", range(CHUNKS))
def test_fast_engine_agrees_with_the_literal_enumerator(chunk: int):
    """Seeded tournaments SEED + i for i = chunk, chunk + CHUNKS, ... < TOURNAMENTS."""
    tally = Tally()
    for i in range(chunk, TOURNAMENTS, CHUNKS):
        config = random_config(SEED + i)
        generate(config, pairer=tally.pairer(f"seed {SEED + i}: {config}"))
    tally.report(f"seeded chunk {chunk}")
    assert tally.rounds > 0 or TOURNAMENTS <= chunk
    tally.assert_agreed()


@settings(
    max_examples=EXAMPLES,
    deadline=None,
    derandomize=True,
    suppress_health_check=[HealthCheck.too_slow],
)
@given(
    players=st.integers(6, 16),
    rounds=st.integers(5, 9),
    seed=st.integers(0, 2**31),
    draw_rate=st.sampled_from([0.0, 0.3, 0.6]),
    bye_rate=st.sampled_from([0.0, 0.05, 0.1]),
    withdrawal_rate=st.sampled_from([0.0, 0.03]),
    late_entry_rate=st.sampled_from([0.0, 0.15]),
    forfeit_rate=st.sampled_from([0.0, 0.05]),
    forbidden_pairs=st.integers(0, 3),
)
def test_fast_engine_agrees_on_hypothesis_tournaments(players, rounds, seed, **rates):
    """The same comparison with hypothesis drawing (and shrinking) the config."""
    tally = Tally()
    config = GeneratorConfig(players=players, rounds=rounds, seed=seed, **rates)
    generate(config, pairer=tally.pairer(str(config)))
    tally.assert_agreed()
