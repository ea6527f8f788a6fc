"""The pure-Python weighted matching (pairing/engine/blossom.py) that the checker's single-file
program uses where rustworkx is not installed: the same answers as rustworkx on random graphs,
and the same pairings on generated tournaments of every system.  The long run of the same
comparison is benchmarks/matching_agreement.py."""

from __future__ import annotations

import random
from itertools import combinations

import pytest
import rustworkx as rx
from hypothesis import given, settings
from hypothesis import strategies as st

from pairing.engine import blossom
from pairing.engine.__main__ import main
from pairing.engine.checker import pair_from_file, read
from pairing.engine.model import NoLegalPairing, System


def rustworkx_mate(n, edges, max_cardinality):
    g = rx.PyGraph()
    g.add_nodes_from(range(n))
    g.add_edges_from(list(edges))
    mate = [-1] * n
    for a, b in rx.max_weight_matching(g, max_cardinality=max_cardinality, weight_fn=int):
        mate[a], mate[b] = b, a
    return mate


def totals(mate, edges):
    weight = {frozenset((a, b)): w for a, b, w in edges}
    pairs = [(a, b) for a, b in enumerate(mate) if b > a]
    return len(pairs), sum(weight[frozenset(p)] for p in pairs)


def brute_force(n, edges, max_cardinality):
    """(pairs, weight) of the best matching by trying every set of disjoint edges."""
    best = (0, 0)
    for size in range(1, n // 2 + 1):
        for chosen in combinations(edges, size):
            ends = [v for a, b, _ in chosen for v in (a, b)]
            if len(set(ends)) == len(ends):
                value = (size, sum(w for *_, w in chosen))
                key = value if max_cardinality else (value[1], value[0])
                if key > (best if max_cardinality else (best[1], best[0])):
                    best = value
    return best


@st.composite
def graphs(draw):
    n = draw(st.integers(0, 14))
    density = draw(st.sampled_from([0.15, 0.4, 0.8, 1.0]))
    top = draw(st.sampled_from([1, 3, 1000, 2 ** 64, 2 ** 125]))
    seed = draw(st.integers(0, 2 ** 32))
    rng = random.Random(seed)
    edges = [(a, b, rng.randint(0, top)) for a in range(n) for b in range(a + 1, n) if rng.random() < density]
    rng.shuffle(edges)
    return n, [(b, a, w) if rng.random() < 0.5 else (a, b, w) for a, b, w in edges]


def check_matching(n, edges, mate):
    adjacent = {frozenset((a, b)) for a, b, _ in edges}
    for v, m in enumerate(mate):
        if m != -1:
            assert mate[m] == v and frozenset((v, m)) in adjacent


@settings(max_examples=300, deadline=None)
@given(graphs(), st.booleans())
def test_pure_python_matching_weighs_what_rustworkx_weighs(graph, max_cardinality):
    """Over random graphs (weights up to 2**125, as the engines pack their criteria): a valid
    matching of the same cardinality and total weight as rustworkx's."""
    n, edges = graph
    ours = blossom.python_matching(n, edges, max_cardinality)
    check_matching(n, edges, ours)
    theirs = rustworkx_mate(n, edges, max_cardinality)
    if max_cardinality:
        assert totals(ours, edges) == totals(theirs, edges)
    else:
        assert totals(ours, edges)[1] == totals(theirs, edges)[1]


def test_pure_python_matching_is_the_optimum_on_small_graphs():
    """Against every set of disjoint edges (graphs of up to 8 vertices)."""
    for seed in range(150):
        rng = random.Random(seed)
        n = rng.randint(2, 8)
        edges = [(a, b, rng.randint(0, 9)) for a in range(n) for b in range(a + 1, n) if rng.random() < 0.6]
        for max_cardinality in (False, True):
            mate = blossom.python_matching(n, edges, max_cardinality)
            pairs, weight = totals(mate, edges)
            best = brute_force(n, edges, max_cardinality)
            assert (pairs, weight) == best if max_cardinality else weight == best[1]


def test_the_matching_in_use_follows_the_environment(monkeypatch):
    try:
        monkeypatch.setenv("FIDE_PAIRINGS_MATCHING", "python")
        blossom.use(None)
        assert blossom.backend() == "python" and blossom.describe() == "pure-Python matching"
        monkeypatch.delenv("FIDE_PAIRINGS_MATCHING")
        blossom.use(None)
        assert blossom.backend() == "rustworkx" and blossom.describe().startswith("rustworkx ")
    finally:
        blossom.use(None)


def pairings(path, system):
    t = read(str(path))
    out = []
    for k in range(1, t.rounds_played() + 1):
        try:
            _, p = pair_from_file(t, str(path), k, system)
        except NoLegalPairing as exc:
            out.append(("none", tuple(exc.players)))
            continue
        out.append((tuple((b.number, b.white, b.black) for b in p.boards), p.bye))
    return out


@pytest.mark.parametrize("system", [System.DUBOV, System.DUTCH, System.BURSTEIN], ids=lambda s: s.name.lower())
def test_pure_python_matching_pairs_generated_tournaments_as_rustworkx(system, tmp_path, capsys):
    """Tournaments generated with rustworkx (options drawn from the seed: byes, forfeits, late
    entries, Baku acceleration...), every round re-paired with each matching: the same boards,
    colours and PAB, which are the file's."""
    flag = f"--{system.name.lower()}"
    rounds = 0
    for seed in range(4):
        path = tmp_path / f"{seed}.trf"
        assert main([flag, "-g", "--players", str(10 + 5 * seed), "--rounds", "6", "--seed", str(seed),
                     "-o", str(path)]) == 0
        try:
            blossom.use("rustworkx")
            fast = pairings(path, system)
            blossom.use("python")
            pure = pairings(path, system)
            assert main([flag, str(path), "-c"]) == 0
        finally:
            blossom.use(None)
        assert pure == fast
        rounds += len(pure)
        assert capsys.readouterr().out.splitlines()[-1].endswith("rounds identical")
    assert rounds == 24
