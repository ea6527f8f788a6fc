"""Which Dutch brackets leave the fast path, and what the weighted matching then costs.

The Dutch engine pairs a big bracket with at most six MDPs by its fast path
(``pairing/engine/dutch/fast.py``) when a bound proves the answer; any other bracket goes
to the weighted matching (rustworkx, O(V^3) in the bracket plus the next scoregroup, one
matching per question of the order of generation).  This script pairs one round and
reports, per round, the brackets that went to the matching: their size (MDPs, residents,
next scoregroup, players below), the matchings asked and their time, beside the whole
round's CPU time and peak memory.

Cases (each in its own subprocess):

* ``plain``: a plausible history (``generate_fast``, 11 declared rounds), the round given;
* ``mdps K``: the same, then the arbiter forbids K players of the top scores (one per
  score from the top, then a second per score) to meet anyone of the top T (T = a third of
  the field): the K float down together and meet, as K MDPs, the first bracket below T,
  more MDPs than the fast path takes.

    .venv/bin/python benchmarks/bench_dutch_brackets.py --sizes 1000 9999 --rounds 2 6 10
    .venv/bin/python benchmarks/bench_dutch_brackets.py --sizes 1000 3000 --rounds 6 --mdps 8 16

Not part of the test run.  Prints a Markdown table (and writes it with ``-o``).
"""

from __future__ import annotations

import argparse
import json
import resource
import subprocess
import sys
import time
from pathlib import Path

REPO = Path(__file__).resolve().parents[1]
DECLARED_ROUNDS = 11


def run_case(players: int, round_number: int, seed: int, mdps: int) -> dict:
    sys.path.insert(0, str(REPO))
    from dataclasses import replace

    import pairing.engine.dutch.procedure as procedure
    import pairing.engine.weighted as weighted
    from pairing.engine import System, pair_round
    from pairing.engine.dutch import dutch_states
    from pairing.engine.generator import GeneratorConfig, generate_fast

    generated = generate_fast(GeneratorConfig(players=players, rounds=DECLARED_ROUNDS, seed=seed),
                              rounds_to_play=round_number - 1)
    snapshot = replace(generated.snapshot(round_number), system=System.DUTCH)
    if mdps:
        st = dutch_states(snapshot)
        order = sorted((p.id for p in snapshot.players if p.id not in snapshot.absent), key=lambda i: -st[i].score)
        top = order[: max(mdps + 2, len(order) // 3)]
        chosen: list[int] = []
        for per_score in (1, 2):
            for i in top:
                if len(chosen) < mdps and i not in chosen and \
                        sum(st[j].score == st[i].score for j in chosen) < per_score:
                    chosen.append(i)
        snapshot = replace(snapshot, forbidden=frozenset(
            frozenset((c, x)) for c in chosen for x in top if x != c))

    slow: list[dict] = []
    solves = {"n": 0, "s": 0.0}
    pair_bracket = procedure.BracketProcedure._pair_bracket
    solve = weighted.BracketSolver.solve

    def spy_bracket(self, score, mdps_, residents, nxt, lower, odd, c9, relaxed):
        before = dict(solves)
        t = time.process_time()
        try:
            return pair_bracket(self, score, mdps_, residents, nxt, lower, odd, c9, relaxed)
        finally:
            slow.append({"mdps": len(mdps_), "residents": len(residents), "next": len(nxt),
                         "lower": 0 if relaxed else len(lower), "cpu_s": time.process_time() - t,
                         "matchings": solves["n"] - before["n"], "matching_s": solves["s"] - before["s"]})

    def spy_solve(self, c=None):
        t = time.process_time()
        try:
            return solve(self, c)
        finally:
            solves["n"] += 1
            solves["s"] += time.process_time() - t

    procedure.BracketProcedure._pair_bracket = spy_bracket
    weighted.BracketSolver.solve = spy_solve
    c0 = time.process_time()
    pairing = pair_round(snapshot)
    cpu = time.process_time() - c0
    worst = max(slow, key=lambda b: b["cpu_s"], default=None)
    return {"players": players, "round": round_number, "mdps": mdps, "cpu_s": cpu,
            "brackets": len(pairing.explanation.brackets), "slow_brackets": len(slow),
            "matchings": solves["n"], "matching_s": solves["s"], "worst": worst,
            "rss_mb": resource.getrusage(resource.RUSAGE_SELF).ru_maxrss / 1024}


def spawn(players: int, round_number: int, seed: int, mdps: int, timeout: float) -> dict:
    cmd = [sys.executable, __file__, "--one", str(players), str(round_number), str(mdps), "--seed", str(seed)]
    try:
        proc = subprocess.run(cmd, capture_output=True, text=True, timeout=timeout, cwd=REPO)
    except subprocess.TimeoutExpired:
        return {"players": players, "round": round_number, "mdps": mdps, "error": f"timeout after {timeout:.0f} s"}
    if proc.returncode != 0:
        tail = (proc.stderr.strip().splitlines() or ["?"])[-1]
        return {"players": players, "round": round_number, "mdps": mdps, "error": f"exit {proc.returncode}: {tail}"}
    return json.loads(proc.stdout.strip().splitlines()[-1])


def table(rows: list[dict]) -> str:
    lines = ["| players | round | forced MDPs | CPU s | peak MB | brackets | to the matching | matchings (CPU s) "
             "| largest such bracket: MDPs + residents + next + below | its CPU s |",
             "|---:|---:|---:|---:|---:|---:|---:|---:|:--|---:|"]
    for r in rows:
        if "error" in r:
            lines.append(f"| {r['players']} | {r['round']} | {r['mdps'] or '-'} | {r['error']} |")
            continue
        w = r["worst"]
        head = f"| {r['players']} | {r['round']} | {r['mdps'] or '-'} | {r['cpu_s']:.2f} | {r['rss_mb']:.0f} | {r['brackets']} | "
        if w is None:
            lines.append(head + "0 | 0 | - | - |")
            continue
        lines.append(head + f"{r['slow_brackets']} | {r['matchings']} ({r['matching_s']:.2f}) | "
                     f"{w['mdps']} + {w['residents']} + {w['next']} + {w['lower']} | {w['cpu_s']:.2f} |")
    return "\n".join(lines)


def main(argv: list[str] | None = None) -> int:
    ap = argparse.ArgumentParser(description=__doc__.split("\n\n")[0])
    ap.add_argument("--sizes", type=int, nargs="+", default=[1000, 9999])
    ap.add_argument("--rounds", type=int, nargs="+", default=[2, 6, 10])
    ap.add_argument("--mdps", type=int, nargs="+", default=[0], help="players forced down together (0: none)")
    ap.add_argument("--seed", type=int, default=1)
    ap.add_argument("--timeout", type=float, default=1800, help="seconds per case")
    ap.add_argument("-o", "--output")
    ap.add_argument("--one", type=int, nargs=3, help=argparse.SUPPRESS)
    args = ap.parse_args(argv)
    if args.one:
        print(json.dumps(run_case(*args.one[:2], args.seed, args.one[2])))
        return 0
    rows = []
    for players in args.sizes:
        for round_number in args.rounds:
            for mdps in args.mdps:
                rows.append(spawn(players, round_number, args.seed, mdps, args.timeout))
                print(table(rows[-1:]).splitlines()[-1], flush=True)
    out = table(rows)
    print(out)
    if args.output:
        Path(args.output).write_text(out + "\n")
    return 0


if __name__ == "__main__":
    sys.exit(main())
