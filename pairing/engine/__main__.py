"""Command line of the pairing engines, in the shape of the established ones.

    python -m pairing.engine --dubov|--dutch|--burstein FILE.trf -p [OUT] [--round N] [--explain]
    python -m pairing.engine --dubov|--dutch|--burstein FILE.trf -c
    python -m pairing.engine --dubov|--dutch|--burstein -g [--players N] [--rounds R] [--seed S] [...] [-o OUT.trf]
    python -m pairing.engine --dubov --rules 1997 ...      (any of the three)

``--dubov`` pairs by the FIDE Dubov system (C.04.4.1), ``--dutch`` by the FIDE Dutch
system (C.04.3, 2026 text), ``--burstein`` by the FIDE Burstein system (C.04.4.2, 2026
text; its seeding rounds by the Dutch system).

``--rules 1997`` (with ``--dubov``): the Dubov rules of 1997 (docs/dubov-1997.md), ``--rules
2025`` the text applied from 1 July 2025.  Without it a file is paired and checked by the
rules its ``### Dubov system rules (C.04.4.1): 1997 text`` line declares (2025 without
one; standard error says when the file declares 1997); given, it wins over the file's line
(with a warning when they differ).  ``-g --rules 1997`` plays every round by the rules of
1997 and writes the line.

``-p``: pair the next round (or ``--round N``) and print, or write to OUT, the number
of pairs and then one ``white black`` line per board in board order (starting ranks),
the pairing-allocated bye last as ``id 0`` (counted as a pair).  ``--explain`` adds a
readable trace of the engine's decisions (to standard output, after the pairing).

``-c`` (:mod:`.checker`): re-pair every round of the file from the rounds before it
(byes and absences as recorded in that round) and print each difference board by board;
compare the acceleration (250 records) with the group A the rules give; recompute every
player's points and rank (with the file's 202 tie-break list, or by points only, saying
the tie-breaks were not checked) and report each difference.

A file whose encoded type (192) names Baku acceleration but which has no 250 record is
paired with the acceleration the rules give (C.04.5.1, group A from the players paired
in round 1), never as a plain Swiss; standard error says so and names the group.

``-g``: write a random tournament, every round paired by this engine (``--fast``: a
plausible but not Dubov-paired history, for benchmarks), as TRF-2026 (062, 072, 092,
142, 152, 192, 202, 212, 250, with the engines' ``XXR``, ``XXC``, ``XXS``, ``XXP`` beside
them) and ranks from the 202 tie-break list; ``--trf16`` writes TRF-16 instead.  Options left out
take random values from the seed; without ``--seed`` a fresh seed is drawn and printed,
and the file's first ``###`` line is the command that repeats the run byte for byte.

``--version``: the program (``fide-pairings``), its release, the commit a built copy was made
from, and the weighted matching it uses (rustworkx, or pure Python where rustworkx is not
installed: the same pairings); ``-c`` output starts with the same line.

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
from typing import TextIO

from . import version
from .acceleration import ranges
from .checker import (
    PLACEHOLDER_RATING,  # noqa: F401 - part of the command line's names
    InputError,
    no_pairing_message,
    pair_from_file,
    read,
    run_check,
)
from .model import DubovRules, EngineError, Explanation, NoLegalPairing, Pairing, System
from .trf import TrfTournament

EXIT_OK = 0
EXIT_NO_PAIRING = 1
EXIT_USAGE = 2
EXIT_INVALID = 3
EXIT_DIFFERENCES = 4

# the names the comparison scripts and tests have used
_InputError = InputError
_pair_from_file = pair_from_file


def _warn_system(t: TrfTournament, path: str, system: System) -> None:
    """The file's encoded type (192) names the other system."""
    named = t.system()
    if named is not None and named is not system:
        print(f"{path}: warning: the file's tournament type (192) is the {named.label}; pairing it by the "
              f"{system.label} as asked", file=sys.stderr)


def _dubov_rules(t: TrfTournament, path: str, args: argparse.Namespace) -> TrfTournament:
    """The tournament as the command line pairs it: ``--rules`` wins over the file's ``###``
    line (warned when they differ); without it the file's line, said on standard error
    when it declares 1997."""
    declared = t.dubov_rules_year()
    if args.rules is None:
        if declared == 1997 and _system(args) is System.DUBOV:
            print(f"{path}: note: the file declares the Dubov rules of 1997 (its ### line): paired by them "
                  "(--rules 2025 pairs by the 2025 text)", file=sys.stderr)
        return t
    if declared is not None and declared != args.rules:
        print(f"{path}: warning: the file declares the Dubov rules of {declared} (its ### line); pairing by the "
              f"rules of {args.rules} as asked", file=sys.stderr)
    return t.with_dubov_rules(args.rules)


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


def _warn_acceleration(t: TrfTournament, path: str) -> None:
    """A 192 code naming Baku acceleration without 250 records: paired with the
    acceleration the rules give (:meth:`TrfTournament.snapshot`); say which."""
    if t.baku_coded() and not t.acceleration() and t.total_rounds is not None:
        rules = t.group_a_by_the_rules()
        print(f"{path}: warning: the encoded type (192) names Baku acceleration but the file has no 250 record: "
              f"paired with the acceleration the rules give (C.04.5.1): group A players {ranges(rules.players)} "
              f"({rules.paired} players paired in round 1, the first {rules.size} of them and everyone ranked above "
              f"the last)", file=sys.stderr)


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


def _burstein_bracket_lines(br) -> list[str]:
    """A Burstein bracket (1.8, 3.2, 4): incoming floaters, every player with their Index
    in BSN order, the pairs in the order of 4.3, the outgoing floaters, the notes."""
    out = []
    if br.moved_down:
        out.append(f"  incoming floaters: {_ids(br.moved_down)}")
    out.append(f"  residents: {_ids(br.residents)}")
    out.append("  BSN order by the Index (1.8: Buchholz, Sonneborn-Berger, then TPN):")
    for bsn, (pid, bh, sb) in enumerate(br.index, start=1):
        out.append(f"    {bsn:>3}. {pid}  Buchholz {_num(bh)}, Sonneborn-Berger {_num(sb)}")
    out.append(f"  pairs: {_ids([f'{a}-{b}' for a, b in zip(br.s1, br.t2, strict=True)])}")
    out.append(f"  outgoing floaters: {_ids(br.downfloaters)}")
    for note in br.notes:
        out.append(f"  note: {note}")
    return out


def _num(value) -> str:
    return format(value.normalize(), "f") if hasattr(value, "normalize") else str(value)


def format_explanation(expl: Explanation, round_number: int | None = None, system: System = System.DUBOV,
                       rules: DubovRules | None = None) -> str:
    """A readable trace of :class:`Explanation`: PAB (2.1), every bracket (2.2: residents,
    upfloaters and why, G1/G2, shifts, S1/T2), then the colour rule of every board (5.2).
    A round paired by other rules than the system's (Burstein's seeding rounds: Dutch)
    reads as that system's; a Dubov round paired by the rules of 1997 (``rules``) says so
    first (the articles of 2025 name the steps; the notes name the 1997 articles)."""
    out: list[str] = []
    title = f"Round {round_number}" if round_number is not None else "Round"
    out.append(f"{title}: how the pairing was made")
    if rules is not None and rules.year == 1997 and system is System.DUBOV and expl.paired_by is None:
        out.append("Paired by the Dubov rules of 1997 (docs/dubov-1997.md)")
    bye = expl.bye
    out.append("")
    system = expl.paired_by or system
    dutch = system is System.DUTCH
    burstein = system is System.BURSTEIN
    out.append("Pairing-allocated bye ([C2], [C5], 1.9.1)" if dutch else "Pairing-allocated bye (3.1)" if burstein
               else "Pairing-allocated bye (2.1)")
    who = "none" if bye.player is None else f"player {bye.player}"
    out.append(f"  {who}")
    if bye.reason:
        out.append(f"  why: {bye.criteria()}")  # names the rejected players (2.1.2) too
    if bye.eligible:
        out.append(f"  eligible: {_ids(bye.eligible)}" if dutch else
                   f"  eligible, in 3.1.3-3.1.5 order: {_ids(bye.eligible)}" if burstein else
                   f"  eligible, in 2.1.3-2.1.5 order: {_ids(bye.eligible)}")
    for n, br in enumerate(expl.brackets, start=1):
        out.append("")
        out.append(f"Bracket {n}: score {br.score}")
        if dutch:
            out.extend(_dutch_bracket_lines(br))
            continue
        if burstein:
            out.extend(_burstein_bracket_lines(br))
            continue
        if br.moved_down:  # Dubov 1997 6.4, 8 (floaters_down)
            out.append(f"  incoming floaters (8, rules of 1997): {_ids(br.moved_down)}")
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
        if br.downfloaters:
            out.append(f"  outgoing floaters (6.4, rules of 1997): {_ids(br.downfloaters)}")
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
    t = _dubov_rules(read(args.file), args.file, args)
    _warn_unsupported(t, args.file)
    _warn_system(t, args.file, _system(args))
    _warn_acceleration(t, args.file)
    round_number = args.round
    shown = round_number if round_number is not None else t.rounds_played() + 1
    try:
        snapshot, pairing = pair_from_file(t, args.file, round_number, _system(args))
    except NoLegalPairing as exc:
        print(no_pairing_message(shown, exc, _system(args)), file=sys.stderr)
        return EXIT_NO_PAIRING
    if args.pair in (None, "-"):
        _write_pairing(pairing, sys.stdout)
        if args.explain:
            sys.stdout.write("\n" + format_explanation(pairing.explanation, pairing.round_number, _system(args),
                                                        snapshot.dubov_rules))
    else:
        try:
            with open(args.pair, "w", encoding="utf-8", newline="\n") as fh:
                _write_pairing(pairing, fh)
        except OSError as exc:
            raise InputError(f"{args.pair}: cannot write the pairing: {exc.strerror or exc}") from None
        if args.explain:
            sys.stdout.write(format_explanation(pairing.explanation, pairing.round_number, _system(args),
                                                snapshot.dubov_rules))
    return EXIT_OK


def _cmd_check(args: argparse.Namespace) -> int:
    t = _dubov_rules(read(args.file), args.file, args)
    _warn_unsupported(t, args.file)
    _warn_system(t, args.file, _system(args))
    return run_check(t, args.file, _system(args))


# ---------------------------------------------------------------- -g


def _cmd_generate(args: argparse.Namespace) -> int:
    from .cli_tools import generated_text

    try:
        text, seed, drawn = generated_text(args)
    except (ValueError, EngineError) as exc:
        raise InputError(f"generator: {exc}") from None
    print(f"seed {seed}" + (" (drawn; --seed repeats this run)" if drawn else ""), file=sys.stderr)
    if args.output in (None, "-"):
        sys.stdout.write(text)
    else:
        try:
            with open(args.output, "w", encoding="utf-8", newline="\n") as fh:
                fh.write(text)
        except OSError as exc:
            raise InputError(f"{args.output}: cannot write: {exc.strerror or exc}") from None
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
    return System.DUTCH if args.dutch else System.BURSTEIN if args.burstein else System.DUBOV


class _Version(argparse.Action):
    """``--version``, computed when asked (naming the matching imports it)."""

    def __call__(self, parser, namespace, values, option_string=None):
        print(version.checker())
        parser.exit()


def build_parser(prog: str = "python -m pairing.engine") -> argparse.ArgumentParser:
    ap = argparse.ArgumentParser(
        prog=prog,
        description="FIDE Swiss pairing engines, Dubov (C.04.4.1), Dutch (C.04.3) and Burstein (C.04.4.2): pair, "
        "check or generate TRF files (TRF-2026, TRF-16).",
        epilog="Exit status: 0 ok, 1 no legal pairing, 2 usage error, 3 invalid input, 4 checker found differences.",
    )
    ap.add_argument("--version", action=_Version, nargs=0,
                    help="print the program, its release and the matching it uses, and exit")
    systems = ap.add_mutually_exclusive_group(required=True)
    systems.add_argument("--dubov", action="store_true", help="the FIDE Dubov system (C.04.4.1)")
    systems.add_argument("--dutch", action="store_true", help="the FIDE Dutch system (C.04.3, 2026 text)")
    systems.add_argument("--burstein", action="store_true",
                         help="the FIDE Burstein system (C.04.4.2, 2026 text; seeding rounds by the Dutch system)")
    ap.add_argument("--rules", type=int, choices=(1997, 2025), metavar="YEAR",
                    help="with --dubov: the Dubov rules of 1997 or of 2025 (default: as the file's ### line "
                    "declares, else 2025; docs/dubov-1997.md)")
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


def main(argv: Sequence[str] | None = None, prog: str = "python -m pairing.engine") -> int:
    ap = build_parser(prog)
    args = ap.parse_args(argv)
    if args.rules is not None and not args.dubov:
        ap.error("--rules goes with --dubov (the Dubov system's rules of 1997 or 2025)")
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
    except InputError as exc:
        print(str(exc), file=sys.stderr)
        return EXIT_INVALID
    except BrokenPipeError:  # output piped into `head` and closed: not an error of ours
        devnull = os.open(os.devnull, os.O_WRONLY)
        os.dup2(devnull, sys.stdout.fileno())
        return EXIT_OK


def _tolerant_output() -> None:
    """A character the output cannot carry (a Windows code page, a file in the locale's
    encoding) is written escaped instead of stopping the program with a trace."""
    for stream in (sys.stdout, sys.stderr):
        if hasattr(stream, "reconfigure"):
            stream.reconfigure(errors="backslashreplace")


def console() -> None:
    """The ``fide-pairings`` command of the checker's wheel and single-file program."""
    _tolerant_output()
    sys.exit(main(prog=version.DISTRIBUTION))


if __name__ == "__main__":
    _tolerant_output()
    sys.exit(main())
