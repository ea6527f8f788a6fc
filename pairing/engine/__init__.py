"""FIDE Dubov pairing engine (C.04.4.1, text applied from 1 July 2025).

Pure Python; imports nothing from Django.  Public API::

    pair_round(snapshot) -> Pairing        # one round, boards in board order
    player_states(snapshot) -> {id: PlayerState}   # ARO, preferences, upfloats...

Everything else in this package is private.
"""

from .model import (
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
    "colour_difference",
    "colour_preference",
    "max_t",
    "pab_eligible",
    "pair_round",
    "player_states",
]
