"""Rating change per game and per player (FIDE Rating Regulations B.02 8.3): for each
rated game between two players with a FIDE rating, K x (W - We), We from the table of
expected scores (B.02 8.1.2) with a rating difference of more than 400 points counted as
400.  K is the player's K in the list (the rate of play's); 20 when the list gave none
(shown as assumed).  Forfeits, unrated results (a game under one move), byes and
adjourned games are not rated.  Figures to one decimal, as FIDE's rating reports show."""

from __future__ import annotations

from dataclasses import dataclass
from decimal import ROUND_HALF_UP, Decimal
from typing import NamedTuple

from ..engine import Result
from ..models import Player
from ..tiebreak_data import expected_hundredths

RATING_FIELDS = ("rating", "rating_provisional", "fide_rating", "national_rating", "k_factor")


class _Rated(NamedTuple):
    """An opponent as far as the rating change needs him (no model instance: a page of
    the standings meets thousands)."""

    pk: int
    rating: int
    rating_provisional: bool
    fide_rating: int | None
    national_rating: int | None
    k_factor: int | None


def shown_changes(t, rounds: int, players: dict[int, Player]) -> dict[int, PlayerChange]:
    """:func:`changes` of ``players`` only (a page of the standings): their games up to
    ``rounds`` and their opponents' ratings, whatever the field size."""
    from ..services.snapshot import histories

    hist = histories(t, rounds, list(players.values()))
    met = {e.opponent for h in hist.values() for e in h if e.opponent is not None} - set(players)
    opponents = {row[0]: _Rated(*row) for row in Player.objects.filter(pk__in=met).values_list("pk", *RATING_FIELDS)}
    return changes(list(players.values()), hist, opponents)


DEFAULT_K = 20
CAP = 400
_SCORE = {Result.WIN: Decimal(1), Result.DRAW: Decimal("0.5"), Result.LOSS: Decimal(0)}
TENTH = Decimal("0.1")


def official_rating(p: Player) -> int | None:
    """The FIDE rating the report carries: the list's (or typed as FIDE rating); a
    rating typed in a tournament without official ratings counts; a provisional one never."""
    if p.fide_rating is not None or p.national_rating is not None:
        return p.fide_rating
    return None if p.rating_provisional else p.rating


@dataclass(frozen=True)
class GameChange:
    round: int
    opponent: Player
    opponent_rating: int
    score: Decimal
    expected: Decimal
    change: Decimal


@dataclass(frozen=True)
class PlayerChange:
    rating: int | None
    k: int
    k_assumed: bool
    games: tuple[GameChange, ...]

    @property
    def total(self) -> Decimal:
        return sum((g.change for g in self.games), Decimal(0)).quantize(TENTH, ROUND_HALF_UP)


def expected(rating: int, opponent: int) -> Decimal:
    diff = max(-CAP, min(CAP, rating - opponent))
    return Decimal(expected_hundredths(diff)) / 100


def changes(players: list[Player], hist: dict, opponents: dict[int, Player] | None = None) -> dict[int, PlayerChange]:
    """``{player pk: PlayerChange}`` for the histories of the standings (``opponents``:
    their opponents by pk, when ``players`` are not all of them)."""
    by_pk = {p.pk: p for p in players} if opponents is None else {**opponents, **{p.pk: p for p in players}}
    out = {}
    for p in players:
        mine = official_rating(p)
        k = p.k_factor or DEFAULT_K
        games = []
        if mine is not None:
            for number, e in enumerate(hist[p.pk], start=1):
                if e.opponent is None or e.result not in _SCORE:
                    continue
                opp = by_pk.get(e.opponent)
                theirs = official_rating(opp) if opp else None
                if theirs is None:
                    continue
                we = expected(mine, theirs)
                games.append(GameChange(number, opp, theirs, _SCORE[e.result], we,
                                        (k * (_SCORE[e.result] - we)).quantize(TENTH, ROUND_HALF_UP)))
        out[p.pk] = PlayerChange(mine, k, p.k_factor is None, tuple(games))
    return out


def any_rated(players: list[Player], hist: dict) -> bool:
    """Whether some game of ``hist`` counts for FIDE rating (:func:`changes` would list
    it), found without working the changes out: :func:`any_rated_in` on the entries'
    columns."""
    from .. import tiebreaks as tb
    from ..engine.history import history_columns

    _index, opponents, codes, colours = history_columns([_Line(p.pk, hist[p.pk]) for p in players])
    return any_rated_in(players, tb.HistoryColumns(opponents, codes, colours))


class _Line(NamedTuple):
    id: int
    history: list


def any_rated_in(players: list, columns) -> bool:
    """Whether some game of the rounds read as columns (:class:`pairing.tiebreaks.HistoryColumns`,
    by the positions of ``players``; an opponent not among them is None) counts for FIDE
    rating: a scored game (W, D, L) between two players with an official rating."""
    official = [official_rating(p) for p in players]
    scored = {r.value for r in _SCORE}
    return any(
        official[i] is not None and code in scored and j is not None and j >= 0 and official[j] is not None
        for i, (opponents, codes) in enumerate(zip(columns.opponents, columns.codes, strict=True))
        for j, code in zip(opponents, codes, strict=True)
    )


def average_rating(players: list[Player]) -> int | None:
    """The tournament's average rating: the mean official rating of the rated players,
    rounded half up."""
    rated = [r for r in (official_rating(p) for p in players) if r is not None]
    if not rated:
        return None
    return int((Decimal(sum(rated)) / len(rated)).to_integral_value(ROUND_HALF_UP))

