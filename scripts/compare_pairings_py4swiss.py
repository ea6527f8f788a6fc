"""Compare our Dubov pairings with py4swiss (PyPI, its ``dubov`` engine) round by round on
generated tournaments: the start of the checklist's Q33 campaign.

Not part of the test suite; the figures go into docs/validation.md.  py4swiss is not a
dependency of the app: install it in a virtual environment of its own and give its
command::

    python scripts/compare_pairings_py4swiss.py --py4swiss /tmp/p4venv/bin/py4swiss --tournaments 200

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
import random
import subprocess
import sys
import tempfile
from collections import Counter
from pathlib import Path

sys.path.insert(0, str(Path(__file__).resolve().parent.parent))

from pairing.engine.trf import parse_trf  # noqa: E402
from pairing.engine.trf.writer import dump_trf, tournament_from_snapshot  # noqa: E402
from scripts.generated import generate as _generate  # noqa: E402


def generate(path: Path, rng: random.Random) -> None:
    _generate(path, [
        "--seed", str(rng.randrange(1, 10**9)),
        "--players", str(rng.randint(9, 60)), "--rounds", str(rng.randint(5, 11)),
        "--draw-rate", f"{rng.uniform(0.15, 0.45):.2f}", "--forfeit-rate", f"{rng.uniform(0, 0.05):.3f}",
        "--bye-rate", f"{rng.uniform(0, 0.06):.3f}", "--withdrawal-rate", f"{rng.uniform(0, 0.02):.3f}",
        "--late-entry-rate", f"{rng.uniform(0, 0.05):.3f}", "--forbidden-pairs", "0", "--acceleration", "none",
        # the generator's later options pinned to what it did before them (no odd scores,
        # uniform ratings), so that a seed's tournaments stay those of the earlier runs
        "--odd-result-rate", "0", "--rating-step", "0",
    ])


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


def main(argv: list[str] | None = None) -> int:
    ap = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    ap.add_argument("--py4swiss", required=True, help="the py4swiss command")
    ap.add_argument("--tournaments", type=int, default=100)
    ap.add_argument("--seed", type=int, default=1)
    ap.add_argument("--keep", type=Path, help="keep the files here")
    args = ap.parse_args(argv)
    rng = random.Random(args.seed)
    work = args.keep or Path(tempfile.mkdtemp(prefix="pair-compare-"))
    work.mkdir(parents=True, exist_ok=True)
    tally = Counter()
    examples: list[str] = []
    for n in range(args.tournaments):
        path = work / f"t{n:05d}.trf"
        generate(path, rng)
        t = parse_trf(path.read_text())
        for k in range(1, t.rounds_played() + 1):
            view = work / f"t{n:05d}-r{k}.trf"
            view.write_text(for_py4swiss(dump_trf(tournament_from_snapshot(t.snapshot(k), name=path.name))))
            out = work / f"t{n:05d}-r{k}.p4"
            run = subprocess.run([args.py4swiss, "-t", str(view), "-e", "dubov", "-p", str(out)],
                                 capture_output=True, text=True, timeout=600)
            tally["rounds"] += 1
            if run.returncode or not out.exists():
                tally["py4swiss failed"] += 1
                if len(examples) < 20:
                    examples.append(f"{view.name}: py4swiss failed: {run.stderr.strip().splitlines()[-1:]}")
                continue
            lines = [line for line in out.read_text().splitlines() if line.strip()]
            theirs = pairs_of(lines)
            ours = file_round(t, k)
            if len(lines) <= 1 and ours[0]:
                tally["py4swiss found no pairing"] += 1
                if len(examples) < 40:
                    examples.append(f"{view.name}: py4swiss found no pairing; ours has {len(ours[0])} boards")
            elif theirs == ours:
                tally["identical"] += 1
                view.unlink()
                out.unlink()
            elif {frozenset(b) for b in theirs[0]} == {frozenset(b) for b in ours[0]} and theirs[1] == ours[1]:
                tally["same pairs, other colours"] += 1
                if len(examples) < 20:
                    examples.append(f"{view.name}: colours differ")
            elif theirs[1] != ours[1]:
                # the PAB differs: Article 2.1.4 counts "games played"; say how many each had
                played = {p.id: sum(1 for e in p.history[:k - 1] if e.result.is_played) for p in t.players}
                rounds_in = {p.id: sum(1 for e in p.history[:k - 1] if e.opponent is not None or e.result.is_bye)
                             for p in t.players}
                kind = ("PAB: theirs has fewer games played (2.1.4)"
                        if theirs[1] and ours[1] and played[theirs[1]] < played[ours[1]] else "PAB: other")
                tally[kind] += 1
                if len(examples) < 40:
                    examples.append(f"{view.name}: {kind}; ours {ours[1]} ({played.get(ours[1])} games, "
                                    f"{rounds_in.get(ours[1])} rounds), theirs {theirs[1]} "
                                    f"({played.get(theirs[1])} games, {rounds_in.get(theirs[1])} rounds)")
            else:
                tally["other pairs"] += 1
                if len(examples) < 40:
                    examples.append(f"{view.name}: pairs differ")
        tally["tournaments"] += 1
        if (n + 1) % 25 == 0:
            print(f"... {n + 1} tournaments, {dict(tally)}", file=sys.stderr, flush=True)
    print(dict(tally))
    for line in examples:
        print("  " + line)
    print(f"files in {work}")
    return 0


if __name__ == "__main__":
    raise SystemExit(main())
