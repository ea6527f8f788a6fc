"""Standings with the tournament's tie-breaks (FIDE C.07 via :mod:`pairing.tiebreaks`),
computed from the complete rounds; also the table the crosstable and the player card
are built from."""

from __future__ import annotations

from dataclasses import dataclass
from decimal import ROUND_HALF_UP, Decimal
from typing import NamedTuple

from django.utils.translation import gettext

from ..engine import RoundEntry
from ..models import Game, GameResult, Player, RoundStatus, Tournament
from ..services.snapshot import histories, history_table, point_system


def figure(value, places: int) -> str:
    """A score or tie-break as the tables show it: whole numbers without decimals,
    others with ``places`` decimals, rounded half up (``3``, ``2.5``, ``4.50``, ``0.75``).
    The template filter ``floatformat:"-N"`` does the same, ten times slower on a
    1,000-row table."""
    if isinstance(value, int):
        return str(value)
    if value == value.to_integral_value():
        return str(int(value))
    return str(Decimal(value).quantize(Decimal(1).scaleb(-places), rounding=ROUND_HALF_UP))


def fixed(value, places: int) -> str:
    """``value`` with exactly ``places`` decimals, rounded half up."""
    if places == 0:
        return str(int(Decimal(value).to_integral_value(ROUND_HALF_UP)))
    return str(Decimal(value).quantize(Decimal(1).scaleb(-places), rounding=ROUND_HALF_UP))


def column_places(columns: list[list], most: int = 2) -> tuple[int, ...]:
    """Per column, the fewest decimals (up to ``most``) that show each of its values as
    :func:`figure` would: 0 for whole numbers only, 1 for halves, 2 for quarters."""
    out = []
    for values in columns:
        needed = 0
        for v in set(values):  # each value once (a big field repeats most of them)
            if isinstance(v, int):
                continue
            text = figure(v, most)
            if "." in text:
                needed = max(needed, len(text.rstrip("0").split(".")[1]))
        out.append(needed)
    return tuple(out)


@dataclass(frozen=True)
class StandingRow:
    rank: int
    player: Player
    points: Decimal
    tiebreaks: tuple
    # per tie-break: an average or performance of a player without a game (AOB, ARO, TPR,
    # PTP, APRO, APPO; 0 in the computation, which orders them last), shown as "—" / left
    # empty in the CSV
    no_value: tuple[bool, ...] = ()
    # decimals of each tie-break column (the same for every row: "5.00" beside "3.50",
    # not "5"; issue 21, rough edge 8); empty: each value as :func:`figure` writes it
    places: tuple[int, ...] = ()

    @property
    def points_text(self) -> str:
        return figure(self.points, 1)

    @property
    def tiebreak_texts(self) -> tuple[str, ...]:
        blank = self.no_value or (False,) * len(self.tiebreaks)
        if not self.places:
            return tuple("—" if b else figure(v, 2) for v, b in zip(self.tiebreaks, blank, strict=True))
        return tuple(
            "—" if b else fixed(v, p) for v, b, p in zip(self.tiebreaks, blank, self.places, strict=True)
        )

    @property
    def tiebreak_values(self) -> tuple:
        """For the CSV: the numbers, empty where there is none."""
        blank = self.no_value or (False,) * len(self.tiebreaks)
        return tuple("" if b else v for v, b in zip(self.tiebreaks, blank, strict=True))


def complete_rounds(t: Tournament) -> int:
    """The number of the last complete round (0 before round 1 is complete)."""
    done = t.round_set.filter(status=RoundStatus.COMPLETE).order_by("-number").first()
    return done.number if done else 0


class RankRow(NamedTuple):
    """One line of :class:`Ranked`: the player by id, with his figures."""

    player_id: int
    rank: int
    points: Decimal
    tiebreaks: tuple
    no_value: tuple[bool, ...]


@dataclass(frozen=True)
class Ranked:
    """The standings after ``rounds`` as the pages need them, by player id: small enough
    to keep in the shared cache (9,999 players: about 1 MB) and computed once for every
    page, CSV and card that shows them (:func:`ranked`).  Each page fetches the players
    of the lines it shows."""

    rounds: int
    labels: tuple[str, ...]
    rows: tuple[RankRow, ...]
    expelled: tuple[RankRow, ...]  # out of the standings, at the foot of the crosstable
    places: tuple[int, ...]
    dropped: tuple[str, ...]
    tpr: dict[int, int | None]  # every player's TPR (C.07 10.2), for the cards; None without a game
    average_rating: int | None
    rated: bool  # some game counts for FIDE rating (the Rtg ± column)

    def lines(self) -> dict[int, int]:
        """Player id -> line number in the crosstable (ranked players, then expelled)."""
        return {r.player_id: i for i, r in enumerate((*self.rows, *self.expelled), start=1)}

    def standing_rows(self, rows, players: dict) -> list[StandingRow]:
        """``rows`` (some of :attr:`rows`) as :class:`StandingRow` with their players."""
        return [StandingRow(r.rank, players[r.player_id], r.points, r.tiebreaks, r.no_value, self.places) for r in rows]


def ranked(t: Tournament, rounds: int | None = None, order_ties: bool = True) -> Ranked:
    """:func:`standings_table` after ``rounds`` (default: the last complete round) as
    :class:`Ranked`, computed once and shared by every request until something it
    depends on changes (:func:`pairing.computed.through_round`: results entered in a
    later round change nothing here)."""
    from ..computed import through_round

    done = complete_rounds(t)
    rounds = done if rounds is None else max(0, min(rounds, done))
    return through_round(t, f"ranked-{int(order_ties)}", rounds, lambda: _ranked(t, rounds, order_ties), rounds_too=True)


def points_before(t: Tournament, number: int) -> dict[int, str] | None:
    """Every player's points before round ``number`` as the tables write them (player id
    -> "1.5"), for the pairing list's Pts columns: computed once per round and shared by
    every page of the list and every request until something in rounds 1..``number`` - 1
    changes (results entered in round ``number`` change nothing here).  None when an
    earlier round has a board without a result (the caller reads its page's players)."""
    from ..computed import through_round

    def compute():
        points = points_through(t, number - 1)
        return None if points is None else {pk: figure(value, 1) for pk, value in points.items()}

    return through_round(t, "points-before", number - 1, compute, rounds_too=True)


def points_through(t: Tournament, up_to: int) -> dict[int, Decimal] | None:
    """Every player's points in rounds 1..``up_to`` (player id -> points), as the
    histories score them (:func:`~pairing.services.snapshot.histories`: drafts left out,
    the PAB of a round not yet published left out, a round without a game or a bye 0),
    counted by the database: how many of each result each player had, then the point
    system's value of each (a 9,999 x 41 field: 0.2 s, where the histories take 1.5 s).
    None when a board of those rounds has no result yet."""
    from django.db.models import Count, Q

    from ..engine import Result
    from ..models import SIDES, Bye, ByeKind

    rounds = list(t.round_set.filter(number__lte=up_to).exclude(status=RoundStatus.DRAFT).values_list("pk", flat=True))
    games = Game.objects.filter(round_id__in=rounds)
    if games.filter(result=GameResult.PENDING).exists():
        return None
    ps = point_system(t)
    value = {code: tuple(ps.points(Result(side)) for side in sides) for code, sides in SIDES.items()}
    points = {pk: Decimal(0) for pk in t.player_set.values_list("pk", flat=True)}
    for side, index in (("white_id", 0), ("black_id", 1)):
        for pk, code, n in games.values_list(side, "result").annotate(n=Count("pk")).order_by():
            if pk in points:
                points[pk] += value[code][index] * n
    # the byes counted by the database too (80,000 at 9,999 x 40), but the PAB of a
    # round not yet published (a draft's)
    published = list(t.published_rounds().values_list("number", flat=True))
    byes = Bye.objects.filter(tournament=t, round_number__lte=up_to).filter(
        ~Q(kind=ByeKind.PAIRING) | Q(round_number__in=published))
    worth = {kind: ps.points(Result(kind)) for kind in ByeKind.values}
    for pk, kind, n in byes.values_list("player_id", "kind").annotate(n=Count("pk")).order_by():
        if pk in points:
            points[pk] += worth[kind] * n
    return points


class RankedPlayer(NamedTuple):
    """What the ranking reads of a player (:func:`_ranked`), read as plain rows: 10,000
    model instances take three times as long to make, and nothing else of them is used."""

    pk: int
    tpn: int | None
    rating: int
    rating_provisional: bool
    fide_rating: int | None
    national_rating: int | None
    external_tiebreak: Decimal | None
    expelled: bool
    hand_rank: int | None
    withdrawn_from_round: int | None


def _ranked(t: Tournament, rounds: int, order_ties: bool) -> Ranked:
    from .. import tiebreaks as tb
    from . import rating_change

    players = [RankedPlayer(*row) for row in t.player_set.order_by("tpn").values_list(*RankedPlayer._fields)]
    # the ranking's own rows made into RankRow at once, without a StandingRow each
    table = _ranking(t, rounds, order_ties, (tb.TieBreak.TPR,), players)
    blank = (False,) * len(table.labels)

    def compact(r) -> RankRow:
        return RankRow(r.id, r.rank, r.points, r.tiebreaks, r.undefined or blank)

    return Ranked(
        rounds=table.rounds,
        labels=tuple(table.labels),
        rows=tuple(map(compact, table.rows)),
        expelled=tuple(compact(r._replace(rank=0)) for r in table.expelled),
        places=table.places if table.rows else (),
        dropped=tuple(table.dropped),
        tpr={pk: int(v[0]) if v[0] is not None else None for pk, v in table.extra.items()},
        average_rating=rating_change.average_rating(table.players),
        rated=(rating_change.any_rated(table.players, table.hist) if table.hist is not None
               else rating_change.any_rated_in(table.players, table.data.columns)),
    )


@dataclass(frozen=True)
class _Table:
    labels: list[str]
    rows: list[StandingRow]
    rounds: int
    players: list[Player]
    hist: dict[int, list[RoundEntry]] | None  # None: the rounds read as columns (data.columns)
    data: object  # tiebreaks.TBTournament
    # expelled players (rank 0): out of the standings, at the foot of the crosstable
    expelled: list[StandingRow] = ()
    # rating-based tie-breaks left out: unrated players present, no rule for them (C.07 10)
    dropped: list[str] = ()
    # player id -> the values of the ``extra`` tie-breaks asked for
    extra: dict = None


def tiebreak_input(t: Tournament, players: list[Player], hist: dict | None, rounds: int, columns=None):
    """The tie-break computation's input for ``t``: the C.07 text by the start date, the
    rule for unrated players (never their provisional pairing rating), each round's
    rating for an event over 30 days, the values typed in for EXT.  The rounds as
    ``hist`` (player id -> entries) or as ``columns`` (:func:`history_table`, by the
    players' positions)."""
    from .. import tiebreaks as tb
    from ..models import RoundRating

    per_round: dict[int, list[int | None]] = {}
    if t.long_event and t.ratings_per_round and rounds:
        for rr in RoundRating.objects.filter(player__tournament=t).order_by("player_id", "round_number"):
            row = per_round.setdefault(rr.player_id, [None] * rounds)
            for r in range(rr.round_number - 1, rounds):
                row[r] = rr.rating
    return tb.TBTournament(
        players=tuple(
            tb.TBPlayer(
                id=p.pk, rating=None if p.rating_provisional else p.rating,
                history=() if columns is not None else tuple(hist[p.pk]),
                tpn=p.tpn or 0, round_ratings=tuple(per_round.get(p.pk, ())), external=p.external_tiebreak,
            )
            for p in players
        ),
        rounds=rounds,
        points=point_system(t),
        round_robin=t.round_robin,
        rules=t.effective_tiebreak_rules(),
        unrated=tb.Unrated(t.unrated_tiebreaks),
        unrated_rating=t.unrated_tiebreak_rating or 0,
        ratings_per_round=t.long_event and t.ratings_per_round,
        columns=tb.HistoryColumns(*columns) if columns is not None else None,
    )


def tie_key(t: Tournament, players: list[Player]):
    """How players equal on points and every tie-break are ordered: the chief arbiter's
    order first (players he has not placed after those he has), then, when the
    tournament says so, the drawing of lots its seed gives (the same seed, the same
    order).  None: they share the place."""
    hand = {p.pk: p.hand_rank for p in players if p.hand_rank}
    lots: dict[int, int] = {}
    if t.final_ties == "lots" and t.lots_seed is not None:
        import random

        drawn = sorted(p.pk for p in players)
        random.Random(t.lots_seed).shuffle(drawn)
        lots = {pk: i for i, pk in enumerate(drawn)}
    if not hand and not lots:
        return None
    return lambda pk: (pk not in hand, hand.get(pk, 0), lots.get(pk, 0))


def standings_table(t: Tournament, rounds: int | None = None, order_ties: bool = True, extra=(),
                    players: list | None = None) -> _Table:
    """Standings after ``rounds`` complete rounds (default: the last complete one),
    with the histories they were computed from.  A fixed number of queries.
    ``order_ties``: players tied on everything are ordered by the chief arbiter's order
    and the drawing of lots (when the tournament has them); False: they share.
    ``extra``: tie-breaks computed beside (each player's values in ``extra`` of the table).
    ``players``: every player of ``t`` by pairing number, as :class:`RankedPlayer` rows
    (the rows' ``player`` are those) when the caller reads them so; default the models."""
    table = _ranking(t, rounds, order_ties, extra, players)
    by_pk = {p.pk: p for p in table.players}
    blank = (False,) * len(table.labels)

    def row(r, rank: int) -> StandingRow:
        # an average or performance of a player without a game is 0 in the order and
        # shown '—'; a real 0 (a TPR of 0 over games played) is 0
        return StandingRow(rank, by_pk[r.id], r.points, r.tiebreaks, r.undefined or blank, table.places)

    return _Table(
        table.labels, [row(r, r.rank) for r in table.rows], table.rounds, table.players, table.hist, table.data,
        [row(r, 0) for r in table.expelled], table.dropped, table.extra,
    )


class _Ranking(NamedTuple):
    """What :func:`_ranking` works out: the rows of :func:`pairing.tiebreaks.standings`
    (player ids, not players)."""

    labels: list[str]
    rows: list  # tiebreaks.StandingRow, ranked
    expelled: list  # tiebreaks.StandingRow of the expelled players (their rank to be 0)
    places: tuple[int, ...]
    rounds: int
    players: list
    hist: dict | None
    data: object
    dropped: list[str]
    extra: dict


def _ranking(t: Tournament, rounds: int | None, order_ties: bool, extra, players: list | None) -> _Ranking:
    """:func:`standings_table`'s work, its rows left as the ranking gives them."""
    from .. import tiebreaks as tb

    done = complete_rounds(t)
    rounds = done if rounds is None else max(0, min(rounds, done))
    # only count complete rounds (a round in play is not in the table)
    columns = None
    if players is None:
        players = list(t.player_set.order_by("tpn"))
        hist = histories(t, rounds, players)
    elif t.round_robin:  # the annulled results (C.05) are read on the entries
        hist = histories(t, rounds, players)
    else:  # the ranking's plain rows: the rounds read as the tie-breaks' columns, no entries
        hist, columns = None, history_table(t, rounds, players)
    try:
        order = tb.parse_order(t.tiebreaks) if t.tiebreaks.strip() else ()
    except ValueError:
        order = ()
    annulled = annulled_players(t, players, hist) if t.round_robin else set()
    if annulled:
        hist = _without_games_of(hist, annulled)
    data = tiebreak_input(t, players, hist, rounds, columns)
    order, dropped = tb.applicable(data, order)
    try:
        rows, extra_values = tb.standings_with(data, order, extra)
    except Exception:  # noqa: BLE001 - a tie-break bug must not take the page down
        order = ()
        rows, extra_values = tb.standings_with(data, order, extra)
    # expelled players' games count for everyone above; they have no place themselves
    expelled = {p.pk for p in players if p.expelled} | annulled
    gone = [r for r in rows if r.id in expelled]
    rows = tb.without(rows, expelled)
    key = tie_key(t, [p for p in players if p.pk not in expelled]) if order_ties else None
    if key is not None:
        rows = tb.break_ties(rows, key)
    places = column_places([[r.tiebreaks[i] for r in rows] for i in range(len(order))])
    return _Ranking([o.label for o in order], rows, gone, places, rounds, players, hist, data,
                    [o.label for o in dropped], extra_values)


def tied_groups(t: Tournament) -> list[list[StandingRow]]:
    """The groups of players equal on points and on every tie-break after the last
    complete round (before the chief arbiter's order or the lots), best first."""
    table = ranked(t, order_ties=False)
    groups: dict[int, list[RankRow]] = {}
    for r in table.rows:
        groups.setdefault(r.rank, []).append(r)
    tied = [g for g in groups.values() if len(g) > 1]
    players = Player.objects.in_bulk([r.player_id for g in tied for r in g])
    return [table.standing_rows(g, players) for g in tied]


def round_rating_grid(t: Tournament) -> tuple[list[int], list[tuple[Player, list[int | None]]]]:
    """For an event over 30 days: the rounds after the first, and per player the rating
    typed for each of them (None: none typed; the one before goes on)."""
    from ..models import RoundRating

    rounds = list(range(2, t.rounds + 1))
    typed = {(r.player_id, r.round_number): r.rating for r in RoundRating.objects.filter(player__tournament=t)}
    return rounds, [(p, [typed.get((p.pk, n)) for n in rounds]) for p in t.player_set.order_by("tpn", "name")]


def long_event_advice(t: Tournament) -> str:
    """C.07 10 (VCL4THP Q211): for an event over 30 days the rating-based tie-breaks are
    not advised.  The notice naming the ones listed, '' when none is or the event is short."""
    from .. import tiebreaks as tb

    if not t.long_event:
        return ""
    try:
        listed = [o.label for o in tb.parse_order(t.tiebreaks) if o.rating_based]
    except ValueError:
        return ""
    if not listed:
        return ""
    return gettext("This event lasts over 30 days: FIDE's tie-break regulations (C.07 10) advise against "
                   "rating-based tie-breaks (%(codes)s), since ratings change during it.") % {"codes": ", ".join(listed)}


def annulled_players(t: Tournament, players, hist) -> set[int]:
    """Round robin (C.05; VCL4THP Q103): a player who withdrew having played fewer than
    half of his games has his results annulled - none of his games count, for anyone."""
    from ..engine.berger import total_rounds

    if len(players) < 2:
        return set()
    games = total_rounds(len(players), t.rr_cycles) - (t.rr_cycles if len(players) % 2 else 0)
    return {
        p.pk for p in players
        if p.withdrawn_from_round is not None and 2 * sum(1 for e in hist[p.pk] if e.played) < games
    }


def _without_games_of(hist: dict, annulled: set[int]) -> dict:
    from ..engine import Result, RoundEntry

    blank = RoundEntry(None, None, Result.ZERO_BYE)
    return {pk: [blank if pk in annulled or e.opponent in annulled else e for e in h] for pk, h in hist.items()}


def standings(t: Tournament, rounds: int | None = None) -> tuple[list[str], list[StandingRow], int]:
    """Ranked rows after ``rounds`` (default: the last complete round), with the
    tournament's tie-breaks.  Returns (tie-break labels, rows, rounds counted)."""
    table = standings_table(t, rounds)
    return table.labels, table.rows, table.rounds



def open_adjourned(t: Tournament, up_to: int | None = None):
    """The adjourned games still without their result (in rounds ``<= up_to``)."""
    games = Game.objects.filter(round__tournament=t, result=GameResult.ADJOURNED).select_related("round", "white", "black")
    if up_to is not None:
        games = games.filter(round__number__lte=up_to)
    return games.order_by("round__number", "board")


def adjourned_text(games) -> str:
    """``round 3 board 2 (A – B), …``"""
    return ", ".join(gettext("round %(n)s board %(board)s (%(white)s – %(black)s)") % {
        "n": g.round.number, "board": g.board, "white": g.white.name, "black": g.black.name} for g in games)


def open_boards(t: Tournament) -> int:
    """Boards of the last published round still without a result, when another round is
    to come: at pairing time they can become adjourned games (VCL4THP Q158)."""
    last = t.published_rounds().last()
    if last is None or last.number >= t.rounds:
        return 0
    return last.game_set.filter(result=GameResult.PENDING).count()
