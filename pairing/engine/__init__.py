"""FIDE Dubov pairing engine (C.04.4.1, text applied from 1 July 2025).

Pure Python; imports nothing from Django.  Public API::

    pair_round(snapshot) -> Pairing        # one round, boards in board order
    player_states(snapshot) -> {id: PlayerState}   # ARO, preferences, upfloats...
    baku_acceleration(...) -> (Acceleration, ...)  # C.04.5.1 virtual points

Everything else in this package is private.
"""

from .acceleration import baku_acceleration, group_a_size
from .model import (
    Acceleration,
    Board,
    BracketTrace,
    ByeDecision,
    Colour,
    ColourDecision,
    EngineError,
    Explanation,
    InvalidSnapshot,
    NoLegalPairing,
    Pairing,
    Player,
    PointSystem,
    Preference,
    PreferenceStrength,
    Result,
    RoundEntry,
    Snapshot,
    virtual_points,
)
from .pairer import pair_round
from .state import (
    PlayerState,
    aro,
    colour_difference,
    colour_preference,
    max_t,
    pab_eligible,
    player_states,
)

__all__ = [
    "Acceleration",
    "Board",
    "BracketTrace",
    "ByeDecision",
    "Colour",
    "ColourDecision",
    "EngineError",
    "Explanation",
    "InvalidSnapshot",
    "NoLegalPairing",
    "Pairing",
    "Player",
    "PlayerState",
    "PointSystem",
    "Preference",
    "PreferenceStrength",
    "Result",
    "RoundEntry",
    "Snapshot",
    "aro",
    "baku_acceleration",
    "colour_difference",
    "colour_preference",
    "group_a_size",
    "max_t",
    "pab_eligible",
    "pair_round",
    "player_states",
    "virtual_points",
]
