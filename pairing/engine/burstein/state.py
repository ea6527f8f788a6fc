"""Per-player figures of the Burstein system (C.04.4.2, text in force from 1 February 2026):
pairing score, colour preference (1.5), PAB eligibility ([C2]), games played (3.1.4) and
the Index of 1.7-1.8 (Buchholz, then Sonneborn-Berger).

Readings (docs/burstein.md, B1-B4):

* The Index counts real points only (1.7.2: virtual points of an acceleration are
  excluded); scoregroups, [C6] and 3.1.3 read the pairing score (points plus this round's
  virtual points, C.04.7), as in the other systems.
* 1.7.2: every unplayed round of a player (a bye of any kind, a forfeit, an absence) is
  a game against the player themself with the points registered for it: Buchholz adds
  the player's own score, Sonneborn-Berger those points times the player's own score.
* 1.7.2 exception: a player whose last rounds before the one being paired are a run of
  zero-point byes (``Z``: a requested zero-point bye, an absence, a withdrawal) counts
  each of them as a draw *in the scores their over-the-board opponents read*; the
  player's own Index is unchanged.
* Colour preferences (1.5) from played games only (C.04.2 Art. 3.4), as in the Dutch
  system; a player with no played game has none.

``burstein_states`` is O(N * R).
"""

from __future__ import annotations

from dataclasses import dataclass
from decimal import Decimal

from ..history import pab_eligible, pairing_scores, played_colours, preference_of_colours, validate
from ..model import Colour, PreferenceStrength, Result, Snapshot


def seeding_rounds(total_rounds: int) -> int:
    """1.6.2: half the rounds (rounded down), at most four."""
    return min(total_rounds // 2, 4)


def is_seeding_round(snapshot: Snapshot) -> bool:
    """1.6.1: the round is paired by the Dutch system."""
    return snapshot.round_number <= seeding_rounds(snapshot.total_rounds)


@dataclass(frozen=True)
class BursteinPlayerState:
    """A player's Burstein figures before the round being paired."""

    id: int
    tpn: int
    score: Decimal  # pairing score: points plus this round's virtual points (C.04.7)
    points: Decimal  # as in the standings (the Index reads these)
    games_played: int  # over-the-board games (3.1.4)
    colours: tuple[Colour, ...]  # played games, in order
    colour_difference: int  # White minus Black
    preference: Colour | None  # 1.5; None: no played game (1.5.4)
    strength: PreferenceStrength | None
    pab_eligible: bool  # [C2] / C.04.1 Art. 4
    buchholz: Decimal  # 1.7.1.1 with 1.7.2
    sonneborn_berger: Decimal  # 1.7.1.2 with 1.7.2
    zero_run: int  # zero-point byes at the end of the history (1.7.2 exception)

    @property
    def absolute(self) -> bool:
        return self.strength is PreferenceStrength.ABSOLUTE

    @property
    def ranking_key(self) -> tuple:
        """1.8: the higher Index first (Buchholz, then Sonneborn-Berger), then the smaller
        TPN.  Sorting by this key lists a bracket in BSN order (4.1)."""
        return (-self.buchholz, -self.sonneborn_berger, self.tpn)


def trailing_zero_byes(history) -> int:
    """The zero-point byes (``Z``) that end the history, counted back from the last round."""
    run = 0
    for e in reversed(history):
        if e.result is not Result.ZERO_BYE:
            break
        run += 1
    return run


def burstein_states(snapshot: Snapshot) -> dict[int, BursteinPlayerState]:
    """Figures for every player in the snapshot (absent ones too)."""
    validate(snapshot)
    pts = snapshot.points
    running, real = pairing_scores(snapshot)
    run = {p.id: trailing_zero_byes(p.history) for p in snapshot.players}
    # the score an over-the-board opponent reads (1.7.2 exception)
    seen = {p.id: real[p.id] + run[p.id] * (pts.draw - pts.zero_bye) for p in snapshot.players}
    states: dict[int, BursteinPlayerState] = {}
    for p in snapshot.players:
        own = real[p.id]
        bh = Decimal(0)
        sb = Decimal(0)
        for e in p.history:
            got = pts.points(e.result)
            if e.played:
                opp = seen[e.opponent]
            else:
                opp = own  # 1.7.2: a game against themself
            bh += opp
            sb += got * opp
        cols = played_colours(p.history)
        pref = preference_of_colours(cols)
        states[p.id] = BursteinPlayerState(
            id=p.id,
            tpn=p.tpn,
            score=running[p.id][-1],
            points=own,
            games_played=len(cols),
            colours=cols,
            colour_difference=sum(1 if c is Colour.WHITE else -1 for c in cols),
            preference=pref.colour if pref else None,
            strength=pref.strength if pref else None,
            pab_eligible=pab_eligible(p.history, pts),
            buchholz=bh,
            sonneborn_berger=sb,
            zero_run=run[p.id],
        )
    return states
