"""Per-player figures of the Dutch system (C.04.3, 2026 text): pairing score and order
(1.2), floats (1.4), PAB eligibility ([C2]), colour difference and preferences (1.6-1.7),
topscorers (1.8).

Readings (with the evidence in ``docs/dutch-readings.md``):

* Floats (1.4.2-1.4.4) are read per tournament round: a played game between players of
  different pairing scores (with that round's virtual points) gives the higher one a
  downfloat and the lower one an upfloat; an unplayed round gives a downfloat when it
  scored more than a loss (a PAB worth more than a loss, a forfeit win, a half- or
  full-point bye), no float otherwise (zero-point bye, forfeit loss, absence).
* Colour preference (1.7) from played games only (C.04.2 Art. 3.4): absolute when the
  colour difference is beyond +-1 or the last two played games had one colour (when both
  hold and disagree the difference decides), strong when it is +-1, mild when 0 (to
  alternate the last played game), none without a played game.
* Topscorers (1.8): only when pairing the last declared round, a pairing score above half
  of the win's points times the rounds played.

``dutch_states`` is O(N * R).
"""

from __future__ import annotations

import enum
from dataclasses import dataclass
from decimal import Decimal

from ..history import pab_eligible, pairing_scores, played_colours, preference_of_colours, validate
from ..model import Colour, PreferenceStrength, Snapshot


class Float(enum.Enum):
    DOWN = "D"
    UP = "U"


@dataclass(frozen=True)
class DutchPlayerState:
    """A player's Dutch figures before the round being paired."""

    id: int
    tpn: int
    score: Decimal  # pairing score: points plus this round's virtual points (C.04.7)
    points: Decimal  # as in the standings
    games_played: int
    colours: tuple[Colour, ...]  # played games, in order
    colour_difference: int  # White minus Black
    preference: Colour | None  # 1.7; None: no played game
    strength: PreferenceStrength | None
    repeated: Colour | None  # the colour of the last two played games, when they agree
    pab_eligible: bool  # [C2] / C.04.1 Art. 4
    float_1: Float | None  # the float of the previous round (1.4)
    float_2: Float | None  # two rounds before
    topscorer: bool  # 1.8

    @property
    def absolute(self) -> bool:
        return self.strength is PreferenceStrength.ABSOLUTE

    @property
    def imbalance(self) -> int:
        return abs(self.colour_difference)


def is_last_round(snapshot: Snapshot) -> bool:
    return snapshot.round_number >= snapshot.total_rounds


def topscorer_threshold(snapshot: Snapshot) -> Decimal:
    """1.8: over 50 % of the maximum possible score when pairing the final round:
    half of the rounds played times the points of a win (the larger of a win and a draw,
    for odd point systems)."""
    per_round = max(snapshot.points.win, snapshot.points.draw)
    return per_round * (snapshot.round_number - 1) / 2


def dutch_states(snapshot: Snapshot) -> dict[int, DutchPlayerState]:
    """Figures for every player in the snapshot (absent ones too)."""
    validate(snapshot)
    pts = snapshot.points
    rounds = snapshot.round_number - 1
    running, real = pairing_scores(snapshot)
    last = is_last_round(snapshot)
    threshold = topscorer_threshold(snapshot)
    states: dict[int, DutchPlayerState] = {}
    for p in snapshot.players:
        cols = played_colours(p.history)
        cd = sum(1 if c is Colour.WHITE else -1 for c in cols)
        pref = preference_of_colours(cols)
        floats: list[Float | None] = []
        for back in (1, 2):
            k = rounds - back
            if k < 0:
                floats.append(None)
                continue
            e = p.history[k]
            if not e.played or e.opponent is None:
                floats.append(Float.DOWN if pts.points(e.result) > pts.loss else None)
                continue
            mine, theirs = running[p.id][k], running[e.opponent][k]
            floats.append(Float.DOWN if mine > theirs else Float.UP if mine < theirs else None)
        score = running[p.id][-1]
        states[p.id] = DutchPlayerState(
            id=p.id,
            tpn=p.tpn,
            score=score,
            points=real[p.id],
            games_played=len(cols),
            colours=cols,
            colour_difference=cd,
            preference=pref.colour if pref else None,
            strength=pref.strength if pref else None,
            repeated=cols[-1] if len(cols) >= 2 and cols[-1] is cols[-2] else None,
            pab_eligible=pab_eligible(p.history, pts),
            float_1=floats[0],
            float_2=floats[1],
            topscorer=last and score > threshold,
        )
    return states
