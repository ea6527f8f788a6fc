"""Compare our Dubov pairings with CPPDubovSystem (public C++, version 2.2), both ways:
the checklist's Q33 campaign for pairings.

Not part of the test suite; the figures go into docs/validation.md.  CPPDubovSystem is
not a dependency of the app: fetch it, build it (``cmake -DCMAKE_BUILD_TYPE=Release`` and
``make``), and give its binary::

    python scripts/compare_pairings_cppdubov.py --cpp BUILD/CPPDubovSystem --ours 50000 --seed 1 --workers 2
    python scripts/compare_pairings_cppdubov.py --cpp BUILD/CPPDubovSystem --theirs 50000 --seed 1 --workers 2

In ranges that add up (tournament n of a seed is the same whatever the range)::

    python scripts/compare_pairings_cppdubov.py --cpp BIN --ours 5000 --start 0 --seed 1 --json ours-0.json
    python scripts/compare_pairings_cppdubov.py --cpp BIN --theirs 1000 --start 50000 --valid 508 --json theirs-50000.json
    python scripts/compare_pairings_cppdubov.py --merge ours-*.json
    python scripts/compare_pairings_cppdubov.py --table --merge DIR/ours-*.json DIR/theirs-*.json

``--valid K`` stops a range of ``--theirs`` once K of its generator's files were read (a
file it could not make, or one that is not valid TRF, is counted but not compared): the way
to top a campaign up to a round number of valid files.

``--ours``: tournaments drawn by our generator (as scripts/compare_pairings_py4swiss.py
draws them); for every round k the tournament before round k is written as the plain
TRF-16 CPPDubovSystem reads (001 lines, XXR, XXC, the absent players as XXZ) and it pairs
round k; pairs, colours and the bye are compared with ours.

``--theirs``: tournaments made by CPPDubovSystem's own random tournament generator
(``--rtg``, 9-60 players, 5-11 rounds, run under ``faketime`` from Debian's package of that
name: it seeds itself from the clock); our engine pairs every round of each from the
rounds before it and the two are compared.  A round of theirs that pairs two players who
have already played each other over the board (C1) is counted apart: a pairing no Dubov
engine may make.

Differing rounds are kept (``--keep``) for reading; the tallies are printed every 500
tournaments and at the end.
"""

from __future__ import annotations

import argparse
import datetime
import json
import os
import random
import shutil
import subprocess
import sys
import tempfile
from collections import Counter
from multiprocessing import Pool
from pathlib import Path

sys.path.insert(0, str(Path(__file__).resolve().parent.parent))

from pairing.engine import NoLegalPairing  # noqa: E402
from pairing.engine.__main__ import _pair_from_file  # noqa: E402
from pairing.engine.trf import TrfError, parse_trf  # noqa: E402
from pairing.engine.trf.writer import dump_trf, tournament_from_snapshot  # noqa: E402
from scripts import pairing_triage  # noqa: E402
from scripts.compare_pairings_py4swiss import file_round, generate  # noqa: E402

# the records CPPDubovSystem's reader knows (it stops at any other)
KNOWN = ("001", "012", "022", "032", "042", "052", "062", "072", "082", "092", "102", "112", "122", "XXR", "XXC", "XXZ")


def for_cpp(text: str) -> str:
    return "\n".join(line for line in text.splitlines() if line[:3] in KNOWN) + "\n"


def cpp_round(cpp: str, path: Path) -> tuple[set[tuple[int, int]], int | None] | None:
    out = path.with_suffix(".csv")
    run = subprocess.run([cpp, "--pairings", str(path), "--output", str(out)], capture_output=True, text=True,
                         timeout=120)
    if run.returncode or not out.exists():
        return None
    boards, bye = set(), None
    for line in out.read_text().splitlines()[1:]:
        cells = [c.strip() for c in line.split(",")]
        if len(cells) < 2 or not cells[0]:
            continue
        if not cells[1].isdigit() or cells[1] == "0":
            bye = int(cells[0])
        elif not cells[0].isdigit():
            bye = int(cells[1])
        else:
            boards.add((int(cells[0]), int(cells[1])))
    out.unlink()
    return boards, bye


def _begin(job, prefix: str):
    """A job's tournament file, its work folder and its random draws."""
    n, seed, cpp, keep = job
    work = Path(keep) if keep else Path(tempfile.mkdtemp(prefix="cpp-"))
    work.mkdir(parents=True, exist_ok=True)
    return work / f"{prefix}{n:06d}.trf", random.Random(seed * 1_000_003 + n)


def one_of_ours(job: tuple[int, int, str, str | None]) -> tuple[Counter, list[str]]:
    n, seed, cpp, keep = job
    path, rng = _begin(job, "o")
    work = path.parent
    generate(path, rng)
    t = parse_trf(path.read_text())
    tally, kept = Counter(), []
    for k in range(1, t.rounds_played() + 1):
        view = work / f"o{n:06d}-r{k}.trf"
        view.write_text(for_cpp(dump_trf(tournament_from_snapshot(t.snapshot(k), name=path.name))))
        theirs = cpp_round(cpp, view)
        tally["rounds"] += 1
        kind = "CPPDubovSystem failed (no output, or it crashed)" if theirs is None else pairing_triage.classify(
            file_round(t, k), theirs, t.snapshot(k))
        tally[kind] += 1
        if kind == "identical" or not keep:
            view.unlink()
        else:
            kept.append(f"{view.name}: {kind}")
    return _done(path, keep, tally, kept)


def _done(path: Path, keep: str | None, tally: Counter, kept: list[str],
          counted: bool = True) -> tuple[Counter, list[str]]:
    """A tournament finished: its file stays only when kept and something differed; a
    work folder of its own goes with it."""
    if not (keep and kept):
        path.unlink(missing_ok=True)
    if not keep:
        shutil.rmtree(path.parent, ignore_errors=True)
    tally["tournaments"] += counted
    return tally, kept


def one_of_theirs(job: tuple[int, int, str, str | None]) -> tuple[Counter, list[str]]:
    n, seed, cpp, keep = job
    path, rng = _begin(job, "c")
    players, rounds = rng.randint(9, 60), rng.randint(5, 11)
    rounds = min(rounds, players - 1)  # more rounds than that cannot be paired without meeting twice
    tally, kept = Counter(), []
    # Its generator seeds itself from the clock (srand(time(nullptr)), one seed a second), so
    # each run is made under libfaketime at a second of our choosing: that second is the
    # seed, and the same second gives the same file.  It often crashes (a segmentation
    # fault); then the next second is tried.
    for attempt in range(50):
        second = datetime.datetime.fromtimestamp(1_600_000_000 + seed * 100_000_000 + n * 100 + attempt,
                                                 tz=datetime.UTC)
        run = subprocess.run(["faketime", "-f", second.strftime("@%Y-%m-%d %H:%M:%S"), cpp, "--rtg", str(path),
                              "--p_count", str(players), "--rtg_rounds", str(rounds)],
                             capture_output=True, text=True, timeout=600, env={**os.environ, "TZ": "UTC"})
        if run.returncode == 0 and path.exists():
            break
        tally["CPPDubovSystem generator crashed (next second tried)"] += 1
        path.unlink(missing_ok=True)
    else:
        tally["CPPDubovSystem generator gave no file in 50 tries"] += 1
        return _done(path, keep, tally, kept, counted=False)
    try:
        t = parse_trf(path.read_text())
    except TrfError as exc:
        tally["CPPDubovSystem's file is not valid TRF"] += 1
        return _done(path, keep, tally, [f"{path.name}: not valid TRF: {exc}"], counted=False)
    for k in range(1, t.rounds_played() + 1):
        theirs = file_round(t, k)
        tally["rounds"] += 1
        try:
            snapshot, pairing = _pair_from_file(t, str(path), k)
        except NoLegalPairing:
            kind = "ours finds no legal pairing"
        else:
            ours = ({(b.white, b.black) for b in pairing.boards}, pairing.bye)
            kind = pairing_triage.classify(ours, theirs, snapshot)
        tally[kind] += 1
        if kind != "identical":
            kept.append(f"{path.name} round {k}: {kind}")
    return _done(path, keep, tally, kept)


def guarded(task):
    """A job that reports a harness error (with its tournament) instead of stopping the run."""

    def run(job):
        try:
            return task(job)
        except Exception as exc:  # noqa: BLE001 - counted and shown, the campaign goes on
            return Counter({"harness error": 1}), [f"tournament {job[0]}: {type(exc).__name__}: {exc}"]

    return run


def _ours(job):
    return guarded(one_of_ours)(job)


def _theirs(job):
    return guarded(one_of_theirs)(job)


VALID = "tournaments"  # a tournament is counted only when its file was read

# docs/validation.md's table of the final triage: each row and the kinds it adds up (a kind
# ending in "*" stands for every kind that starts so)
TABLE = (
    ("Tournaments read (valid files)", ("tournaments",)),
    ("Rounds compared", ("rounds",)),
    ("Identical", ("identical",)),
    ("Theirs crashed or wrote nothing (K5)", ("CPPDubovSystem failed (no output, or it crashed)",)),
    ("PAB: theirs to a player not eligible ([C2], K2)", ("PAB: theirs to a player not eligible*",)),
    ("PAB: theirs not to the lowest score (2.1.3, K3)", ("PAB: theirs to a higher score (2.1.3)",)),
    ("PAB: theirs to the player with fewer games (2.1.4)", ("PAB: theirs to the player with fewer games (2.1.4)",)),
    ("PAB: theirs not to the lowest ranked (2.1.5)", ("PAB: theirs not to the lowest in the initial ranking (2.1.5)",)),
    ("Round-1 colours by board, not by pairing number (5.2.1, K1)",
     ("colours of players yet to play (5.2.1: by pairing number parity; theirs by board)",)),
    ("First differing bracket worse in theirs: more upfloaters ([C5])", ("theirs worse on number of upfloaters (C5)",)),
    ("... lower-scored upfloaters ([C6], K4)", ("theirs worse on score differences (C6)",)),
    ("... fewer colour preferences granted ([C7], K4)", ("theirs worse on colour preferences (C7)",)),
    ("... more maximum upfloaters ([C8])", ("theirs worse on maximum upfloaters (C8)",)),
    ("... more upfloats of the maximum upfloaters ([C9])", ("theirs worse on upfloats of maximum upfloaters (C9)",)),
    ("... more upfloaters of the previous round ([C10])", ("theirs worse on upfloaters of the previous round (C10)",)),
    ("Reading P1: a forfeited upfloat not counted ([C8] / [C9] / [C10])", ("reading P1: *",)),
    ("Same pairs, other colours decided by 5.2.4-5.2.5 (L2, K9)",
     ("same pairs, other colours where 5.2.4-5.2.5 decide (histories compared)",)),
    ("Same pairs, other colours: K1 on one board and 5.2.4-5.2.5 on another",
     ("same pairs, other colours: 5.2.1 by board (K1) and 5.2.4-5.2.5 (L2) in one round",)),
    ("First differing bracket equal on [C5]-[C10], ours the literal enumerator's (4.2-4.4 orders, K8)",
     ("first differing bracket equal on C5-C10: another choice there (4.2-4.4 orders, ARO); "
      "ours is the literal enumerator's",)),
    ("First differing bracket equal on [C5]-[C10], the literal enumerator out of time (run again with more: "
     "validation.md)",
     ("first differing bracket equal on C5-C10: another choice there (4.2-4.4 orders, ARO); "
      "the literal enumerator did not finish",)),
    ("Its generator crashed on the way (K6)", ("CPPDubovSystem generator crashed (next second tried)",)),
    ("Its generator gave no file in 50 seconds", ("CPPDubovSystem generator gave no file in 50 tries",)),
    ("Its file not valid TRF (K7)", ("CPPDubovSystem's file is not valid TRF",)),
    ("Printed as ours worse, read by hand (below)", ("OURS *",)),
)


def table(tallies: dict[str, Counter]) -> str | None:
    """The table's rows for the two ways (``tallies["ours"]``, ``tallies["theirs"]``), or
    None, with the kinds named on standard error, when a kind has no row (it must be read and
    given one)."""
    def matches(kind: str, pattern: str) -> bool:
        return kind.startswith(pattern[:-1]) if pattern.endswith("*") else kind == pattern

    unplaced = {kind for tally in tallies.values() for kind in tally
                if not any(matches(kind, pattern) for _, patterns in TABLE for pattern in patterns)}
    if unplaced:
        print(f"kinds with no row of the table: {sorted(unplaced)}", file=sys.stderr)
        return None
    lines = ["| | Ours through theirs | Theirs through ours |", "|---|---:|---:|"]
    for label, patterns in TABLE:
        cells = [sum(n for kind, n in tallies.get(way, Counter()).items()
                     if any(matches(kind, pattern) for pattern in patterns)) for way in ("ours", "theirs")]
        lines.append(f"| {label} | {cells[0]:,} | {cells[1]:,} |")
    return "\n".join(lines)


def merge(paths: list[Path], as_table: bool = False) -> int:
    """Add up ranges; say which tournaments they cover, and refuse ranges that overlap
    (a tournament counted twice)."""
    tally: Counter = Counter()
    by_way: dict[str, Counter] = {}
    covered: dict[tuple[str, int], list[tuple[int, int]]] = {}
    for path in paths:
        run = json.loads(path.read_text())
        tally.update(run["tally"])
        by_way.setdefault(run["way"], Counter()).update(run["tally"])
        covered.setdefault((run["way"], run["seed"]), []).append((run["start"], run["last"]))
    for (way, seed), ranges in sorted(covered.items()):
        ranges.sort()
        for (_, last), (start, _) in zip(ranges, ranges[1:], strict=False):
            if start <= last:
                print(f"ranges overlap: {way}, seed {seed}, tournament {start}", file=sys.stderr)
                return 2
        spans, (lo, hi) = [], ranges[0]
        for start, last in ranges[1:]:
            if start == hi + 1:
                hi = last
            else:
                spans.append(f"{lo:,}-{hi:,}")
                lo, hi = start, last
        spans.append(f"{lo:,}-{hi:,}")
        print(f"{way}, seed {seed}: tournaments {', '.join(spans)}")
    print(f"{len(paths)} runs: {dict(sorted(tally.items()))}")
    if as_table:
        text = table(by_way)
        if text is None:
            return 2
        print(text)
    return 0


def main(argv: list[str] | None = None) -> int:
    ap = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    ap.add_argument("--cpp", help="the CPPDubovSystem binary")
    way = ap.add_mutually_exclusive_group()
    way.add_argument("--ours", type=int, help="tournaments from our generator through CPPDubovSystem")
    way.add_argument("--theirs", type=int, help="tournaments from CPPDubovSystem's generator through ours")
    way.add_argument("--merge", type=Path, nargs="+", help="add up the figures of earlier runs (--json) and stop")
    ap.add_argument("--seed", type=int, default=1)
    ap.add_argument("--start", type=int, default=0, help="first tournament of the seed's sequence")
    ap.add_argument("--valid", type=int, help="--theirs: stop once this many of its files were read")
    ap.add_argument("--workers", type=int, default=1)
    ap.add_argument("--literal-seconds", type=int, default=30,
                    help="wall-clock seconds the literal enumerator gets for a round (default 30)")
    ap.add_argument("--keep", type=Path, help="keep the differing files here")
    ap.add_argument("--json", type=Path, help="write the figures here (for --merge)")
    ap.add_argument("--table", action="store_true",
                    help="--merge: also print docs/validation.md's table of the two ways")
    ap.add_argument("--show", action="append", default=[],
                    help="also print every differing round whose kind contains this text (repeatable)")
    args = ap.parse_args(argv)
    if args.merge:
        return merge(args.merge, args.table)
    if args.ours is None and args.theirs is None:
        ap.error("one of --ours, --theirs or --merge is required")
    if not args.cpp:
        ap.error("--cpp is required")
    count = args.ours if args.ours is not None else args.theirs
    pairing_triage.LITERAL_SECONDS = args.literal_seconds  # in worker processes too (fork)
    task = _ours if args.ours is not None else _theirs
    jobs = [(n, args.seed, args.cpp, str(args.keep) if args.keep else None)
            for n in range(args.start, args.start + count)]
    total, examples, last = Counter(), [], args.start - 1
    started = datetime.datetime.now(tz=datetime.UTC)
    pool = Pool(args.workers) if args.workers > 1 else None
    # in order, so that a --valid range ends at a tournament number
    results = pool.imap(task, jobs, chunksize=10) if pool else map(task, jobs)
    try:
        for i, (tally, kept) in enumerate(results, start=1):
            total.update(tally)
            last = args.start + i - 1
            urgent = [line for line in kept if "OURS" in line or "Error" in line]
            for line in kept:
                if any(text in line for text in args.show):
                    print("  shown:", line, flush=True)
            examples.extend(urgent + [line for line in kept if line not in urgent][: max(0, 200 - len(examples))])
            if i % 500 == 0:
                print(f"... {i} tournaments, {dict(total)}", flush=True)
            if args.valid is not None and total[VALID] >= args.valid:
                break
    finally:
        if pool:
            pool.terminate()
    print(dict(total))
    ours_first = sorted(examples, key=lambda line: "OURS" not in line and "Error" not in line)
    for line in ours_first[:80]:
        print(" ", line)
    if args.json:
        seconds = (datetime.datetime.now(tz=datetime.UTC) - started).total_seconds()
        commit = subprocess.run(["git", "rev-parse", "HEAD"], capture_output=True, text=True,
                                cwd=Path(__file__).resolve().parent).stdout.strip()
        args.json.write_text(json.dumps({
            "way": "ours" if args.ours is not None else "theirs", "seed": args.seed, "start": args.start,
            "last": last, "seconds": round(seconds), "commit": commit,  # the engine and triage measured
            "tally": dict(total), "examples": ours_first[:200],
        }, indent=1))
    return 0


if __name__ == "__main__":
    sys.exit(main())
