"""FIDE Swiss pairing engines: one shared core and one package per system.

Pure Python; imports nothing from Django.  Public API::

    pair_round(snapshot) -> Pairing        # one round by snapshot.system, boards in board order
                                           # (Dubov: by the text snapshot.dubov_rules names, 2025 or 1997)
    player_states(snapshot) -> {id: PlayerState}   # Dubov figures: ARO, preferences, upfloats...
    dutch_states(snapshot) -> {id: DutchPlayerState}   # Dutch figures: preferences, floats, topscorers
    burstein_states(snapshot) -> {id: BursteinPlayerState}   # Burstein figures: the Index, preferences
    burstein_seeding_rounds(total_rounds) -> int   # Burstein 1.6.2: rounds paired by the Dutch system
    baku_acceleration(...) -> (Acceleration, ...)  # C.04.7 virtual points

The core: :mod:`.model` (snapshot and results), :mod:`.history` (colour history, PAB bar,
pairing scores, validation), :mod:`.acceleration`, :mod:`.matching`, :mod:`.trf`,
:mod:`.generator`, the command line (:mod:`.__main__`, :mod:`.cli_tools`) and round
robins (:mod:`.berger`), brackets as weighted matchings (:mod:`.weighted`).  The systems:
:mod:`.dubov` (C.04.4.1), :mod:`.dutch` (C.04.3), :mod:`.burstein` (C.04.4.2).  Everything not
exported here is private.
"""

from .acceleration import baku_acceleration, group_a_size
from .history import played_colours
from .model import (
    Acceleration,
    Board,
    BracketTrace,
    ByeDecision,
    Colour,
    ColourDecision,
    DubovRules,
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
    System,
    virtual_points,
)

__all__ = [
    "Acceleration",
    "Board",
    "BracketTrace",
    "ByeDecision",
    "Colour",
    "ColourDecision",
    "DubovRules",
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
    "System",
    "aro",
    "aro_unrounded",
    "baku_acceleration",
    "burstein_seeding_rounds",
    "burstein_states",
    "colour_difference",
    "colour_preference",
    "dutch_states",
    "group_a_size",
    "max_t",
    "pab_eligible",
    "pair_round",
    "played_colours",
    "player_states",
    "virtual_points",
]


_DUBOV_NAMES = frozenset({"PlayerState", "aro", "aro_unrounded", "colour_difference", "colour_preference", "max_t", "pab_eligible",
                          "player_states"})


def __getattr__(name: str):
    """The Dubov system's figures (:mod:`.dubov`), imported when first asked for, so that
    pairing another system does not import the Dubov engine."""
    if name in _DUBOV_NAMES:
        from . import dubov

        value = getattr(dubov, name)
        globals()[name] = value
        return value
    raise AttributeError(f"module {__name__!r} has no attribute {name!r}")


def dutch_states(snapshot: Snapshot) -> dict:
    """The Dutch system's per-player figures (:class:`.dutch.DutchPlayerState`: colour
    difference and preference 1.6-1.7, floats 1.4, [C2] eligibility, topscorer 1.8),
    imported when first asked for."""
    from .dutch import dutch_states as states

    return states(snapshot)


def burstein_states(snapshot: Snapshot) -> dict:
    """The Burstein system's per-player figures (:class:`.burstein.BursteinPlayerState`:
    the Index of 1.7-1.8, colour preference 1.5, [C2] eligibility, games played), imported
    when first asked for."""
    from .burstein import burstein_states as states

    return states(snapshot)


def burstein_seeding_rounds(total_rounds: int) -> int:
    """Burstein 1.6.2: the seeding rounds, paired by the Dutch system, are the first
    min(total_rounds / 2 rounded down, 4) rounds."""
    from .burstein import seeding_rounds

    return seeding_rounds(total_rounds)


def pair_round(snapshot: Snapshot) -> Pairing:
    """Pair ``snapshot.round_number`` by ``snapshot.system``.

    Raises :class:`InvalidSnapshot` for inconsistent input and :class:`NoLegalPairing`
    when the round cannot be paired (the arbiter decides)."""
    if snapshot.system is System.DUTCH:
        from .dutch import pair_round as pair
    elif snapshot.system is System.BURSTEIN:
        from .burstein import pair_round as pair
    else:
        from .dubov import pair_round as pair
    return pair(snapshot)
