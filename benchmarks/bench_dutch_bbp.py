"""Our Dutch engine against bbpPairings v6.0.0 on the same files, in the same run
(issue 34: "100 players under 0.2 s; 1,000 under 2 s; 10,000 under 60 s and 2 GB;
faster than bbpPairings at every size from 200 players").

For each field size (100, 200, 500, 1,000 and 9,999: a TRF starting rank has four
columns, so 9,999 players is the largest file) one late round is made: a plausible history of ``--played`` rounds
of an 11-round tournament (``generate_fast``, seeded: not Dutch pairings, only a valid
history), written as the TRF file that scripts/dutch_oracles.py gives every program.
Both programs then pair that file **as whole processes** (start-up, reading, pairing,
writing):

* ours: ``python -m pairing.engine --dutch FILE -p OUT``,
* bbpPairings: ``BBP --dutch FILE -p OUT``, with ``--timeout`` (bbpPairings needs minutes
  from about 500 players on; a run it does not finish is reported as "> timeout").

Wall time (``perf_counter`` around the process), CPU time and peak resident memory of the
child (``wait4``'s rusage), and whether the two pairings are the same.  Median of
``--repeat`` runs (memory: the largest).  Not part of the test run::

    nice -n 10 .venv/bin/python benchmarks/bench_dutch_bbp.py --bbp /path/to/bbpPairings.exe
    .venv/bin/python benchmarks/bench_dutch_bbp.py --bbp BBP --sizes 100 200 --repeat 5 -o table.md
"""

from __future__ import annotations

import argparse
import json
import os
import platform
import statistics
import subprocess
import sys
import tempfile
import time
from pathlib import Path

REPO = Path(__file__).resolve().parents[1]
sys.path.insert(0, str(REPO))

from pairing.engine.generator import GeneratorConfig, generate_fast  # noqa: E402
from scripts.compare_pairings_bbp import snapshot_trf  # noqa: E402
from scripts.dutch_oracles import Round, parse_pairs  # noqa: E402

DECLARED_ROUNDS = 11


def make_file(players: int, played: int, seed: int, folder: Path) -> Path:
    config = GeneratorConfig(players=players, rounds=DECLARED_ROUNDS, seed=seed, bye_rate=0.01,
                             withdrawal_rate=0.0, forfeit_rate=0.01)
    snapshot = generate_fast(config, rounds_to_play=played).snapshot(played + 1)
    text, _ = snapshot_trf(snapshot)
    path = folder / f"p{players}-r{played + 1}.trf"
    path.write_text(text)
    return path


def run(argv: list[str], out: Path, timeout: float) -> dict:
    """One whole process: wall, CPU (user + system) and peak RSS of the child."""
    out.unlink(missing_ok=True)
    start = time.perf_counter()
    proc = subprocess.Popen(argv, stdout=subprocess.DEVNULL, stderr=subprocess.PIPE, cwd=REPO)
    deadline = start + timeout
    while True:
        pid, status, usage = os.wait4(proc.pid, os.WNOHANG)
        if pid:
            break
        if time.perf_counter() > deadline:
            proc.kill()
            os.wait4(proc.pid, 0)
            return {"ok": False, "why": f"> {timeout:.0f} s (killed)", "wall": None}
        time.sleep(0.01)
    wall = time.perf_counter() - start
    code = os.waitstatus_to_exitcode(status)
    result = {"wall": wall, "cpu": usage.ru_utime + usage.ru_stime, "rss_mb": usage.ru_maxrss / 1024,
              "ok": code == 0 and out.exists()}
    if result["ok"]:
        result["pairing"] = parse_pairs(out.read_text())
    else:
        text = " ".join(proc.stderr.read().decode(errors="replace").split())
        result["why"] = f"exit {code}: {text[:100]}"
    return result


def median_of(runs: list[dict]) -> dict:
    if not all(r["ok"] for r in runs):
        return next(r for r in runs if not r["ok"])
    return {"ok": True, "wall": statistics.median(r["wall"] for r in runs),
            "cpu": statistics.median(r["cpu"] for r in runs), "rss_mb": max(r["rss_mb"] for r in runs),
            "pairing": runs[0]["pairing"]}


def cell(r: dict) -> str:
    return f"{r['wall']:.3f} | {r['cpu']:.3f} | {r['rss_mb']:.0f}" if r["ok"] else f"{r['why']} | | "


def main(argv: list[str] | None = None) -> int:
    ap = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    ap.add_argument("--bbp", required=True, help="the bbpPairings v6.0.0 binary")
    ap.add_argument("--sizes", type=int, nargs="+", default=[100, 200, 500, 1000, 9999])
    ap.add_argument("--played", type=int, default=8, help="rounds played before the round paired (default 8)")
    ap.add_argument("--seed", type=int, default=1)
    ap.add_argument("--repeat", type=int, default=3)
    ap.add_argument("--timeout", type=float, default=300, help="seconds per bbpPairings run (ours: 10 x this)")
    ap.add_argument("--bbp-max", type=int, default=1000, help="larger fields are not given to bbpPairings")
    ap.add_argument("-o", type=Path, help="also write the table here")
    ap.add_argument("--json", type=Path)
    args = ap.parse_args(argv)
    rows, data = [], []
    with tempfile.TemporaryDirectory(prefix="bench-dutch-") as tmp:
        folder = Path(tmp)
        for n in args.sizes:
            path = make_file(n, args.played, args.seed, folder)
            ours_out, bbp_out = folder / "ours.txt", folder / "bbp.txt"
            ours = median_of([run([sys.executable, "-m", "pairing.engine", "--dutch", str(path), "-p", str(ours_out)],
                                  ours_out, 10 * args.timeout) for _ in range(args.repeat)])
            if n > args.bbp_max:
                theirs = {"ok": False, "why": f"not run (over {args.bbp_max} players)"}
            else:  # one run when it is slow: the median of several minutes-long runs adds nothing
                first = run([args.bbp, "--dutch", str(path), "-p", str(bbp_out)], bbp_out, args.timeout)
                more = [run([args.bbp, "--dutch", str(path), "-p", str(bbp_out)], bbp_out, args.timeout)
                        for _ in range(args.repeat - 1)] if first["ok"] and first["wall"] < 10 else []
                theirs = median_of([first, *more])
            same = "-"
            if ours["ok"] and theirs["ok"]:
                a, b = ours["pairing"], theirs["pairing"]
                same = "yes" if a == b else "pairs, not colours" if Round.same_pairs(a, b) else "no"
            rows.append(f"| {n} | {args.played + 1} | {cell(ours)} | {cell(theirs)} | {same} |")
            data.append({"players": n, "round": args.played + 1,
                         **{f"ours_{k}": v for k, v in ours.items() if k != "pairing"},
                         **{f"bbp_{k}": v for k, v in theirs.items() if k != "pairing"}, "same": same})
            print(rows[-1], flush=True)
    head = [f"Python {platform.python_version()}, {os.cpu_count()} CPUs, seed {args.seed}, "
            f"median of {args.repeat} (bbpPairings: one run when it takes 10 s or more)", "",
            "| players | round | ours wall s | CPU s | peak RSS MB | bbp wall s | CPU s | peak RSS MB | same pairing |",
            "|---:|---:|---:|---:|---:|---:|---:|---:|:--|"]
    table = "\n".join(head + rows) + "\n"
    print(table)
    if args.o:
        args.o.write_text(table)
    if args.json:
        args.json.write_text(json.dumps(data, indent=1))
    return 0


if __name__ == "__main__":
    sys.exit(main())
