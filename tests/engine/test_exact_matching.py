"""The pure-Python maximum-weight matching (:mod:`pairing.engine.exact_matching`) that takes
over from rustworkx when a bracket's packed criteria need more than 120 bits, and a Dutch
round whose bracket needs 128."""

from __future__ import annotations

import random
from dataclasses import replace
from itertools import combinations
from pathlib import Path

import pytest
import rustworkx as rx
from hypothesis import given, settings
from hypothesis import strategies as st

import pairing.engine.weighted as weighted
from pairing.engine import System, pair_round
from pairing.engine.__main__ import main as cli
from pairing.engine.exact_matching import max_weight_matching
from pairing.engine.generator import GeneratorConfig, generate
from pairing.engine.model import NoLegalPairing

FIXTURES = Path(__file__).parent / "fixtures" / "dutch"


def _total(n, edges, mate) -> int:
    weight = {frozenset((a, b)): w for a, b, w in edges}
    for v in range(n):
        if mate[v] != -1:
            assert mate[mate[v]] == v and frozenset((v, mate[v])) in weight
    return sum(weight[frozenset((v, mate[v]))] for v in range(n) if mate[v] > v)


def _brute_force(n, edges) -> int:
    weight = {frozenset((a, b)): w for a, b, w in edges}

    def best(free: tuple[int, ...]) -> int:
        if len(free) < 2:
            return 0
        v, rest = free[0], free[1:]
        out = best(rest)
        for u in rest:
            w = weight.get(frozenset((v, u)))
            if w is not None:
                out = max(out, w + best(tuple(x for x in rest if x != u)))
        return out

    return best(tuple(range(n)))


def _random_graph(rng: random.Random, n: int, weight) -> list[tuple[int, int, int]]:
    p = rng.random()
    return [(a, b, weight()) for a, b in combinations(range(n), 2) if rng.random() < p]


def test_exact_matching_agrees_with_rustworkx_on_random_graphs():
    """Small integer weights (many ties, many blossoms): the same total weight as
    rustworkx's matching on 300 random graphs of up to 40 vertices."""
    rng = random.Random(7)
    for _ in range(300):
        n = rng.randint(2, 40)
        top = rng.choice([2, 5, 1000])
        edges = _random_graph(rng, n, lambda top=top: rng.randint(1, top))
        g = rx.PyGraph()
        g.add_nodes_from(range(n))
        g.add_edges_from(edges)
        theirs = rx.max_weight_matching(g, max_cardinality=False, weight_fn=int)
        mate = [-1] * n
        for a, b in theirs:
            mate[a], mate[b] = b, a
        assert _total(n, edges, max_weight_matching(n, edges)) == _total(n, edges, mate)


def test_exact_matching_with_weights_beyond_128_bits():
    """Weights of 250-300 bits, which rustworkx cannot hold: the best total over every
    matching (brute force on graphs of up to 9 vertices), and lexicographic weights
    (a << 300) + b, whose best matching is rustworkx's for (a << 40) + b."""
    rng = random.Random(11)
    for _ in range(300):
        n = rng.randint(1, 9)
        edges = _random_graph(rng, n, lambda: rng.choice([rng.randint(1, 2**300), 2**250, 2**250 + 1, 3 * 2**249]))
        assert _total(n, edges, max_weight_matching(n, edges)) == _brute_force(n, edges)
    for _ in range(60):
        n = rng.randint(10, 40)
        pairs = [(a, b) for a, b in combinations(range(n), 2) if rng.random() < 0.4]
        high = {e: rng.randint(0, 2) for e in pairs}
        low = {e: rng.randint(0, 50) for e in pairs}
        wide = [(a, b, (high[(a, b)] << 300) + low[(a, b)] + 1) for a, b in pairs]
        narrow = [(a, b, (high[(a, b)] << 40) + low[(a, b)] + 1) for a, b in pairs]
        g = rx.PyGraph()
        g.add_nodes_from(range(n))
        g.add_edges_from(narrow)
        mate = [-1] * n
        for a, b in rx.max_weight_matching(g, max_cardinality=False, weight_fn=int):
            mate[a], mate[b] = b, a
        assert _total(n, narrow, max_weight_matching(n, wide)) == _total(n, narrow, mate)


# bbpPairings v6.0.0 (-p) on the fixture, read as a fact: its pairs (white-black) and PAB
WIDE_BBP = (
    "1-80 3-74 4-72 5-106 10-76 14-68 15-55 16-95 17-45 20-19 22-62 23-24 30-37 31-83 32-29 33-44 39-57 41-21 "
    "42-35 46-38 47-91 50-43 51-61 52-97 53-82 56-25 58-66 59-49 60-64 65-8 69-7 71-70 73-6 75-2 77-34 78-11 "
    "79-9 81-107 84-99 85-63 87-67 88-26 96-40 98-86 102-93 105-113 108-112 109-104 114-103 115-89 119-116 "
    "120-117 PAB 90"
)


def test_dutch_bracket_beyond_120_bits_pairs_as_bbppairings(tmp_path: Path, monkeypatch):
    """Round 20 of a 120-player 3-1-0 tournament (our generator) in which the arbiter has
    forbidden 25 players (up to two of each of the top 14 scores) to meet anyone of the top
    60: they all float down to one bracket, whose criteria ([C7], [C8], [C18]-[C21] per MDP
    score) need 128 bits.  The engine used to refuse the round (EngineError); it now pairs it, by the
    pure-Python matching, exactly as bbpPairings v6.0.0 (whose weights have any width)."""
    widest = []
    pack = weighted.BracketSolver._pack

    def spy(self):
        pack(self)
        widest.append(sum(self.widths))

    monkeypatch.setattr(weighted.BracketSolver, "_pack", spy)
    out = tmp_path / "out.txt"
    assert cli(["--dutch", str(FIXTURES / "wide-weights-bbp.trf"), "-p", str(out)]) == 0
    assert max(widest) > weighted.MAX_BITS
    lines = out.read_text().split("\n")[1:]
    pairs = [tuple(map(int, line.split())) for line in lines if line.strip()]
    bye = [w for w, b in pairs if b == 0]
    got = " ".join(f"{w}-{b}" for w, b in sorted(p for p in pairs if p[1] != 0)) + f" PAB {bye[0] if bye else '-'}"
    assert got == WIDE_BBP


@settings(max_examples=6, deadline=None)
@given(seed=st.integers(0, 10_000), players=st.integers(6, 18))
def test_property_exact_matching_pairs_as_rustworkx(seed, players):
    """Every bracket matched by the pure-Python matching (the width limit set to 0) gives
    the same pairs, colours and PAB as rustworkx, on every round of random tournaments."""
    cfg = GeneratorConfig(players=players, rounds=5, seed=seed, bye_rate=0.04, forfeit_rate=0.04,
                          forbidden_pairs=1)
    snaps = []

    def record(snap):
        snap = replace(snap, system=System.DUTCH)
        snaps.append(snap)
        return pair_round(snap)

    generate(cfg, pairer=record)
    for snap in snaps:
        try:
            fast = pair_round(snap)
        except NoLegalPairing:
            fast = None
        with pytest.MonkeyPatch.context() as mp:
            mp.setattr(weighted, "MAX_BITS", 0)
            if fast is None:
                with pytest.raises(NoLegalPairing):
                    pair_round(snap)
                continue
            exact = pair_round(snap)
        assert [(b.white, b.black) for b in exact.boards] == [(b.white, b.black) for b in fast.boards]
        assert exact.bye == fast.bye
