"""TRF import: players and rounds already played, into an empty tournament (all or
nothing), every round checked against the pairing rules and every adjustment said
(:mod:`.import_review`).  The export is :mod:`.interchange`."""

from __future__ import annotations

import time
from decimal import Decimal

from django.db import transaction
from django.utils import translation
from django.utils.translation import gettext as _
from django.utils.translation import gettext_lazy

from .. import engine
from ..engine import Colour
from ..engine import trf as trf_module
from ..models import (
    AccelerationMethod,
    AuditAction,
    AuditEntry,
    Bye,
    ByeKind,
    ColourMethod,
    ForbiddenPair,
    Game,
    GameResult,
    IntegrityKind,
    PairedBy,
    Player,
    Round,
    RoundStatus,
    ScheduledRound,
    Title,
    Tournament,
)
from ..warning_levels import Level, require
from ..wording import in_english
from . import acceleration, events, import_review, integrity, provenance, restore, trf_records
from . import import_reading as reading
from .forbidden_pairs import forbidden_pair_names
from .import_reading import file_system, player_rounds  # noqa: F401 - player_rounds: callers' name
from .numbering import renumber


class ImportRefused(Exception):
    """The TRF cannot be imported; ``problems`` are (line, column, message)."""

    def __init__(self, problems: list[tuple[int, int, str]], from_parser: bool = False):
        self.problems = problems
        # the TRF reader's own sentences (pairing.engine knows no Django): in English
        self.from_parser = from_parser
        super().__init__("; ".join(f"line {a}, column {b}: {m}" for a, b, m in problems))


_TITLES = {c.value for c in Title}


_GAME_FROM_SIDES = {
    ("1", "0"): GameResult.WHITE_WINS,
    ("W", "L"): GameResult.WHITE_WINS_UNRATED,
    ("=", "="): GameResult.DRAW,
    ("D", "D"): GameResult.DRAW_UNRATED,
    ("0", "1"): GameResult.BLACK_WINS,
    ("L", "W"): GameResult.BLACK_WINS_UNRATED,
    ("=", "0"): GameResult.WHITE_HALF,
    ("0", "="): GameResult.BLACK_HALF,
    ("0", "0"): GameResult.BOTH_LOSE,
    ("?", "?"): GameResult.ADJOURNED,
    ("+", "-"): GameResult.WHITE_FORFEIT_WIN,
    ("-", "+"): GameResult.BLACK_FORFEIT_WIN,
    ("-", "-"): GameResult.DOUBLE_FORFEIT,
}


def _in_time(deadline: float | None) -> None:
    """Refuse (the transaction rolls back) once ``deadline`` (``time.monotonic()``) has passed."""
    if deadline is not None and time.monotonic() > deadline:
        raise ImportRefused([(0, 0, _(
            "The import took longer than a page may wait and was stopped before anything was saved: nothing was "
            "imported. The file is very large for this server; try again when it is less busy, or ask the site's "
            "administrator to run large imports as a background task."))])


def import_trf(t: Tournament, text: str, user=None, provisional_rating: int = 1000, confirmations: int = 0,
               report: list[str] | None = None, deadline: float | None = None,
               asked: list[str] | None = None) -> int:
    """Load players, and any rounds already played, from TRF-16 text into an empty
    tournament.  All or nothing; raises :class:`ImportRefused` listing every problem.

    Starting ranks become the TPNs (renumbered by our rules before round 4 is
    published).  Rounds with games become complete rounds (a forfeit and a double
    forfeit are kept; unrated W/D/L stay unrated; ½-0, 0-½ and 0-0 are kept); byes become Bye
    rows; players absent for the next round (XXZ) become zero-point byes; forbidden
    pairs (XXP/FOR) become :class:`~pairing.models.ForbiddenPair` rows.  The file's
    number of rounds, initial colour and point system replace the tournament's.

    Every imported round is paired again by the engine on the rounds before it (VCL4THP
    Q54–55); rounds that differ need a Level-3 confirmation (``confirmations``; without
    it nothing is written) and each becomes a pairing-integrity event.  The adjustments
    the import makes (:mod:`.import_review`: the version detected, records left out,
    codes converted, defaults used; VCL4THP Q47-50) are asked in the same question when
    they change what the file says, and all of them are added to ``report`` and to the
    audit trail.  The file's place, federation, dates and time control are taken where
    the tournament has none.  Returns the number of players created.

    ``deadline`` (a ``time.monotonic()`` value; a page request passes one shorter than the
    proxy's timeout): past it the import stops and is refused before it commits, so an
    import is either done while the arbiter waits or not at all -- never reported failed
    by the proxy and committed later.  A background task passes none.

    ``asked`` (a list): the import of a large file checked in the background
    (:mod:`.import_check`).  The rounds are not re-paired here and nothing is asked: the
    adjustments that would be asked are added to ``asked``, to be asked with the check's
    findings once the background check has re-paired every round.
    """
    if t.player_set.exists() or t.round_set.exists():
        raise ImportRefused([(0, 0, _("This tournament already has players or rounds; import into a new one."))])
    try:
        data = trf_module.parse_trf(text, unknown_as_adjourned=True)
    except trf_module.TrfError as exc:
        raise ImportRefused([(p.line, p.column, p.message) for p in exc.problems], from_parser=True) from exc
    problems: list[tuple[int, int, str]] = []
    if not data.players:
        problems.append((0, 0, _("The file has no player lines (001).")))
    played = data.rounds_played()
    total = data.total_rounds or t.rounds
    if played > total:
        problems.append((0, 0, _("The file has %(played)s rounds played but the tournament only %(total)s rounds.") % {"played": played, "total": total}))
    for p in data.players:
        if p.title and p.title.upper() not in _TITLES:
            problems.append((0, 0, _("Player %(id)s (%(name)s): unknown title %(title)r.") % {"id": p.id, "name": p.name, "title": p.title}))
        if p.rating is not None and not 0 <= p.rating <= 3500:
            problems.append((0, 0, _("Player %(id)s (%(name)s): rating %(rating)s out of range.") % {"id": p.id, "name": p.name, "rating": p.rating}))
        if not p.name.strip():
            problems.append((0, 0, _("Player %(id)s: no name.") % {"id": p.id}))
    for rank, rating, _ident in import_review.nrs_records(text):
        if rating is not None and not 1 <= rating <= 3500:
            problems.append((0, 0, _("National rating record of player %(id)s: rating %(rating)s out of range.")
                             % {"id": rank, "rating": rating}))
    first_with: dict[str, int] = {}
    for p in sorted(data.players, key=lambda q: q.id):
        fide_id = p.fide_id.strip()[:11]
        if fide_id and fide_id in first_with:
            problems.append((0, 0, _("Player %(id)s (%(name)s): FIDE id %(fide)s is also player %(other)s's.") % {
                "id": p.id, "name": p.name, "fide": fide_id, "other": first_with[fide_id]}))
        first_with.setdefault(fide_id, p.id)
    if data.total_rounds is not None and not 1 <= data.total_rounds <= 99:
        problems.append((0, 0, _("The file gives %(n)s rounds; a tournament has 1 to 99.") % {"n": data.total_rounds}))
    problems.extend((0, 0, message) for message in reading.point_system_problems(data.points))
    if t.fide_mode:
        problems.extend((0, 0, message) for message in reading.fide_mode_problems(data.points))
    byes_ahead, forbidden_ahead = reading.scheduled_trf_records(data, played, total, problems)
    entries = reading.late_entries(data, played, problems)
    tiebreak_list = reading.tiebreak_record(data, problems)
    baku_file, last_ga = acceleration.imported(data, total, played, problems)
    baku = baku_file or (not played and t.acceleration == AccelerationMethod.BAKU)
    if baku and (data.points.win, data.points.draw, data.points.loss) != (1, Decimal("0.5"), 0):
        problems.append((0, 0, _("Baku acceleration applies only with the standard scoring (win 1, draw ½, loss 0); "
                                 "the file's points are different.")))
    if problems:
        raise ImportRefused(problems)
    reviewed = import_review.review(text, data, t)
    reviewed.changes += acceleration.imported_changes(data, total, played)
    with translation.override("en"):  # the audit trail keeps them in English
        recorded = import_review.review(text, data, t)
        recorded.changes += acceleration.imported_changes(data, total, played)

    with transaction.atomic():
        t.lock()
        point = restore.take(t)
        if t.player_set.exists() or t.round_set.exists():  # another arbiter was quicker
            raise ImportRefused([(0, 0, _("This tournament already has players or rounds; import into a new one."))])
        if data.total_rounds:
            t.rounds = max(data.total_rounds, 1)
        if data.initial_colour is not None or played:
            t.initial_colour = data.effective_initial_colour().value
            t.initial_colour_method = ColourMethod.CHOSEN
        ps = data.points
        t.point_win, t.point_draw, t.point_loss = ps.win, ps.draw, ps.loss
        t.point_pab, t.point_half_bye = ps.pairing_bye, ps.half_bye
        t.ranking_frozen = played >= 4
        if tiebreak_list is not None:
            t.tiebreaks = tiebreak_list
        if data.tiebreak_text() is not None:  # the C.07 text the file's ### line names
            t.tiebreak_rules = data.tiebreak_text()
        reading.description_from(t, data)
        t.acceleration = AccelerationMethod.BAKU if baku else AccelerationMethod.NONE
        if import_review.is_round_robin_file(data):
            # the starting ranks are the Berger numbers the rounds were paired with
            t.system, t.rr_numbers = "round-robin", "hand"
            per_cycle = len(data.players) - 1 + len(data.players) % 2
            t.rr_cycles = 2 if t.rounds == 2 * per_cycle else 1
        elif system := file_system(data):
            t.system = system  # the file's rounds were paired by it: they are checked, and go on, by it
        if data.dubov_rules_year() is not None and t.system == "dubov":
            t.dubov_rules = data.dubov_rules_year()  # the Dubov rules the file's ### line declares
        t.save()
        ordered = sorted(data.players, key=lambda q: q.id)
        rated = reading.ratings(data, text)
        rows = Player.objects.bulk_create(
            [
                Player(
                    tournament=t,
                    tpn=p.id if t.ranking_frozen or t.round_robin else None,
                    title=p.title.upper(),
                    name=p.name.strip()[:33],
                    **rated.get(p.id, {"rating": provisional_rating, "rating_provisional": True}),
                    entered_round=entries.get(p.id),
                    federation=p.federation.strip()[:3],
                    fide_id=p.fide_id.strip()[:11],
                    birth_date=trf_records.parse_date(p.birth_date),
                    sex={"m": "m", "w": "f", "f": "f"}.get(p.sex.lower(), ""),
                )
                for p in ordered
            ],
            batch_size=1000,
        )
        created: dict[int, Player] = {p.id: row for p, row in zip(ordered, rows, strict=True)}
        withdrawn = reading.withdrawals(byes_ahead, t.rounds)
        by_id = {p.id: p for p in ordered}  # once: a look-up per game (data.player() is a linear search)
        byes: list[Bye] = []
        # who paired each round, as the file says: its ### Paired by lines (this program's
        # export writes them), else its 182 record (one program for every round)
        claimed = data.paired_by()
        controller = next((line[3:].strip() for line in data.extra_lines if line[:3] == "182"), "")
        for number in range(1, played + 1):
            _in_time(deadline)
            rnd = Round.objects.create(
                tournament=t, number=number, status=RoundStatus.COMPLETE, paired_by=PairedBy.IMPORT,
                program=provenance.imported_program(claimed.get(number, controller))[:120])
            board = 0
            games = []
            for p in ordered:
                if len(p.history) < number:
                    continue
                e = p.history[number - 1]
                if e.opponent is None or e.result.is_bye:
                    if e.result.is_bye and not (p.id in withdrawn and number >= withdrawn[p.id]):
                        byes.append(Bye(tournament=t, player=created[p.id], round_number=number, kind=e.result.value))
                    continue
                opp = by_id[e.opponent]
                back = opp.history[number - 1]
                if e.colour is Colour.BLACK or (
                    e.colour is None and (back.colour is Colour.WHITE or p.id > opp.id)
                ):
                    continue  # written from White's line (or the lower number's, without colours)
                code = _GAME_FROM_SIDES.get((e.result.value, back.result.value))
                if code is None:
                    raise ImportRefused([(0, 0, _("Round %(n)s: players %(a)s and %(b)s have results %(ra)s/%(rb)s that "
                                                  "do not form a game.") % {"n": number, "a": p.id, "b": opp.id,
                                                                             "ra": e.result.value, "rb": back.result.value})])
                board += 1
                games.append((created[p.id], created[opp.id], code))
            # boards by the higher score/rank is not known here: keep the file's order
            Game.objects.create_boards(
                rnd, ((i, w.pk, b.pk, r) for i, (w, b, r) in enumerate(games, start=1))
            )
            Round.objects.filter(pk=rnd.pk).update(published_at=rnd.created)
        Bye.objects.bulk_create(byes, batch_size=1000)
        for pid in data.absent_next:
            if played + 1 <= t.rounds and not (pid in withdrawn and played + 1 >= withdrawn[pid]):
                Bye.objects.get_or_create(
                    tournament=t, player=created[pid], round_number=played + 1, defaults={"kind": ByeKind.ZERO}
                )
        for (number, pid), kind in byes_ahead.items():
            if number <= played:
                continue  # the round's 001 entry is the bye (or the withdrawal, above)
            if pid in withdrawn and number >= withdrawn[pid]:
                continue  # stored as the withdrawal
            Bye.objects.update_or_create(
                tournament=t, player=created[pid], round_number=number, defaults={"kind": kind}
            )
        for pid, number in withdrawn.items():
            Player.objects.filter(pk=created[pid].pk).update(withdrawn_from_round=number)
        ScheduledRound.objects.bulk_create(
            ScheduledRound(tournament=t, number=n, date=day) for n, day in reading.round_dates(data).items() if n <= t.rounds)
        if last_ga is not None and played:
            t.acceleration_last_ga = created.get(last_ga)
            Tournament.objects.filter(pk=t.pk).update(acceleration_last_ga=t.acceleration_last_ga)
        forbidden_rows = []
        for pair in forbidden_ahead:
            low, high = sorted((created[i] for i in pair), key=lambda p: p.pk)  # the lower id first
            forbidden_rows.append(ForbiddenPair(tournament=t, player_a=low, player_b=high))
        ForbiddenPair.objects.bulk_create(forbidden_rows)
        renumber(t)
        background = asked is not None
        checked = not background and len(created) * played <= IMPORT_CHECK_LIMIT
        symbols = reading.unknown_symbols(data)
        differing = _imported_rounds_checked(t, confirmations, symbols, reviewed.changes) if checked else []
        if background:
            asked.extend(symbols + reviewed.changes)
        elif not checked and symbols + reviewed.changes:
            require(Level.CONFIRM, confirmations, _("Import the file with these adjustments"), symbols + reviewed.changes,
                    import_review.findings([], {}, symbols, reviewed.changes))
        forbidden = forbidden_pair_names(t)
        AuditEntry.log(
            t, user, AuditAction.IMPORT,
            f"TRF import: {len(created)} players, {played} rounds"
            + (f", {len(forbidden)} forbidden pairs." if forbidden else ".")
            + ("" if checked else " " + (BACKGROUND if background else in_english(NOT_CHECKED) % {"system": t.system})),
            label="TRF file", after={
                "adjustments": recorded.notes + recorded.changes,
                "players": [p.audit_label() for p in t.player_set.order_by("tpn")],
                "rounds": played,
                **({"forbidden_pairs": forbidden} if forbidden else {}),
                "settings": t.audit_values(["rounds", "initial_colour", "point_win", "point_draw",
                                            "point_loss", "point_pab", "point_half_bye"]),
            },
        )
        for number, line, _found, recorded in differing:
            events.record(t, IntegrityKind.IMPORT, number, line, user, detail=recorded, point=point)
        _in_time(deadline)  # the last moment to give up: what follows is the commit
    if report is not None:
        report.extend(reviewed.notes + reviewed.changes)
    return len(created)


# Re-pairing every imported round runs the engine once per round; above this many
# player-rounds an upload would outlast the server's request timeout (9,999 players x 40
# rounds: 69 s to import, minutes to re-pair), so the rounds are left to the command line.
IMPORT_CHECK_LIMIT = 20_000
NOT_CHECKED = gettext_lazy("The rounds were not re-paired against the rules: too large to check during an upload. "
                           "Check the file with: python -m pairing.engine --%(system)s -c FILE.trf")


def not_checked(t: Tournament) -> str:
    """:data:`NOT_CHECKED` with the command line of the tournament's system."""
    return str(NOT_CHECKED) % {"system": t.system}


# a file over the limit uploaded on the import page: imported and checked by the worker
BACKGROUND = "The rounds are re-paired in the background; the tournament waits for that check."


def round_difference(t: Tournament, rnd, players: dict, tpn: dict):
    """Round ``rnd`` as imported against the engine's pairing of it on the rounds before
    it: None when they are the same, else ``(round, ### line, differences in the active
    language, the differences in English, the engine's pairs or None, the file's pairs)``."""
    ours = integrity.round_pairs(rnd)
    try:
        theirs = integrity.engine_pairs(t, rnd.number)
    except engine.NoLegalPairing:
        theirs = None
    found = _import_differences(theirs, ours, players)
    if not found:
        return None
    with translation.override("en"):  # the event's detail is a record, in English
        recorded = " ".join(_import_differences(theirs, ours, players))
    theirs_text = "no legal pairing" if theirs is None else theirs.text(tpn)
    return (rnd.number, f"Import @ Round {rnd.number}: {theirs_text} => {ours.text(tpn)}", found, recorded, theirs,
            ours)


def import_question(differing: list, players: dict, symbols: list[str], changes: list[str]):
    """The Level-3 question of an import: ``(title, warnings, groups)`` from the rounds
    that differ (:func:`round_difference`'s tuples) and the other adjustments to confirm
    (``symbols``: unknown result symbols; ``changes``: the review's), or None when there is
    nothing to ask."""
    groups = import_review.findings([(d[0], d[4], d[5]) for d in differing], players, symbols, changes)
    if differing:
        return (_("Import rounds that break the pairing rules"),
                [_("Round %(n)s:") % {"n": d[0]} + " " + " ".join(d[2]) for d in differing]
                + [_("The engine pairs these rounds differently. Imported as they are, each is a pairing-integrity "
                     "event: recorded and written in the rating report's copy.")] + symbols + changes, groups)
    if symbols or changes:
        return _("Import the file with these adjustments"), symbols + changes, groups
    return None


def _imported_rounds_checked(
    t: Tournament, confirmations: int, symbols: list[str] | None = None, changes: list[str] | None = None,
) -> list[tuple[int, str, list[str], str]]:
    """Each imported round against the engine's pairing of it: ``(round, ### line,
    differences, the differences in English)`` for the rounds that differ, after the
    Level-3 confirmation.  The other adjustments to confirm (``symbols``: unknown result
    symbols read as adjourned games; ``changes``: records left out, codes converted) are
    asked in the same question, the page grouping everything by kind
    (:func:`.import_review.findings`)."""
    players = {p.pk: p for p in t.player_set.all()}
    tpn = {pk: p.tpn for pk, p in players.items()}
    differing = [d for rnd in t.round_set.order_by("number") if (d := round_difference(t, rnd, players, tpn))]
    question = import_question(differing, players, symbols or [], changes or [])
    if question is not None:
        title, warnings, groups = question
        require(Level.CONFIRM, confirmations, title, warnings, groups)
    return [d[:4] for d in differing]


def _import_differences(theirs, ours, players) -> list[str]:
    """How the engine's pairing of an imported round differs from the file's, in the
    active language (None: the engine finds no legal pairing)."""
    if theirs is None:
        return [_("The engine finds no legal pairing for this round.")]
    return integrity.differences(theirs, ours, players, theirs_name=_("the file"))


