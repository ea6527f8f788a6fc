"""Time the FIDE tie-break standings for large fields (the public standings page).

    .venv/bin/python benchmarks/bench_standings.py [--players 1000 5000] [--rounds 11]

Builds a plausible history with the engine's fast generator, then times
``pairing.tiebreaks.standings`` for a usual tie-break order and for every
tie-break at once (best of three).  Not part of the test run.
"""

from __future__ import annotations

import argparse
import sys
import time
from pathlib import Path

sys.path.insert(0, str(Path(__file__).resolve().parents[1]))

from pairing.engine.generator import GeneratorConfig, generate_fast  # noqa: E402
from pairing.tiebreaks import TBTournament, TieBreak, parse_order, standings  # noqa: E402


def best_of_three(t: TBTournament, order) -> float:
    best = float("inf")
    for _ in range(3):
        start = time.perf_counter()
        standings(t, order)
        best = min(best, time.perf_counter() - start)
    return best


def main() -> None:
    parser = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    parser.add_argument("--players", type=int, nargs="+", default=[1000, 5000])
    parser.add_argument("--rounds", type=int, default=11)
    args = parser.parse_args()
    usual = parse_order("DE BH-C1 BH SB ARO-C1")
    print("| players | rounds | usual order (DE BH-C1 BH SB ARO-C1) | every tie-break |")
    print("|---:|---:|---:|---:|")
    for n in args.players:
        gen = generate_fast(GeneratorConfig(players=n, rounds=args.rounds, seed=1), args.rounds)
        t = TBTournament.from_players(gen.players, gen.points)
        print(f"| {n:,} | {args.rounds} | {best_of_three(t, usual):.3f} s | {best_of_three(t, tuple(TieBreak)):.3f} s |")


if __name__ == "__main__":
    main()
