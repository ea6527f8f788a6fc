"""The database as the engine sees it: the one builder of :class:`~pairing.engine.Snapshot`.

Engine ids are ``Player.pk``, TPNs come from the model, history from games and byes,
absences from requested byes and withdrawals, forbidden pairs from
:class:`~pairing.models.ForbiddenPair`.
"""

from __future__ import annotations

from collections.abc import Iterator
from decimal import Decimal
from typing import NamedTuple

from django.db.models import Q

from .. import engine
from ..engine import Colour, PointSystem, Result, RoundEntry, Snapshot, System
from ..engine.model import new_entry
from ..models import SIDES, Bye, ByeKind, ForbiddenPair, Game, GameResult, Player, RoundStatus, Tournament
from . import acceleration


def point_system(t: Tournament) -> PointSystem:
    return PointSystem(
        win=t.point_win,
        draw=t.point_draw,
        loss=t.point_loss,
        forfeit_win=t.point_win,
        forfeit_loss=t.point_loss,
        pairing_bye=t.point_pab,
        full_bye=t.point_win,
        half_bye=t.point_half_bye,
        zero_bye=Decimal("0"),
    )


# Each stored result as the two sides' entries' results, and each kind of bye as its
# entry (immutable, shared): looked up once, not per game.
_SIDE_RESULTS = {code: (Result(w), Result(b)) for code, (w, b) in SIDES.items()}
_BYE_ENTRIES = {kind: RoundEntry(None, None, Result(kind)) for kind in ByeKind.values}


def engine_system(t: Tournament) -> System:
    """The engine's Swiss system for ``t`` (a round robin is not paired by the engine;
    its snapshot, used by the reports, reads as Dubov's)."""
    return {"dutch": System.DUTCH, "burstein": System.BURSTEIN}.get(t.system, System.DUBOV)


# Up to this many players, histories() reads their games only (by their ids); past it, the
# tournament's games without a list of ids in the query
_FEW_PLAYERS = 1000


def histories(t: Tournament, up_to: int, players: list[Player] | None = None) -> dict[int, list[RoundEntry]]:
    """Round-by-round entries for rounds 1..up_to of every player (by pk), or of
    ``players`` only when given (their opponents appear as ids).

    A round with neither a game nor a bye (late entry, withdrawn, not paired) is ``Z``.
    Drafts are ignored.  A game still without a result raises ValueError (naming its
    round and board).  A few queries and one pass over the games (a 9,999-player,
    40-round field: 200,000 games), read without a join (the rounds' numbers apart).
    """
    ids = [p.pk for p in players] if players is not None else list(t.player_set.values_list("pk", flat=True))
    index = {pk: i for i, pk in enumerate(ids)}
    zero = _BYE_ENTRIES[ByeKind.ZERO]
    # each round's entries in that round's list, made into the players' lines at the end
    # (as history_table does: one list lookup an entry, not a dict's and a list's)
    rounds = [[zero] * len(ids) for _ in range(up_to)]
    numbers, games, byes = _games_and_byes(t, up_to, ids, subset=players is not None and len(ids) <= _FEW_PLAYERS)
    white, black, sides_of, at = Colour.WHITE, Colour.BLACK, _SIDE_RESULTS, index.get
    for r, w, b, result in _games_read(games, numbers, index):
        sides = sides_of[result]
        wi, bi = at(w), at(b)
        line = rounds[r]
        if wi is not None:
            line[wi] = new_entry((b, white, sides[0]))
        if bi is not None:
            line[bi] = new_entry((w, black, sides[1]))
    for player_id, number, kind in _byes_counted(t, byes, index):
        rounds[number - 1][index[player_id]] = _BYE_ENTRIES[kind]
    return dict(zip(ids, _by_player(rounds, len(ids)), strict=True))


def history_table(t: Tournament, up_to: int, players: list) -> tuple[list[list[int]], list[list[str]], list[list]]:
    """:func:`histories` of every player of ``t`` (``players``, anything with ``pk``) as
    the tie-breaks' columns (:class:`pairing.tiebreaks.HistoryColumns`): by the players'
    positions in ``players``, the opponent's position (-1 for none), the result code, the
    colour.  Read from the games straight into the lists, without making the 400,000
    entries and reading them back.  Each round's figures are written into that round's
    lists (one list lookup a figure, not two) and turned into the players' rows at the
    end by ``zip`` (in C): 9,999 x 40, the loop over the 200,000 games 120-130 -> 85 ms,
    beside 0.1 s of fetching them and the byes."""
    index = {p.pk: i for i, p in enumerate(players)}
    n = len(players)
    opponents = [[-1] * n for _ in range(up_to)]
    codes = [[ByeKind.ZERO.value] * n for _ in range(up_to)]
    colours: list[list] = [[None] * n for _ in range(up_to)]
    numbers, games, byes = _games_and_byes(t, up_to, list(index), subset=False)
    white, black, at = Colour.WHITE, Colour.BLACK, index.get
    for r, w, b, result in _games_read(games, numbers, index):
        sides = SIDES[result]
        wi, bi = at(w), at(b)
        opp, code, colour = opponents[r], codes[r], colours[r]
        if wi is not None:
            opp[wi], code[wi], colour[wi] = bi, sides[0], white
        if bi is not None:
            opp[bi], code[bi], colour[bi] = wi, sides[1], black
    for player_id, number, kind in _byes_counted(t, byes, index):
        i, r = index[player_id], number - 1
        opponents[r][i], codes[r][i], colours[r][i] = -1, kind, None
    return _by_player(opponents, n), _by_player(codes, n), _by_player(colours, n)


def _by_player(rounds: list[list], n: int) -> list[list]:
    """Rounds' lists (one figure for each of ``n`` players) as players' lists (one
    figure a round); ``n`` empty lists before round 1."""
    if not rounds:
        return [[] for _ in range(n)]
    return list(map(list, zip(*rounds, strict=True)))


def _games_and_byes(t: Tournament, up_to: int, ids: list[int], subset: bool):
    """(round id -> number, the games, the byes) of rounds 1..``up_to`` that the histories
    read: drafts left out; ``subset``: only those of the players ``ids`` (a few players:
    their games only; many, the whole field: every game of the tournament, read without
    a list of thousands of ids in the query, and the ones of players not asked for
    passed over by the caller)."""
    # the rounds' numbers apart (a few rows), so that the games are read without a join
    numbers = dict(
        t.round_set.filter(number__lte=up_to).exclude(status=RoundStatus.DRAFT).values_list("pk", "number")
    )
    # unordered: the models' ordering (by round number, by the player's number) would join
    # the rounds and the players and sort 200,000 rows on the server for nothing
    games = Game.objects.filter(round_id__in=numbers).order_by()
    byes = Bye.objects.filter(tournament=t, round_number__lte=up_to).order_by()
    if subset:
        games = games.filter(Q(white_id__in=ids) | Q(black_id__in=ids))
        byes = byes.filter(player_id__in=ids)
    return numbers, games, byes


def _games_read(games, numbers: dict[int, int], asked) -> Iterator[tuple[int, int, int, str]]:
    """(round index from 0, white's id, black's id, result) of each game of ``games`` with
    a result; a game of a player in ``asked`` without one raises ValueError naming the
    first such board by round and board (the games of players not asked are passed
    over, whatever their state)."""
    for round_id, w, b, result in games.values_list("round_id", "white_id", "black_id", "result"):
        if result in SIDES:
            yield numbers[round_id] - 1, w, b, result
        elif w in asked or b in asked:
            number, board = _first_without_result(games, asked)
            raise ValueError(f"round {number} board {board} has no result yet")


def _byes_counted(t: Tournament, byes, asked) -> Iterator[tuple[int, int, str]]:
    """(player id, round number, kind) of the byes that count, of players in ``asked``:
    not the PAB of a round not yet published (a draft's)."""
    published = set(t.published_rounds().values_list("number", flat=True))
    for player_id, number, kind in byes.values_list("player_id", "round_number", "kind"):
        if (kind == ByeKind.PAIRING and number not in published) or player_id not in asked:
            continue  # the PAB of a draft, or a player not asked for
        yield player_id, number, kind


def _first_without_result(games, hist: dict) -> tuple[int, int]:
    """(round number, board) of the first game of ``games`` without a result that is a
    game of a player of ``hist``, by round and board (the games are read unordered)."""
    pending = games.filter(result=GameResult.PENDING).order_by("round__number", "board")
    for number, board, w, b in pending.values_list("round__number", "board", "white_id", "black_id"):
        if w in hist or b in hist:
            return number, board
    raise AssertionError("a game without a result was read, and none is found")  # pragma: no cover


def absent_ids(t: Tournament, round_number: int) -> frozenset[int]:
    """Players not to be paired in ``round_number``: requested byes and withdrawals."""
    return t.absent_ids(round_number)


class _Entrant(NamedTuple):
    """What :func:`build_snapshot` reads of a player, read as rows (``values_list``: at
    10,000 players 7 ms against 68 ms for the model instances), with the model's own
    rule of a late entry."""

    pk: int
    tpn: int | None
    rating: int
    name: str
    entered_round: int | None

    entered_by = Player.entered_by


def numbers_in(players: list[Player], round_number: int) -> dict[int, int]:
    """{player pk: pairing number in ``round_number``}: the players in the tournament then,
    in the order of their pairing numbers now, numbered from 1; the late entries still to
    come after them (absent, and numbered so as not to move anyone's).  A late entry is
    re-slotted where the ranking rules place it (C.04.2 2.4), which shifts the numbers
    below it: the rounds before it were paired without it (docs/late-entries.md)."""
    order = sorted(players, key=lambda p: (not p.entered_by(round_number), p.tpn or 0, p.pk))
    return {p.pk: i for i, p in enumerate(order, start=1)}


def build_snapshot(t: Tournament, round_number: int | None = None) -> Snapshot:
    """The tournament as it stands before ``round_number`` (default: the next round).

    Reads only (the reports use it too): pairing numbers are kept up to date by every
    change of the player list, and :func:`~pairing.services.rounds.pair_next_round`
    brings them up to date once more before it pairs."""
    if round_number is None:
        round_number = t.next_round_number()
    players = [_Entrant(*row) for row in t.player_set.order_by("tpn").values_list(*_Entrant._fields)]
    hist = histories(t, round_number - 1, players)
    tpn = numbers_in(players, round_number)
    return Snapshot(
        players=tuple(
            engine.Player(id=p.pk, tpn=tpn[p.pk], rating=p.rating, name=p.name, history=tuple(hist[p.pk]))
            for p in players
        ),
        round_number=round_number,
        total_rounds=t.rounds,
        initial_colour=Colour(t.initial_colour),
        points=point_system(t),
        absent=absent_ids(t, round_number) | {p.pk for p in players if not p.entered_by(round_number)},
        forbidden=ForbiddenPair.objects.filter(tournament=t).engine_pairs(),
        acceleration=acceleration.virtual_points(t, players),
        system=engine_system(t),
        dubov_rules=engine.DubovRules(year=t.dubov_rules if t.dubov_rules_1997 else 2025),
    )

