"""The free checker (``python -m pairing.engine --dubov|--dutch|--burstein FILE -c``) and what the
command line shares with it: reading a file, pairing one of its rounds.

``-c`` re-pairs every round of the file from the rounds before it (byes and absences as
recorded in that round) and reports each difference board by board; compares the file's
acceleration (``250`` records) with the group A the rules give (Baku, C.04.5.1; VCL4THP
Q31); and recomputes every player's points and rank: with the file's tie-break list
(``202``, else ``212`` without ``PTS``) by the app's own tie-break code, without one by
points only, saying that the tie-breaks were not checked (VCL4THP Q21).

Its output is read by people and by the app's "Check this tournament"
(pairing/services/tournament_check.py): ``round N: identical`` or ``round N: K
differences``, ``standings: K differences`` and ``acceleration: K differences``, each
followed by lines indented by two spaces; one last summary line.  Exit status 0 when
nothing differs, 4 otherwise (3: the file cannot be read).
"""

from __future__ import annotations

from pathlib import Path

from . import version
from .acceleration import accelerated_rounds, is_baku, ranges
from .model import Colour, EngineError, InvalidSnapshot, NoLegalPairing, Pairing, Result, Snapshot, System
from .trf import PAIRED_BY_LINE, TrfError, TrfTournament, acceleration_records, parse_trf

EXIT_OK = 0
EXIT_DIFFERENCES = 4

PLACEHOLDER_RATING = 1000  # only to decide whether any legal pairing exists (rating-free)


class InputError(Exception):
    """Invalid input: the message is already the one line(s) to print."""


def _pair_round(snapshot: Snapshot) -> Pairing:
    from . import pair_round  # late import: the engine module is loaded only when pairing

    return pair_round(snapshot)


def read(path: str) -> TrfTournament:
    try:
        text = Path(path).read_bytes().decode("utf-8", errors="replace")
    except OSError as exc:
        raise InputError(f"{path}: cannot read the file: {exc.strerror or exc}") from None
    try:
        return parse_trf(text)
    except TrfError as exc:
        raise InputError(
            "\n".join(f"{path}:{p.line}:{p.column}: {p.message}" for p in exc.problems)
        ) from None


def _missing_ratings(t: TrfTournament) -> list[int]:
    return [pid for pid, rating in t.pairing_ratings().items() if rating is None]


def no_pairing_message(round_number: int, exc: NoLegalPairing, system: System = System.DUBOV) -> str:
    players = ", ".join(str(p) for p in exc.players) or "(not named by the engine)"
    article = {System.DUTCH: "Dutch 1.9.3", System.BURSTEIN: "Burstein 1.9"}.get(system, "Dubov 1.8.3")
    return (
        f"round {round_number} cannot be completed: there is no legal pairing ({article}, the arbiter "
        f"decides). Players who cannot be paired: {players}. Engine: {exc}"
    )


def pair_from_file(t: TrfTournament, path: str, round_number: int | None,
                    system: System = System.DUBOV) -> tuple[Snapshot, Pairing]:
    """Snapshot and pairing, or InputError / NoLegalPairing.

    A file without ratings is invalid input (Dubov 1.1), except that whether any legal
    pairing exists does not depend on ratings: when it does not, that is reported."""
    try:
        snapshot = t.snapshot(round_number, system=system)
    except InvalidSnapshot as exc:
        if _missing_ratings(t):
            try:
                stand_in = t.snapshot(round_number, default_rating=PLACEHOLDER_RATING, system=system)
            except InvalidSnapshot:
                raise InputError(f"{path}: {exc}") from None
            try:
                _pair_round(stand_in)
            except NoLegalPairing:
                raise
            except EngineError:
                pass
        raise InputError(f"{path}: {exc}") from None
    try:
        return snapshot, _pair_round(snapshot)
    except NoLegalPairing:
        raise
    except EngineError as exc:
        raise InputError(f"{path}: {exc}") from None


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


def check_round(t: TrfTournament, path: str, k: int, system: System = System.DUBOV) -> list[str]:
    """Differences between the file's round k and our pairing of it (empty: identical)."""
    pairs, pab = _recorded_round(t, k)
    opponent: dict[int, int] = {}
    for key in pairs:
        a, b = tuple(key)
        opponent[a], opponent[b] = b, a
    try:
        _, pairing = pair_from_file(t, path, k, system)
    except NoLegalPairing as exc:
        return [f"  the engine finds no legal pairing: {no_pairing_message(k, exc, system)}"]
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


def run_check(t: TrfTournament, path: str, system: System) -> int:
    """``-c`` on a file already read: print the findings; the exit status."""
    played = t.rounds_played()
    if played == 0:
        raise InputError(f"{path}: no round has been played; nothing to check")
    if t.total_rounds is None:
        raise InputError(
            f"{path}: the file does not say how many rounds the tournament has (XXR n / 142)"
        )
    print(f"checker: {version.checker()}, {system.label}")
    for line in t.extra_lines:  # who paired the rounds, as the file says (the app's export writes it)
        if line.startswith(PAIRED_BY_LINE):
            print(f"the file says: {line[4:]}")
    accelerated = acceleration_findings(t)
    if accelerated:
        print("acceleration: 1 difference")  # the file's against the rules', in several lines
        for d in accelerated:
            print(d)
    different = 0
    for k in range(1, played + 1):
        diffs = check_round(t, path, k, system)
        if diffs:
            different += 1
            print(f"round {k}: {len(diffs)} difference{'s' if len(diffs) != 1 else ''}")
            for d in diffs:
                print(d)
        else:
            print(f"round {k}: identical")
    standings, note = check_standings(t, path, played)
    if standings:
        print(f"standings: {len(standings)} difference{'s' if len(standings) != 1 else ''}")
        for d in standings:
            print(d)
    if note:
        print(note)
    if different:
        print(f"{different} of {played} rounds differ")
    else:
        print(f"all {played} rounds identical" if played != 1 else "round 1 of 1 identical")
    return EXIT_DIFFERENCES if different or standings or accelerated else EXIT_OK


def acceleration_findings(t: TrfTournament) -> list[str]:
    """The file's ``250`` records against the Baku acceleration the rules give (VCL4THP
    Q31; docs/fide-mode.md readings 20-21), each difference with its figures.

    Compared when the records have Baku's shape (one group, 1 then ½ virtual point over
    the rounds C.04.5.1 gives) or the encoded type (192) names Baku; a file whose 192
    names Baku but has no ``250`` record is paired with the acceleration the rules give
    (:meth:`TrfTournament.snapshot`) and that is a finding too.  Other ``250`` records
    (another acceleration) are paired as given."""
    records, coded = t.acceleration(), t.baku_coded()
    if t.total_rounds is None or not (coded or (records and is_baku(t.total_rounds, records))):
        return []
    rules = t.group_a_by_the_rules()
    expected = t.rules_acceleration()
    if tuple(records) == expected:
        return []
    full, last = accelerated_rounds(t.total_rounds)
    absent = sorted(t.absent_in(1))
    why = (f"{rules.paired} players paired in round 1"
           + (f" (not {ranges(absent)})" if absent else "")
           + f"; group A is the first 2*ceil({rules.paired}/4) = {rules.size} of them, the last being player "
           f"{rules.last}, and every player ranked above him: players {ranges(rules.players)}, 1 virtual point in "
           f"rounds 1-{full}" + (f", 1/2 in rounds {full + 1}-{last}" if last > full else "")
           + " (C.04.5.1 2.1 and 2.4; N counts only the players paired in round 1)")
    if not records:
        return [f"  the encoded type (192) names Baku acceleration but the file has no 250 record; the rules give {why}",
                "  (the rounds below are re-paired with that acceleration)"]
    lines = []
    if is_baku(t.total_rounds, records):
        lines.append(f"  group A: players {ranges(records[0].players)} in the file's 250 records; the rules give {why}")
    else:
        lines.append(f"  the file's 250 records are not Baku acceleration for {t.total_rounds} rounds; the rules give "
                     f"{why}")
    lines += [f"  file:  {line}" for line in acceleration_records(records)]
    lines += [f"  rules: {line}" for line in acceleration_records(expected)]
    lines.append("  (the rounds below are re-paired with the file's 250 records)")
    return lines


def tiebreak_list(t: TrfTournament) -> tuple[str | None, str]:
    """The file's tie-break list and the record it came from: ``202``, else ``212``
    without its ``PTS``; (None, '') without either."""
    for line in t.extra_lines:
        if line[:3] == "202" and line[4:].strip():
            return line[4:].strip(), "202"
    for line in t.extra_lines:
        if line[:3] == "212" and line[4:].strip():
            codes = [c.strip() for c in line[4:].split(",") if c.strip()]
            if codes and codes[0].upper() == "PTS":
                codes = codes[1:]
            return (", ".join(codes) or None), "212"
    return None, ""


def check_standings(t: TrfTournament, path: str, played: int) -> tuple[list[str], str]:
    """The file's points and ranks (001 columns 81-89) against a recomputation after
    ``played`` rounds, by the same tie-break code as the web app's standings (VCL4THP
    Q21): the differences, and a note when the tie-breaks could not be checked.

    With a tie-break list (:func:`tiebreak_list`), under the C.07 text the file's ``###``
    line names (else the one its start date gives), players tied on everything may be in
    any order within their shared places (a drawing of lots, or the chief arbiter's
    order, decided it).  Without one the ranks are checked against the points only: a
    player with more points must be ranked above one with fewer, and players on equal
    points may share their places in any order; the note says that the tie-breaks were
    not checked and why."""
    from .cli_tools import standings, tiebreak_text

    order, source = tiebreak_list(t)
    try:
        computed = standings(t, played, order)
    except ValueError as exc:
        raise InputError(f"{path}: the tie-break list ({source}) cannot be read: {exc}") from None
    text = f"C.07 {tiebreak_text(t)} text" + ("" if t.tiebreak_text() else " by the start date")
    basis = (f"{order}; {text}" if source == "202" else f"{order}, from 212; {text}") if order else "points only"
    diffs = []
    for p in sorted(t.players, key=lambda q: q.id):
        points, rank, shared = computed[p.id]
        if p.points is not None and p.points != points:
            diffs.append(f"  player {p.id}: points {p.points} in the file, {points} computed")
        if p.rank is not None and rank is not None and not rank <= p.rank < rank + shared:
            where = f"{rank}" if shared == 1 else f"{rank}-{rank + shared - 1} (tied)"
            diffs.append(f"  player {p.id}: rank {p.rank} in the file, {where} computed ({basis})")
    note = "" if order else (
        "standings: tie-breaks not checked: the file has no tie-break list (202, or 212 beyond PTS); the ranks "
        "were checked against the points only (players on equal points may share their places in any order)")
    return diffs, note
