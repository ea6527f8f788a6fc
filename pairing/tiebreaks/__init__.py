"""Tie-breaks of the FIDE Play-off and Tie-break Regulations (C.07; the 2023/2024 text and the
1 March 2026 text), individual events.

Pure Python, no Django: the input is a :class:`TBTournament` (ids, ratings and the
round-by-round :class:`~pairing.engine.model.RoundEntry` history of every player, with
the tournament's :class:`~pairing.engine.model.PointSystem`); the output is a tuple of
tie-break values per player (:func:`compute`) or the sorted standings (:func:`standings`).

Unplayed rounds (C.07 art. 16, as the commission's exercises apply it):

* An *over-the-board game* is a paired round with a W/D/L result (TRF ``1 = 0 W D L``);
  in a round robin (``TBTournament.round_robin``) forfeits count as games too (art. 15).
* A round is *available to play* when it is a game, a pairing-allocated bye (``U``), a
  forfeit win (``+``) or a full-point bye (``F``, counted like the PAB it stands for).
  Every other round -- forfeit loss (``-``), requested half- or zero-point bye
  (``H Z``), absence, withdrawal, rounds before a late entry (``Z``) -- is a
  *voluntarily unplayed round* (VUR, 16.1.2).
* Score of a player *as an opponent* (16.3): every round at face value, except the
  requested byes/absences (``H Z``) that are not followed by any round available to
  play (16.2.5): those count as draws (16.3.2).  A withdrawn player's last rounds
  therefore count as draws for their opponents' Buchholz.  Forfeit losses always count
  at face value (16.2.4).
* A player's *own* unplayed round (bye, forfeit won or lost, absence) counts, for the
  opponent-based tie-breaks (BH, FB, SB, KS), as a game against a dummy opponent whose
  score is the player's own final score, with the result the points awarded (16.4);
  under the 2026 text that score is capped (16.4.1 forfeits: the scheduled opponent's
  score; 16.4.2 rounds without an opponent: half the maximum score).
* Cut/median modifiers (14, 16.5): the value cut first is the smallest contribution of
  a VUR, unless the least significant value (lowest opponent score, ties by lowest
  contribution) gives a larger contribution -- then that one is cut (exercise 13).  For
  Buchholz a VUR is therefore always cut first.
* Rating-based tie-breaks (ARO, TPR, APRO, PTP, APPO) and AOB use over-the-board games
  only; averages of ratings round half up to an integer, AOB to two decimals.

Every tie-break is O(N·R) once the scores are known (PTP adds a factor log 1472 for its search),
direct encounter is O(N·R) plus the (small) mini-tournaments of the tied groups.

The package: :mod:`.definitions` (the input and output records, the tie-break codes and
:func:`parse_order`), :mod:`.context` (one pass over the histories: what each round counts
as, and every column except direct encounter), :mod:`.ranking` (direct encounter,
:func:`compute`, :func:`standings`).
"""

from .definitions import (
    RULES_2023,
    RULES_2026,
    HistoryColumns,
    StandingRow,
    TBPlayer,
    TBTournament,
    TieBreak,
    TieBreakError,
    Unrated,
    Value,
    parse_order,
)
from .ranking import applicable, break_ties, compute, standings, standings_with, without

__all__ = [
    "RULES_2023",
    "RULES_2026",
    "HistoryColumns",
    "Unrated",
    "applicable",
    "break_ties",
    "StandingRow",
    "TBPlayer",
    "TBTournament",
    "TieBreak",
    "TieBreakError",
    "Value",
    "compute",
    "parse_order",
    "standings",
    "standings_with",
    "without",
]
