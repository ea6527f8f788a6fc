"""Run the free checker as a user would, from a command, and check what its README promises.

    python3 scripts/checker_smoke.py [--players 16] [--rounds 6] [--systems dubov,dutch,burstein] -- COMMAND...

COMMAND is how the checker is started: ``/tmp/venv/bin/fide-pairings`` (the wheel, installed)
or ``python3 -I -S dist/fide-pairings-1.0.0.pyz`` (the single-file program).  In a folder of
its own, for each system: ``--version``; generate a tournament (``-g``); check it (``-c``:
exit 0, every round identical, the first line naming the checker); pair its last round again
(``-p --round``: the file's boards); the same file with one game's colours swapped (exit 4,
the board named); an unreadable file and a missing one (exit 3); no file (exit 2); and a round
that cannot be paired (exit 1).  Prints one line per step and ``N passed, N failed``; exits 1
on a failure.  Standard library only (run by CI in a clean environment, and by
tests/engine/test_checker_distribution.py).
"""

from __future__ import annotations

import argparse
import os
import subprocess
import sys
import tempfile
import time
from pathlib import Path

ROOT = Path(__file__).resolve().parents[1]


def entry(line: str, k: int) -> tuple[int, str, str]:
    """Round ``k`` of a 001 line: (opponent, colour, result)."""
    at = 91 + 10 * (k - 1)
    text = line[at:at + 8]
    return int(text[:4] or 0), text[5:6], text[7:8]


def swap_one_colour(text: str, k: int) -> tuple[str, tuple[int, int]]:
    """The file with one game of round ``k`` played with the colours the other way round."""
    lines = text.split("\n")
    by_id = {int(line[4:8]): n for n, line in enumerate(lines) if line.startswith("001")}
    for pid, n in sorted(by_id.items()):
        opp, colour, result = entry(lines[n], k)
        if opp and colour == "w" and result in "10=" and opp in by_id:
            m = by_id[opp]
            at = 91 + 10 * (k - 1) + 5
            lines[n] = lines[n][:at] + "b" + lines[n][at + 1:]
            lines[m] = lines[m][:at] + "w" + lines[m][at + 1:]
            return "\n".join(lines), (pid, opp)
    raise AssertionError(f"round {k} has no played game")


def boards_of_round(text: str, k: int) -> set[tuple[int, int]]:
    out = set()
    for line in text.split("\n"):
        if line.startswith("001"):
            opp, colour, _ = entry(line, k)
            if opp and colour == "w":
                out.add((int(line[4:8]), opp))
    return out


def no_pairing_file() -> str:
    """Two players who met in round 1 of 3: round 2 has no legal pairing."""
    rows = ((1, 2400, 2, "w", "1"), (2, 2300, 1, "b", "0"))
    lines = [f"001 {pid:4d}      {'Player ' + str(pid):<33} {rating:4d}".ljust(91) + f"{opp:4d} {c} {r}"
             for pid, rating, opp, c, r in rows]
    return "\n".join(lines) + "\nXXR 3\nXXC white1\n"


class Smoke:
    def __init__(self, command: list[str], folder: Path):
        self.command = command
        self.folder = folder
        self.passed = self.failed = 0
        self.env = {k: v for k, v in os.environ.items() if k not in ("PYTHONPATH", "DJANGO_SETTINGS_MODULE")}

    def run(self, *args: str) -> subprocess.CompletedProcess:
        return subprocess.run([*self.command, *args], cwd=self.folder, capture_output=True, text=True,
                              encoding="utf-8", env=self.env, timeout=600)

    def expect(self, what: str, done: subprocess.CompletedProcess, code: int, *needles: str) -> bool:
        text = done.stdout + done.stderr
        ok = done.returncode == code and all(n in text for n in needles)
        if ok:
            self.passed += 1
            print(f"ok    {what} (exit {done.returncode})", flush=True)
        else:
            self.failed += 1
            print(f"FAIL  {what}: exit {done.returncode}, expected {code}"
                  + (f" and {needles!r}" if needles else "") + "\n" + text[-2000:], flush=True)
        return ok

    def check(self, what: str, condition: bool, detail: str = "") -> None:
        if condition:
            self.passed += 1
            print(f"ok    {what}", flush=True)
        else:
            self.failed += 1
            print(f"FAIL  {what} {detail}", flush=True)

    def system(self, name: str, players: int, rounds: int, version: str) -> None:
        flag = f"--{name}"
        trf = f"{name}.trf"
        if not self.expect(f"{name}: generate (-g)", self.run(flag, "-g", "--players", str(players), "--rounds",
                                                                 str(rounds), "--seed", "1", "-o", trf), 0):
            return
        done = self.run(flag, trf, "-c")
        self.expect(f"{name}: check the generated file (-c)", done, 0, f"all {rounds} rounds identical")
        self.check(f"{name}: -c names the checker first", done.stdout.startswith(f"checker: {version}"),
                   repr(done.stdout[:120]))
        text = (self.folder / trf).read_text(encoding="utf-8")
        done = self.run(flag, trf, "-p", "--round", str(rounds))
        if self.expect(f"{name}: pair round {rounds} again (-p --round)", done, 0):
            lines = done.stdout.split("\n")
            pairs = {tuple(int(x) for x in line.split()) for line in lines[1:int(lines[0]) + 1]}
            self.check(f"{name}: -p gives the file's boards", boards_of_round(text, rounds) <= pairs,
                       f"{sorted(pairs)} against the file's {sorted(boards_of_round(text, rounds))}")
        wrong, (a, b) = swap_one_colour(text, rounds)
        (self.folder / f"wrong-{trf}").write_text(wrong, encoding="utf-8")
        self.expect(f"{name}: a file with one game's colours swapped (-c)", self.run(flag, f"wrong-{trf}", "-c"), 4,
                    f"round {rounds}: 1 difference", f"file {b}-{a} (colours swapped)")

    def common(self, version: str) -> None:
        done = self.run("--version")
        self.expect("--version", done, 0, version)
        (self.folder / "garbage.trf").write_bytes(b"001 xx \x00\x13 not a tournament\n")
        self.expect("an unreadable file (-c)", self.run("--dubov", "garbage.trf", "-c"), 3, "garbage.trf:1:")
        self.expect("a missing file (-c)", self.run("--dubov", "missing.trf", "-c"), 3, "cannot read the file")
        self.expect("no file (-c)", self.run("--dubov", "-c"), 2, "an input TRF file is needed")
        (self.folder / "met.trf").write_text(no_pairing_file(), encoding="utf-8")
        self.expect("a round that cannot be paired (-p)", self.run("--dubov", "met.trf", "-p"), 1,
                    "round 2 cannot be completed")


def smoke(command: list[str], systems: list[str], players: int, rounds: int, version: str) -> tuple[int, int]:
    with tempfile.TemporaryDirectory(prefix="fide-pairings-smoke-") as tmp:
        s = Smoke(command, Path(tmp))
        s.common(version)
        for name in systems:
            s.system(name, players, rounds, version)
        return s.passed, s.failed


def main() -> int:
    ap = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    ap.add_argument("--players", type=int, default=16)
    ap.add_argument("--rounds", type=int, default=6)
    ap.add_argument("--systems", default="dubov,dutch,burstein")
    ap.add_argument("--version", default="", help="the version line's start (default: fide-pairings <version>)")
    ap.add_argument("command", nargs="+")
    args = ap.parse_args()
    version = args.version
    if not version:
        sys.path.insert(0, str(ROOT))
        from pairing.engine.version import DISTRIBUTION, VERSION

        version = f"{DISTRIBUTION} {VERSION}"
    start = time.perf_counter()
    passed, failed = smoke(args.command, args.systems.split(","), args.players, args.rounds, version)
    print(f"checker smoke ({' '.join(args.command)}): {time.perf_counter() - start:.1f} s")
    print(f"{passed} passed, {failed} failed")
    return 1 if failed else 0


if __name__ == "__main__":
    sys.exit(main())
