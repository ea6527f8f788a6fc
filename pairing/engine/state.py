"""Per-player figures the rules are written in: score, colour difference and
preference (1.5), ARO (1.6), upfloat counts and MaxT (1.7), PAB eligibility (C2).

These are public so that the web app can publish the ARO list (Dubov 9) with the
very numbers the engine paired with.  ``player_states`` is O(N * R).
"""

from __future__ import annotations

from dataclasses import dataclass
from decimal import ROUND_HALF_UP, Decimal

from .model import (
    Colour,
    InvalidSnapshot,
    Player,
    PointSystem,
    Preference,
    PreferenceStrength,
    Result,
    RoundEntry,
    Snapshot,
    virtual_points,
)


def max_t(total_rounds: int) -> int:
    """1.7.2: MaxT = 2 + floor(Rnds / 5)."""
    return 2 + total_rounds // 5


def played_colours(history: tuple[RoundEntry, ...]) -> tuple[Colour, ...]:
    """D3: colours of played games only, in order."""
    return tuple(e.colour for e in history if e.played and e.colour is not None)


def colour_difference(history: tuple[RoundEntry, ...]) -> int:
    """1.5.1: games with White minus games with Black (played games only)."""
    cols = played_colours(history)
    return sum(1 if c is Colour.WHITE else -1 for c in cols)


def colour_preference(history: tuple[RoundEntry, ...]) -> Preference:
    """1.5.2 as read in D4.

    Absolute: CD > +1 or < -1, or the same colour in the last two played games;
    when both hold and disagree (WWWWBB) the colour difference decides.
    Strong: CD = +1 (Black) or -1 (White).  Mild: CD = 0, alternate from the last
    played game; no played game at all: mild Black (1.5.2.4).
    """
    cols = played_colours(history)
    if not cols:
        return Preference(Colour.BLACK, PreferenceStrength.MILD)
    cd = sum(1 if c is Colour.WHITE else -1 for c in cols)
    if cd > 1:
        return Preference(Colour.BLACK, PreferenceStrength.ABSOLUTE)
    if cd < -1:
        return Preference(Colour.WHITE, PreferenceStrength.ABSOLUTE)
    if len(cols) >= 2 and cols[-1] is cols[-2]:
        return Preference(cols[-1].opposite, PreferenceStrength.ABSOLUTE)
    if cd == 1:
        return Preference(Colour.BLACK, PreferenceStrength.STRONG)
    if cd == -1:
        return Preference(Colour.WHITE, PreferenceStrength.STRONG)
    return Preference(cols[-1].opposite, PreferenceStrength.MILD)


def aro(player: Player, ratings: dict[int, int]) -> int:
    """1.6 / D5: mean rating of played opponents, rounded half up; 0 if none."""
    opp = [ratings[e.opponent] for e in player.history if e.played and e.opponent is not None]
    if not opp:
        return 0
    return int((Decimal(sum(opp)) / len(opp)).to_integral_value(rounding=ROUND_HALF_UP))


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
    max_upfloater: bool  # D6: upfloats >= MaxT
    points: Decimal = Decimal(0)  # real points, as in the standings
    virtual_points: Decimal = Decimal(0)  # acceleration carried into this round


def player_states(snapshot: Snapshot) -> dict[int, PlayerState]:
    """Figures for every player in the snapshot (absent and withdrawn ones too).

    With acceleration, ``score`` is the pairing score (points plus this round's
    virtual points), and an earlier round's upfloat compares the two players'
    pairing scores of that round: the scoregroups they were paired in."""
    validate(snapshot)
    pts = snapshot.points
    rounds = snapshot.round_number - 1
    ratings = {p.id: p.rating for p in snapshot.players}
    accel = snapshot.acceleration
    # running[i][k] = pairing score of player i before round k+1
    running: dict[int, list[Decimal]] = {}
    real: dict[int, Decimal] = {}
    for p in snapshot.players:
        acc = Decimal(0)
        seq = [acc + virtual_points(accel, p.id, 1)] if accel else [acc]
        for k, e in enumerate(p.history, start=2):
            acc += pts.points(e.result)
            seq.append(acc + virtual_points(accel, p.id, k) if accel else acc)
        running[p.id] = seq
        real[p.id] = acc
    limit = max_t(snapshot.total_rounds)
    states: dict[int, PlayerState] = {}
    for p in snapshot.players:
        ups = 0
        prev = False
        for k, e in enumerate(p.history):
            if e.paired and e.opponent is not None:
                if running[e.opponent][k] > running[p.id][k]:
                    ups += 1
                    if k == rounds - 1:
                        prev = True
        cols = played_colours(p.history)
        states[p.id] = PlayerState(
            id=p.id,
            tpn=p.tpn,
            rating=p.rating,
            score=running[p.id][-1],
            aro=aro(p, ratings),
            games_played=len(cols),
            colour_difference=sum(1 if c is Colour.WHITE else -1 for c in cols),
            colours=cols,
            preference=colour_preference(p.history),
            pab_eligible=pab_eligible(p.history, pts),
            upfloats=ups,
            upfloated_previous=prev,
            max_upfloater=ups >= limit,
            points=real[p.id],
            virtual_points=virtual_points(accel, p.id, snapshot.round_number),
        )
    return states


def pab_eligible(history: tuple[RoundEntry, ...], points: PointSystem) -> bool:
    """C2 as read in D8: no earlier U, no forfeit win, no unplayed round that scored
    at least a win (F, or any bye worth a win under this point system)."""
    for e in history:
        if e.result in (Result.PAIRING_BYE, Result.FORFEIT_WIN):
            return False
        if not e.played and points.points(e.result) >= points.win:
            return False
    return True


def validate(snapshot: Snapshot) -> None:
    """Reject inconsistent input up front (style 8).  Raises InvalidSnapshot."""
    s = snapshot
    if s.round_number < 1:
        raise InvalidSnapshot(f"round to pair must be at least 1, got {s.round_number}")
    if s.round_number > s.total_rounds:
        raise InvalidSnapshot(
            f"round {s.round_number} is beyond the tournament's {s.total_rounds} rounds"
        )
    ids: dict[int, Player] = {}
    tpns: set[int] = set()
    for p in s.players:
        if p.id in ids:
            raise InvalidSnapshot(f"duplicate player id {p.id}")
        if p.tpn in tpns:
            raise InvalidSnapshot(f"duplicate TPN {p.tpn} (player {p.id})")
        if p.tpn < 1:
            raise InvalidSnapshot(f"player {p.id}: TPN must be positive")
        if p.rating is None or p.rating <= 0:
            raise InvalidSnapshot(
                f"player {p.id} has no rating; Dubov 1.1 requires a (provisional) rating for everyone"
            )
        if len(p.history) != s.round_number - 1:
            raise InvalidSnapshot(
                f"player {p.id} has {len(p.history)} rounds of history, expected {s.round_number - 1}"
            )
        ids[p.id] = p
        tpns.add(p.tpn)
    for p in s.players:
        for k, e in enumerate(p.history, start=1):
            if e.result.is_bye:
                if e.opponent is not None:
                    raise InvalidSnapshot(f"player {p.id}, round {k}: a bye ({e.result.value}) has no opponent")
                continue
            if e.opponent is None:
                raise InvalidSnapshot(f"player {p.id}, round {k}: result {e.result.value} needs an opponent")
            if e.opponent == p.id:
                raise InvalidSnapshot(f"player {p.id}, round {k}: paired against themselves")
            opp = ids.get(e.opponent)
            if opp is None:
                raise InvalidSnapshot(f"player {p.id}, round {k}: unknown opponent {e.opponent}")
            back = opp.history[k - 1]
            if back.opponent != p.id:
                raise InvalidSnapshot(
                    f"round {k}: player {p.id} met {opp.id}, but {opp.id}'s record names "
                    f"{back.opponent if back.opponent is not None else 'no opponent'}"
                )
            if e.played != back.played:
                raise InvalidSnapshot(
                    f"round {k}: players {p.id} and {opp.id} disagree on whether their game was played"
                )
            if e.played and (e.colour is None or back.colour is None or e.colour is back.colour):
                raise InvalidSnapshot(f"round {k}: players {p.id} and {opp.id} need opposite colours")
    for pid in s.absent:
        if pid not in ids:
            raise InvalidSnapshot(f"absent player {pid} is not in the tournament")
    for a in s.acceleration:
        if a.points <= 0:
            raise InvalidSnapshot(f"acceleration of {a.points} virtual points: must be positive")
        if not 1 <= a.first_round <= a.last_round:
            raise InvalidSnapshot(
                f"acceleration over rounds {a.first_round}-{a.last_round}: not a range of rounds"
            )
        unknown = sorted(x for x in a.players if x not in ids)
        if unknown:
            raise InvalidSnapshot(f"acceleration names unknown players {unknown}")
    for pair in s.forbidden:
        if len(pair) != 2 or not all(x in ids for x in pair):
            raise InvalidSnapshot(f"forbidden pair {sorted(pair)} names an unknown player")
