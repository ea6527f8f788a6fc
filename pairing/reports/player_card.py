"""A player's card: every round with opponent, colour, result and running score."""

from __future__ import annotations

from dataclasses import dataclass
from decimal import Decimal

from django.db.models import Q
from django.utils.translation import gettext_lazy as _

from .. import engine
from ..engine import Colour, Result
from ..models import SIDES, Bye, ByeKind, Game, Player, RoundStatus, Tournament
from ..services.snapshot import point_system
from . import rating_change
from .aro import in_tenths
from .crosstable import CELL_RESULT, requested_zero_byes
from .standings import ranked

_SIDE_RESULT = {**CELL_RESULT, Result.FORFEIT_LOSS: "−"}


_CARD_BYE = {
    Result.PAIRING_BYE: _("bye"), Result.FULL_BYE: _("full-point bye"), Result.HALF_BYE: _("half-point bye"),
    Result.ZERO_BYE: _("not paired"),
}


_CARD_ZERO_BYE = _("zero-point bye")  # requested; "not paired" is a round outside the tournament


@dataclass(frozen=True)
class CardRound:
    """One round of a player's card; ``points`` and ``running`` are None while in play."""

    number: int
    board: int | None
    colour: str  # "W", "B" or "" (no game)
    opponent: Player | None
    result: str  # "1", "½", "0", "+", "−", "bye", "half-point bye", ... or "" in play
    points: Decimal | None
    running: Decimal | None
    forfeit: bool = False


@dataclass(frozen=True)
class PlayerCard:
    player: Player
    rounds: int  # complete rounds counted
    rank: int | None
    points: Decimal
    aro: int | Decimal  # Dubov 1.6: played opponents only, rounded half up; 0 without games; under the
    # rules of 1997 (1.2: not rounded) to one decimal, as the ARO list shows it
    tpr: int | None  # C.07 10.2, as in the standings; None without a game (a real 0 is 0)
    games_played: int
    colours: str  # played games only, e.g. "WBW" (Dubov 1.5 / D3)
    colour_difference: int
    rows: list[CardRound]
    rating_change: object = None  # rating_change.PlayerChange


def player_card(t: Tournament, player: Player) -> PlayerCard:
    """Round-by-round history of one player (complete rounds, then the round in play),
    with points, ARO (the engine's), TPR (the tie-break module's) and colours.

    A fixed number of queries whatever the field size: the rank and the TPR come from
    the standings every page shares (:func:`~pairing.reports.standings.ranked`), the
    rest from this player's games and his opponents.
    """
    from ..services.snapshot import histories

    table = ranked(t)
    hist = histories(t, table.rounds, [player])[player.pk]
    ps = point_system(t)
    boards = {
        g["round__number"]: g
        for g in Game.objects.filter(round__tournament=t)
        .filter(Q(white=player) | Q(black=player))
        .exclude(round__status=RoundStatus.DRAFT)
        .values("round__number", "board", "white_id", "black_id", "result")
    }
    met = {e.opponent for e in hist} | {g["white_id"] for g in boards.values()} | {g["black_id"] for g in boards.values()}
    by_pk = Player.objects.only("name", "title", "tpn", "tournament_id", *rating_change.RATING_FIELDS).in_bulk(
        met - {None, player.pk}
    )
    zero = {k for pk, k in requested_zero_byes(t, table.rounds, [player.pk]) if pk == player.pk}
    rows: list[CardRound] = []
    running = Decimal(0)
    for k, e in enumerate(hist, start=1):
        pts = ps.points(e.result)
        running += pts
        if e.opponent is None:
            rows.append(CardRound(k, None, "", None, _CARD_ZERO_BYE if k in zero else _CARD_BYE[e.result], pts, running))
        else:
            rows.append(
                CardRound(
                    k,
                    boards[k]["board"] if k in boards else None,
                    "W" if e.colour is Colour.WHITE else "B",
                    by_pk.get(e.opponent),
                    _SIDE_RESULT[e.result],
                    pts,
                    running,
                    forfeit=e.result in (Result.FORFEIT_WIN, Result.FORFEIT_LOSS),
                )
            )
    in_play = t.published_rounds().filter(number=table.rounds + 1).first()
    if in_play is not None:
        g = boards.get(in_play.number)
        if g is not None:
            white = g["white_id"] == player.pk
            opponent = by_pk.get(g["black_id"] if white else g["white_id"])
            sides = SIDES.get(g["result"])  # a result already in, before the round is complete
            result = Result(sides[0 if white else 1]) if sides else None
            rows.append(
                CardRound(
                    in_play.number, g["board"], "W" if white else "B", opponent,
                    _SIDE_RESULT[result] if result else "", None, None,
                    forfeit=result in (Result.FORFEIT_WIN, Result.FORFEIT_LOSS),
                )
            )
        else:
            bye = Bye.objects.filter(player=player, round_number=in_play.number).first()
            if bye is None:
                text = _CARD_BYE[Result.ZERO_BYE]
            else:
                text = _CARD_ZERO_BYE if bye.kind == ByeKind.ZERO else _CARD_BYE[Result(bye.kind)]
            rows.append(CardRound(in_play.number, None, "", None, text, None, None))
    me = engine.Player(id=player.pk, tpn=player.tpn or 0, rating=player.rating, name=player.name, history=tuple(hist))
    ratings = {pk: p.rating for pk, p in by_pk.items()}
    aro = engine.aro(me, ratings)
    if aro and t.dubov_rules_1997:
        aro = in_tenths(engine.aro_unrounded(me, ratings))
    colours = engine.played_colours(me.history)
    rank = next((r.rank for r in table.rows if r.player_id == player.pk), None)
    return PlayerCard(
        player=player,
        rounds=table.rounds,
        rank=rank,
        points=running,
        aro=aro,
        tpr=table.tpr.get(player.pk),
        games_played=len(colours),
        colours="".join("W" if c is Colour.WHITE else "B" for c in colours),
        colour_difference=engine.colour_difference(me.history),
        rows=rows,
        rating_change=rating_change.changes([player], {player.pk: hist}, by_pk)[player.pk],
    )

