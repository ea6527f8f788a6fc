"""What goes into the tie-break computation and what comes out, and the tie-break codes
an organiser can list (C.07 acronyms, with the Cut/Median modifiers)."""

from __future__ import annotations

import enum
import re
from collections.abc import Iterable
from dataclasses import dataclass, field
from decimal import Decimal
from typing import NamedTuple, Protocol

from pairing.engine.model import Colour, PointSystem, RoundEntry

Value = Decimal | int


class TieBreakError(ValueError):
    """The tournament data handed to :func:`compute` is inconsistent."""


class _HasHistory(Protocol):
    id: int
    rating: int
    tpn: int
    history: tuple[RoundEntry, ...]


@dataclass(frozen=True)
class TBPlayer:
    """One participant: ``history`` has one entry per completed round (``Z`` when not paired).

    ``tpn`` only orders fully tied players on the standings page (same rank).
    ``rating`` is ``None`` for an unrated player (see :class:`Unrated`).
    ``round_ratings``: for an event over 30 days (C.07 10, 2026), the rating in force in
    each round (``None`` where unknown: ``rating`` is used); only read when the
    tournament's ``ratings_per_round`` is on.
    """

    id: int
    rating: int | None
    history: tuple[RoundEntry, ...]
    tpn: int = 0
    round_ratings: tuple[int | None, ...] = ()
    external: Decimal | None = None  # EXT: a value computed outside the program


class Unrated(enum.Enum):
    """What the rating-based tie-breaks do with a player who has no rating (C.07 10).

    ``DROP`` is the text's own rule: with unrated players present and no other rule
    published before round 1, the rating-based tie-breaks are dropped from the list.
    ``FIXED`` counts them at a rating the regulations name; ``LOWEST`` at the lowest
    rating of the rated players in the field.
    """

    DROP = "drop"
    FIXED = "fixed"
    LOWEST = "lowest"


RULES_2023 = 2023
RULES_2026 = 2026


@dataclass(frozen=True)
class HistoryColumns:
    """Every player's rounds as lists, by the players' positions in
    :attr:`TBTournament.players`: the opponent's position (-1 for none), the TRF result
    code, the colour (None for none).  A caller that reads the rounds this way (the
    standings of a big field, from the games) gives them instead of each player's
    ``history``, which is then left empty: 400,000 entries are not made to be read back
    into these lists."""

    opponents: list[list[int]]
    codes: list[list[str]]
    colours: list[list[Colour | None]]


@dataclass(frozen=True)
class TBTournament:
    """``rounds``: rounds completed; ``round_robin``: forfeits count as played games (C.07 15).

    ``rules``: the text applied, 2023 (C.07 of 1 August 2024) or 2026 (C.07 of 1 March
    2026: the dummy opponent's score capped, art. 16.4).  ``unrated``/``unrated_rating``:
    the rule for unrated players in rating-based tie-breaks.  ``ratings_per_round``: an
    event over 30 days where each round's rating counts (the default is the first).
    """

    players: tuple[TBPlayer, ...]
    rounds: int
    points: PointSystem = field(default_factory=PointSystem)
    round_robin: bool = False
    rules: int = RULES_2023
    unrated: Unrated = Unrated.DROP
    unrated_rating: int = 0
    ratings_per_round: bool = False
    # the players' rounds as columns, their histories left empty (see HistoryColumns)
    columns: HistoryColumns | None = None

    @classmethod
    def from_players(
        cls, players: Iterable[_HasHistory], points: PointSystem | None = None, round_robin: bool = False
    ) -> TBTournament:
        """From the engine's :class:`~pairing.engine.model.Player` objects (or anything with
        ``id``, ``rating``, ``history`` and ``tpn``), all with the same number of rounds."""
        tb_players = tuple(TBPlayer(p.id, p.rating or None, tuple(p.history), p.tpn) for p in players)
        lengths = {len(p.history) for p in tb_players}
        if len(lengths) > 1:
            raise TieBreakError(f"players have histories of different lengths: {sorted(lengths)}")
        return cls(tb_players, lengths.pop() if lengths else 0, points or PointSystem(), round_robin)


class StandingRow(NamedTuple):
    """One line of the standings (a named tuple: a 10,000-player field makes 10,000 of
    them at every ranking, and a frozen dataclass takes five times as long to make)."""

    rank: int
    id: int
    points: Decimal
    tiebreaks: tuple[Value, ...]
    # per tie-break: the value is undefined (an average or performance over no game:
    # AOB, ARO and its cuts with too few games, TPR, PTP, APRO, APPO); it counts 0 in
    # the order, and pages show "—" -- a real 0 (a TPR of 0 over games played) is 0
    undefined: tuple[bool, ...] = ()


class TieBreak(enum.Enum):
    """The tie-breaks an organiser can list, by their C.07 acronym (modifier after a dash)."""

    BH = "BH"
    BH_C1 = "BH-C1"
    BH_C2 = "BH-C2"
    BH_M1 = "BH-M1"
    BH_M2 = "BH-M2"
    FB = "FB"
    FB_C1 = "FB-C1"
    FB_C2 = "FB-C2"
    FB_M1 = "FB-M1"
    FB_M2 = "FB-M2"
    AOB = "AOB"
    SB = "SB"
    SB_C1 = "SB-C1"
    SB_C2 = "SB-C2"
    KS = "KS"
    KS_L1 = "KS-L1"  # C.07 14.5: the limit raised by half a point
    KS_L2 = "KS-L2"  # raised by one point
    KS_LM1 = "KS-L-1"  # lowered by half a point
    DE = "DE"
    WIN = "WIN"
    WON = "WON"
    BPG = "BPG"
    BWG = "BWG"
    GE = "GE"
    PS = "PS"
    PS_C1 = "PS-C1"
    PS_C2 = "PS-C2"
    ARO = "ARO"
    ARO_C1 = "ARO-C1"
    ARO_C2 = "ARO-C2"
    TPR = "TPR"
    APRO = "APRO"
    PTP = "PTP"
    APPO = "APPO"
    ARO_M1 = "ARO-M1"
    ARO_M2 = "ARO-M2"
    RTNG = "RTNG"
    RTNG_R = "RTNG-R"
    TPN = "TPN"
    TPN_R = "TPN-R"
    REP = "REP"
    STD = "STD"
    DE_P = "DE-P"
    EXT = "EXT"

    @property
    def label(self) -> str:
        """Short column heading, e.g. ``BH-C1``."""
        return self.value

    @property
    def description(self) -> str:
        """One-line explanation for the tournament settings and the standings legend."""
        base, low, high = _SPEC[self]
        text = _BASE_DESCRIPTIONS[base]
        if self in _REVERSED:
            return text.replace("the higher ranks first", "the lower ranks first") if base == "RTNG" else (
                text.replace("the lower ranks first", "the higher ranks first"))
        if self is TieBreak.DE_P:
            return text + "; forfeited games count as played against the scheduled opponent (/P)"
        if self in LIMITS:
            return text + _LIMIT_TEXT[LIMITS[self]]
        if low and high:
            text += f", without the {low} lowest and the {high} highest values (Median-{low})"
        elif low:
            text += f", without the {low} least significant value{'s' if low > 1 else ''} (Cut-{low})"
        return text

    @property
    def base(self) -> str:
        return _SPEC[self][0]

    @property
    def rating_based(self) -> bool:
        """ARO, TPR, APRO, PTP, APPO and RTNG (C.07 10): what an unrated player affects."""
        return self.base in RATING_BASED

    @property
    def ascending(self) -> bool:
        """The lower value ranks first (TPN, RTNG reversed)."""
        return (self.base in ASCENDING) != (self in _REVERSED)


_BASE_DESCRIPTIONS = {
    "BH": "Buchholz: sum of the opponents' scores (C.07 8.1)",
    "FB": "Fore Buchholz: Buchholz with every last-round game counted as a draw (C.07 8)",
    "AOB": "Average of the Buchholz of the opponents met over the board (C.07 8.2)",
    "SB": "Sonneborn-Berger: sum of each opponent's score times the points scored against them (C.07 9.1)",
    "KS": "Koya: points scored against opponents with at least half the maximum score (C.07 9.2)",
    "DE": "Direct encounter: result of the games among the tied players, as a count of tied players ranked below (C.07 6)",
    "WIN": "Number of rounds scored as a win, with or without playing (C.07 7)",
    "WON": "Number of games won over the board (C.07 7)",
    "BPG": "Number of games played over the board with Black (C.07 7)",
    "BWG": "Number of games won over the board with Black (C.07 7)",
    "GE": "Number of rounds the player was available to play (games one elected to play, C.07 7)",
    "REP": "Rounds one elected to play: the rounds the player was available to play (C.07 7, 2026; formerly GE)",
    "EXT": "A tie-break value computed outside the program and typed in by the arbiter",
    "STD": "Standard points: the score counted 1 for a win, ½ for a draw, 0 for a loss, whatever the point system (C.07 7, 2026)",
    "PS": "Sum of progressive scores: the running score after each round, added up (C.07 7)",
    "ARO": "Average rating of the opponents met over the board (C.07 10.1)",
    "TPR": "Tournament performance rating: ARO plus the FIDE dp for the score over the board (C.07 10.2)",
    "APRO": "Average of the opponents' performance ratings (C.07 10.4)",
    "PTP": "Perfect tournament performance: lowest rating whose expected score reaches the score over the board (C.07 10.3)",
    "APPO": "Average of the opponents' perfect performances (C.07 10.5)",
    "RTNG": "The player's rating: the higher ranks first (C.07, round robins and team events)",
    "TPN": "The tournament pairing number: the lower ranks first (C.07)",
}

# tie-breaks where the lower value ranks first
ASCENDING = frozenset({"TPN"})
RATING_BASED = frozenset({"ARO", "TPR", "APRO", "PTP", "APPO", "RTNG"})
_REVERSED = frozenset({TieBreak.RTNG_R, TieBreak.TPN_R})

# tie-break -> (base system, values cut from the bottom, values cut from the top)
_SPEC: dict[TieBreak, tuple[str, int, int]] = {}
# Koya's Limit modifier (C.07 14.5): the limit of half the maximum score moved by so many
# half-points (KS/L1 +1/2, KS/L2 +1, KS/L-1 -1/2); a half-point is a draw's points
LIMITS: dict[TieBreak, int] = {}
_LIMIT_TEXT = {
    1: ", the limit raised by half a point (Limit modifier, KS/L1)",
    2: ", the limit raised by one point (Limit modifier, KS/L2)",
    -1: ", the limit lowered by half a point (Limit modifier, KS/L-1)",
}
for _tb in TieBreak:
    _base, _, _mod = _tb.value.partition("-")
    if not _mod or _mod in ("R", "P"):
        _SPEC[_tb] = (_base, 0, 0)
    elif _mod[0] == "L":
        _SPEC[_tb] = (_base, 0, 0)
        LIMITS[_tb] = int(_mod[1:])
    elif _mod[0] == "C":
        _SPEC[_tb] = (_base, int(_mod[1:]), 0)
    else:
        _SPEC[_tb] = (_base, int(_mod[1:]), int(_mod[1:]))

_ALIASES: dict[str, TieBreak] = {}
for _tb in TieBreak:
    _ALIASES[_tb.value] = _tb
    _ALIASES[_tb.value.replace("-", "")] = _tb
    _ALIASES[_tb.value.replace("-", "/")] = _tb  # the TRF-2026 (202) spelling: BH/C1
    _ALIASES[_tb.value.replace("-", "/", 1)] = _tb  # KS/L-1
    _ALIASES[_tb.name] = _tb
_ALIASES["AROC"] = TieBreak.ARO_C1  # the exercises' spelling of ARO Cut-1
for _tb, _n in LIMITS.items():
    if _n > 0:  # the sign written out: KS/L+1 (as Swiss-Manager and Gacrux write a raised limit)
        _ALIASES[f"KS/L+{_n}"] = _ALIASES[f"KS-L+{_n}"] = _tb


def parse_order(text: str) -> tuple[TieBreak, ...]:
    """Parse a tie-break list such as ``"BH-C1, BH, SB"`` (commas, semicolons or spaces).

    Codes are case-insensitive; ``BH/C1`` (TRF-2026's spelling), ``BHC1``/``BH_C1`` and
    ``AROC1``/``AROC`` are accepted too.
    Raises :class:`ValueError` naming the unknown code and listing the known ones.
    """
    result = []
    tokens = [tok for tok in re.split(r"[,;\s]+", text.strip()) if tok]
    for position, token in enumerate(tokens, start=1):
        tb = _ALIASES.get(token.upper())
        if tb is None:
            known = ", ".join(t.value for t in TieBreak)
            raise ValueError(
                f"unknown tie-break {token!r} (item {position} of {text!r}); known codes: {known}"
            )
        result.append(tb)
    return tuple(result)

