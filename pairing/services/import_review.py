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

from django.utils.translation import gettext as _
from django.utils.translation import gettext_lazy, ngettext

from ..engine import Result
from ..engine.trf import is_nrs, nrs_fields
from ..models import SYSTEM_LABELS, Player, Tournament
from ..warning_levels import WarningGroup
from . import trf_records
from .integrity import Pairs

# records the import takes (what for), by TRF code
_TAKEN = {
    "001": gettext_lazy("players and their rounds"),
    "XXR": gettext_lazy("number of rounds"), "142": gettext_lazy("number of rounds"), "TNR": gettext_lazy("number of rounds"),
    "XXC": gettext_lazy("initial colour"), "152": gettext_lazy("initial colour"),
    "XXS": gettext_lazy("point system"), "162": gettext_lazy("point system"),
    "XXZ": gettext_lazy("players absent in the next round"), "BYE": gettext_lazy("players absent in the next round"),
    "XXP": gettext_lazy("forbidden pairs"), "FOR": gettext_lazy("forbidden pairs"),
    "202": gettext_lazy("tie-break list"),
    "182": gettext_lazy("the program that paired the rounds (kept with each imported round)"),
    "240": gettext_lazy("requested byes and withdrawals"),
    "250": gettext_lazy("acceleration"),
    "260": gettext_lazy("forbidden pairs"),
    "092": gettext_lazy("type of tournament (round robin or Swiss)"),
    "XXE": gettext_lazy("late entries (the round each entered in)"),
    "132": gettext_lazy("the round dates, into the round schedule"),
    "NRS": gettext_lazy("national ratings and national ids"),
}
# records the tournament recomputes or that carry nothing to keep
_RECOMPUTED = {
    "062": gettext_lazy("the number of players, counted again"),
    "072": gettext_lazy("the number of rated players, counted again"),
    "082": gettext_lazy("the number of teams (an individual tournament has none)"),
    "212": gettext_lazy("the standings' definition: points, then the tie-break list (202)"),
    "222": gettext_lazy("the encoded time control (the settings' time control is kept)"),
}
_TRF26_ONLY = {"062", "072", "082", "092", "132", "142", "152", "162", "172", "182", "192", "202", "212", "222",
               "240", "250", "260"}
_TRF16_ONLY = {"XXR", "XXC", "XXS", "XXP", "XXZ", "XXE"}
_TRF16_RESULTS = {"H", "F", "U", "Z", "W", "D", "L"}  # result codes TRF-06 did not define


@dataclass
class Review:
    version: str
    changes: list[str] = field(default_factory=list)
    notes: list[str] = field(default_factory=list)


def nrs_records(text: str) -> list[tuple[int, int | None, str]]:
    """(starting rank, national rating, national id) of each NRS record."""
    return [nrs_fields(raw) for raw in text.splitlines() if is_nrs(raw)]


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
    """(version, why), by the records the file holds: TRF-2026 when it has a record only
    that version defines or a ``?`` result; TRF-16 with the engines' XX records of the
    TRF-16 years; otherwise TRF-06, whose records (001, 012-132) every later version
    keeps.  The result codes TRF-16 added (H, F, U, Z byes; W, D, L games under one move)
    do not make a file TRF-16 by themselves (VCL4THP Q48): TRF-06 programs wrote them
    too, and TRF-16 and TRF-2026 read them alike; a TRF-06 file that uses them is named
    with the codes found."""
    codes = set(_codes(text))
    new = sorted(codes & _TRF26_ONLY)
    if new:
        return "TRF-2026", _("records %(codes)s") % {"codes": ", ".join(new)}
    if any(e.result is Result.ADJOURNED for p in data.players for e in p.history) and not data.unknown_results:
        return "TRF-2026", _("a '?' result")
    old16 = sorted(codes & _TRF16_ONLY)
    if old16:
        return "TRF-16", _("records %(codes)s") % {"codes": ", ".join(old16)}
    later = sorted({line[98 + 10 * k].upper() for line in text.splitlines() if line.startswith("001")
                    for k in range(30) if line[98 + 10 * k: 99 + 10 * k].upper() in _TRF16_RESULTS})
    if later:
        return "TRF-06", _("only records TRF-06 defines (%(records)s); results also written with the codes TRF-16 "
                           "added (%(codes)s), read as TRF-16 defines them") % {
            "records": ", ".join(sorted(codes)), "codes": ", ".join(later)}
    return "TRF-06", _("no record or result code of a later version")


def is_round_robin_file(data) -> bool:
    """The file's type says round robin: 092 in words (as this program writes it, and as
    most do) or 192 coded (FIDE_ROUNDROBIN, BERGER_DOUBLEROUNDROBIN ...)."""
    kind = next((line[3:].strip().lower() for line in data.extra_lines if line[:3] == "092"), "")
    coded = next((line[3:].strip().upper() for line in data.extra_lines if line[:3] == "192"), "")
    return "round robin" in kind or "round-robin" in kind or "ROUNDROBIN" in coded


def review(text: str, data, t: Tournament) -> Review:
    """Every adjustment the import of ``data`` (parsed from ``text``) into ``t`` makes."""
    version, why = version_of(text, data)
    r = Review(version)
    r.notes.append(_("File version: %(version)s (%(why)s).") % {"version": version, "why": why})
    codes = _codes(text)
    taken = sorted({str(_TAKEN[c]) for c in codes if c in _TAKEN})
    if taken:
        r.notes.append(_("Taken from the file: %(what)s.") % {"what": "; ".join(taken)})
    # the tournament's own description: taken where the tournament has none
    for code, attr, label, ours in (("022", "city", _("place"), "place"), ("032", "federation", _("federation"), "federation"),
                                    ("042", "start_date", _("start date"), "start_date"),
                                    ("052", "end_date", _("end date"), "end_date"),
                                    ("122", "time_control", _("time control"), "time_control")):
        value = getattr(data, attr, "").strip()
        if not value:
            continue
        current = getattr(t, ours)
        if ours in ("start_date", "end_date") and current is not None and trf_records.parse_date(value) == current:
            continue  # the same day, written the TRF way
        if current in (None, ""):
            r.notes.append(_("%(what)s read from the file (%(code)s): %(value)s.") % {"what": label.capitalize(), "code": code, "value": value})
        elif str(current) != value:
            r.changes.append(_("%(what)s in the file (%(code)s) is %(value)r; the tournament keeps its own %(label)s, "
                               "%(current)s.") % {"what": label.capitalize(), "code": code, "value": value, "label": label,
                                                  "current": current})
    if data.name.strip() and data.name.strip() != t.name:
        r.notes.append(_("The file's name (012) is %(file)r; the tournament keeps its name, %(ours)r.") % {"file": data.name.strip(), "ours": t.name})
    if data.chief_arbiter.strip() or data.deputies:
        if t.chief_arbiter or t.deputy_arbiters:
            r.notes.append(_("Arbiters (102, 112) not taken: the tournament names its own in the settings."))
        else:
            r.notes.append(_("Arbiters read from the file (102, 112) for the rating report: %(names)s.") % {
                "names": "; ".join([data.chief_arbiter.strip(), *data.deputies])})
    for code, why_dropped in _RECOMPUTED.items():
        if code in codes:
            r.notes.append(_("Record %(code)s not taken: %(why)s.") % {"code": code, "why": why_dropped})
    if "172" in codes or "NRS" in codes:
        r.notes.append(_("Each player gets the rating the file's pairing used: the FIDE rating, or the national rating "
                         "record's as the method in 172 says (%(file)s); an unrated player's record without a national "
                         "id is the provisional rating. The tournament keeps its own method (%(method)s) for ratings "
                         "looked up later.")
                       % {"file": data.rating_method() or "FIDON", "method": t.get_rating_method_display()})
    if "192" in codes:
        kind = next(line[4:].strip() for line in text.splitlines() if line.startswith("192"))
        system = trf_records.swiss_system_of(kind)
        if is_round_robin_file(data) or system is None:
            if kind.upper() in trf_records.OWN_TYPES:
                r.notes.append(_("Tournament type (192): %(kind)s.") % {"kind": kind})
            else:
                ours = "FIDE_ROUNDROBIN" if is_round_robin_file(data) else trf_records.tournament_type(t)
                r.changes.append(_("The file's tournament type (192) is %(kind)r; this program pairs it as %(ours)s: "
                                   "the file's rounds are kept as played, the next ones are paired as %(ours)s.")
                                 % {"kind": kind, "ours": ours})
        else:
            if kind.upper() in trf_records.OWN_TYPES:
                r.notes.append(_("Tournament type (192): %(kind)s.") % {"kind": kind})
            elif system == "dutch":  # bbpPairings' FIDE_DUTCH_2025 / FIDE_DUTCH_2026
                r.notes.append(_("Tournament type (192): %(kind)s, read as the FIDE Dutch system of 1 February 2026.")
                               % {"kind": kind})
            else:  # another spelling of a Dubov or Burstein code
                r.notes.append(_("Tournament type (192): %(kind)s, read as the %(file)s.")
                               % {"kind": kind, "file": SYSTEM_LABELS[system]})
            if system != t.system:
                r.changes.append(_("The tournament was created for the %(ours)s; the file's type (192, %(kind)s) makes it "
                                   "the %(file)s: its rounds are checked, and the next ones paired, by that system.")
                                 % {"ours": t.system_label, "kind": kind, "file": SYSTEM_LABELS[system]})
    elif not is_round_robin_file(data) and not t.round_robin:
        r.notes.append(_("No tournament type in the file (192): its rounds are checked, and the next ones paired, by the "
                         "tournament's system, the %(system)s.") % {"system": t.system_label})
    known = set(_TAKEN) | set(_RECOMPUTED) | {"012", "022", "032", "042", "052", "102", "112", "122", "172", "192",
                                               "NRS"}
    for code, lines in sorted(codes.items()):
        if code not in known:
            where = ", ".join(map(str, lines[:5])) + (" …" if len(lines) > 5 else "")
            r.changes.append(ngettext(
                "Record %(code)r (line %(where)s) is not a record this program reads: left out.",
                "Record %(code)r (lines %(where)s) is not a record this program reads: left out.", len(lines),
            ) % {"code": code, "where": where})
    # defaults used for what the file does not say
    if not any(c in codes for c in ("XXR", "142", "TNR")):
        r.changes.append(_("The file does not give the number of rounds (XXR/142): the tournament's %(n)s rounds "
                           "are kept.") % {"n": t.rounds})
    if not any(c in codes for c in ("XXS", "162")):
        r.notes.append(_("No point system in the file (XXS/162): win 1, draw ½, loss 0, byes as FIDE's default."))
    if data.paired_by():
        r.notes.append(_("Who paired each round, as the file's ### Paired by lines say, is kept with the round (the "
                         "rating report says it again)."))
    if data.tiebreak_text() is not None:
        r.notes.append(_("The tie-breaks follow the %(year)s text of C.07, as the file's ### line says; the tournament "
                         "keeps it.") % {"year": data.tiebreak_text()})
    _dubov_rules_note(r, data, t, trf_records.swiss_system_of(
        next((line[3:].strip() for line in data.extra_lines if line[:3] == "192"), "")) or t.system)
    if "202" not in codes:
        r.notes.append(_("No tie-break list in the file (202): the tournament's list is kept (%(list)s).") % {"list": t.tiebreaks or _("none")})
    if not any(c in codes for c in ("XXC", "152")):
        r.notes.append(_initial_colour_note(data))
    # codes converted
    old_byes = sum(1 for line in text.splitlines() if line.startswith("001")
                   for k in range(30) if re.fullmatch(r"0000 - [+-]", line[91 + 10 * k: 99 + 10 * k]))
    if old_byes:
        r.changes.append(_("%(n)s byes written the TRF-06 way ('0000 - +' / '0000 - -') are stored as "
                           "pairing-allocated byes (U) and absences (Z).") % {"n": old_byes})
    used = data.pairing_ratings()
    unrated = [p for p in data.players if used[p.id] is None]
    if unrated:
        names = ", ".join(p.name.strip() for p in unrated[:5]) + (" …" if len(unrated) > 5 else "")
        r.notes.append(ngettext(
            "%(n)s player without a rating (%(names)s) gets the provisional rating the import gives, marked unrated.",
            "%(n)s players without a rating (%(names)s) get the provisional rating the import gives, marked unrated.",
            len(unrated)) % {"n": len(unrated), "names": names})
    long_names = [p for p in data.players if len(p.name.strip()) > 33]
    if long_names:
        r.changes.append(ngettext("%(n)s name longer than 33 characters cut to 33.",
                                  "%(n)s names longer than 33 characters cut to 33.", len(long_names)) % {"n": len(long_names)})
    if data.absent_next:
        r.notes.append(ngettext(
            "%(n)s player absent in the next round (XXZ) stored as a zero-point bye.",
            "%(n)s players absent in the next round (XXZ) stored as zero-point byes.", len(data.absent_next),
        ) % {"n": len(data.absent_next)})
    return r


def _dubov_rules_note(r, data, t, system: str) -> None:
    """Which Dubov rules the import keeps: the ones the file's ### line declares (the
    tournament takes them), else the tournament's own (a file from another program, which
    has no such line, keeps the rules the arbiter chose when creating the tournament)."""
    if system != "dubov" or is_round_robin_file(data):
        return
    year = data.dubov_rules_year()
    if year is not None:
        if year != t.dubov_rules:
            r.changes.append(_("The file declares the Dubov rules of %(year)s (its ### line); the tournament was created "
                               "with the rules of %(ours)s: its rounds are checked, and the next ones paired, by the "
                               "rules of %(year)s.") % {"year": year, "ours": t.dubov_rules})
        else:
            r.notes.append(_("Dubov rules of %(year)s, as the file's ### line declares.") % {"year": year})
    elif t.dubov_rules == 1997:
        r.notes.append(_("The file does not say which Dubov rules paired it (no ### line, as in files from other "
                         "programs): the tournament's rules of 1997 are kept."))


def _initial_colour_note(data) -> str:
    """What the import does without an initial colour in the file (VCL4THP Q48): before
    round 1 the tournament's setting; after it, the colour of the highest-ranked player
    paired in round 1, as TRF-2026 (152) says."""
    first = next((p for p in sorted(data.players, key=lambda q: q.id)
                  if p.history and p.history[0].opponent is not None and p.history[0].colour is not None), None)
    if first is None:
        return _("No initial colour in the file (XXC/152): the tournament's setting applies.")
    colour = _("White") if first.history[0].colour.value == "w" else _("Black")
    return _("No initial colour in the file (XXC/152): %(colour)s, the colour of player %(id)s in round 1, the "
             "highest-ranked player paired in it (as TRF-2026's 152 says).") % {"colour": colour, "id": first.id}


# The import's Level-3 page (issue 32, item 11): the findings by kind, most serious first,
# each kind with what it means for the arbiter, one line per round (or record).
def findings(
    rounds: list[tuple[int, Pairs | None, Pairs]], players: dict[int, Player],
    symbols: list[str], changes: list[str],
) -> list[WarningGroup]:
    """``rounds``: (number, the engine's pairing or None when it finds none, the file's)
    of each imported round that differs; ``symbols``: the unknown result symbols read
    as adjourned games; ``changes``: the review's adjustments (:func:`review`)."""

    def who(pk: int) -> str:
        p = players.get(pk)
        return _("%(name)s (No %(tpn)s)") % {"name": p.name, "tpn": p.tpn} if p else str(pk)

    def boards(pairs) -> str:
        return ", ".join(f"{who(w)} – {who(b)}" for w, b in pairs)

    no_legal, opponents, colours = [], [], []
    for number, engine_pairs, file_pairs in sorted(rounds, key=lambda r: r[0]):
        head = _("Round %(n)s:") % {"n": number}
        if engine_pairs is None:
            no_legal.append(head + " " + _("the engine finds no legal pairing; the file pairs %(boards)s.")
                            % {"boards": boards(file_pairs.boards) or _("no boards")})
            continue
        ours = {frozenset(b): b for b in engine_pairs.boards}
        theirs = {frozenset(b): b for b in file_pairs.boards}
        only_file = [b for key, b in theirs.items() if key not in ours]
        only_engine = [b for key, b in ours.items() if key not in theirs]
        if only_file or only_engine or engine_pairs.pab != file_pairs.pab:
            parts = []
            if only_file or only_engine:
                parts.append(_("the file pairs %(file)s; the rules give %(engine)s.") % {
                    "file": boards(only_file) or _("no other board"), "engine": boards(only_engine) or _("no other board")})
            if engine_pairs.pab != file_pairs.pab:
                parts.append(_("PAB: the file gives it to %(file)s, the rules to %(engine)s.") % {
                    "file": who(file_pairs.pab) if file_pairs.pab is not None else _("nobody"),
                    "engine": who(engine_pairs.pab) if engine_pairs.pab is not None else _("nobody")})
            opponents.append(head + " " + " ".join(parts))
        reversed_ = [b for key, b in theirs.items() if key in ours and ours[key] != b]
        if reversed_:
            colours.append(head + " " + ngettext(
                "%(boards)s: the rules give White to the other player.",
                "%(boards)s: on each, the rules give White to the other player.", len(reversed_),
            ) % {"boards": boards(reversed_)})
    groups = []
    if no_legal:
        groups.append(WarningGroup(
            _("Rounds no pairing can make legal"),
            _("For these rounds the engine finds no pairing that keeps the absolute rules (no rematch, colour limits, "
              "one PAB per player): the file's round necessarily breaks one. Check the file before you confirm; "
              "imported, each round is a pairing-integrity event, recorded and written in the rating report's copy."),
            tuple(no_legal)))
    if opponents:
        groups.append(WarningGroup(
            _("Rounds with other opponents than the rules give"),
            _("The file's games are not the ones the pairing rules give, as this program reads them. One different "
              "choice (a floater, the PAB) changes several boards at once, so each round's boards are listed "
              "together. Imported as they are, each round is a pairing-integrity event: recorded and written in the "
              "rating report's copy. Every round is checked on the file's own earlier rounds, so a round listed here "
              "does not make the next one differ."),
            tuple(opponents)))
    if colours:
        groups.append(WarningGroup(
            _("Rounds with the right opponents but other colours"),
            _("The games are the ones the rules give; only the colours differ. Imported as they are, each round is a "
              "pairing-integrity event too; the colours played count for the next rounds' colour preferences."),
            tuple(colours)))
    if symbols:
        groups.append(WarningGroup(
            _("Results this program does not know"),
            _("These games are imported as adjourned games: they count as draws for the pairings and the standings "
              "until you enter their results on the round pages."),
            tuple(symbols)))
    if changes:
        groups.append(WarningGroup(
            _("What the import changes in the file"),
            _("What this program cannot keep as the file says it: records left out, codes converted, defaults used "
              "where the file says nothing, values the tournament keeps. None of them changes a game of the file's "
              "rounds; check that the tournament's settings are what you want."),
            tuple(changes)))
    return groups
