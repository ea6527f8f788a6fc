"""What a TRF import does with the file, said before and after it writes (VCL4THP
Q47-50): the version detected (TRF-06, TRF-16, TRF-2026), every record taken, every
record left out and why, every code converted and every default used where the file
says nothing.  Pure reading: nothing here writes.

:func:`review` returns two lists.  ``changes`` are the adjustments that alter or drop
something the file says (a record the app cannot keep, a code converted, a value the
tournament keeps instead of the file's, a default used for a missing record): the import
asks about them at Level 3 before it writes, together with its other questions.
``notes`` say what was read and detected; they are shown after the import and kept in
the audit trail.
"""

from __future__ import annotations

import re
from dataclasses import dataclass, field

from ..engine import Result
from ..models import Tournament

# records the import takes (what for), by TRF code
_TAKEN = {
    "001": "players and their rounds",
    "XXR": "number of rounds", "142": "number of rounds", "TNR": "number of rounds",
    "XXC": "initial colour", "152": "initial colour",
    "XXS": "point system", "162": "point system",
    "XXZ": "players absent in the next round", "BYE": "players absent in the next round",
    "XXP": "forbidden pairs", "FOR": "forbidden pairs",
    "202": "tie-break list",
    "240": "requested byes and withdrawals",
    "250": "acceleration",
    "260": "forbidden pairs",
    "092": "type of tournament (round robin or Swiss)",
    "NRS": "national ratings and national ids",
}
# records the tournament recomputes or that carry nothing to keep
_RECOMPUTED = {
    "062": "the number of players, counted again",
    "072": "the number of rated players, counted again",
    "082": "the number of teams (an individual tournament has none)",
    "132": "the round dates: the rounds imported are dated by the import, later ones when published",
    "182": "the program that wrote the file",
    "212": "the standings' definition: points, then the tie-break list (202)",
    "222": "the encoded time control (the settings' time control is kept)",
}
_TRF26_ONLY = {"062", "072", "082", "092", "132", "142", "152", "162", "172", "182", "192", "202", "212", "222",
               "240", "250", "260"}
_TRF16_ONLY = {"XXR", "XXC", "XXS", "XXP", "XXZ"}


@dataclass
class Review:
    version: str
    changes: list[str] = field(default_factory=list)
    notes: list[str] = field(default_factory=list)


_NRS = re.compile(r"[A-Z]{3} ( {3}\d| {2}\d{2}| \d{3}|\d{4})(\s|$)")  # federation, starting rank
_ALPHA_CODES = {"XXR", "XXC", "XXS", "XXP", "XXZ", "BYE", "FOR", "TNR", "ACC"}


def is_nrs(line: str) -> bool:
    """A TRF-2026 national rating (NRS) record: a federation, then a starting rank."""
    return bool(_NRS.match(line)) and line[:3] not in _ALPHA_CODES


def nrs_records(text: str) -> list[tuple[int, int | None, str]]:
    """(starting rank, national rating, national id) of each NRS record."""
    out = []
    for raw in text.splitlines():
        if is_nrs(raw):
            rating = raw[48:52].strip()
            out.append((int(raw[4:8]), int(rating) if rating.isdigit() else None, raw[57:68].strip()))
    return out


def _codes(text: str) -> dict[str, list[int]]:
    found: dict[str, list[int]] = {}
    for n, raw in enumerate(text.replace("\r\n", "\n").replace("\r", "\n").split("\n"), start=1):
        line = raw.rstrip()
        if not line or line.startswith("###"):
            continue
        if is_nrs(line):
            code = "NRS"
        else:
            code = line[:3].upper() if line[:3].upper().startswith("XX") else line[:3]
        found.setdefault(code, []).append(n)
    return found


def version_of(text: str, data) -> tuple[str, str]:
    """(version, why): TRF-2026 when it has a record only that version defines or a
    ``?`` result; TRF-16 with the engines' XX records or the byes TRF-16 introduced
    (H, F, U, Z); otherwise TRF-06."""
    codes = set(_codes(text))
    new = sorted(codes & _TRF26_ONLY)
    if new:
        return "TRF-2026", "records " + ", ".join(new)
    if any(e.result is Result.ADJOURNED for p in data.players for e in p.history) and not data.unknown_results:
        return "TRF-2026", "a '?' result"
    old16 = sorted(codes & _TRF16_ONLY)
    if old16:
        return "TRF-16", "records " + ", ".join(old16)
    bye_codes = {"H", "F", "U", "Z"}
    for line in text.splitlines():
        if line.startswith("001") and any(line[98 + 10 * k: 99 + 10 * k] in bye_codes for k in range(30)):
            return "TRF-16", "byes written H, F, U or Z"
    return "TRF-06", "no record or bye code of a later version"


def review(text: str, data, t: Tournament) -> Review:
    """Every adjustment the import of ``data`` (parsed from ``text``) into ``t`` makes."""
    version, why = version_of(text, data)
    r = Review(version)
    r.notes.append(f"File version: {version} ({why}).")
    codes = _codes(text)
    taken = sorted({_TAKEN[c] for c in codes if c in _TAKEN})
    if taken:
        r.notes.append("Taken from the file: " + "; ".join(taken) + ".")
    # the tournament's own description: taken where the tournament has none
    for code, attr, label, ours in (("022", "city", "place", "place"), ("032", "federation", "federation", "federation"),
                                    ("042", "start_date", "start date", "start_date"),
                                    ("052", "end_date", "end date", "end_date"),
                                    ("122", "time_control", "time control", "time_control")):
        value = getattr(data, attr, "").strip()
        if not value:
            continue
        current = getattr(t, ours)
        if current in (None, ""):
            r.notes.append(f"{label.capitalize()} read from the file ({code}): {value}.")
        elif str(current) != value:
            r.changes.append(f"{label.capitalize()} in the file ({code}) is {value!r}; the tournament keeps its own "
                             f"{label}, {current}.")
    if data.name.strip() and data.name.strip() != t.name:
        r.notes.append(f"The file's name (012) is {data.name.strip()!r}; the tournament keeps its name, {t.name!r}.")
    if data.chief_arbiter.strip() or data.deputies:
        if t.chief_arbiter or t.deputy_arbiters:
            r.notes.append("Arbiters (102, 112) not taken: the tournament names its own in the settings.")
        else:
            r.notes.append("Arbiters read from the file (102, 112) for the rating report: "
                           + "; ".join([data.chief_arbiter.strip(), *data.deputies]) + ".")
    for code, why_dropped in _RECOMPUTED.items():
        if code in codes:
            r.notes.append(f"Record {code} not taken: {why_dropped}.")
    if "172" in codes:
        r.notes.append("The tournament-rating method (172) is not taken; the settings' method applies "
                       f"({t.get_rating_method_display()}).")
    if "192" in codes:
        r.changes.append("Record 192 (encoded tournament type) is not taken; the pairing system is FIDE Dubov.")
    known = set(_TAKEN) | set(_RECOMPUTED) | {"012", "022", "032", "042", "052", "102", "112", "122", "172", "192",
                                               "NRS"}
    for code, lines in sorted(codes.items()):
        if code not in known:
            where = ", ".join(map(str, lines[:5])) + (" …" if len(lines) > 5 else "")
            r.changes.append(f"Record {code!r} (line{'s' if len(lines) > 1 else ''} {where}) is not a record this "
                             "program reads: left out.")
    # defaults used for what the file does not say
    if not any(c in codes for c in ("XXR", "142", "TNR")):
        r.changes.append(f"The file does not give the number of rounds (XXR/142): the tournament's {t.rounds} "
                         "rounds are kept.")
    if not any(c in codes for c in ("XXS", "162")):
        r.notes.append("No point system in the file (XXS/162): win 1, draw ½, loss 0, byes as FIDE's default.")
    if "202" not in codes:
        r.notes.append(f"No tie-break list in the file (202): the tournament's list is kept ({t.tiebreaks or 'none'}).")
    if not any(c in codes for c in ("XXC", "152")) and not data.rounds_played():
        r.notes.append("No initial colour in the file (XXC/152): the tournament's setting applies.")
    # codes converted
    old_byes = sum(1 for line in text.splitlines() if line.startswith("001")
                   for k in range(30) if re.fullmatch(r"0000 - [+-]", line[91 + 10 * k: 99 + 10 * k]))
    if old_byes:
        r.changes.append(f"{old_byes} byes written the TRF-06 way ('0000 - +' / '0000 - -') are stored as "
                         "pairing-allocated byes (U) and absences (Z).")
    unrated = [p for p in data.players if not p.rating]
    if unrated:
        r.notes.append(f"{len(unrated)} player{'s' if len(unrated) > 1 else ''} without a rating "
                         "(" + ", ".join(p.name.strip() for p in unrated[:5]) + (" …" if len(unrated) > 5 else "")
                       + ") get the provisional rating the import gives, marked unrated.")
    long_names = [p for p in data.players if len(p.name.strip()) > 33]
    if long_names:
        r.changes.append(f"{len(long_names)} name{'s' if len(long_names) > 1 else ''} longer than 33 characters "
                         "cut to 33.")
    if data.absent_next:
        r.notes.append(f"{len(data.absent_next)} player(s) absent in the next round (XXZ) stored as zero-point byes.")
    return r
