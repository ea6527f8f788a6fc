"""The Dutch reference programs, driven from Python for scripts/compare_pairings_bbp.py
and benchmarks/bench_dutch_bbp.py (not part of the app, not imported by it).

Nothing of the programs is copied here: bbpPairings (v6.0.0) is run as a binary and
Gacrux (TieBreakServer's ``pairingchecker.py -p -m dutch``) through its own modules in
one long-lived process (scripts/gacrux_worker.py); both are fetched and built outside
the repository and named on the command line.

The TRF handling is what the three programs share:

- :func:`normalise`: CR or CRLF line ends (bbpPairings writes CR) to LF, a final newline.
- :func:`cut`: the tournament as it stood before round ``k``: rounds 1..k-1 of every
  player record, each score (columns 81-84) recomputed from those rounds with the file's
  point system; a player the file does not pair in round k (a requested ``H``/``F``/``Z``
  bye, an absence, a withdrawal) is named in a TRF-2026 ``240`` record of round k, which
  all three programs read as "not to be paired" (a round-k block written ahead in the
  player record is read so by bbpPairings but counted in the score by Gacrux); ``XXR`` and ``XXC`` written, the point system as a ``162`` record
  of W/D/L/P only (bbpPairings reads ``Z`` there and Gacrux ``A``, so the zero-point bye
  and forfeit loss keep their default 0, the only value every generator used here
  gives them), ``240`` records of other rounds dropped; our engines' ``XXZ`` (absent
  next round) becomes a ``240`` and ``XXP`` (forbidden pair) a ``260`` for every round,
  and ``XXS`` goes (its values are in the 162).
- :func:`file_round`: the pairing a file records for round k (pairs with colours, PAB).
"""

from __future__ import annotations

import json
import subprocess
import sys
import time
from dataclasses import dataclass
from decimal import Decimal
from pathlib import Path

# 0-based offsets of a round block (10 columns from column 92) in a 001 record
FIRST_BLOCK = 91
BLOCK = 10

WORKER = Path(__file__).resolve().parent / "gacrux_worker.py"


@dataclass(frozen=True)
class Round:
    """One round's pairing: (white, black) pairs and the PAB (None: no PAB)."""

    pairs: frozenset[tuple[int, int]]
    bye: int | None

    def text(self) -> str:
        boards = " ".join(f"{w}-{b}" for w, b in sorted(self.pairs))
        return f"{boards} PAB {self.bye or '-'}"

    def same_pairs(self, other: Round) -> bool:
        """The same pairs and PAB, colours aside."""
        return {frozenset(p) for p in self.pairs} == {frozenset(p) for p in other.pairs} and self.bye == other.bye


def normalise(text: str) -> str:
    text = text.replace("\r\n", "\n").replace("\r", "\n")
    return text if text.endswith("\n") else text + "\n"


@dataclass(frozen=True)
class Points:
    win: Decimal = Decimal("1")
    draw: Decimal = Decimal("0.5")
    loss: Decimal = Decimal("0")
    zero: Decimal = Decimal("0")  # zero-point bye, absence and forfeit loss
    pab: Decimal | None = None  # None: as a win

    def of(self, block: str) -> Decimal:
        """Points of one round block (the programs' common reading of the codes)."""
        code = block[7:8].upper() if len(block) > 7 else " "
        opponent = block[0:4].strip()
        paired = opponent not in ("", "0000")
        if code in ("1", "W", "+", "F"):
            if code == "+" and not paired:  # "0000 - +": a PAB in the old notation
                return self.win if self.pab is None else self.pab
            return self.win
        if code == "U":
            return self.win if self.pab is None else self.pab
        if code in ("=", "D", "H"):
            return self.draw
        if code in ("0", "L"):
            return self.loss
        return self.zero

    def record(self) -> str:
        """The 162 record both programs read (W, D, L and, when it differs, P)."""
        parts = [("W", self.win), ("D", self.draw), ("L", self.loss)]
        if self.pab is not None:
            parts.append(("P", self.pab))
        return ("162  " + "".join(f"{c}{v:4.1f}    " for c, v in parts)).rstrip()

    @property
    def standard(self) -> bool:
        return (self.win, self.draw, self.loss, self.zero) == (1, Decimal("0.5"), 0, 0) and self.pab in (None, 1)


def points_of(text: str) -> Points:
    """The point system of a file: bbpPairings' BB records or a TRF-2026 162 record."""
    values: dict[str, Decimal] = {}
    for line in text.splitlines():
        tag = line[:3]
        if tag in ("BBW", "BBD", "BBL", "BBZ", "BBF", "BBU"):
            values[{"BBW": "W", "BBD": "D", "BBL": "L", "BBZ": "Z", "BBF": "Z", "BBU": "P"}[tag]] = Decimal(
                line[3:].strip())
        elif tag == "XXS":  # our engines' record: KEY=value
            for item in line[3:].split():
                key, _, value = item.partition("=")
                code = {"WW": "W", "WD": "D", "WL": "L", "ZPB": "Z", "PAB": "P"}.get(key.upper())
                if code:
                    values[code] = Decimal(value)
        elif tag == "162":
            for pos in range(5, len(line) - 4, 9):
                code = line[pos].upper()
                if code.strip():
                    values[{"A": "Z"}.get(code, code)] = Decimal(line[pos + 1:pos + 5].strip())
    return Points(win=values.get("W", Decimal("1")), draw=values.get("D", Decimal("0.5")),
                  loss=values.get("L", Decimal("0")), zero=values.get("Z", Decimal("0")), pab=values.get("P"))


def records(text: str) -> dict[int, str]:
    """Player records by starting rank."""
    return {int(line[4:8]): line for line in text.splitlines() if line.startswith("001")}


def block(line: str, k: int) -> str:
    """Round ``k``'s block of a player record (blank when the record stops earlier)."""
    return line[FIRST_BLOCK + BLOCK * (k - 1):FIRST_BLOCK + BLOCK * (k - 1) + 8].ljust(8)


def rounds_in(text: str) -> int:
    """Rounds with at least one block that pairs or byes a player."""
    last = 0
    for line in records(text).values():
        k = 1
        while FIRST_BLOCK + BLOCK * (k - 1) < len(line):
            if block(line, k).strip():
                last = max(last, k)
            k += 1
    return last


def declared_rounds(text: str) -> int | None:
    for line in text.splitlines():
        if line[:3] in ("XXR", "142"):
            return int(line[3:].split()[0])
    return None


def _not_paired(b: str) -> bool:
    """A block that says the player was not paired in that round."""
    opponent, code = b[0:4].strip(), b[7:8].upper()
    return opponent in ("", "0000") and code not in ("U", "+")


def initial_colour(text: str) -> str:
    """``white1``/``black1``: from an XXC or 152 record, else as TRF-2026 infers it (152 is
    mandatory "only if it differs from the colour of the highest ranked participant who was
    paired in the first round"): that player's colour in round 1, whatever their starting
    rank.  bbpPairings' reader infers it so too (its ``inferFirstColor`` counts effective
    pairing numbers).  Until 26 November this reversed the colour for an even starting rank,
    which gave 14 of bbpPairings' generated tournaments (player 1 absent in round 1) the
    wrong initial colour: their round 1 then looked unlike its generator's."""
    for line in text.splitlines():
        if line[:3] == "XXC":
            return "black1" if "black" in line.lower() else "white1"
        if line[:3] == "152":
            return "black1" if line[4:5].upper() == "B" else "white1"
    for _, line in sorted(records(text).items()):
        colour = block(line, 1)[5]
        if colour in "wb" and block(line, 1)[0:4].strip() not in ("", "0000"):
            return "white1" if colour == "w" else "black1"
    return "white1"


SKIPPED = ("XXR", "142", "XXC", "152", "162", "XXS", "BBW", "BBD", "BBL", "BBZ", "BBF", "BBU")


def cut(text: str, k: int, total: int | None = None) -> str:
    """The file as it stood before round ``k`` was paired (see the module's note)."""
    text = normalise(text)
    pts = points_of(text)
    total = total or declared_rounds(text) or max(rounds_in(text), k)
    colour = initial_colour(text)
    out: list[str] = []
    absent: dict[str, set[int]] = {"H": set(), "F": set(), "Z": set()}
    played_k = rounds_in(text) >= k
    for line in text.splitlines():
        tag = line[:3]
        if tag == "001":
            blocks = [block(line, i) for i in range(1, k)]
            score = sum((pts.of(b) for b in blocks), Decimal(0))
            ahead = block(line, k)
            if _not_paired(ahead) and (ahead.strip() or played_k):  # a blank block: absent if round k was paired
                code = ahead[7].upper()
                absent[code if code in "HF" else "Z"].add(int(line[4:8]))
            head = line[:FIRST_BLOCK].ljust(FIRST_BLOCK)
            head = head[:80] + f"{score:4.1f}" + head[84:]
            out.append((head + "".join(b.ljust(BLOCK) for b in blocks)).rstrip())
        elif tag == "XXZ":  # our engines' absences of the next round (bbpPairings reads no XXZ)
            absent["Z"].update(int(x) for x in line[3:].replace(",", " ").split())
        elif tag == "XXP":  # forbidden pairs: as TRF-2026 260 for every round (Gacrux reads no XXP)
            ids = [int(x) for x in line[3:].split()]
            out.append(f"260 {1:3d} {total:3d} " + " ".join(f"{i:4d}" for i in ids))
        elif tag in SKIPPED or not line.strip():
            continue
        elif tag == "240":
            if int(line[6:9]) == k:
                kind = line[4].upper()
                absent["Z" if kind not in "HF" else kind].update(int(x) for x in line[10:].split())
        else:
            out.append(line)
    for kind, ids in absent.items():
        if ids:  # TRF-2026 byes of the round to pair: all three programs read them
            out.append(f"240 {kind} {k:3d} " + " ".join(f"{i:4d}" for i in sorted(ids)))
    out.append(f"XXR {total}")
    out.append(f"XXC {colour}")
    out.append("152 " + ("W" if colour == "white1" else "B"))  # Gacrux reads only this one
    if not pts.standard:
        out.append(pts.record())
    return "\n".join(out) + "\n"


def file_round(text: str, k: int) -> Round:
    """The pairing the file records for round ``k``."""
    pairs, bye = set(), None
    for rank, line in records(normalise(text)).items():
        b = block(line, k)
        opponent, colour, code = b[0:4].strip(), b[5], b[7].upper()
        if opponent in ("", "0000"):
            if code in ("U", "+"):
                bye = rank
            continue
        if colour == "w":
            pairs.add((rank, int(opponent)))
        elif colour != "b" and rank < int(opponent):  # no colour recorded: listed lower rank first
            pairs.add((rank, int(opponent)))
    return Round(frozenset(pairs), bye)


def parse_pairs(text: str) -> Round:
    """An engine's ``-p`` output: the number of pairs, then ``white black`` lines, the
    PAB as ``id 0`` (the format of bbpPairings, JaVaFo and ours)."""
    lines = [line.split() for line in normalise(text).splitlines() if line.strip()]
    pairs, bye = set(), None
    for cells in lines[1:]:
        w, b = int(cells[0]), int(cells[1])
        if b == 0:
            bye = w
        else:
            pairs.add((w, b))
    return Round(frozenset(pairs), bye)


class NoPairing(Exception):
    """The program says the round cannot be paired."""


class OracleFailed(Exception):
    """The program crashed, refused the file or gave no answer."""


@dataclass
class Bbp:
    """bbpPairings, run once per request (it starts in a millisecond)."""

    binary: str
    timeout: float = 120

    def pair(self, path: Path) -> Round:
        out = path.with_suffix(".bbp.txt")
        try:
            run = subprocess.run([self.binary, "--dutch", str(path), "-p", str(out)], capture_output=True,
                                 text=True, timeout=self.timeout)
        except subprocess.TimeoutExpired:
            raise OracleFailed(f"bbpPairings timed out after {self.timeout:.0f} s") from None
        try:
            if run.returncode == 1:
                raise NoPairing(run.stderr.strip())
            if run.returncode or not out.exists():
                raise OracleFailed(f"bbpPairings exit {run.returncode}: {run.stderr.strip()[:200]}")
            return parse_pairs(out.read_text())
        finally:
            out.unlink(missing_ok=True)

    def generate(self, config: dict[str, object], seed: int, path: Path) -> str:
        cfg = path.with_suffix(".cfg")
        cfg.write_text("".join(f"{key}={value}\n" for key, value in config.items()))
        try:
            run = subprocess.run([self.binary, "--dutch", "-g", str(cfg), "-o", str(path), "-s", str(seed)],
                                 capture_output=True, text=True, timeout=3600)
        finally:
            cfg.unlink(missing_ok=True)
        if run.returncode or not path.exists():
            raise OracleFailed(f"bbpPairings generator exit {run.returncode}: {run.stderr.strip()[:200]}")
        return normalise(path.read_text(errors="replace"))


class Gacrux:
    """Gacrux's ``pairingchecker.py -p -m dutch``, in one worker process."""

    def __init__(self, folder: str, python: str):
        self.folder, self.python = folder, python
        self.proc: subprocess.Popen[str] | None = None

    def _ask(self, argv: list[str]) -> dict:
        if self.proc is None or self.proc.poll() is not None:
            self.proc = subprocess.Popen([self.python, str(WORKER), self.folder], stdin=subprocess.PIPE,
                                         stdout=subprocess.PIPE, text=True, bufsize=1)
        assert self.proc.stdin and self.proc.stdout
        self.proc.stdin.write(json.dumps({"argv": argv}) + "\n")
        line = self.proc.stdout.readline()
        if not line:
            self.proc = None
            raise OracleFailed("the Gacrux worker stopped")
        return json.loads(line)

    def pair(self, path: Path) -> Round:
        reply = self._ask(["pairingchecker.py", "-p", "-m", "dutch", "-i", str(path)])
        try:
            answer = json.loads(reply.get("out") or "{}")
        except json.JSONDecodeError:
            raise OracleFailed(f"Gacrux: {reply.get('err') or reply.get('out', '')[:200]}") from None
        result = answer.get("pairingResult")
        if not result or "pairs" not in result:
            errors = (answer.get("status") or {}).get("error") or [reply.get("err", "")]
            raise OracleFailed(f"Gacrux: {'; '.join(map(str, errors))[:200]}")
        expected = rounds_in(path.read_text()) + 1
        if result.get("round") not in (None, expected):  # it takes a round without games as unplayed
            raise OracleFailed(f"Gacrux pairs round {result.get('round')}, not round {expected}")
        pairs, bye = set(), None
        for w, b in result["pairs"]:
            if not b:
                bye = w
            elif not w:
                bye = b
            else:
                pairs.add((w, b))
        if not pairs and bye is None:
            raise NoPairing("Gacrux paired nobody")
        return Round(frozenset(pairs), bye)

    def close(self) -> None:
        if self.proc is not None:
            self.proc.stdin.close()  # type: ignore[union-attr]
            self.proc.wait(timeout=10)
            self.proc = None


class Ours:
    """Our engine, in-process: what ``--dutch FILE -p OUT`` does, without the command line.

    The file is read as the command line reads it (bytes, UTF-8 with replacement), parsed
    by the same reader and paired by the same function (``checker.pair_from_file``); the
    answer is the pairing itself rather than its ``-p`` text read back.  Until 26 November
    (second session) this ran the command line's ``main`` per round: its argument parser
    and the output file cost a tenth of the harness's time (docs/validation.md).  The
    command line's exit codes map as they did: no legal pairing (1) is :class:`NoPairing`,
    invalid input (3, an ``InputError``) is :class:`OracleFailed`."""

    def __init__(self, system: str = "--dutch"):
        sys.path.insert(0, str(Path(__file__).resolve().parent.parent))
        from pairing.engine.checker import InputError, pair_from_file, read  # noqa: PLC0415 - campaigns only
        from pairing.engine.model import NoLegalPairing, System  # noqa: PLC0415

        self.system = {"--dutch": System.DUTCH, "--dubov": System.DUBOV, "--burstein": System.BURSTEIN}[system]
        self.read, self.pair_from_file = read, pair_from_file
        self.errors = (InputError, NoLegalPairing)

    def pair(self, path: Path) -> Round:
        input_error, no_pairing = self.errors
        try:
            _, pairing = self.pair_from_file(self.read(str(path)), str(path), None, self.system)
        except no_pairing as exc:
            raise NoPairing(str(exc)) from None
        except input_error as exc:
            raise OracleFailed(f"ours exit 3: {str(exc)[:200]}") from None
        return Round(frozenset((b.white, b.black) for b in pairing.boards), pairing.bye)


class LiteralEnumerator:
    """tests/engine/dutch_literal.py on the file (small fields only): the independent
    reading of the rules, to be tested against bbpPairings before it judges the engine."""

    def __init__(self, max_players: int = 12):
        sys.path.insert(0, str(Path(__file__).resolve().parent.parent))
        from pairing.engine.trf import parse_trf  # noqa: PLC0415
        from tests.engine.dutch_literal import literal_pair_round  # noqa: PLC0415

        self.parse, self.enumerate, self.max_players = parse_trf, literal_pair_round, max_players

    def pair(self, path: Path) -> Round:
        from pairing.engine.model import NoLegalPairing  # noqa: PLC0415

        snapshot = self.parse(path.read_text()).snapshot()
        if len(snapshot.players) - len(snapshot.absent) > self.max_players:
            raise OracleFailed(f"more than {self.max_players} players to pair: too many to enumerate")
        try:
            pairing = self.enumerate(snapshot)
        except NoLegalPairing:
            raise NoPairing("the enumerator finds no pairing") from None
        return Round(frozenset((b.white, b.black) for b in pairing.boards), pairing.bye)


def timed(fn, *args):
    start = time.perf_counter()
    value = fn(*args)
    return value, time.perf_counter() - start
