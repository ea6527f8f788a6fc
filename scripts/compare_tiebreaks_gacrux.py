"""Compare our tie-break values with Gacrux (TieBreakServer, the tool FIDE's technical
commission names) on generated Dubov tournaments, under the 2023/2024 and the 2026 text.

Not part of the test suite: a validation campaign whose figures go into
docs/tiebreaks.md.  Gacrux is not a dependency of the app; fetch it and give its
directory and a Python that has its requirements (networkx)::

    python scripts/compare_tiebreaks_gacrux.py --gacrux /tmp/gacrux --python /tmp/gvenv/bin/python \
        --tournaments 1000 --seed 1 [--keep DIR]

Each tournament is drawn by our generator (9-60 players, 5-11 rounds, draws, forfeits,
half-, zero- and full-point byes, withdrawals and late entries, from the seed), written as
TRF, and ranked by both programs with the same list under each text (Gacrux's ``/V2024``
and ``/V2026`` modifiers; ours ``rules=2023``/``2026``).  Every value after the last round
is compared; differences are counted per tie-break and per kind of round involved, and
the first few of each are printed for reading.
"""

from __future__ import annotations

import argparse
import random
import subprocess
import sys
import tempfile
from collections import Counter, defaultdict
from decimal import Decimal
from pathlib import Path

sys.path.insert(0, str(Path(__file__).resolve().parent.parent))

from pairing import tiebreaks as tb  # noqa: E402
from pairing.engine.model import Result, RoundEntry  # noqa: E402
from pairing.engine.trf import parse_trf  # noqa: E402
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


def generate(path: Path, rng: random.Random) -> None:
    _generate(path, [
        "--seed", str(rng.randrange(1, 10**9)),
        "--players", str(rng.randint(9, 60)), "--rounds", str(rng.randint(5, 11)),
        "--draw-rate", f"{rng.uniform(0.15, 0.45):.2f}", "--forfeit-rate", f"{rng.uniform(0, 0.06):.3f}",
        "--bye-rate", f"{rng.uniform(0, 0.08):.3f}", "--withdrawal-rate", f"{rng.uniform(0, 0.02):.3f}",
        "--late-entry-rate", f"{rng.uniform(0, 0.06):.3f}", "--tiebreaks", "BH",
    ])


def ours(path: Path, rules: int) -> dict[int, tuple]:
    t = parse_trf(path.read_text())
    played = t.rounds_played()
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
    return {pid: values for pid, values in tb.compute(data, order).items()}


def gacrux(path: Path, rules: int, gdir: Path, python: str) -> dict[int, list[str]]:
    specs = ["PTS"] + [f"{g}/{VERSIONS[rules]}" for _, g in LIST]
    out = subprocess.run(
        [python, "tiebreakchecker.py", "-i", str(path), "-s", "-d", "T", "-o", "-", "-t", *specs],
        cwd=gdir, capture_output=True, text=True, timeout=120,
    )
    if out.returncode:
        raise RuntimeError(out.stderr[-2000:])
    rows = [line.split("\t") for line in out.stdout.splitlines() if line.strip()]
    header, body = rows[0], rows[1:]
    start = header.index("PTS") + 1
    return {int(r[0]): r[start:start + len(LIST)] for r in body}


def same(mine, theirs: str) -> bool:
    if theirs in ("", "-0", "None", "null"):
        return mine == 0
    try:
        return Decimal(str(mine)) == Decimal(theirs)
    except ArithmeticError:
        return False


def kinds_of(path: Path, pid: int) -> str:
    """What is unusual in the player's own rounds (for classifying a difference)."""
    t = parse_trf(path.read_text())
    p = t.player(pid)
    codes = sorted({e.result.value for e in p.history if e.result.value not in "1=0"})
    return "".join(codes) or "games only"


def main(argv: list[str] | None = None) -> int:
    ap = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    ap.add_argument("--gacrux", type=Path, required=True)
    ap.add_argument("--python", default=sys.executable)
    ap.add_argument("--tournaments", type=int, default=1000)
    ap.add_argument("--seed", type=int, default=1)
    ap.add_argument("--keep", type=Path, help="keep the generated files here")
    ap.add_argument("--files", type=Path, help="compare on these *.trf files (e.g. made by Gacrux's "
                    "tournamentgenerator.py: their files through our tie-breaks) instead of generating")
    ap.add_argument("--show", type=int, default=3, help="examples printed per tie-break and text")
    args = ap.parse_args(argv)
    rng = random.Random(args.seed)
    work = args.keep or Path(tempfile.mkdtemp(prefix="tb-compare-"))
    work.mkdir(parents=True, exist_ok=True)
    values = Counter()
    diffs: dict[tuple[int, str], int] = Counter()
    by_kind: dict[tuple[int, str], Counter] = defaultdict(Counter)
    examples: dict[tuple[int, str], list[str]] = defaultdict(list)
    paths = sorted(args.files.glob("*.trf")) if args.files else []
    total = len(paths) if args.files else args.tournaments
    for n in range(total):
        if args.files:
            path = paths[n]
        else:
            path = work / f"t{n:05d}.trf"
            generate(path, rng)
        for rules in VERSIONS:
            mine, theirs = ours(path, rules), gacrux(path, rules, args.gacrux, args.python)
            for pid, row in theirs.items():
                for (code, _), value, their in zip(LIST, mine[pid], row, strict=True):
                    values[rules] += 1
                    if not same(value, their):
                        diffs[(rules, code)] += 1
                        by_kind[(rules, code)][kinds_of(path, pid)] += 1
                        if len(examples[(rules, code)]) < args.show:
                            examples[(rules, code)].append(f"{path.name} player {pid}: ours {value}, Gacrux {their}")
        if (n + 1) % 50 == 0:
            print(f"... {n + 1} tournaments", file=sys.stderr, flush=True)
    for rules in VERSIONS:
        total = sum(d for (r, _), d in diffs.items() if r == rules)
        print(f"\n== C.07 {rules} text: {n + 1} tournaments, {values[rules]} values, {total} differ")
        for code, _ in LIST:
            d = diffs.get((rules, code), 0)
            if d:
                kinds = ", ".join(f"{k}: {c}" for k, c in by_kind[(rules, code)].most_common(5))
                print(f"  {code:7} {d:6}   own rounds of the players concerned: {kinds}")
                for line in examples[(rules, code)]:
                    print(f"            {line}")
    print(f"\nfiles in {args.files or work}")
    return 0


if __name__ == "__main__":
    raise SystemExit(main())
