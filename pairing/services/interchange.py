"""TRF files out: the export for rating reports and other programs.  The import is
:mod:`.trf_import` (its names are re-exported here for callers of this module)."""

from __future__ import annotations

import datetime
from decimal import Decimal

from ..engine import Colour, Result, RoundEntry
from ..engine import trf as trf_module
from ..engine.model import new_entry
from ..models import (
    SIDES,
    Bye,
    ByeKind,
    ForbiddenPair,
    Game,
    IntegrityEvent,
    Player,
    RoundStatus,
    Tournament,
)
from ..reports.rating_change import official_rating
from ..reports.standings import ranked
from . import acceleration, provenance, trf_records
from .numbering import renumber
from .snapshot import absent_ids, histories, point_system
from .trf_import import IMPORT_CHECK_LIMIT, NOT_CHECKED, ImportRefused, import_trf  # noqa: F401 - callers' names

_ABSENT = RoundEntry(None, None, Result.ZERO_BYE)


def _date_text(d: datetime.date | None) -> str:
    return d.strftime("%Y/%m/%d") if d else ""


def _rated_results(t: Tournament, hist: dict[int, list[RoundEntry]], played: int) -> None:
    """Results corrected for the rating report only (C.04.2 4.3) replace the played ones
    in the 001 records: the file is what is rated."""
    corrected = Game.objects.filter(round__tournament=t, round__number__lte=played).exclude(rating_result="")
    for g in corrected.values("round__number", "white_id", "black_id", "rating_result"):
        k = g["round__number"] - 1
        for pk, side in ((g["white_id"], 0), (g["black_id"], 1)):
            if pk in hist:
                e = hist[pk][k]
                hist[pk][k] = RoundEntry(e.opponent, e.colour, Result(SIDES[g["rating_result"]][side]))


# the rounds one elected to play: GE in the 2023 text, REP in the 2026 text
_GE_NAMES = {2023: "GE", 2026: "REP"}


def _tiebreak_record(text: str, rules: int = 2026) -> str:
    """The tie-break list as TRF-2026 writes it (202): ``BH/C1, BH, SB``, ``KS/L-1``;
    GE and REP (one tie-break) by the name of the C.07 text the standings follow."""
    codes = [code.strip().replace("-", "/", 1) for code in text.split(",")]
    return ", ".join(_GE_NAMES[rules] if code in _GE_NAMES.values() else code for code in codes)


def integrity_lines(t: Tournament) -> tuple[str, ...]:
    """The ``###`` lines of the pairing-integrity events, oldest first (undone ones too:
    the undo has its own line after them).  A line written when the pairing numbers were
    other than the file's (a late entry re-slotted since, numbers exchanged) says so and
    how they map to the file's: every ``###`` line names players by the numbers of the
    file, or says which numbering it uses."""
    now = dict(t.player_set.values_list("pk", "tpn"))
    return tuple(e.report_line + numbering_note(e.numbers, now)
                 for e in IntegrityEvent.objects.filter(tournament=t).order_by("at", "pk"))


def numbering_note(then: list[int] | None, now: dict[int, int | None]) -> str:
    """'' when the numbers ``then`` (player ids in pairing-number order) are the file's
    (``now``: id -> number); else `` (pairing numbers of then; in this file 5-12 are
    6-13)``, runs of numbers that moved alike written as ranges."""
    if not then:
        return ""
    moved = [(old, now.get(pk)) for old, pk in enumerate(then, start=1) if now.get(pk) != old]
    if not moved:
        return ""
    runs: list[list[int | None]] = []  # [first old, last old, first new, last new]
    for old, new in moved:
        last = runs[-1] if runs else None
        if last and new is not None and last[3] is not None and old == last[1] + 1 and new == last[3] + 1:
            last[1], last[3] = old, new
        else:
            runs.append([old, old, new, new])

    def span(a, b) -> str:
        return "-" if a is None else (f"{a}" if a == b else f"{a}-{b}")

    parts = [f"{span(a, b)} {'is' if a == b else 'are'} {span(c, d)}" if c is not None else f"{a} has none"
             for a, b, c, d in runs]
    return f" (pairing numbers of then; in this file {', '.join(parts)})"


def late_entry_records(players: list[Player]) -> tuple[str, ...]:
    """``XXE r id ...`` for the late entries of round r (starting ranks): TRF-2026 has no
    record for a late entry, and without one a reader numbers the rounds before it as if the
    player had been there, re-slotted where the ranking rules put them (docs/late-entries.md)."""
    rounds: dict[int, list[int]] = {}
    for p in players:
        if p.entered_round is not None:
            rounds.setdefault(p.entered_round, []).append(p.tpn)
    return tuple(f"XXE {r:3d} " + " ".join(f"{i:4d}" for i in sorted(ids)) for r, ids in sorted(rounds.items()))


def pairing_rating_records(method: str, players: list[Player]) -> tuple[str, dict[int, int]]:
    """The tag 172 method and the NRS ratings {player pk: rating} a file needs so that a
    reader gets, from each player's 001 FIDE rating (:func:`official_rating`) and NRS
    rating, the rating the pairing used (``Player.rating``), as TRF-2026 defines them.

    National ratings are written as they are; a player whose rating the method does not
    give (an unrated player's provisional rating, a rating typed by hand) gets an NRS record
    with the rating the pairing used, beside the empty FIDE rating.  The tournament's method
    is kept when that is enough; ``FIDE`` (and ``OTHER``, which no reader can compute) becomes
    ``FIDON`` when the players without a FIDE rating need their NRS rating; failing both,
    ``NIDOF`` with the rating the pairing used in every NRS record that must carry it."""
    for candidate in dict.fromkeys([method if method != "OTHER" else "FIDON", "FIDON", "NIDOF"]):
        national = {p.pk: p.national_rating for p in players if p.national_rating is not None}
        for p in players:
            fide = official_rating(p)
            if trf_module.rating_by_method(candidate, fide, national.get(p.pk)) != p.rating and (
                    fide is None or candidate == "NIDOF"):
                national[p.pk] = p.rating
        if all(trf_module.rating_by_method(candidate, official_rating(p), national.get(p.pk)) == p.rating
               for p in players):
            return candidate, national
    raise AssertionError("NIDOF with the rating used in the NRS record always gives it")  # pragma: no cover


def _national_records(t: Tournament, players: list[Player]) -> tuple[str, ...]:
    """TRF-2026 tag 172 (how the ratings in the file give the ratings the pairing used) and
    one NRS record per player with a national rating or a rating the pairing used that is
    not the FIDE rating (federation, starting rank, rating, national id)."""
    method, national = pairing_rating_records(t.rating_method, players)
    if not national:
        return ()
    first = next(p for p in players if p.pk in national)
    fed = (t.federation or first.federation or "FID").upper()[:3]
    lines = [f"172 {fed} {method}"]
    for p in players:
        if p.pk not in national:
            continue
        ident = p.national_id if national[p.pk] == p.national_rating else ""
        buf = [" "] * 79
        for first_col, text, width, right in ((1, fed, 3, False), (5, str(p.tpn), 4, True),
                                              (49, str(national[p.pk]), 4, True), (58, ident, 11, True)):
            text = trf_module.one_line(text)[:width]
            buf[first_col - 1:first_col - 1 + width] = list(text.rjust(width) if right else text.ljust(width))
        lines.append("".join(buf).rstrip())
    return tuple(lines)


def export_trf(t: Tournament, *, integrity: bool = False) -> str:
    """TRF-16 of the complete rounds, with XXR/XXC/XXS, the forbidden pairs as XXP,
    the players absent from the next round as XXZ (when it is not paired yet) and every
    requested bye of a round not in the file, with its kind, as a TRF-2026 240 record (and a
    withdrawal as 240 Z records in every round from it to the last, those in the file too).  A round in play (results missing)
    and a draft are left out: TRF-16 has no code for a pending result.  Starting
    ranks are the TPNs.  Results corrected for the rating report (C.04.2 4.3) are
    written as corrected.  ``integrity``: the copy with the ``###`` lines of the
    pairing-integrity events; the file sent for rating has none.

    Written once per state of what it holds and shared (:func:`pairing.computed.through_round`:
    a result entered in the round in play changes nothing in the file, which stops at the
    last complete round; any other change writes it again): a 9,999 x 40 file took 5 s."""
    from ..computed import through_round

    renumber(t)
    t.refresh_from_db(fields=["revision"])  # renumbering moves it when it changes a number
    played = t.rounds_published()
    last = t.published_rounds().last()
    if last is not None and last.status != RoundStatus.COMPLETE:
        played -= 1
    return through_round(t, f"trf-{int(integrity)}", played, lambda: _write_trf(t, played, integrity))


def _write_trf(t: Tournament, played: int, integrity: bool) -> str:
    players = list(t.player_set.order_by("tpn"))
    hist = histories(t, played, players)
    _rated_results(t, hist, played)
    tpn = {p.pk: p.tpn for p in players}
    in_file = list(t.published_rounds().filter(number__lte=played))
    # the ranks of the standings every page shows (computed once, kept in the cache)
    rank = {r.player_id: r.rank for r in ranked(t).rows}
    ps = point_system(t)
    # looked up once by code, not per round of each player (an enum member's hash is a Python call)
    points_of = {r.value: ps.points(r) for r in Result}

    def renumbered(entries: list[RoundEntry]) -> tuple[RoundEntry, ...]:
        # (opponent, colour, result): a bye's opponent is None
        return tuple(e if e[0] is None else new_entry((tpn[e[0]], e[1], e[2])) for e in entries)

    trf_players = tuple(
        trf_module.TrfPlayer(
            id=p.tpn,
            sex={"m": "m", "f": "w"}.get(p.sex, ""),
            title=p.title,
            name=p.name,
            rating=official_rating(p),  # the FIDE rating, never a provisional one
            federation=p.federation,
            fide_id=p.fide_id,
            birth_date=p.birth_date.strftime("%Y/%m/%d") if p.birth_date else "",
            points=sum((points_of[e.result._value_] for e in hist[p.pk]), Decimal(0)),
            rank=rank.get(p.pk),
            history=renumbered(hist[p.pk]),
        )
        for p in players
    )
    next_round = played + 1
    absent = (
        frozenset(tpn[pk] for pk in absent_ids(t, next_round))
        if next_round <= t.rounds and next_round > t.rounds_published()
        else frozenset()
    )
    # requested byes of every round not in the file, with their kind (TRF-2026 240)
    ahead: dict[tuple[str, int], list[int]] = {}
    for bye in Bye.objects.requested().filter(tournament=t, round_number__gt=played).order_by("round_number", "kind"):
        ahead.setdefault((bye.kind, bye.round_number), []).append(tpn[bye.player_id])
    # a withdrawal: a zero-point bye in every round from it to the last, the rounds in the
    # file included (read back as the withdrawal it is; TRF has no record of its own for
    # one, and a requested zero-point bye of a round in the file is in the 001 line only)
    for p in players:
        if p.withdrawn_from_round is not None:
            for number in range(p.withdrawn_from_round, t.rounds + 1):
                if number <= played and hist[p.pk][number - 1] != _ABSENT:
                    continue  # played after all (a withdrawal moved back): the line says so
                ids = ahead.setdefault((ByeKind.ZERO.value, number), [])
                if p.tpn not in ids:
                    ids.append(p.tpn)
    forbidden = frozenset(
        frozenset(tpn[pk] for pk in pair) for pair in ForbiddenPair.objects.filter(tournament=t).engine_pairs()
    )
    # the arbiters as the report names them (title, name, FIDE id), else their accounts
    deputies = tuple(line.strip() for line in t.deputy_arbiters.splitlines() if line.strip()) or tuple(
        u.get_full_name() or u.get_username() for u in t.deputies.order_by("username"))
    owner = t.chief_arbiter.strip() or t.owner.get_full_name() or t.owner.get_username()
    tournament = trf_module.TrfTournament(
        name=t.name,
        city=t.place,
        federation=t.federation,
        start_date=_date_text(t.start_date),
        end_date=_date_text(t.end_date),
        chief_arbiter=owner,
        deputies=deputies,
        time_control=t.time_control,
        total_rounds=t.rounds,
        initial_colour=Colour(t.initial_colour),
        points=ps,
        players=trf_players,
        absent_next=absent,
        extra_lines=trf_records.records(t, players, in_file, ps,
                                        _tiebreak_record(t.tiebreaks, t.effective_tiebreak_rules())
                                        if t.tiebreaks.strip() else "")
        + provenance.report_lines(in_file)
        + tuple(trf_module.bye_record(kind, number, ids)
                for (kind, number), ids in sorted(ahead.items(), key=lambda kv: (kv[0][1], kv[0][0])))
        + late_entry_records(players)
        + tuple(acceleration.trf_records(t, tpn))
        + trf_records.forbidden_records(forbidden, next_round, t.rounds)
        + _national_records(t, players)
        + (integrity_lines(t) if integrity else ()),
        forbidden=forbidden,
    )
    return trf_module.dump_trf(tournament)



def export_trf16(t: Tournament) -> str:
    """The file for rating with only what TRF-16 defines and the engines' XX records, for
    programs that read TRF-16 and stop at a record they do not know (the TRF-2026
    records, the national rating records and ### lines are left out)."""
    return trf_module.as_trf16(export_trf(t))
