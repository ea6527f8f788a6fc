"""What an imported TRF file says, read and checked before anything is written: the
ratings the pairing used, round dates, the description, the tie-break list, late entries,
withdrawals, scheduled byes and forbidden pairs, result symbols TRF does not define, and
what this application cannot keep of the point system.  Pure readers of the parsed file
(:mod:`pairing.engine.trf`); the import itself is :mod:`.trf_import`."""

from __future__ import annotations

import datetime
import re
from decimal import Decimal

from django.utils.translation import gettext as _

from ..engine import PointSystem, Result
from ..engine import trf as trf_module
from ..models import ByeKind, Tournament
from . import import_review, trf_records


def ratings(data: trf_module.TrfTournament, text: str) -> dict[int, dict]:
    """The rating fields of each player with a rating, by starting rank: the rating the
    file's pairing used (the 001 FIDE rating, or the NRS rating as the 172 record says),
    the FIDE and national ratings behind it.  An NRS record without a national id for a
    player without a FIDE rating is the rating the pairing used, not a national rating:
    the export writes an unrated player's provisional rating so (beside the empty FIDE
    rating), and it comes back provisional."""
    used = data.pairing_ratings()
    national: dict[int, tuple[int, str]] = {}
    for rank, rating, ident in import_review.nrs_records(text):
        if rating is not None:
            national.setdefault(rank, (rating, ident))
    out = {}
    for p in data.players:
        if used[p.id] is None:
            continue
        fide = p.rating if p.rating else None
        nat, ident = national.get(p.id, (None, ""))
        if fide is None and not ident:
            nat = None  # the rating the pairing used: provisional
        out[p.id] = {"rating": used[p.id], "rating_provisional": fide is None and nat is None,
                     "fide_rating": fide if nat is not None else None, "national_rating": nat,
                     "national_id": ident[:20] if nat is not None else ""}
    return out


def round_dates(data) -> dict[int, datetime.date]:
    """{round: date} of the file's 132 record (YY/MM/DD from column 92, 10 columns a
    round; a field that is not such a date is left out)."""
    line = next((x for x in data.extra_lines if x[:3] == "132"), "")
    out = {}
    for k, start in enumerate(range(91, len(line), 10), start=1):
        text = line[start:start + 8].strip()
        for fmt in ("%y/%m/%d", "%Y/%m/%d"):
            try:
                out[k] = datetime.datetime.strptime(text, fmt).date()
                break
            except ValueError:
                continue
    return out


def description_from(t: Tournament, data) -> None:
    """The file's place (022), federation (032), dates (042, 052), time control (122) and
    arbiters (102, 112) where the tournament has none (it keeps its own otherwise; the
    review says so)."""
    if not t.chief_arbiter and data.chief_arbiter.strip():
        t.chief_arbiter = data.chief_arbiter.strip()[:80]
    if not t.deputy_arbiters and data.deputies:
        t.deputy_arbiters = "\n".join(d.strip() for d in data.deputies if d.strip())
    if not t.place and data.city.strip():
        t.place = data.city.strip()[:120]
    if not t.federation and re.fullmatch(r"[A-Za-z]{3}", data.federation.strip()):
        t.federation = data.federation.strip().upper()
    start, end = trf_records.parse_date(data.start_date), trf_records.parse_date(data.end_date)
    if t.start_date is None and start:
        t.start_date = start
    if t.end_date is None and end and (t.start_date is None or end >= t.start_date):
        t.end_date = end
    if not t.time_control and data.time_control.strip():
        t.time_control = data.time_control.strip()[:Tournament._meta.get_field("time_control").max_length]


def tiebreak_record(data, problems: list) -> str | None:
    """The file's tie-break list (TRF-2026 202) in our spelling, or None without one."""
    from ..tiebreaks import parse_order

    record = next((line for line in data.extra_lines if line[:3] == "202"), None)
    if record is None:
        return None
    try:
        order = parse_order(record[4:])
    except ValueError as exc:
        problems.append((0, 0, _("Tie-break list (202): %(problem)s") % {"problem": exc}))
        return None
    return ", ".join(tb.value for tb in order)


def late_entries(data: trf_module.TrfTournament, played: int, problems: list) -> dict[int, int]:
    """{starting rank: round of entry} of the file's ``XXE`` records, with a problem for an
    entry after the next round to pair or one before a game the player played."""
    out = data.entry_rounds()
    for pid, number in out.items():
        if number > played + 1:
            problems.append((0, 0, _("An XXE record says player %(id)s entered in round %(n)s; a late entry enters "
                                     "in round %(next)s at the latest (the next round to pair).")
                             % {"id": pid, "n": number, "next": played + 1}))
            continue
        before = data.player(pid).history[: number - 1]
        if any(e.opponent is not None or e.result is Result.PAIRING_BYE for e in before):
            problems.append((0, 0, _("An XXE record says player %(id)s entered in round %(n)s, but the player was "
                                     "paired before it.") % {"id": pid, "n": number}))
    return out


def withdrawals(byes: dict[tuple[int, int], str], total: int) -> dict[int, int]:
    """{player id: round}: players with a zero-point bye written as a 240 record in every
    round from that one to the last (the rounds in the file included): withdrawn from
    that round, as the export writes a withdrawal.  The earliest such round counts."""
    zero: dict[int, set[int]] = {}
    for (number, pid), kind in byes.items():
        if kind == ByeKind.ZERO:
            zero.setdefault(pid, set()).add(number)
    out = {}
    for pid, rounds in zero.items():
        if total in rounds:
            start = total
            while start - 1 in rounds:
                start -= 1
            out[pid] = start
    return out


def fide_mode_problems(ps: PointSystem) -> list[str]:
    """Point values FIDE mode refuses (VCL4THP Q74, Q83), for a file imported into a
    tournament in FIDE mode (Q56: it stays in FIDE mode)."""
    problems = []
    if 2 * ps.draw > ps.win + ps.loss:
        problems.append(_("Point system: two draws (%(draw)s each) are worth more than a win (%(win)s) and a loss "
                          "(%(loss)s); FIDE mode does not allow that. Leave FIDE mode first to import this file.")
                        % {"draw": ps.draw, "win": ps.win, "loss": ps.loss})
    standard = (Decimal("1"), Decimal("0.5"), Decimal("0"))
    if (ps.win, ps.draw, ps.loss) == standard and ps.pairing_bye not in standard:
        problems.append(_("Point system: a PAB worth %(pab)s with 1-½-0 scoring; FIDE mode allows 1, ½ or 0. "
                          "Leave FIDE mode first to import this file.") % {"pab": ps.pairing_bye})
    return problems


def file_system(data: trf_module.TrfTournament) -> str | None:
    """The Swiss system the file's 192 record names ("dutch", "dubov", "burstein"), None without one
    (the tournament's own system then stays)."""
    code = next((line[3:].strip() for line in data.extra_lines if line[:3] == "192"), "")
    return trf_records.swiss_system_of(code) if code else None


def player_rounds(text: str) -> int:
    """About how many player-rounds a TRF file holds (its 001 lines times the rounds the
    longest of them records), read without parsing it: whether the page imports the file
    at once or hands it to the background check."""
    players, rounds = 0, 0
    for line in text.splitlines():
        if line.startswith("001"):
            players += 1
            rounds = max(rounds, (len(line.rstrip()) - 89) // 10)
    return players * rounds


def unknown_symbols(data) -> list[str]:
    """VCL4THP Q166: the result symbols the file uses that TRF does not define, each
    imported as an adjourned game, for the arbiter to confirm."""
    if not data.unknown_results:
        return []
    where = {}
    for p in data.players:
        for rnd, e in enumerate(p.history, start=1):
            if e.result is Result.ADJOURNED and e.opponent is not None and p.id < e.opponent:
                where.setdefault(rnd, []).append(f"{p.id}-{e.opponent}")
    lines = [_("Line %(line)s, column %(column)s: result %(symbol)r is not a TRF result code.") % {
        "line": line, "column": column, "symbol": symbol} for line, column, symbol in data.unknown_results]
    boards = "; ".join(_("round %(n)s: %(pairs)s") % {"n": rnd, "pairs": ", ".join(pairs)} for rnd, pairs in sorted(where.items()))
    return lines + [_("These games are imported as adjourned games (%(boards)s): they count as draws until you "
                      "enter their results on the round pages.") % {"boards": boards}]


def point_system_problems(ps: PointSystem) -> list[str]:
    """What this application cannot store of a file's point system (XXS / 162): the same
    rules as the settings form, one decimal, and forfeit win / full-point bye scoring as
    a win, forfeit loss as a loss, zero-point bye 0 (README: "Points")."""
    problems = []
    values = {_("win"): ps.win, _("draw"): ps.draw, _("loss"): ps.loss, "PAB": ps.pairing_bye,
              _("half-point bye"): ps.half_bye}
    for name, value in values.items():
        if value != value.quantize(Decimal("0.1")) or not 0 <= value < 1000:
            problems.append(_("Point system: %(name)s = %(value)s; points need one decimal at most, from 0 to 999.9.")
                            % {"name": name, "value": value})
    if not ps.win > ps.draw >= ps.loss >= 0:
        problems.append(_("Point system: win %(win)s, draw %(draw)s, loss %(loss)s; points must satisfy "
                          "win > draw ≥ loss ≥ 0.") % {"win": ps.win, "draw": ps.draw, "loss": ps.loss})
    for name, value in (("PAB", ps.pairing_bye), (_("half-point bye"), ps.half_bye)):
        if not 0 <= value <= ps.win:
            problems.append(_("Point system: %(name)s = %(value)s; it must be between 0 and the points for a win.")
                            % {"name": name, "value": value})
    for name, value, expected in ((_("forfeit win"), ps.forfeit_win, ps.win), (_("full-point bye"), ps.full_bye, ps.win),
                                  (_("forfeit loss"), ps.forfeit_loss, ps.loss), (_("zero-point bye"), ps.zero_bye, 0)):
        if value != expected:
            problems.append(_("Point system: %(name)s = %(value)s, but here it scores %(expected)s (forfeit wins and "
                              "full-point byes as a win, forfeit losses as a loss, zero-point byes 0).")
                            % {"name": name, "value": value, "expected": expected})
    return problems


def scheduled_trf_records(
    data: trf_module.TrfTournament, played: int, total: int, problems: list[tuple[int, int, str]]
) -> tuple[dict[tuple[int, int], str], set[frozenset[int]]]:
    """The TRF-2026 ``240`` byes and ``260`` forbidden pairs that still matter after the
    rounds played: ({(round, player id): bye kind}, forbidden pairs), adding to
    ``problems`` what this application cannot keep.

    Records about rounds already played are history (the player lines hold those
    rounds), except that a zero-point bye the player's line agrees with is kept: with one
    in every later round it is a withdrawal (:func:`withdrawals`).  A ``260`` record must cover every round still to pair, because a forbidden
    pair here holds for the whole tournament: forbidding it in more rounds than the file
    says, or dropping it, would both change later pairings, so such a file is refused.
    """
    ids = {p.id for p in data.players}
    byes: dict[tuple[int, int], str] = {}
    lines = {p.id: p for p in data.players}
    for kind, number, pids in data.round_byes():
        if number <= played:
            # a round in the file is history: the 001 lines hold it.  A zero-point bye the
            # line agrees with marks a withdrawal when there is one in every round from it
            # to the last (as the export writes one)
            for pid in pids:
                entry = lines[pid].history[number - 1] if pid in lines and len(lines[pid].history) >= number else None
                if kind == ByeKind.ZERO and pid in lines and (entry is None or (
                        entry.opponent is None and entry.result is Result.ZERO_BYE)):
                    byes[(number, pid)] = kind
            continue
        if number > total:
            problems.append((0, 0, _("A 240 record gives a bye in round %(n)s, but the tournament has %(total)s rounds.")
                             % {"n": number, "total": total}))
            continue
        for pid in pids:
            if pid not in ids:
                problems.append((0, 0, _("A 240 record for round %(n)s names player %(id)s, who is not in the file.")
                                 % {"n": number, "id": pid}))
            else:
                byes[(number, pid)] = kind
    forbidden = set(data.forbidden)
    for first, last, pids in data.round_forbidden():
        if last <= played or first > total:
            continue
        missing = [pid for pid in pids if pid not in ids]
        if missing:
            problems.append((0, 0, _("A 260 record (rounds %(first)s-%(last)s) names players not in the file: %(ids)s.")
                             % {"first": first, "last": last, "ids": ", ".join(map(str, missing))}))
        elif first > played + 1 or last < total:
            problems.append((0, 0, _("A 260 record forbids players %(ids)s to meet in rounds %(first)s-%(last)s only; here "
                                     "a forbidden pair holds for every round still to pair (%(next)s-%(total)s). Change "
                                     "the record to cover those rounds, or remove it and add the pair on the Forbidden "
                                     "pairs page after the import.") % {
                "ids": ", ".join(map(str, pids)), "first": first, "last": last, "next": played + 1, "total": total}))
        else:
            forbidden |= {frozenset((a, b)) for i, a in enumerate(pids) for b in pids[i + 1:]}
    return byes, forbidden

