"""Per-player figures the rules are written in: score, colour difference and
preference (1.5), ARO (1.6), upfloat counts and MaxT (1.7), PAB eligibility (C2).

These are public so that the web app can publish the ARO list (Dubov 9) with the
very numbers the engine paired with.  ``player_states`` is O(N * R).
"""

from __future__ import annotations

import weakref
from dataclasses import dataclass
from decimal import Decimal
from fractions import Fraction
from itertools import compress
from operator import gt

from ..history import (
    colour_difference,
    pab_bars,
    pab_eligible,
    pairing_scores,
    played_colours,
    preference_after,
    preference_of_colours,
    validate,
)
from ..model import (
    _PLAYED_CODES,
    Colour,
    DubovRules,
    Player,
    Preference,
    PreferenceStrength,
    Result,
    RoundEntry,
    Snapshot,
    virtual_points,
)

__all__ = [
    "PlayerState",
    "aro",
    "aro_unrounded",
    "colour_difference",
    "colour_preference",
    "max_t",
    "pab_eligible",
    "played_colours",
    "player_states",
    "upfloat_limit",
    "validate",
]


def max_t(total_rounds: int) -> int:
    """1.7.2: MaxT = 2 + floor(Rnds / 5)."""
    return 2 + total_rounds // 5


def upfloat_limit(total_rounds: int, rules: DubovRules | None = None) -> int:
    """How many upfloats make a player a maximum upfloater: MaxT (2025 1.7.2), or with
    ``rules.upfloat_bars`` the limit of 1997 2.1 ("not more than three times if the
    tournament has less than 10 rounds, four times if it has more than 9"): 3 or 4."""
    if rules is not None and rules.upfloat_bars:
        return 3 if total_rounds < 10 else 4
    return max_t(total_rounds)


def colour_preference(history: tuple[RoundEntry, ...]) -> Preference:
    """1.5.2 as read in D4.

    Absolute: CD > +1 or < -1, or the same colour in the last two played games;
    when both hold and disagree (WWWWBB) the colour difference decides.
    Strong: CD = +1 (Black) or -1 (White).  Mild: CD = 0, alternate from the last
    played game; no played game at all: mild Black (1.5.2.4).
    """
    return preference_of_colours(played_colours(history)) or Preference(Colour.BLACK, PreferenceStrength.MILD)


def aro(player: Player, ratings: dict[int, int]) -> int:
    """1.6 / D5: mean rating of played opponents, rounded half up; 0 if none."""
    opp = [ratings[e.opponent] for e in player.history if e.played and e.opponent is not None]
    return _mean_rounded(sum(opp), len(opp))


def _mean_rounded(total: int, count: int) -> int:
    """1.6.3 on a sum of ``count`` ratings: the mean rounded half up, in integers (ratings
    are positive: floor(mean + 1/2)); 0 if ``count`` is 0."""
    return (2 * total + count) // (2 * count) if count else 0


def aro_unrounded(player: Player, ratings: dict[int, int]) -> Fraction:
    """1997 1.2: the mean rating of the played opponents, not rounded (6.2's example
    lists AROs such as 2318.4); 0 if none (the 1997 text is silent: as 2025 1.6.3)."""
    opp = [ratings[e.opponent] for e in player.history if e.played and e.opponent is not None]
    return Fraction(sum(opp), len(opp)) if opp else Fraction(0)


@dataclass(frozen=True)
class PlayerState:
    """A player's figures before the round being paired."""

    id: int
    tpn: int
    rating: int
    score: Decimal  # the pairing score: points plus virtual points (C.04.5.1)
    aro: int
    games_played: int
    colour_difference: int
    colours: tuple[Colour, ...]  # played games, in order (D3)
    preference: Preference
    pab_eligible: bool  # C2 / D8
    upfloats: int  # D7, earlier rounds
    upfloated_previous: bool  # D7, round - 1
    max_upfloater: bool  # D6: upfloats >= MaxT (1997 2.1: >= 3, or 4 from 10 rounds)
    points: Decimal = Decimal(0)  # real points, as in the standings
    virtual_points: Decimal = Decimal(0)  # acceleration carried into this round
    aro_exact: Fraction = Fraction(0)  # the ARO unrounded (1997 1.2)


# 1 for a played game's result code, 0 for any other (the masks of _player_states)
_PLAYED_FLAG = dict.fromkeys((r.value for r in Result), 0) | dict.fromkeys(_PLAYED_CODES, 1)

# The figures of the last snapshot asked for, by identity: the app pairs a round and then
# publishes its ARO list from the same snapshot (9,999 players x 41 rounds: 3 s each time).
# A snapshot is immutable, so the same object always has the same figures; a weak
# reference keeps no snapshot alive.
_last: tuple = (None, None)  # (weak reference to the snapshot, its figures), replaced whole


def player_states(snapshot: Snapshot) -> dict[int, PlayerState]:
    """Figures for every player in the snapshot (absent and withdrawn ones too).

    With acceleration, ``score`` is the pairing score (points plus this round's
    virtual points), and an earlier round's upfloat compares the two players'
    pairing scores of that round: the scoregroups they were paired in.  Asked again for
    the same snapshot object, a new dict of the same (immutable) figures."""
    global _last
    ref, states = _last
    if ref is not None and ref() is snapshot:
        return dict(states)
    states = _player_states(snapshot)
    _last = (weakref.ref(snapshot, _forget), states)
    return dict(states)


def _forget(ref) -> None:
    """The snapshot is gone: let its figures go too (unless a later one replaced them)."""
    global _last
    if _last[0] is ref:
        _last = (None, None)


def _player_states(snapshot: Snapshot) -> dict[int, PlayerState]:
    # Read on the histories' columns (history.validate's, checked to agree: an opponent
    # for every game and forfeit, none for a bye, a colour for every played game), a
    # round or a player at a time by map() in C rather than entry by entry in Python
    # (400,000 entries at 10,000 x 40: 0.45 s entry by entry).
    _index, opps, codes, colours = validate(snapshot)
    players = snapshot.players
    rounds = snapshot.round_number - 1
    accel = snapshot.acceleration
    running, real = pairing_scores(snapshot, codes)
    limit = upfloat_limit(snapshot.total_rounds, snapshot.dubov_rules)
    scores = [running[p.id] for p in players]
    # D7: an upfloat in round k + 1 is a pairing (game or forfeit) with an opponent of a
    # higher pairing score before it; a bye's opponent (-1) reads the sentinel at the end
    below_all = Decimal("-Infinity")
    ups_by_round = [
        list(map(gt, map((*before, below_all).__getitem__, opponents), before))
        for before, opponents in zip(list(zip(*scores, strict=True))[:rounds], zip(*opps, strict=True), strict=True)
    ]
    ups = list(map(sum, zip(*ups_by_round, strict=True))) if rounds else [0] * len(players)
    previous = ups_by_round[-1] if rounds else [False] * len(players)
    # 1.6: the ratings of the opponents of played games (a bye's -1 reads the sentinel 0)
    ratings = [p.rating for p in players] + [0]
    played = _PLAYED_FLAG
    barred = pab_bars(snapshot.points)
    white = Colour.WHITE
    preferences: dict[tuple, Preference] = {}
    states: dict[int, PlayerState] = {}
    for i, p in enumerate(players):
        was_played = list(map(played.__getitem__, codes[i]))
        opp = list(compress(map(ratings.__getitem__, opps[i]), was_played))
        cols = tuple(compress(colours[i], was_played))
        cd = 2 * cols.count(white) - len(cols)
        shape = (cd, cols[-1], cols[-2]) if len(cols) >= 2 else (cd, cols[-1], None) if cols else None
        preference = preferences.get(shape)
        if preference is None:
            preference = preferences[shape] = (preference_after(*shape) if shape
                                               else Preference(Colour.BLACK, PreferenceStrength.MILD))
        total = sum(opp)
        states[p.id] = PlayerState(
            id=p.id,
            tpn=p.tpn,
            rating=p.rating,
            score=scores[i][-1],
            aro=_mean_rounded(total, len(opp)),
            games_played=len(cols),
            colour_difference=cd,
            colours=cols,
            preference=preference,
            pab_eligible=barred.isdisjoint(codes[i]),
            upfloats=ups[i],
            upfloated_previous=previous[i],
            max_upfloater=ups[i] >= limit,
            points=real[p.id],
            virtual_points=virtual_points(accel, p.id, snapshot.round_number),
            aro_exact=Fraction(total, len(opp)) if opp else Fraction(0),
        )
    return states
