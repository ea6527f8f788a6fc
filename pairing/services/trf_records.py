"""The TRF-2026 tournament records a report carries beyond the header lines (C.04 Annex 2,
version 2026): numbers of players (062, 072), type (092), the round dates (132, mandatory
for rating: the tournament's round schedule), the program (182), the encoded type of tournament (192), the
tie-breaks (202) and those that define the standings (212) with a ``###`` line naming the
C.07 text they follow, and the encoded time control (222); and 260 records for the
forbidden pairs.

Rounds (142), initial colour (152) and scoring (162) are written by the engine's TRF
writer from the same fields as XXR, XXC and XXS.  :func:`records` lists the others in
tag order.
"""

from __future__ import annotations

import datetime
import re

from django.utils import timezone

from ..engine import PointSystem
from ..engine.trf import DUBOV_RULES_LINE, TIEBREAK_TEXT_LINE
from ..models import AccelerationMethod, PairingSystem, Player, Round, Tournament
from ..reports.rating_change import official_rating
from .provenance import program_text


def parse_date(text: str) -> datetime.date | None:
    """A date as TRF files write it (``2026/11/27``, and the other orders programs use);
    None when empty or unreadable."""
    text = text.strip()
    if not text:
        return None
    for fmt in ("%Y/%m/%d", "%Y-%m-%d", "%Y.%m.%d", "%d.%m.%Y", "%d/%m/%Y"):
        try:
            return datetime.datetime.strptime(text, fmt).date()
        except ValueError:
            continue
    return None


# 092 in words, as most programs write it
KINDS = {
    PairingSystem.DUTCH: "Swiss system (FIDE Dutch)",
    PairingSystem.DUBOV: "Swiss system (FIDE Dubov)",
    PairingSystem.BURSTEIN: "Swiss system (FIDE Burstein)",
    PairingSystem.ROUND_ROBIN: "round robin (Berger tables)",
}


def tournament_type(t: Tournament) -> str:
    """192, from the Tournament-Type Code Table of TRF-2026 (the codes as FIDE's
    tie-break tool reads them): FIDE_DUTCH, FIDE_DUBOV or FIDE_BURSTEIN, with ``_BAKU``
    under Baku acceleration, FIDE_ROUNDROBIN or FIDE_DOUBLEROUNDROBIN for a round robin by
    FIDE's Berger tables."""
    if t.round_robin:
        return "FIDE_DOUBLEROUNDROBIN" if t.rr_cycles == 2 else "FIDE_ROUNDROBIN"
    code = {PairingSystem.DUTCH: "FIDE_DUTCH", PairingSystem.BURSTEIN: "FIDE_BURSTEIN"}.get(t.system, "FIDE_DUBOV")
    return code + "_BAKU" if t.acceleration != AccelerationMethod.NONE else code


# the types this program writes and reads back without a question (the acceleration and
# the cycles are read from their own records)
OWN_TYPES = frozenset({"FIDE_DUTCH", "FIDE_DUTCH_BAKU", "FIDE_DUBOV", "FIDE_DUBOV_BAKU", "FIDE_BURSTEIN",
                       "FIDE_BURSTEIN_BAKU", "FIDE_ROUNDROBIN",
                       "FIDE_DOUBLEROUNDROBIN", "BERGER_ROUNDROBIN", "BERGER_DOUBLEROUNDROBIN"})


def swiss_system_of(code: str) -> str | None:
    """The Swiss system a 192 code names ("dutch", "dubov", "burstein"), also bbpPairings'
    spellings FIDE_DUTCH_2025 / FIDE_DUTCH_2026 (the text in force from 1 February 2026);
    None for any other type."""
    code = code.strip().upper()
    if code.startswith("FIDE_DUTCH"):
        return PairingSystem.DUTCH
    if code.startswith("FIDE_DUBOV"):
        return PairingSystem.DUBOV
    if code.startswith("FIDE_BURSTEIN"):
        return PairingSystem.BURSTEIN
    return None

_TC = re.compile(r"^\s*(\d{1,3})\s*(?:'|’|m|min|minutes)?\s*(?:\+\s*(\d{1,3})\s*(?:\"|”|s|sec|seconds)?)?\s*$", re.I)


def round_dates(rounds: list[Round], schedule: dict[int, datetime.date] | None = None) -> str:
    """132: YY/MM/DD of each round in the file, round 1 in columns 92-99, round 2 in
    102-109 ...: the date of the tournament's schedule; for a round it does not date, the
    day the round was published (local time)."""
    schedule = schedule or {}
    line = "132" + " " * 88
    for r in rounds:
        day = schedule.get(r.number) or timezone.localtime(r.published_at or r.created).date()
        line += day.strftime("%y/%m/%d") + "  "
    return line.rstrip()


def time_control(text: str) -> str:
    """222 for the simple forms arbiters type: "90+30", "90'+30\"", "90 min + 30 s" ->
    "5400+30"; "60" -> "3600"; '' when the text is not one of them."""
    m = _TC.match(text or "")
    if not m:
        return ""
    seconds = int(m.group(1)) * 60
    return f"{seconds}+{int(m.group(2))}" if m.group(2) else str(seconds)


def records(t: Tournament, players: list[Player], rounds: list[Round], ps: PointSystem, tiebreaks: str) -> tuple[str, ...]:
    rated = sum(1 for p in players if official_rating(p) is not None)
    lines = [f"062 {len(players)}", f"072 {rated}", f"092 Individual: {KINDS[t.system]}"]
    if rounds:
        lines.append(round_dates(rounds, dict(t.schedule.values_list("number", "date"))))
    # 182: the program, its release and the system it paired with (C.04.2 1.3: declared
    # with the report); the ### Paired by lines (:mod:`.provenance`) say it round by round
    lines.append(f"182 {program_text(t.system, t.dubov_rules_1997)}")
    lines.append(f"192 {tournament_type(t)}")
    if t.dubov_rules_1997:
        # FIDE's 192 codes have no year for the Dubov system: a comment line declares the
        # rules of 1997 (docs/dubov-1997.md), read back by the checker and the import
        lines.append(DUBOV_RULES_LINE.format(year=1997))
    if tiebreaks:
        # TRF-2026 has no record for the C.07 text, which changes the values (the 2026
        # text caps the dummy opponent's score): a comment line says it, in the file for
        # rating too, and the checker and the import read it back
        lines += [TIEBREAK_TEXT_LINE.format(year=t.effective_tiebreak_rules()), f"202 {tiebreaks}",
                  f"212 PTS, {tiebreaks}"]
    if tc := time_control(t.time_control):
        lines.append(f"222 {tc}")
    return tuple(lines)


def forbidden_records(pairs, first: int, last: int) -> tuple[str, ...]:
    """TRF-2026 260 records for the forbidden pairs (starting ranks), for the rounds
    still to pair (the file keeps XXP lines for the engines that read those)."""
    if first > last:
        return ()
    return tuple(f"260 {first:3d} {last:3d} {a:4d} {b:4d}" for a, b in sorted(tuple(sorted(p)) for p in pairs))
