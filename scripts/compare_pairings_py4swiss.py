"""Compare our Dubov pairings with py4swiss (PyPI, its ``dubov`` engine) round by round on
generated tournaments: the start of the checklist's Q33 campaign; with ``--system
burstein`` our Burstein pairings with its ``burstein`` engine (issue 40).

Not part of the test suite; the figures go into docs/validation.md.  py4swiss is not a
dependency of the app: install it in a virtual environment of its own and give its
command::

    python scripts/compare_pairings_py4swiss.py --python PY4SWISS_VENV/bin/python --seed 7 \
        --start 0 --count 5000 --json p4-0.json [--check-worker 20] [--keep DIR]
    python scripts/compare_pairings_py4swiss.py --merge p4-*.json
    python scripts/compare_pairings_py4swiss.py --system burstein --python PY4SWISS_VENV/bin/python \
        --seed 40 --start 0 --count 1000 --json bu-0.json

Burstein: the tournaments are drawn as for Dubov (the same sequence of a seed) but every
round is paired by our Burstein engine (its seeding rounds by our Dutch engine), and
py4swiss's ``burstein`` engine pairs each round; a differing round is classified by
scripts/burstein_triage.py (py4swiss's readings switched on in our engine, then the rules'
measures and the literal enumerator).

py4swiss runs in one long-lived process of its own Python (scripts/py4swiss_worker.py:
about 0.07 s a round instead of 0.3 s); ``--check-worker N`` also runs its command
(``--py4swiss``, default next to that Python) on the first N tournaments' rounds and
stops if a pairing differs.  Tournament n of a seed is the same whatever ``--start``, so
runs over ranges add up (``--json``, ``--merge``).

Each tournament is drawn by our generator (every round paired by our engine; 9-60
players, 5-11 rounds, draws, forfeits, requested byes, withdrawals and late entries from
the seed; no forbidden pairs and no acceleration, which the TRF-16 py4swiss reads cannot
carry the same way).  For every round k the tournament as it stood before round k
(rounds < k, the players absent in round k as XXZ) is written as TRF and py4swiss pairs
round k; its pairs, colours and bye are compared with ours.  Differing rounds are listed
with their files for reading (``--keep``).
"""

from __future__ import annotations

import argparse
import json
import random
import subprocess
import sys
import tempfile
from collections import Counter
from pathlib import Path

sys.path.insert(0, str(Path(__file__).resolve().parent.parent))

from pairing.engine import System  # noqa: E402
from pairing.engine.__main__ import _pair_from_file  # noqa: E402
from pairing.engine.trf import parse_trf  # noqa: E402
from pairing.engine.trf.writer import dump_trf, tournament_from_snapshot  # noqa: E402
from scripts.generated import generate as _generate  # noqa: E402
from scripts.pairing_triage import classify as classify_dubov  # noqa: E402


def options(rng: random.Random) -> list[str]:
    """Eight draws from ``rng`` per tournament (the run's sequence, as since the first run)."""
    return [
        "--seed", str(rng.randrange(1, 10**9)),
        "--players", str(rng.randint(9, 60)), "--rounds", str(rng.randint(5, 11)),
        "--draw-rate", f"{rng.uniform(0.15, 0.45):.2f}", "--forfeit-rate", f"{rng.uniform(0, 0.05):.3f}",
        "--bye-rate", f"{rng.uniform(0, 0.06):.3f}", "--withdrawal-rate", f"{rng.uniform(0, 0.02):.3f}",
        "--late-entry-rate", f"{rng.uniform(0, 0.05):.3f}", "--forbidden-pairs", "0", "--acceleration", "none",
        # the generator's later options pinned to what it did before them (no odd scores,
        # uniform ratings), so that a seed's tournaments stay those of the earlier runs
        "--odd-result-rate", "0", "--rating-step", "0",
    ]


def generate(path: Path, rng: random.Random, system: str = "dubov") -> None:
    _generate(path, options(rng), system)


def for_py4swiss(text: str) -> str:
    """py4swiss 0.3.1 reads XXS values only with a decimal point (``WW=1.0``)."""
    out = []
    for line in text.splitlines():
        if line.startswith("XXS"):
            parts = [line[:3]]
            for item in line[4:].split():
                key, _, value = item.partition("=")
                parts.append(f"{key}={value if '.' in value else value + '.0'}")
            line = " ".join(parts)
        out.append(line)
    return "\n".join(out) + "\n"


def pairs_of(lines: list[str]) -> tuple[set[tuple[int, int]], int | None]:
    boards, bye = set(), None
    for line in lines[1:]:
        a, b = (int(x) for x in line.split())
        if b == 0:
            bye = a
        else:
            boards.add((a, b))
    return boards, bye


def file_round(t, k: int) -> tuple[set[tuple[int, int]], int | None]:
    from pairing.engine.model import Colour, Result

    boards, bye = set(), None
    for p in t.players:
        if len(p.history) < k:
            continue
        e = p.history[k - 1]
        if e.result is Result.PAIRING_BYE:
            bye = p.id
        elif e.opponent is not None and e.colour is Colour.WHITE:
            boards.add((p.id, e.opponent))
    return boards, bye


class Py4swiss:
    """py4swiss in one process of its own Python (scripts/py4swiss_worker.py)."""

    def __init__(self, python: str, command: str | None, engine: str = "dubov"):
        self.engine = engine
        self.command = command or str(Path(python).with_name("py4swiss"))
        self.proc = subprocess.Popen([python, str(Path(__file__).with_name("py4swiss_worker.py"))],
                                     stdin=subprocess.PIPE, stdout=subprocess.PIPE, text=True)

    def pair(self, view: Path, out: Path, check: bool) -> str:
        """Pair ``view`` into ``out``; '' or why py4swiss failed."""
        assert self.proc.stdin and self.proc.stdout
        argv = ["py4swiss", "-t", str(view), "-e", self.engine, "-p", str(out)]
        self.proc.stdin.write(json.dumps({"argv": argv}) + "\n")
        self.proc.stdin.flush()
        reply = json.loads(self.proc.stdout.readline() or '{"ok": false, "err": "the worker stopped"}')
        if check:
            cli = out.with_suffix(".cli")
            run = subprocess.run([self.command, *argv[1:-1], str(cli)], capture_output=True, text=True, timeout=600)
            same = (not reply["ok"] and run.returncode != 0) or (
                reply["ok"] and cli.exists() and cli.read_text() == out.read_text())
            if not same:
                raise SystemExit(f"worker and command line differ on {view}")
            cli.unlink(missing_ok=True)
        return "" if reply["ok"] else reply.get("err", "failed")

    def close(self) -> None:
        if self.proc.stdin:
            self.proc.stdin.close()
        self.proc.wait(timeout=30)


def count(view: Path, kind: str, tally: Counter, examples: list[str]) -> None:
    """Count a differing round by its kind; the first ones, and every one to be read, are
    listed with their file."""
    tally[kind.split(" | ")[0]] += 1  # "kind | detail": counted by its kind, listed with its detail
    if len(examples) < 40 or "OURS" in kind or "read" in kind:
        examples.append(f"{view.name}: {kind}")


def compare_round(t, k: int, view: Path, out: Path, failure: str, tally: Counter, examples: list[str],
                  classify=classify_dubov, snapshot=None) -> bool:
    """Count round ``k``; True when it is identical."""
    tally["rounds"] += 1
    if failure or not out.exists():
        tally["py4swiss failed"] += 1
        if len(examples) < 20:
            examples.append(f"{view.name}: py4swiss failed: {failure}")
        return False
    lines = [line for line in out.read_text().splitlines() if line.strip()]
    theirs = pairs_of(lines)
    ours = file_round(t, k)
    if len(lines) <= 1 and ours[0]:
        tally["py4swiss found no pairing"] += 1
        if len(examples) < 40:
            examples.append(f"{view.name}: py4swiss found no pairing; ours has {len(ours[0])} boards")
    elif theirs == ours:
        tally["identical"] += 1
        return True
    else:
        # triaged by the rules' measures (scripts/pairing_triage.py); py4swiss's defect F1
        # is "PAB: theirs to the player with fewer games (2.1.4)"
        count(view, classify(ours, theirs, snapshot if snapshot is not None else t.snapshot(k)), tally, examples)
    return False


KEPT_AS_IS = ("rounds", "identical", "tournaments", "py4swiss failed", "py4swiss found no pairing",
              "seeding rounds", "seeding rounds identical")
_SYSTEMS = {"dubov": System.DUBOV, "burstein": System.BURSTEIN}


def _classifier(system: str):
    if system == "burstein":
        from scripts.burstein_triage import classify as classify_burstein

        return classify_burstein
    return classify_dubov


def retriage_only(folder: Path, figures: Path, text: str, classify, system: str) -> int:
    """Classify again the run's listed rounds whose kind contains ``text`` (every round to be
    read is listed) and move them in its figures to their new kind."""
    data = json.loads(figures.read_text())
    tally = Counter(data["tally"])
    examples = []
    for line in data["examples"]:
        name, _, kind = line.partition(": ")
        if text in kind:
            view = folder / name
            out = view.with_suffix(".p4")
            t = parse_trf(view.read_text())
            k = int(view.stem.rsplit("-r", 1)[1])
            snapshot, pairing = _pair_from_file(t, str(view), k, _SYSTEMS[system])
            ours = ({(b.white, b.black) for b in pairing.boards}, pairing.bye)
            new = classify(ours, pairs_of([x for x in out.read_text().splitlines() if x.strip()]), snapshot)
            tally[kind.split(" | ")[0]] -= 1
            tally[new.split(" | ")[0]] += 1
            line = f"{name}: {new}"
        examples.append(line)
    data.update(tally={k: v for k, v in tally.items() if v}, examples=examples,
                retriaged_only=data.get("retriaged_only", []) + [text])
    figures.write_text(json.dumps(data, indent=1))
    print(dict(tally))
    return 0


def retriage(folder: Path, figures: Path, classify=classify_dubov, system: str = "dubov") -> int:
    """Classify a finished run's differing rounds again (their files are in ``folder``: the
    round's TRF and py4swiss's pairing) and rewrite the run's figures.  Our pairing of a
    round is the engine's on that round's file, the same as in the generated tournament."""
    data = json.loads(figures.read_text())
    old = Counter(data["tally"])
    tally = Counter({k: v for k, v in old.items() if k in KEPT_AS_IS})
    examples: list[str] = []
    for view in sorted(folder.glob("t*-r*.trf")):
        out = view.with_suffix(".p4")
        lines = [line for line in out.read_text().splitlines() if line.strip()] if out.exists() else []
        if len(lines) <= 1:
            continue  # failed or no pairing: counted as it was
        t = parse_trf(view.read_text())
        k = int(view.stem.rsplit("-r", 1)[1])
        snapshot, pairing = _pair_from_file(t, str(view), k, _SYSTEMS[system])
        ours = ({(b.white, b.black) for b in pairing.boards}, pairing.bye)
        count(view, classify(ours, pairs_of(lines), snapshot), tally, examples)
    differing = sum(v for k, v in tally.items() if k not in KEPT_AS_IS)
    if differing + tally["identical"] + tally["py4swiss failed"] + tally["py4swiss found no pairing"] != tally["rounds"]:
        raise SystemExit(f"{folder} does not hold the run's differing rounds: {differing} found")
    data.update(tally=dict(tally), examples=examples, retriaged=True)
    figures.write_text(json.dumps(data, indent=1))
    print(dict(tally))
    return 0


def main(argv: list[str] | None = None) -> int:
    ap = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    ap.add_argument("--system", choices=("dubov", "burstein"), default="dubov",
                    help="the system our generator pairs with and py4swiss's engine (default dubov)")
    ap.add_argument("--python", help="the Python of py4swiss's virtual environment")
    ap.add_argument("--py4swiss", help="its command, for --check-worker (default: beside --python)")
    ap.add_argument("--seed", type=int, default=1)
    ap.add_argument("--start", type=int, default=0, help="first tournament of the seed's sequence")
    ap.add_argument("--count", "--tournaments", type=int, default=100)
    ap.add_argument("--keep", type=Path, help="keep the differing rounds' files here")
    ap.add_argument("--json", type=Path, help="write the figures here (for --merge)")
    ap.add_argument("--merge", type=Path, nargs="+", help="add up the figures of earlier runs and stop")
    ap.add_argument("--check-worker", type=int, default=0, metavar="N",
                    help="also run py4swiss's command on the rounds of the first N tournaments and compare")
    ap.add_argument("--retriage", type=Path, metavar="DIR",
                    help="classify again, with today's triage, the differing rounds a run left in DIR, and "
                         "rewrite that run's --json figures (its identical and failed rounds stay)")
    ap.add_argument("--only", metavar="TEXT",
                    help="with --retriage: only the listed rounds whose kind contains TEXT (e.g. OURS)")
    args = ap.parse_args(argv)
    if args.retriage and args.only:
        if not args.json:
            ap.error("--retriage needs the run's --json")
        return retriage_only(args.retriage, args.json, args.only, _classifier(args.system), args.system)
    if args.retriage:
        if not args.json:
            ap.error("--retriage needs the run's --json")
        return retriage(args.retriage, args.json, _classifier(args.system), args.system)
    if args.merge:
        tally: Counter = Counter()
        for path in args.merge:
            tally.update(json.loads(path.read_text())["tally"])
        print(f"{len(args.merge)} runs: {dict(tally)}")
        if args.system == "burstein":
            from scripts.burstein_triage import table

            print(table(tally))
        return 0
    if not args.python:
        ap.error("--python is required")
    rng = random.Random(args.seed)
    for _ in range(args.start):
        options(rng)  # tournament n is the same whatever --start
    work = args.keep or Path(tempfile.mkdtemp(prefix="pair-compare-"))
    work.mkdir(parents=True, exist_ok=True)
    tally = Counter()
    examples: list[str] = []
    engine = Py4swiss(args.python, args.py4swiss, args.system)
    classify = _classifier(args.system)
    system = _SYSTEMS[args.system]
    try:
        for n in range(args.start, args.start + args.count):
            path = work / f"t{n:05d}.trf"
            generate(path, rng, args.system)
            t = parse_trf(path.read_text())
            for k in range(1, t.rounds_played() + 1):
                snapshot = t.snapshot(k, system=system)
                view = work / f"t{n:05d}-r{k}.trf"
                view.write_text(for_py4swiss(dump_trf(tournament_from_snapshot(snapshot, name=path.name))))
                out = work / f"t{n:05d}-r{k}.p4"
                failure = engine.pair(view, out, n - args.start < args.check_worker)
                seeding = system is System.BURSTEIN and k <= min(snapshot.total_rounds // 2, 4)
                if seeding:
                    tally["seeding rounds"] += 1
                if compare_round(t, k, view, out, failure, tally, examples, classify, snapshot):
                    if seeding:
                        tally["seeding rounds identical"] += 1
                    view.unlink()
                    out.unlink(missing_ok=True)
            path.unlink()
            tally["tournaments"] += 1
            if (n + 1 - args.start) % 250 == 0:
                print(f"... {n + 1 - args.start} tournaments, {dict(tally)}", file=sys.stderr, flush=True)
    finally:
        engine.close()
    print(dict(tally))
    for line in examples:
        print("  " + line)
    if args.json:
        args.json.write_text(json.dumps({"system": args.system, "seed": args.seed, "start": args.start,
                                         "count": args.count,
                                         "tally": dict(tally), "examples": examples}, indent=1))
    print(f"files in {work}")
    return 0


if __name__ == "__main__":
    raise SystemExit(main())
