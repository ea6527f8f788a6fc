"""Time and memory of ``pair_round`` on large fields (issue "engine speed").

For every field size, a plausible tournament of 11 declared rounds is built with
``generate_fast`` (seeded), truncated before the round to pair, and that round is
paired once.  Each case runs in its own subprocess so that its peak memory
(``ru_maxrss``) is its own; the table shows

* wall and CPU seconds of ``pair_round`` alone (``time.perf_counter`` /
  ``time.process_time`` around the call),
* the subprocess's peak resident memory, and how much of it the pairing added on
  top of the generated history (peak after pairing minus peak before it),
* with ``--tracemalloc``, the peak of Python allocations during ``pair_round``
  measured in a second, separate call (tracemalloc slows the call down, so it is
  never timed; it is many times slower on the large fields: use it with small
  ``--sizes``).

    .venv/bin/python benchmarks/bench_engine.py                 # 100 1000 5000 9999 x rounds 2 6 10, + round 1 of 9999
    .venv/bin/python benchmarks/bench_engine.py --sizes 100 1000 --rounds 6
    .venv/bin/python benchmarks/bench_engine.py --sizes 100 1000 --tracemalloc

Not part of the test run.  Prints a Markdown table (and writes it with ``-o``).
"""

from __future__ import annotations

import argparse
import json
import os
import platform
import resource
import subprocess
import sys
import time
from pathlib import Path

REPO = Path(__file__).resolve().parents[1]
DEFAULT_SIZES = (100, 1000, 5000, 9999)
DEFAULT_ROUNDS = (2, 6, 10)
EXTRA_CASES = ((9999, 1),)  # round 1 of the largest field, asked for separately
DECLARED_ROUNDS = 11


def _maxrss_mb() -> float:
    """Peak resident set size of this process in MB (Linux reports KiB)."""
    peak = resource.getrusage(resource.RUSAGE_SELF).ru_maxrss
    return peak / 1024 if sys.platform != "darwin" else peak / (1024 * 1024)


def run_case(players: int, round_number: int, seed: int, use_tracemalloc: bool, system: str = "dubov") -> dict:
    """One case, in this process: generate, snapshot, pair.  Returns the figures."""
    sys.path.insert(0, str(REPO))
    from dataclasses import replace

    from pairing.engine import System, pair_round
    from pairing.engine.generator import GeneratorConfig, generate_fast

    t0 = time.perf_counter()
    config = GeneratorConfig(players=players, rounds=DECLARED_ROUNDS, seed=seed)
    generated = generate_fast(config, rounds_to_play=round_number - 1)
    snapshot = replace(generated.snapshot(round_number), system=System(system))
    setup_s = time.perf_counter() - t0
    rss_before = _maxrss_mb()
    w0, c0 = time.perf_counter(), time.process_time()
    pairing = pair_round(snapshot)
    wall, cpu = time.perf_counter() - w0, time.process_time() - c0
    rss_after = _maxrss_mb()
    result = {
        "players": players,
        "round": round_number,
        "present": len(snapshot.players) - len(snapshot.absent),
        "boards": len(pairing.boards),
        "brackets": len(pairing.explanation.brackets),
        "setup_s": setup_s,
        "wall_s": wall,
        "cpu_s": cpu,
        "rss_peak_mb": rss_after,
        "rss_added_mb": max(0.0, rss_after - rss_before),
    }
    if use_tracemalloc:
        import tracemalloc

        tracemalloc.start()
        pair_round(snapshot)
        _, peak = tracemalloc.get_traced_memory()
        tracemalloc.stop()
        result["traced_peak_mb"] = peak / (1024 * 1024)
    return result


def spawn(players: int, round_number: int, seed: int, use_tracemalloc: bool, timeout: float,
          system: str = "dubov") -> dict:
    cmd = [sys.executable, __file__, "--one", str(players), str(round_number), "--seed", str(seed),
           "--system", system]
    if use_tracemalloc:
        cmd.append("--tracemalloc")
    try:
        proc = subprocess.run(cmd, capture_output=True, text=True, timeout=timeout, cwd=REPO)
    except subprocess.TimeoutExpired:
        return {"players": players, "round": round_number, "error": f"timeout after {timeout:.0f} s"}
    if proc.returncode != 0:
        tail = (proc.stderr.strip().splitlines() or ["?"])[-1]
        return {"players": players, "round": round_number, "error": f"exit {proc.returncode}: {tail}"}
    return json.loads(proc.stdout.strip().splitlines()[-1])


def table(rows: list[dict], use_tracemalloc: bool) -> str:
    head = "| players | round | paired | brackets | pair_round wall s | CPU s | peak RSS MB | RSS added by pairing MB |"
    sep = "|---:|---:|---:|---:|---:|---:|---:|---:|"
    if use_tracemalloc:
        head += " tracemalloc peak MB |"
        sep += "---:|"
    lines = [head, sep]
    for r in rows:
        if "error" in r:
            lines.append(f"| {r['players']} | {r['round']} | {r['error']} |")
            continue
        line = (
            f"| {r['players']} | {r['round']} | {r['present']} | {r['brackets']} | {r['wall_s']:.3f} | "
            f"{r['cpu_s']:.3f} | {r['rss_peak_mb']:.0f} | {r['rss_added_mb']:.0f} |"
        )
        if use_tracemalloc:
            line += f" {r.get('traced_peak_mb', float('nan')):.1f} |"
        lines.append(line)
    return "\n".join(lines)


def main(argv: list[str] | None = None) -> int:
    ap = argparse.ArgumentParser(description=__doc__.split("\n\n")[0])
    ap.add_argument("--sizes", type=int, nargs="+", default=list(DEFAULT_SIZES), help="field sizes")
    ap.add_argument(
        "--rounds", type=int, nargs="+", default=list(DEFAULT_ROUNDS), help="rounds to pair (1-11)"
    )
    ap.add_argument("--no-extra", action="store_true", help="skip round 1 of 9,999")
    ap.add_argument("--seed", type=int, default=1)
    ap.add_argument("--tracemalloc", action="store_true", help="also measure Python allocations (slower)")
    ap.add_argument("--timeout", type=float, default=900, help="seconds per case")
    ap.add_argument("-o", "--output", help="also write the table to this file")
    ap.add_argument("--system", choices=["dubov", "dutch", "burstein"], default="dubov",
                    help="the pairing system (burstein: rounds 1-4 of the 11 declared are its seeding rounds, "
                         "paired by the Dutch engine)")
    ap.add_argument("--one", type=int, nargs=2, metavar=("PLAYERS", "ROUND"), help=argparse.SUPPRESS)
    args = ap.parse_args(argv)
    if args.one:
        print(json.dumps(run_case(args.one[0], args.one[1], args.seed, args.tracemalloc, args.system)))
        return 0
    for r in args.rounds:
        if not 1 <= r <= DECLARED_ROUNDS:
            ap.error(f"rounds must be between 1 and {DECLARED_ROUNDS}")
    cases = [(n, r) for n in args.sizes for r in args.rounds]
    if not args.no_extra:
        cases += [c for c in EXTRA_CASES if c not in cases and c[0] in args.sizes]
    rows = []
    for n, r in cases:
        row = spawn(n, r, args.seed, args.tracemalloc, args.timeout, args.system)
        rows.append(row)
        shown = row.get("error") or f"{row['wall_s']:.3f} s, peak {row['rss_peak_mb']:.0f} MB"
        print(f"  {n} players, round {r}: {shown}", file=sys.stderr, flush=True)
    rows.sort(key=lambda x: (x["players"], x["round"]))
    cpu = platform.processor() or platform.machine()
    header = (
        f"{args.system.capitalize()} pair_round, generate_fast fields of {DECLARED_ROUNDS} declared rounds, seed {args.seed}; "
        f"Python {platform.python_version()}, {os.cpu_count()} CPUs ({cpu}), {time.strftime('%Y-%m-%d')}"
    )
    out = header + "\n\n" + table(rows, args.tracemalloc) + "\n"
    print(out)
    if args.output:
        Path(args.output).write_text(out)
    return 0 if all("error" not in r for r in rows) else 1


if __name__ == "__main__":
    sys.exit(main())
