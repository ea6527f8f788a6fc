"""The pure-Python weighted matching against rustworkx: agreement and speed.

    nice -n 19 .venv/bin/python benchmarks/bench_matching.py [--graphs 20000] [--tournaments 100] [--seed 1]

1. ``--graphs`` random graphs (2-40 vertices, densities 0.1-1, weights up to 2**125 as the
   engines pack their criteria, with and without maximum cardinality): both matchings, counted
   as the same cardinality and total weight, and as the very same matching (ties may differ);
   the time each took.
2. ``--tournaments`` generated tournaments per system (``-g --seed S``: players, rounds, byes,
   forfeits, late entries, acceleration drawn from the seed), paired by the generator with
   rustworkx; then every round re-paired from the file with each matching: counted as the same
   boards, colours and PAB; the time each took.

Prints the counts and times (what docs/fide-submission.md quotes); asserts nothing about time.
Single process: run it under ``nice -n 19``.
"""

from __future__ import annotations

import argparse
import random
import sys
import tempfile
import time
from pathlib import Path

ROOT = Path(__file__).resolve().parents[1]
sys.path.insert(0, str(ROOT))

import rustworkx as rx  # noqa: E402

from pairing.engine import blossom  # noqa: E402
from pairing.engine.__main__ import main as engine_main  # noqa: E402
from pairing.engine.checker import pair_from_file, read  # noqa: E402
from pairing.engine.model import NoLegalPairing, System  # noqa: E402


def rustworkx_mate(n, edges, max_cardinality):
    g = rx.PyGraph()
    g.add_nodes_from(range(n))
    g.add_edges_from(edges)
    mate = [-1] * n
    for a, b in rx.max_weight_matching(g, max_cardinality=max_cardinality, weight_fn=int):
        mate[a], mate[b] = b, a
    return mate


def totals(mate, weight):
    pairs = [(a, b) for a, b in enumerate(mate) if b > a]
    return len(pairs), sum(weight[(a, b)] for a, b in pairs)


def graphs(count: int, seed: int) -> None:
    same_value = same_mate = 0
    t_python = t_rust = 0.0
    for k in range(count):
        rng = random.Random(seed * 1_000_003 + k)
        n = rng.randint(2, 40)
        density = rng.choice([0.1, 0.3, 0.6, 0.9, 1.0])
        top = rng.choice([1, 5, 1000, 2 ** 64, 2 ** 125])
        edges = [(a, b, rng.randint(0, top)) for a in range(n) for b in range(a + 1, n) if rng.random() < density]
        rng.shuffle(edges)
        weight = {(a, b): w for a, b, w in edges}
        mc = k % 2 == 1
        start = time.perf_counter()
        ours = blossom.python_matching(n, edges, mc)
        middle = time.perf_counter()
        theirs = rustworkx_mate(n, edges, mc)
        t_python += middle - start
        t_rust += time.perf_counter() - middle
        a, b = totals(ours, weight), totals(theirs, weight)
        if (a if mc else a[1]) == (b if mc else b[1]):
            same_value += 1
        else:
            print(f"  graph {k}: pure Python {a}, rustworkx {b}", flush=True)
        same_mate += ours == theirs
    print(f"graphs: {count}; same cardinality and weight: {same_value}; the very same matching: {same_mate}")
    print(f"  time: pure Python {t_python:.2f} s, rustworkx {t_rust:.2f} s")


def pairings(path: Path, system: System):
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


def tournaments(count: int, seed: int) -> None:
    with tempfile.TemporaryDirectory() as tmp:
        for system in (System.DUBOV, System.DUTCH, System.BURSTEIN):
            flag = f"--{system.name.lower()}"
            same = rounds = players = 0
            t_python = t_rust = 0.0
            for k in range(count):
                path = Path(tmp) / f"{k}.trf"
                s = seed * 100_000 + k
                blossom.use("rustworkx")
                # the generator's notes go to standard error: keep them out of the figures
                err, sys.stderr = sys.stderr, open(Path(tmp) / "err", "w")
                try:
                    code = engine_main([flag, "-g", "--seed", str(s), "-o", str(path)])
                finally:
                    sys.stderr.close()
                    sys.stderr = err
                if code != 0:
                    print(f"  {flag} seed {s}: the generator exited {code}")
                    continue
                start = time.perf_counter()
                fast = pairings(path, system)
                middle = time.perf_counter()
                blossom.use("python")
                pure = pairings(path, system)
                t_rust += middle - start
                t_python += time.perf_counter() - middle
                blossom.use(None)
                rounds += len(fast)
                players += len(read(str(path)).players)
                same += sum(1 for a, b in zip(fast, pure, strict=True) if a == b)
                if fast != pure:
                    print(f"  {flag} seed {s}: rounds differ", flush=True)
            print(f"{system.name.lower()}: {count} tournaments ({players} players), {rounds} rounds re-paired; "
                  f"the same boards, colours and PAB: {same}")
            print(f"  time: pure Python {t_python:.2f} s, rustworkx {t_rust:.2f} s", flush=True)


def run() -> None:
    ap = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    ap.add_argument("--graphs", type=int, default=20000)
    ap.add_argument("--tournaments", type=int, default=100)
    ap.add_argument("--seed", type=int, default=1)
    args = ap.parse_args()
    graphs(args.graphs, args.seed)
    tournaments(args.tournaments, args.seed)


if __name__ == "__main__":
    run()
