"""The engine's vocabulary, shared by every system: frozen dataclasses (and the named
tuple of a history entry) in, frozen dataclasses out.

Everything the engine needs to pair one round arrives in a :class:`Snapshot` (its
``system`` names the pairing system, Dubov by default);
:func:`pairing.engine.pair_round` returns a :class:`Pairing`.  Player references
(``RoundEntry.opponent``, ``Board.white`` ...) are player *ids*; the TPN (the
player's current position in the initial ranking list) is a separate field, because
the initial ranking list can be re-sorted before round 4 (Dubov 1.2.2) while the
ids of a tournament stay put.

Points are :class:`~decimal.Decimal` so that 1.5 and 3/1/0 systems are exact.
"""

from __future__ import annotations

import enum
from dataclasses import dataclass, field
from decimal import Decimal
from functools import cached_property, partial
from typing import NamedTuple


class System(enum.Enum):
    """The FIDE Swiss system a snapshot is paired with (C.04.4.1 Dubov, C.04.3 Dutch,
    C.04.4.2 Burstein).  The values are the words of the command line (``--dubov``,
    ``--dutch``, ``--burstein``)."""

    DUBOV = "dubov"
    DUTCH = "dutch"
    BURSTEIN = "burstein"

    @property
    def label(self) -> str:
        return {System.DUBOV: "FIDE Dubov system (C.04.4.1)", System.DUTCH: "FIDE Dutch system (C.04.3)",
                System.BURSTEIN: "FIDE Burstein system (C.04.4.2)"}[self]


class Colour(enum.Enum):
    WHITE = "w"
    BLACK = "b"

    @property
    def opposite(self) -> Colour:
        return Colour.BLACK if self is Colour.WHITE else Colour.WHITE

    def __str__(self) -> str:  # pragma: no cover - cosmetic
        return "White" if self is Colour.WHITE else "Black"


class Result(enum.Enum):
    """TRF-16 result codes (position 99 of a round block), from the player's side."""

    WIN = "1"
    DRAW = "="
    LOSS = "0"
    WIN_UNRATED = "W"  # played, under one move
    DRAW_UNRATED = "D"
    LOSS_UNRATED = "L"
    FORFEIT_WIN = "+"
    FORFEIT_LOSS = "-"
    PAIRING_BYE = "U"  # pairing-allocated bye (PAB)
    FULL_BYE = "F"
    HALF_BYE = "H"
    ZERO_BYE = "Z"  # also: absent, not paired, late entry before arrival
    ADJOURNED = "?"  # adjourned or postponed: a played draw until its result comes

    @property
    def is_played(self) -> bool:
        """D2: a played game (counts for colours, ARO and rematches)."""
        return self._value_ in _PLAYED_CODES  # a str's hash, not an enum member's (a Python call)

    @property
    def is_bye(self) -> bool:
        """No opponent at all this round (PAB, requested byes, absence)."""
        return self._value_ in _BYE_CODES

    @property
    def opponent_results(self) -> frozenset[Result]:
        """What the opponent's line may record for the same game: 1 against 0, = against
        =, + against - (and - against - for a double forfeit), and the odd scores ½-0,
        0-½ and 0-0 (= against 0, 0 against 0).  Empty for byes."""
        return _OPPONENT_RESULTS.get(self, frozenset())


_PLAYED = frozenset(
    {Result.WIN, Result.DRAW, Result.LOSS, Result.WIN_UNRATED, Result.DRAW_UNRATED, Result.LOSS_UNRATED,
     Result.ADJOURNED}
)
_BYES = frozenset({Result.PAIRING_BYE, Result.FULL_BYE, Result.HALF_BYE, Result.ZERO_BYE})
_PLAYED_CODES = frozenset(r.value for r in _PLAYED)
_BYE_CODES = frozenset(r.value for r in _BYES)
_OPPONENT_RESULTS = {
    # a game may be scored ½-0, 0-½ or 0-0 over the board (a late arrival, an arbiter's
    # decision): each side's code is its own score (TRF-2026 writes = against 0)
    Result.WIN: frozenset({Result.LOSS}),
    Result.LOSS: frozenset({Result.WIN, Result.DRAW, Result.LOSS}),
    Result.DRAW: frozenset({Result.DRAW, Result.LOSS}),
    Result.WIN_UNRATED: frozenset({Result.LOSS_UNRATED}),
    Result.LOSS_UNRATED: frozenset({Result.WIN_UNRATED}),
    Result.DRAW_UNRATED: frozenset({Result.DRAW_UNRATED}),
    Result.ADJOURNED: frozenset({Result.ADJOURNED}),
    Result.FORFEIT_WIN: frozenset({Result.FORFEIT_LOSS}),
    Result.FORFEIT_LOSS: frozenset({Result.FORFEIT_WIN, Result.FORFEIT_LOSS}),  # double forfeit
}


@dataclass(frozen=True)
class PointSystem:
    """Points for every result code (D1).  W/D/L score like 1/=/0."""

    win: Decimal = Decimal("1")
    draw: Decimal = Decimal("0.5")
    loss: Decimal = Decimal("0")
    forfeit_win: Decimal = Decimal("1")
    forfeit_loss: Decimal = Decimal("0")
    pairing_bye: Decimal = Decimal("1")
    full_bye: Decimal = Decimal("1")
    half_bye: Decimal = Decimal("0.5")
    zero_bye: Decimal = Decimal("0")

    def points(self, result: Result) -> Decimal:
        return self.by_code[result._value_]

    @cached_property
    def codes_worth_a_win(self) -> frozenset[str]:
        """The result codes scoring at least a win: unplayed, they bar the PAB (C.04.1 Art. 4)."""
        return frozenset(code for code, value in self.by_code.items() if value >= self.win)

    @cached_property
    def by_code(self) -> dict[str, Decimal]:
        """Points by result code, made once per point system: :meth:`points` runs once per
        round of every player (400,000 times for a 10,000-player, 40-round history), and
        hashing an enum member is a Python call where hashing its code is not."""
        return {
            Result.WIN.value: self.win,
            Result.WIN_UNRATED.value: self.win,
            Result.DRAW.value: self.draw,
            Result.DRAW_UNRATED.value: self.draw,
            Result.ADJOURNED.value: self.draw,  # provisionally, until the game's result comes
            Result.LOSS.value: self.loss,
            Result.LOSS_UNRATED.value: self.loss,
            Result.FORFEIT_WIN.value: self.forfeit_win,
            Result.FORFEIT_LOSS.value: self.forfeit_loss,
            Result.PAIRING_BYE.value: self.pairing_bye,
            Result.FULL_BYE.value: self.full_bye,
            Result.HALF_BYE.value: self.half_bye,
            Result.ZERO_BYE.value: self.zero_bye,
        }


class RoundEntry(NamedTuple):
    """One player's round: opponent id (None for a bye/absence), colour, result.

    Forfeits keep the scheduled opponent and colour, as in TRF-16; they are not
    played games (D2).  A named tuple, not a dataclass like the rest: a big field's
    standings make one for every player and round (400,000 at 10,000 x 40), and a
    tuple is made in half the time.
    """

    opponent: int | None
    colour: Colour | None
    result: Result

    @property
    def played(self) -> bool:
        return self.opponent is not None and self.result.is_played

    @property
    def paired(self) -> bool:
        """Paired against an opponent (played or forfeited), not a bye (D7)."""
        return self.opponent is not None and not self.result.is_bye


# A RoundEntry from its three fields given as one tuple, (opponent, colour, result),
# made without its generated __new__ (a Python call): for the readers that make
# 400,000 of them (a 10,000 x 40 field's histories, its TRF file).
new_entry = partial(tuple.__new__, RoundEntry)


@dataclass(frozen=True)
class Player:
    id: int
    tpn: int
    rating: int
    name: str = ""
    history: tuple[RoundEntry, ...] = ()  # rounds 1 .. round_number-1, in order


@dataclass(frozen=True)
class Acceleration:
    """Virtual points (TRF-2026 record ``250``; C.04.5.1 Baku acceleration): ``points``
    added to the pairing score of each of ``players`` (ids) in every round from
    ``first_round`` to ``last_round``.  They define the scoregroups, the order inside
    them, the PAB candidate's "lowest score", upfloats and board order of those rounds;
    they never count in the standings, and colours and ARO ignore them."""

    points: Decimal
    first_round: int
    last_round: int
    players: frozenset[int]

    def covers(self, player: int, round_number: int) -> bool:
        return self.first_round <= round_number <= self.last_round and player in self.players


def virtual_points(acceleration: tuple[Acceleration, ...], player: int, round_number: int) -> Decimal:
    """The virtual points ``player`` carries into the pairing of ``round_number``."""
    return sum((a.points for a in acceleration if a.covers(player, round_number)), Decimal(0))


# The 1997 value of every field of DubovRules (the 2025 value is the opposite).
_DUBOV_1997 = {
    "aro_unrounded": True,
    "bye_by_rating": True,
    "upfloat_bars": True,
    "upfloaters_by_rating": True,
    "lists_by_rating": True,
    "shift_extremes": True,
    "shift_spares_absolute": True,
    "colours_by_aro": True,
    "first_round_by_pair": True,
    "island_opponents": True,
    "white_meets_white": True,
    "floaters_down": True,
}
DUBOV_RULES_YEARS = (1997, 2025)


@dataclass(frozen=True)
class DubovRules:
    """Which text of the Dubov system (C.04.4.1) pairs: the one applied from 1 July 2025
    (the default) or the one approved by the 1997 General Assembly ("rules of 1997", the
    text Vega implements).  Each boolean is one article where the texts differ, True for
    the 1997 reading (docs/dubov-1997.md names the articles, the readings and the test of
    each).  ``year`` gives every switch its text's value; a switch given explicitly
    overrides it, so a test can turn one difference on at a time.

    - ``aro_unrounded``: ARO compared unrounded (1997 1.2 and the tenths of 6.2's example),
      not rounded to an integer (2025 1.6.1).
    - ``bye_by_rating``: the PAB to the lowest score, then the lowest rating, the
      dominating due colour and the higher ARO (1997 4), not the most games played and the
      lowest initial ranking (2025 2.1.4-2.1.5).
    - ``upfloat_bars``: nobody upfloats two rounds running or more than 3 times (4 in a
      tournament of 10 rounds or more) except in the last round (1997 2.1, a limitation:
      ranked next to the number of upfloaters, above the score differences), instead of
      2025's maximum upfloaters (1.7, MaxT) and C8-C10.
    - ``upfloaters_by_rating``: possible upfloaters of one score in order of the highest
      rating, then the lowest ARO (1997 7.1-7.2 b-c), not the initial ranking (2025 4.2.2).
    - ``lists_by_rating``: White seekers with equal ARO by the lower rating first, Black
      seekers by rating descending, then the higher ARO (1997 6.2), not the initial
      ranking (2025 2.2.5, 4.4.2); then alphabetically by name, then TPN.
    - ``shift_extremes``: the players moved to the other colour's subgroup are the White
      seekers with the lowest ARO (equal: the higher rating) or the Black seekers with the
      highest ARO (equal: the lower rating) (1997 7.3-7.4), not those in the middle (2025
      4.3.2-4.3.3).
    - ``shift_spares_absolute``: a player with an absolute colour preference is moved to
      the other colour's subgroup only when no shift without such players pairs the
      bracket (1997 2.2); 2025 has no such limit.
    - ``colours_by_aro``: when the colour rules before it do not decide, White to the
      higher ARO, then to the lower rating (1997 3, its last two lines), not the higher
      ranked player's preference (2025 5.2.5).
    - ``first_round_by_pair``: round 1's colours alternate by pair number from the lot of
      pair 1 (1997 5), not by the parity of the higher ranked player's TPN (2025 5.2.1,
      which also serves two players yet to play in a later round; with this switch those
      go on to the rules after it).
    - ``island_opponents``: a player with no possible opponent among the players of his
      score group (an "island") gets his own opponent from the next possible lower score
      group, the opposite due colour first, then the highest rating, then the lowest ARO,
      and plays him (1997 7.1), before the rest of the group takes its upfloaters; 2025
      takes the best set of upfloaters for the whole bracket (2.2.1-2.2.2).
    - ``white_meets_white``: a White seeker who has played every Black seeker of his
      bracket (No. k of the White list) plays the White seekers No. k+1 ... last, then
      No. k-1 ... 1, the first that lets the rest be paired (1997 6.3, last paragraph),
      where 2025 moves the White seekers in the order of 4.3 (from the middle outwards).
    - ``floaters_down``: a score group that cannot be paired with at most 7.2's one player
      from below floats its unpaired players down to the next lower score group (1997 6.4:
      the fewest, by its classes a-d, then the lowest R), where each is paired first, in
      8.1's order, with the highest R, the opposite due colour first (8.2); 2025 takes more
      upfloaters (2.2.1).  C4 stays in every choice (docs/dubov-1997.md readings 7, 15).
    """

    year: int = 2025
    aro_unrounded: bool | None = None
    bye_by_rating: bool | None = None
    upfloat_bars: bool | None = None
    upfloaters_by_rating: bool | None = None
    lists_by_rating: bool | None = None
    shift_extremes: bool | None = None
    shift_spares_absolute: bool | None = None
    colours_by_aro: bool | None = None
    first_round_by_pair: bool | None = None
    island_opponents: bool | None = None
    white_meets_white: bool | None = None
    floaters_down: bool | None = None

    def __post_init__(self) -> None:
        if self.year not in DUBOV_RULES_YEARS:
            raise InvalidSnapshot(f"the Dubov system has rules of 1997 and of 2025, not of {self.year!r}")
        for name, value_1997 in _DUBOV_1997.items():
            if getattr(self, name) is None:
                object.__setattr__(self, name, value_1997 if self.year == 1997 else not value_1997)

    @classmethod
    def switches(cls) -> tuple[str, ...]:
        """The names of the switches, in the order of the class."""
        return tuple(_DUBOV_1997)

    @property
    def label(self) -> str:
        return "rules of 1997" if self.year == 1997 else "2025 text"


@dataclass(frozen=True)
class Snapshot:
    """A tournament as it stands before ``round_number`` is paired.

    ``absent``: ids not to be paired this round (requested byes, withdrawals).
    Withdrawn players stay in ``players``: their ratings count in their opponents'
    AROs.  ``forbidden``: arbiter-defined pairs (each a frozenset of two ids) that
    may not meet.  ``acceleration``: virtual points of the accelerated rounds, this
    round's and the earlier ones' (the earlier ones decide who upfloated then).
    ``system``: the pairing system (:func:`pairing.engine.pair_round` dispatches on it).
    ``dubov_rules``: which text of the Dubov system pairs (:class:`DubovRules`; the other
    systems ignore it).
    """

    players: tuple[Player, ...]
    round_number: int
    total_rounds: int
    initial_colour: Colour = Colour.WHITE
    points: PointSystem = field(default_factory=PointSystem)
    absent: frozenset[int] = frozenset()
    forbidden: frozenset[frozenset[int]] = frozenset()
    acceleration: tuple[Acceleration, ...] = ()
    system: System = System.DUBOV
    dubov_rules: DubovRules = field(default_factory=DubovRules)


class PreferenceStrength(enum.IntEnum):
    MILD = 1
    STRONG = 2
    ABSOLUTE = 3


@dataclass(frozen=True)
class Preference:
    colour: Colour
    strength: PreferenceStrength


# ---------------------------------------------------------------- results


@dataclass(frozen=True)
class Board:
    number: int
    white: int
    black: int


@dataclass(frozen=True)
class ByeDecision:
    """Article 2.1: who received the pairing-allocated bye and why."""

    player: int | None
    eligible: tuple[int, ...] = ()  # 2.1.1 (C2) eligible, in 2.1.3-2.1.5 order
    rejected_incomplete: tuple[int, ...] = ()  # eligible but fail 2.1.2 (C4), tried before the choice
    reason: str = ""

    def criteria(self) -> str:
        """``reason`` without its opening "Pairing-allocated bye to <player>" clause, for a
        display that has named the player already (the criteria of 2.1 that decided and
        the players rejected under 2.1.2 remain); the whole reason otherwise."""
        head, sep, rest = self.reason.partition("; ")
        return rest if sep and head.startswith("Pairing-allocated bye to") else self.reason


@dataclass(frozen=True)
class BracketTrace:
    """One bracket, ids throughout.  Dubov (Article 2.2): upfloaters, G1/G2, shifts,
    S1/T2.  Dutch (Articles 3-4): the moved-down players (MDPs) who came in and those left
    in the Limbo, S1/T2 as the bracket's pairs (the MDP-pairing, then the remainder's),
    the remainder's S1R/S2R after its resident-exchange (BSNs of the remainder moved
    S1->S2, S2->S1), and the downfloaters.  Burstein (Articles 1.8, 3.2, 4): the incoming
    floaters in ``moved_down``, every player of the bracket with their Index in BSN order
    (``index``), S1/T2 as the pairs in the order of 4.3 and the outgoing floaters in
    ``downfloaters``.  ``notes`` say which criterion decided."""

    score: Decimal
    residents: tuple[int, ...]
    upfloaters: tuple[int, ...] = ()
    upfloater_reason: str = ""
    g1: tuple[int, ...] = ()  # before 2.2.4
    g2: tuple[int, ...] = ()
    shifted_from_smaller: tuple[int, ...] = ()  # 2.2.4.1
    shifted_from_larger: tuple[int, ...] = ()  # 2.2.4.2
    s1: tuple[int, ...] = ()  # 2.2.5
    t2: tuple[int, ...] = ()  # 2.2.6
    notes: tuple[str, ...] = ()
    moved_down: tuple[int, ...] = ()  # Dutch 1.4.1: MDPs from the bracket above
    limbo: tuple[int, ...] = ()  # Dutch 3.2.4: MDPs not paired here
    remainder_s1: tuple[int, ...] = ()  # Dutch 3.3.3 / 4.3
    remainder_s2: tuple[int, ...] = ()
    exchanged: tuple[tuple[int, ...], tuple[int, ...]] = ((), ())  # remainder BSNs S1->S2, S2->S1
    downfloaters: tuple[int, ...] = ()  # Dutch 1.4.1; Burstein: the outgoing floaters
    index: tuple[tuple[int, Decimal, Decimal], ...] = ()  # Burstein 1.8: (id, Buchholz, Sonneborn-Berger), BSN order


@dataclass(frozen=True)
class ColourDecision:
    white: int
    black: int
    rule: str  # "5.2.1" .. "5.2.5"
    reason: str = ""


@dataclass(frozen=True)
class Explanation:
    bye: ByeDecision
    brackets: tuple[BracketTrace, ...] = ()
    colours: tuple[ColourDecision, ...] = ()
    paired_by: System | None = None  # the system whose rules paired the round (Burstein's seeding rounds: Dutch)


@dataclass(frozen=True)
class Pairing:
    round_number: int
    boards: tuple[Board, ...]
    bye: int | None
    explanation: Explanation


# ---------------------------------------------------------------- errors


class EngineError(ValueError):
    """Base class of every error the engine raises on purpose."""


class InvalidSnapshot(EngineError):
    """The input is inconsistent (unknown opponent, duplicate TPN, missing rating...)."""


class NoLegalPairing(EngineError):
    """Article 1.8.3: the round-pairing cannot be completed; the arbiter decides.

    ``players`` are the ids that cannot be paired (a smallest set we could name).
    """

    def __init__(self, message: str, players: tuple[int, ...] = ()):
        super().__init__(message)
        self.players = players
