"""Compare our tie-break values with Gacrux (TieBreakServer, the tool FIDE's technical
commission names), under the 2023/2024 and the 2026 text, both ways.

Not part of the test suite: a validation campaign whose figures go into
docs/validation.md.  Gacrux is not a dependency of the app; fetch it and give its folder
and a Python that has its requirements (networkx)::

    # our generator's tournaments through Gacrux
    python scripts/compare_tiebreaks_gacrux.py --gacrux /tmp/gacrux --python /tmp/gvenv/bin/python \
        --seed 1 --start 0 --count 5000 --json ours-0.json
    # Gacrux's generator's tournaments through ours (file numbers 0..4999)
    python scripts/compare_tiebreaks_gacrux.py --gacrux /tmp/gacrux --python /tmp/gvenv/bin/python \
        --theirs --start 0 --count 5000 --json theirs-0.json
    # files made elsewhere; and the sum of several runs
    python scripts/compare_tiebreaks_gacrux.py ... --files DIR
    python scripts/compare_tiebreaks_gacrux.py --merge ours-*.json theirs-*.json

Our tournaments: 9-60 players, 5-11 rounds, draws, forfeits, half-, zero- and full-point
byes, withdrawals and late entries, every round paired by our Dubov engine, drawn from the
seed (tournament n is the same whatever --start, so runs over ranges add up).  Gacrux's
tournaments: its ``tournamentgenerator.py`` (Dutch pairings), file number n with options
drawn from n (9-60 players, 5-11 rounds, ratings from 1800-2700 down to 1400 or
more, zero-point and half-point bye and
forfeit rates); its generator seeds itself from the file number, so every file is
reproducible.  Each file is ranked by both programs under both texts with 24 tie-breaks
and every value after the last round is compared.

Every difference is classified: a known reading (R1, R2 of docs/validation.md: our
value recomputed under Gacrux's reading gives Gacrux's value) or unexplained (printed
with its file for reading).  Gacrux runs in one long-lived process
(scripts/gacrux_worker.py); ``--check-worker N`` also runs its command line on the first
N files and stops if any answer differs.
"""

from __future__ import annotations

import argparse
import hashlib
import json
import random
import shutil
import subprocess
import sys
import tempfile
from collections import Counter, defaultdict
from decimal import Decimal
from pathlib import Path
from unittest import mock

sys.path.insert(0, str(Path(__file__).resolve().parent.parent))

from pairing import tiebreaks as tb  # noqa: E402
from pairing.engine.model import Result, RoundEntry  # noqa: E402
from pairing.engine.trf import parse_trf  # noqa: E402
from pairing.tiebreaks import arithmetic as tb_arithmetic  # noqa: E402
from scripts.generated import generate as _generate  # noqa: E402

# (our code, Gacrux's spelling without the version modifier)
# FB comes last: Gacrux 1.9.57 computes SB and AOB differently when FB is listed before
# them (it changes state they read; docs/validation.md, finding G1), so FB last keeps the
# comparison of the others clean.
LIST = [
    ("BH", "BH"), ("BH-C1", "BH/C1"), ("BH-C2", "BH/C2"), ("BH-M1", "BH/M1"),
    ("SB", "SB"), ("SB-C1", "SB/C1"), ("AOB", "AOB"), ("WIN", "WIN"), ("WON", "WON"), ("BPG", "BPG"),
    ("BWG", "BWG"), ("REP", "REP"), ("PS", "PS"), ("PS-C1", "PS/C1"), ("ARO", "ARO"), ("ARO-C1", "ARO/C1"),
    ("ARO-M1", "ARO/M1"), ("TPR", "TPR"), ("APRO", "APRO"), ("PTP", "PTP"), ("APPO", "APPO"), ("STD", "STD"),
    ("FB", "FB"), ("FB-C1", "FB/C1"),
]
VERSIONS = {2023: "V2024", 2026: "V2026"}  # Gacrux calls the 2023 text by its date in force, 1 Aug 2024
WORKER = Path(__file__).resolve().parent / "gacrux_worker.py"


# ---------------------------------------------------------------- the tournaments


def our_options(rng: random.Random) -> list[str]:
    """Eight draws from ``rng`` per tournament (the run's sequence, as since the first run)."""
    return [
        "--seed", str(rng.randrange(1, 10**9)),
        "--players", str(rng.randint(9, 60)), "--rounds", str(rng.randint(5, 11)),
        "--draw-rate", f"{rng.uniform(0.15, 0.45):.2f}", "--forfeit-rate", f"{rng.uniform(0, 0.06):.3f}",
        "--bye-rate", f"{rng.uniform(0, 0.08):.3f}", "--withdrawal-rate", f"{rng.uniform(0, 0.02):.3f}",
        "--late-entry-rate", f"{rng.uniform(0, 0.06):.3f}", "--tiebreaks", "BH",
        # the generator's later options pinned to what it did before them (no odd scores,
        # uniform ratings), so that a seed's tournaments stay those of the earlier runs
        "--odd-result-rate", "0", "--rating-step", "0",
    ]


def their_options(fileno: int) -> list[str]:
    """Options of Gacrux's generator for file number ``fileno`` (drawn from the number)."""
    rng = random.Random(f"gacrux-{fileno}")
    players = rng.randint(9, 60)
    rounds = min(rng.randint(5, 11), players - 2)
    top = rng.randrange(1800, 2701, 10)
    step = rng.randint(1, max(1, min(40, (top - 1400) // players)))  # the last player 1400 or more
    return [
        "-p", str(players), "-n", str(rounds),
        "-R", str(top), str(step), str(rng.randint(30, 150)),
        "-S", f"{rng.uniform(0, 0.04):.3f}", f"{rng.uniform(0, 0.10):.3f}", f"{rng.uniform(0, 0.06):.3f}",
    ]


def body_digest(path: Path) -> str:
    """The file without its dates (Gacrux writes today's date into 042 and 052)."""
    lines = [line for line in path.read_text().splitlines() if line[:3] not in ("042", "052")]
    return hashlib.md5("\n".join(lines).encode()).hexdigest()


# ---------------------------------------------------------------- ours


def _vur_of_lowest_dummy(rows, vurs: list[int]) -> int:
    """Reading R1 as Gacrux applies it: the VUR weighed against the least significant value
    is the one whose dummy opponent has the lowest score (ours: the smallest contribution)."""
    return min(vurs, key=lambda k: (rows[k][0], rows[k][1]))


def ours(text: str, rules: int, reading: str = "") -> dict[int, tuple]:
    """Our values after the last round played; ``reading`` R1 or R2 recomputes them under
    Gacrux's reading (R2: ranked after the last round the file declares)."""
    t = parse_trf(text)
    played = t.rounds_played()
    if reading == "R2":
        played = max(played, t.total_rounds or 0)
    blank = RoundEntry(None, None, Result.ZERO_BYE)
    data = tb.TBTournament(
        players=tuple(
            tb.TBPlayer(id=p.id, rating=p.rating or None, tpn=p.id,
                        history=tuple(p.history[:played]) + (blank,) * max(0, played - len(p.history)))
            for p in t.players
        ),
        rounds=played, points=t.points, rules=rules,
    )
    order = tb.parse_order(", ".join(code for code, _ in LIST))
    if reading == "R1":
        with mock.patch.object(tb_arithmetic, "_vur_to_cut", _vur_of_lowest_dummy):
            return dict(tb.compute(data, order))
    return dict(tb.compute(data, order))


def same(mine, theirs: str) -> bool:
    if theirs in ("", "-0", "None", "null"):
        return mine == 0
    try:
        return Decimal(str(mine)) == Decimal(theirs)
    except ArithmeticError:
        return False


def kinds_of(text: str, pid: int) -> str:
    """What is unusual in the player's own rounds (for reading an unexplained difference)."""
    p = parse_trf(text).player(pid)
    codes = sorted({e.result.value for e in p.history if e.result.value not in "1=0"})
    return "".join(codes) or "games only"


# ---------------------------------------------------------------- Gacrux


class Gacrux:
    """Gacrux's programs in one process of its own Python (scripts/gacrux_worker.py)."""

    def __init__(self, gdir: Path, python: str):
        self.gdir, self.python = gdir, python
        self.proc = subprocess.Popen(
            [python, str(WORKER), str(gdir)], stdin=subprocess.PIPE, stdout=subprocess.PIPE, text=True,
        )

    def run(self, argv: list[str]) -> dict:
        assert self.proc.stdin and self.proc.stdout
        self.proc.stdin.write(json.dumps({"argv": argv}) + "\n")
        self.proc.stdin.flush()
        line = self.proc.stdout.readline()
        if not line:
            raise RuntimeError("the Gacrux worker stopped")
        return json.loads(line)

    def tiebreak_argv(self, path: Path, rules: int) -> list[str]:
        specs = ["PTS"] + [f"{g}/{VERSIONS[rules]}" for _, g in LIST]
        return ["tiebreakchecker.py", "-i", str(path.resolve()), "-s", "-d", "T", "-o", "-", "-t", *specs]

    def values(self, path: Path, rules: int, check: bool = False) -> dict[int, list[str]]:
        argv = self.tiebreak_argv(path, rules)
        reply = self.run(argv)
        if not reply["ok"]:
            raise RuntimeError(reply.get("err") or reply["out"][-2000:])
        if check:
            cli = subprocess.run([self.python, *argv], cwd=self.gdir, capture_output=True, text=True, timeout=120)
            if cli.stdout != reply["out"]:
                raise SystemExit(f"worker and command line differ on {path} ({rules})")
        rows = [line.split("\t") for line in reply["out"].splitlines() if line.strip()]
        header, body = rows[0], rows[1:]
        start = header.index("PTS") + 1
        return {int(r[0]): r[start:start + len(LIST)] for r in body}

    def generate(self, fileno: int, folder: Path) -> Path | str:
        """Gacrux's file number ``fileno``, or why its generator could not make it."""
        out = folder / f"g{fileno:05d}.trf"
        reply = self.run(["tournamentgenerator.py", "-g", str(fileno), "1", *their_options(fileno),
                          "-o", str(folder.resolve() / "g%d.trf")])
        made = folder / f"g{str(fileno).zfill(4)}.trf"
        if not reply["ok"] or not made.exists():
            last = (reply.get("err") or "").strip().splitlines()[-1:] or ["no file"]
            return last[0]
        made.rename(out)
        return out

    def close(self) -> None:
        if self.proc.stdin:
            self.proc.stdin.close()
        self.proc.wait(timeout=30)


# ---------------------------------------------------------------- the run


class Tally:
    def __init__(self) -> None:
        self.tournaments = 0
        self.values: Counter = Counter()  # "2023" -> values compared
        self.diffs: dict[str, Counter] = defaultdict(Counter)  # "2026 SB-C1" -> {"R1": n, ...}
        self.skipped: Counter = Counter()  # why a file was not compared
        self.files: Counter = Counter()  # files with a difference, by the readings that explain them
        self.examples: dict[str, list[str]] = defaultdict(list)

    def as_json(self) -> dict:
        return {"tournaments": self.tournaments, "values": dict(self.values),
                "diffs": {k: dict(v) for k, v in self.diffs.items()},
                "skipped": dict(self.skipped), "files": dict(self.files), "examples": dict(self.examples)}

    def add_json(self, data: dict, show: int) -> None:
        self.tournaments += data["tournaments"]
        self.values.update(data["values"])
        for key, counts in data["diffs"].items():
            self.diffs[key].update(counts)
        self.skipped.update(data["skipped"])
        self.files.update(data.get("files", {}))
        for key, lines in data["examples"].items():
            self.examples[key].extend(lines[: max(0, show - len(self.examples[key]))])

    def report(self, title: str) -> None:
        print(f"\n== {title}: {self.tournaments:,} tournaments compared")
        for why, n in sorted(self.files.items()):
            print(f"   files that differ, explained by {why}: {n:,}")
        for why, n in sorted(self.skipped.items()):
            print(f"   not compared: {n:,} ({why})")
        for rules in VERSIONS:
            total = sum(sum(c.values()) for k, c in self.diffs.items() if k.startswith(f"{rules} "))
            print(f"-- C.07 {rules} text: {self.values[str(rules)]:,} values, {total:,} differ")
            for code, _ in LIST:
                counts = self.diffs.get(f"{rules} {code}")
                if counts:
                    split = ", ".join(f"{why} {n:,}" for why, n in sorted(counts.items()))
                    print(f"   {code:7} {sum(counts.values()):7,}   {split}")
                    for line in self.examples.get(f"{rules} {code}", []):
                        print(f"            {line}")


def compare(path: Path, gacrux: Gacrux, tally: Tally, show: int, check: bool) -> bool:
    """Rank one file both ways; True when some value differs."""
    text = path.read_text()
    differs = False
    explained: set[str] = set()
    for rules in VERSIONS:
        mine, theirs = ours(text, rules), gacrux.values(path, rules, check)
        readings: dict[str, dict] = {}
        for pid, row in theirs.items():
            for k, ((code, _), value, their) in enumerate(zip(LIST, mine[pid], row, strict=True)):
                tally.values[str(rules)] += 1
                if same(value, their):
                    continue
                differs = True
                why = "unexplained"
                for reading in ("R2", "R1"):
                    if reading not in readings:
                        readings[reading] = ours(text, rules, reading)
                    if same(readings[reading][pid][k], their):
                        why = reading
                        break
                key = f"{rules} {code}"
                tally.diffs[key][why] += 1
                explained.add(why)
                if why == "unexplained" and len(tally.examples[key]) < show:
                    tally.examples[key].append(
                        f"{path} player {pid} ({kinds_of(text, pid)}): ours {value}, Gacrux {their}")
    if explained:
        tally.files[" and ".join(sorted(explained))] += 1
    return differs


def main(argv: list[str] | None = None) -> int:
    ap = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    ap.add_argument("--gacrux", type=Path)
    ap.add_argument("--python", default=sys.executable, help="a Python with Gacrux's requirements")
    ap.add_argument("--seed", type=int, default=1, help="our generator's run (ignored with --theirs)")
    ap.add_argument("--start", type=int, default=0, help="first tournament (ours) or file number (theirs)")
    ap.add_argument("--count", "--tournaments", type=int, default=1000)
    ap.add_argument("--theirs", action="store_true", help="Gacrux's generator's files through ours")
    ap.add_argument("--files", type=Path, help="compare on these *.trf files instead of generating")
    ap.add_argument("--keep", type=Path, help="keep every file here (default: only files that differ)")
    ap.add_argument("--json", type=Path, help="write the figures here (for --merge)")
    ap.add_argument("--merge", type=Path, nargs="+", help="add up the figures of earlier runs and stop")
    ap.add_argument("--check-worker", type=int, default=0, metavar="N",
                    help="also run Gacrux's command line on the first N files and compare")
    ap.add_argument("--show", type=int, default=3, help="unexplained examples printed per tie-break and text")
    args = ap.parse_args(argv)

    tally = Tally()
    if args.merge:
        for path in args.merge:
            tally.add_json(json.loads(path.read_text()), args.show)
        tally.report(f"{len(args.merge)} runs")
        return 0
    if not args.gacrux:
        ap.error("--gacrux is required")
    work = args.keep or Path(tempfile.mkdtemp(prefix="tb-compare-"))
    work.mkdir(parents=True, exist_ok=True)
    kept = work / "differ"
    gacrux = Gacrux(args.gacrux, args.python)
    paths = sorted(args.files.glob("*.trf")) if args.files else []
    total = len(paths) if args.files else args.count
    rng = random.Random(args.seed)
    for _ in range(0 if args.files or args.theirs else args.start):
        our_options(rng)  # tournament n is the same whatever --start
    seen: set[str] = set()
    try:
        for n in range(total):
            if args.files:
                path = paths[n]
            elif args.theirs:
                made = gacrux.generate(args.start + n, work)
                if isinstance(made, str):
                    tally.skipped[f"Gacrux's generator: {made}"] += 1
                    continue
                path = made
                digest = body_digest(path)
                if digest in seen:
                    tally.skipped["same file as an earlier number"] += 1
                    continue
                seen.add(digest)
            else:
                path = work / f"t{args.start + n:05d}.trf"
                _generate(path, our_options(rng))
            differs = compare(path, gacrux, tally, args.show, n < args.check_worker)
            tally.tournaments += 1
            if differs and not args.keep and not args.files:
                kept.mkdir(exist_ok=True)
                shutil.copy(path, kept / path.name)
            if not args.keep and not args.files:
                path.unlink()
            if (n + 1) % 500 == 0:
                print(f"... {n + 1} of {total}", file=sys.stderr, flush=True)
    finally:
        gacrux.close()
    source = args.files or ("Gacrux's generator" if args.theirs else f"our generator, seed {args.seed}")
    title = f"{source}, {'files' if args.files else 'numbers'} from {args.start}"
    tally.report(title)
    if args.json:
        args.json.write_text(json.dumps({"title": title, **tally.as_json()}, indent=1))
    print(f"\nfiles in {work}" + ("" if args.keep or args.files else " (only those that differ, in differ/)"))
    return 0


if __name__ == "__main__":
    raise SystemExit(main())
