"""Command line of the pairing engines, in the shape of the established ones.

    python -m pairing.engine --dubov|--dutch FILE.trf -p [OUT] [--round N] [--explain]
    python -m pairing.engine --dubov|--dutch FILE.trf -c
    python -m pairing.engine --dubov|--dutch -g [--players N] [--rounds R] [--seed S] [...] [-o OUT.trf]

``--dubov`` pairs by the FIDE Dubov system (C.04.4.1), ``--dutch`` by the FIDE Dutch
system (C.04.3, 2026 text).

``-p``: pair the next round (or ``--round N``) and print, or write to OUT, the number
of pairs and then one ``white black`` line per board in board order (starting ranks),
the pairing-allocated bye last as ``id 0`` (counted as a pair).  ``--explain`` adds a
readable trace of the engine's decisions (to standard output, after the pairing).

``-c``: re-pair every round of the file from the rounds before it (byes and absences
as recorded in that round) and print each difference board by board.

``-c`` also recomputes every player's points and rank (with the file's 202 tie-break
list) and reports each difference.

``-g``: write a random tournament, every round paired by this engine (``--fast``: a
plausible but not Dubov-paired history, for benchmarks), as TRF-2026 (062, 072, 092,
142, 152, 192, 202, 212, 250, with the engines' ``XXR``, ``XXC``, ``XXS``, ``XXP`` beside
them) and ranks from the 202 tie-break list; ``--trf16`` writes TRF-16 instead.  Options left out
take random values from the seed; without ``--seed`` a fresh seed is drawn and printed,
and the file's first ``###`` line is the command that repeats the run byte for byte.

Exit status: 0 success; 1 no legal pairing (Article 1.8.3; the players who cannot
be paired are named on standard error); 2 usage error; 3 invalid input (file
unreadable, malformed TRF as ``FILE:LINE:COLUMN: problem``, inconsistent data);
4 the checker found differences.
"""

from __future__ import annotations

import argparse
import os
import sys
from collections.abc import Sequence
from pathlib import Path
from typing import TextIO

from .model import (
    Colour,
    EngineError,
    Explanation,
    InvalidSnapshot,
    NoLegalPairing,
    Pairing,
    Result,
    Snapshot,
    System,
)
from .trf import TrfError, TrfTournament, parse_trf

EXIT_OK = 0
EXIT_NO_PAIRING = 1
EXIT_USAGE = 2
EXIT_INVALID = 3
EXIT_DIFFERENCES = 4

PLACEHOLDER_RATING = 1000  # only to decide whether any legal pairing exists (rating-free)


class _InputError(Exception):
    """Invalid input: the message is already the one line(s) to print."""


def _pair_round(snapshot: Snapshot) -> Pairing:
    from . import pair_round  # late import: the engine module is loaded only when pairing

    return pair_round(snapshot)


def _read(path: str) -> TrfTournament:
    try:
        text = Path(path).read_bytes().decode("utf-8", errors="replace")
    except OSError as exc:
        raise _InputError(f"{path}: cannot read the file: {exc.strerror or exc}") from None
    try:
        return parse_trf(text)
    except TrfError as exc:
        raise _InputError(
            "\n".join(f"{path}:{p.line}:{p.column}: {p.message}" for p in exc.problems)
        ) from None


def _warn_system(t: TrfTournament, path: str, system: System) -> None:
    """The file's encoded type (192) names the other system."""
    named = t.system()
    if named is not None and named is not system:
        print(f"{path}: warning: the file's tournament type (192) is the {named.label}; pairing it by the "
              f"{system.label} as asked", file=sys.stderr)


def _warn_unsupported(t: TrfTournament, path: str) -> None:
    """Lines that would change the pairing but that this engine does not apply."""
    for line in t.extra_lines:
        code = line[:3].upper()
        value = line[3:].strip().lower()
        if code == "ACC" and value not in ("", "false", "0", "no"):
            print(
                f"{path}: warning: {line.strip()!r} asks for acceleration in a form this engine does "
                "not read; write the virtual points as TRF-2026 250 records (C.04.5.1 Baku acceleration)",
                file=sys.stderr,
            )


def _missing_ratings(t: TrfTournament) -> list[int]:
    return [pid for pid, rating in t.pairing_ratings().items() if rating is None]


def _no_pairing_message(round_number: int, exc: NoLegalPairing, system: System = System.DUBOV) -> str:
    players = ", ".join(str(p) for p in exc.players) or "(not named by the engine)"
    article = "Dutch 1.9.3" if system is System.DUTCH else "Dubov 1.8.3"
    return (
        f"round {round_number} cannot be completed: there is no legal pairing ({article}, the arbiter "
        f"decides). Players who cannot be paired: {players}. Engine: {exc}"
    )


def _pair_from_file(t: TrfTournament, path: str, round_number: int | None,
                    system: System = System.DUBOV) -> tuple[Snapshot, Pairing]:
    """Snapshot and pairing, or _InputError / NoLegalPairing.

    A file without ratings is invalid input (Dubov 1.1), except that whether any legal
    pairing exists does not depend on ratings: when it does not, that is reported."""
    try:
        snapshot = t.snapshot(round_number, system=system)
    except InvalidSnapshot as exc:
        if _missing_ratings(t):
            try:
                stand_in = t.snapshot(round_number, default_rating=PLACEHOLDER_RATING, system=system)
            except InvalidSnapshot:
                raise _InputError(f"{path}: {exc}") from None
            try:
                _pair_round(stand_in)
            except NoLegalPairing:
                raise
            except EngineError:
                pass
        raise _InputError(f"{path}: {exc}") from None
    try:
        return snapshot, _pair_round(snapshot)
    except NoLegalPairing:
        raise
    except EngineError as exc:
        raise _InputError(f"{path}: {exc}") from None


def _write_pairing(pairing: Pairing, out: TextIO) -> None:
    lines = [f"{b.white} {b.black}" for b in pairing.boards]
    if pairing.bye is not None:
        lines.append(f"{pairing.bye} 0")
    out.write(f"{len(lines)}\n")
    for line in lines:
        out.write(line + "\n")


def _ids(ids: Sequence[object]) -> str:
    return " ".join(str(i) for i in ids) if ids else "-"


def _dutch_bracket_lines(br) -> list[str]:
    """A Dutch bracket (Articles 3-4): MDPs and Limbo, the remainder's subgroups and
    exchange, the pairs, the downfloaters, and the notes on the deciding criteria."""
    out = []
    if br.moved_down:
        out.append(f"  moved-down players (MDPs): {_ids(br.moved_down)}")
    out.append(f"  residents: {_ids(br.residents)}")
    if br.limbo:
        out.append(f"  Limbo (MDPs not paired here, 3.2.4): {_ids(br.limbo)}")
    if br.remainder_s1 or br.remainder_s2:
        out.append(f"  remainder S1 (3.3.3): {_ids(br.remainder_s1)}")
        out.append(f"  remainder S2: {_ids(br.remainder_s2)}")
    if br.exchanged[0]:
        out.append(f"  exchange (4.3, remainder BSNs): {_ids(br.exchanged[0])} <-> {_ids(br.exchanged[1])}")
    out.append(f"  pairs: {_ids([f'{a}-{b}' for a, b in zip(br.s1, br.t2, strict=True)])}")
    out.append(f"  downfloaters: {_ids(br.downfloaters)}")
    for note in br.notes:
        out.append(f"  note: {note}")
    return out


def format_explanation(expl: Explanation, round_number: int | None = None, system: System = System.DUBOV) -> str:
    """A readable trace of :class:`Explanation`: PAB (2.1), every bracket (2.2: residents,
    upfloaters and why, G1/G2, shifts, S1/T2), then the colour rule of every board (5.2)."""
    out: list[str] = []
    title = f"Round {round_number}" if round_number is not None else "Round"
    out.append(f"{title}: how the pairing was made")
    bye = expl.bye
    out.append("")
    dutch = system is System.DUTCH
    out.append("Pairing-allocated bye ([C2], [C5], 1.9.1)" if dutch else "Pairing-allocated bye (2.1)")
    who = "none" if bye.player is None else f"player {bye.player}"
    out.append(f"  {who}")
    if bye.reason:
        out.append(f"  why: {bye.criteria()}")  # names the rejected players (2.1.2) too
    if bye.eligible:
        out.append(f"  eligible: {_ids(bye.eligible)}" if dutch else f"  eligible, in 2.1.3-2.1.5 order: {_ids(bye.eligible)}")
    for n, br in enumerate(expl.brackets, start=1):
        out.append("")
        out.append(f"Bracket {n}: score {br.score}")
        if dutch:
            out.extend(_dutch_bracket_lines(br))
            continue
        out.append(f"  residents: {_ids(br.residents)}")
        up = f"  upfloaters: {_ids(br.upfloaters)}"
        if br.upfloater_reason:
            up += f" ({br.upfloater_reason})"
        out.append(up)
        out.append(f"  G1 (White seekers): {_ids(br.g1)}")
        out.append(f"  G2: {_ids(br.g2)}")
        if br.shifted_from_smaller or br.shifted_from_larger:
            out.append(f"  shifted from the smaller subgroup (2.2.4.1): {_ids(br.shifted_from_smaller)}")
            out.append(f"  shifted from the larger subgroup (2.2.4.2): {_ids(br.shifted_from_larger)}")
        out.append(f"  S1 (2.2.5): {_ids(br.s1)}")
        out.append(f"  T2 (2.2.6): {_ids(br.t2)}")
        for note in br.notes:
            out.append(f"  note: {note}")
    if expl.colours:
        out.append("")
        out.append("Colours (5.2)")
        for c in expl.colours:
            line = f"  {c.white}-{c.black}: rule {c.rule}"
            if c.reason:
                line += f", {c.reason}"
            out.append(line)
    return "\n".join(out) + "\n"


# ---------------------------------------------------------------- -p


def _cmd_pair(args: argparse.Namespace) -> int:
    t = _read(args.file)
    _warn_unsupported(t, args.file)
    _warn_system(t, args.file, _system(args))
    round_number = args.round
    shown = round_number if round_number is not None else t.rounds_played() + 1
    try:
        _, pairing = _pair_from_file(t, args.file, round_number, _system(args))
    except NoLegalPairing as exc:
        print(_no_pairing_message(shown, exc, _system(args)), file=sys.stderr)
        return EXIT_NO_PAIRING
    if args.pair in (None, "-"):
        _write_pairing(pairing, sys.stdout)
        if args.explain:
            sys.stdout.write("\n" + format_explanation(pairing.explanation, pairing.round_number, _system(args)))
    else:
        try:
            with open(args.pair, "w", encoding="utf-8", newline="\n") as fh:
                _write_pairing(pairing, fh)
        except OSError as exc:
            raise _InputError(f"{args.pair}: cannot write the pairing: {exc.strerror or exc}") from None
        if args.explain:
            sys.stdout.write(format_explanation(pairing.explanation, pairing.round_number, _system(args)))
    return EXIT_OK


# ---------------------------------------------------------------- -c


def _recorded_round(
    t: TrfTournament, k: int
) -> tuple[dict[frozenset[int], tuple[int, int] | None], int | None]:
    """Round k as recorded: {pair: (white, black) or None if no colours}, PAB player."""
    pairs: dict[frozenset[int], tuple[int, int] | None] = {}
    pab = None
    for p in t.players:
        if len(p.history) < k:
            continue
        e = p.history[k - 1]
        if e.result is Result.PAIRING_BYE:
            pab = p.id
        if e.opponent is None:
            continue
        key = frozenset((p.id, e.opponent))
        if e.colour is Colour.WHITE:
            pairs[key] = (p.id, e.opponent)
        elif e.colour is Colour.BLACK:
            pairs[key] = (e.opponent, p.id)
        else:
            pairs.setdefault(key, None)
    return pairs, pab


def _check_round(t: TrfTournament, path: str, k: int, system: System = System.DUBOV) -> list[str]:
    """Differences between the file's round k and our pairing of it (empty: identical)."""
    pairs, pab = _recorded_round(t, k)
    opponent: dict[int, int] = {}
    for key in pairs:
        a, b = tuple(key)
        opponent[a], opponent[b] = b, a
    try:
        _, pairing = _pair_from_file(t, path, k, system)
    except NoLegalPairing as exc:
        return [f"  the engine finds no legal pairing: {_no_pairing_message(k, exc, system)}"]
    diffs: list[str] = []
    ours: set[frozenset[int]] = set()
    for b in pairing.boards:
        key = frozenset((b.white, b.black))
        ours.add(key)
        if key in pairs:
            rec = pairs[key]
            if rec is None or rec == (b.white, b.black):
                continue
            diffs.append(
                f"  board {b.number}: engine {b.white}-{b.black}, file {rec[0]}-{rec[1]} (colours swapped)"
            )
        else:
            theirs = []
            for pid in (b.white, b.black):
                if pid in opponent:
                    rec = pairs[frozenset((pid, opponent[pid]))]
                    theirs.append(
                        f"{rec[0]}-{rec[1]}" if rec else f"{pid}-{opponent[pid]} (colours not recorded)"
                    )
                elif pid == pab:
                    theirs.append(f"{pid} bye")
                else:
                    theirs.append(f"{pid} not paired")
            diffs.append(
                f"  board {b.number}: engine {b.white}-{b.black}, file {', '.join(dict.fromkeys(theirs))}"
            )
    for key, rec in sorted(pairs.items(), key=lambda kv: sorted(kv[0])):
        if key not in ours:
            a, b = sorted(key)
            if not any(a in o or b in o for o in ours) and pairing.bye not in key:
                shown = f"{rec[0]}-{rec[1]}" if rec else f"{a}-{b}"
                diffs.append(f"  file {shown}: neither player paired by the engine")
    if pab != pairing.bye:
        diffs.append(
            f"  bye: engine {pairing.bye if pairing.bye is not None else 'none'}, file {pab if pab is not None else 'none'}"
        )
    return diffs


def _cmd_check(args: argparse.Namespace) -> int:
    t = _read(args.file)
    _warn_unsupported(t, args.file)
    _warn_system(t, args.file, _system(args))
    played = t.rounds_played()
    if played == 0:
        raise _InputError(f"{args.file}: no round has been played; nothing to check")
    if t.total_rounds is None:
        raise _InputError(
            f"{args.file}: the file does not say how many rounds the tournament has (XXR n / 142)"
        )
    different = 0
    for k in range(1, played + 1):
        diffs = _check_round(t, args.file, k, _system(args))
        if diffs:
            different += 1
            print(f"round {k}: {len(diffs)} difference{'s' if len(diffs) != 1 else ''}")
            for d in diffs:
                print(d)
        else:
            print(f"round {k}: identical")
    standings = _check_standings(t, args.file, played)
    if standings:
        print(f"standings: {len(standings)} difference{'s' if len(standings) != 1 else ''}")
        for d in standings:
            print(d)
    if different:
        print(f"{different} of {played} rounds differ")
    else:
        print(f"all {played} rounds identical")
    return EXIT_DIFFERENCES if different or standings else EXIT_OK


def _check_standings(t: TrfTournament, path: str, played: int) -> list[str]:
    """The file's points and ranks (001 columns 81-89) against a recomputation after
    ``played`` rounds with the file's tie-break list (202), by the same tie-break code
    as the web app's standings (VCL4THP Q21).  Without a 202 record only the points are
    checked.  Players tied on everything may be in any order within their shared places
    (a drawing of lots, or the chief arbiter's order, decided it)."""
    from .cli_tools import standings

    record = next((line for line in t.extra_lines if line[:3] == "202"), None)
    try:
        computed = standings(t, played, record[4:] if record is not None else None)
    except ValueError as exc:
        raise _InputError(f"{path}: the tie-break list (202) cannot be read: {exc}") from None
    diffs = []
    for p in sorted(t.players, key=lambda q: q.id):
        points, rank, shared = computed[p.id]
        if p.points is not None and p.points != points:
            diffs.append(f"  player {p.id}: points {p.points} in the file, {points} computed")
        if record is not None and p.rank is not None and rank is not None and not rank <= p.rank < rank + shared:
            where = f"{rank}" if shared == 1 else f"{rank}-{rank + shared - 1} (tied)"
            diffs.append(f"  player {p.id}: rank {p.rank} in the file, {where} computed ({record[4:].strip()})")
    return diffs


# ---------------------------------------------------------------- -g


def _cmd_generate(args: argparse.Namespace) -> int:
    from .cli_tools import generated_text

    try:
        text, seed, drawn = generated_text(args)
    except (ValueError, EngineError) as exc:
        raise _InputError(f"generator: {exc}") from None
    print(f"seed {seed}" + (" (drawn; --seed repeats this run)" if drawn else ""), file=sys.stderr)
    if args.output in (None, "-"):
        sys.stdout.write(text)
    else:
        try:
            with open(args.output, "w", encoding="utf-8", newline="\n") as fh:
                fh.write(text)
        except OSError as exc:
            raise _InputError(f"{args.output}: cannot write: {exc.strerror or exc}") from None
    return EXIT_OK


# ---------------------------------------------------------------- main


def _rate(text: str) -> float:
    try:
        value = float(text)
    except ValueError:
        raise argparse.ArgumentTypeError(f"expected a number between 0 and 1, got {text!r}") from None
    if not 0.0 <= value <= 1.0:
        raise argparse.ArgumentTypeError(f"expected a number between 0 and 1, got {text!r}")
    return value


def _ratings(text: str) -> list[int]:
    try:
        values = [int(x) for x in text.split(",") if x.strip()]
    except ValueError:
        raise argparse.ArgumentTypeError(f"expected ratings like 2400,2350,1800, got {text!r}") from None
    if not values or min(values) < 1:
        raise argparse.ArgumentTypeError(f"expected positive ratings, got {text!r}")
    return values


def _positive(text: str) -> int:
    try:
        value = int(text)
    except ValueError:
        raise argparse.ArgumentTypeError(f"expected a whole number, got {text!r}") from None
    if value < 1:
        raise argparse.ArgumentTypeError(f"expected a positive whole number, got {text!r}")
    return value


def _system(args: argparse.Namespace) -> System:
    return System.DUTCH if getattr(args, "dutch", False) else System.DUBOV


def build_parser() -> argparse.ArgumentParser:
    ap = argparse.ArgumentParser(
        prog="python -m pairing.engine",
        description="FIDE Swiss pairing engines, Dubov (C.04.4.1) and Dutch (C.04.3): pair, check or generate TRF "
        "files (TRF-2026, TRF-16).",
        epilog="Exit status: 0 ok, 1 no legal pairing, 2 usage error, 3 invalid input, 4 checker found differences.",
    )
    systems = ap.add_mutually_exclusive_group(required=True)
    systems.add_argument("--dubov", action="store_true", help="the FIDE Dubov system (C.04.4.1)")
    systems.add_argument("--dutch", action="store_true", help="the FIDE Dutch system (C.04.3, 2026 text)")
    ap.add_argument("file", nargs="?", help="TRF-2026 or TRF-16 input file (for -p and -c)")
    mode = ap.add_mutually_exclusive_group(required=True)
    mode.add_argument(
        "-p",
        dest="pair",
        nargs="?",
        const="-",
        metavar="OUT",
        help="pair the next round; write to OUT (default stdout)",
    )
    mode.add_argument(
        "-c", dest="check", action="store_true", help="re-pair every round and report differences"
    )
    mode.add_argument("-g", dest="generate", action="store_true", help="generate a random tournament")
    ap.add_argument("--round", type=_positive, help="with -p: the round to pair (default: the next one)")
    ap.add_argument("--explain", action="store_true", help="with -p: print the engine's reasoning")
    from .cli_tools import add_generator_arguments

    add_generator_arguments(ap, _rate, _positive, _ratings)
    return ap


def main(argv: Sequence[str] | None = None) -> int:
    ap = build_parser()
    args = ap.parse_args(argv)
    if args.generate:
        if args.file is not None:
            ap.error("-g takes no input file")
        if args.fixed and ((args.players is None and not args.ratings) or args.rounds is None):
            ap.error("-g --fixed needs --players (or --ratings) and --rounds")
    else:
        if args.file is None:
            ap.error("an input TRF file is needed with -p and -c")
        if args.round is not None and not args.pair:
            ap.error("--round goes with -p")
    try:
        if args.generate:
            return _cmd_generate(args)
        if args.check:
            return _cmd_check(args)
        return _cmd_pair(args)
    except _InputError as exc:
        print(str(exc), file=sys.stderr)
        return EXIT_INVALID
    except BrokenPipeError:  # output piped into `head` and closed: not an error of ours
        devnull = os.open(os.devnull, os.O_WRONLY)
        os.dup2(devnull, sys.stdout.fileno())
        return EXIT_OK


if __name__ == "__main__":
    sys.exit(main())
