"""Who paired each round: the program and release (``Round.paired_by``, ``Round.program``),
written when a round is made and read back by the rating report, whose ``### Paired by``
lines name them (TRF-2026's 182 names one program for the whole file)."""

from __future__ import annotations

from collections.abc import Iterable

from ..engine import version
from ..engine.acceleration import ranges
from ..engine.trf import PAIRED_BY_LINE
from ..models import PairedBy, PairingSystem, Round

_SYSTEMS = {
    PairingSystem.DUTCH: "FIDE Dutch system, C.04.3",
    PairingSystem.DUBOV: "FIDE Dubov system, C.04.4.1",
    PairingSystem.BURSTEIN: "FIDE Burstein system, C.04.4.2",
    PairingSystem.ROUND_ROBIN: "round robin, C.05 Annex 1",
}
_NOT_KNOWN = "not known"
_FIELD = Round._meta.get_field("program").max_length


def program_text(system: str, rules_1997: bool = False) -> str:
    """``Dubov arbiter 1.0.0 (FIDE Dubov system, C.04.4.1)``: this program, its release and
    the system it pairs with (the 182 record, and a round paired here); ``rules_1997``: the
    Dubov rules of 1997 (``..., C.04.4.1, rules of 1997)``)."""
    return f"{version.program()} ({_SYSTEMS[PairingSystem(system)]}{', rules of 1997' if rules_1997 else ''})"


def mark(rnd: Round, paired_by: PairedBy, program: str) -> None:
    """Record how ``rnd`` was paired (the row and the object)."""
    program = program[:_FIELD]
    Round.objects.filter(pk=rnd.pk).update(paired_by=paired_by, program=program)
    rnd.paired_by, rnd.program = paired_by, program


def imported_program(claimed: str) -> str:
    """What an imported round keeps of the ``### Paired by`` text (or the 182 record) its file
    gives: the program the file says paired it ('' when it does not say)."""
    claimed = claimed.strip()
    return "" if claimed.startswith(_NOT_KNOWN) or claimed.startswith("not recorded") else claimed


def describe(paired_by: str, program: str) -> str:
    """The ``### Paired by`` text of a round: the program and release, as this program
    recorded it, or for an imported round as its file said (an export imported again
    reads the same)."""
    if paired_by in (PairedBy.ENGINE, PairedBy.BERGER):
        return program or version.program()
    if paired_by == PairedBy.HAND:
        return f"hand, in {program or version.program()} (a manual-pairing session; differs from the engine's pairing)"
    if paired_by == PairedBy.IMPORT:
        return program or f"{_NOT_KNOWN} (imported from a TRF file that does not say)"
    return f"not recorded (paired before {version.PROGRAM} recorded it)"


def report_lines(rounds: Iterable[Round]) -> tuple[str, ...]:
    """One ``### Paired by: <who>: rounds 1-4, 6`` line per way the rounds were paired, in
    the order of their first round."""
    groups: dict[str, list[int]] = {}
    for r in sorted(rounds, key=lambda r: r.number):
        groups.setdefault(describe(r.paired_by, r.program), []).append(r.number)
    return tuple(f"{PAIRED_BY_LINE}{who}: round{'s' if len(numbers) > 1 else ''} {ranges(numbers)}"
                 for who, numbers in groups.items())
