"""The FIDE Dubov system (C.04.4.1, text applied from 1 July 2025; reissued 1 February
2026 with the criteria in Article 2 and the procedure in Article 3), and, by the switches of
``Snapshot.dubov_rules`` (:class:`~pairing.engine.model.DubovRules`), the rules of 1997 as an
option of the same procedure (docs/dubov-1997.md).

:func:`pair_round` pairs one round; :func:`player_states` gives the per-player figures
the rules are written in (ARO, preferences, upfloats...), public so that the web app
can publish the ARO list with the very numbers the engine paired with.  The shared core
(snapshot, TRF, colour history, acceleration, matching, generator) is the parent package.
"""

from .pairer import pair_round
from .state import (
    PlayerState,
    aro,
    aro_unrounded,
    colour_difference,
    colour_preference,
    max_t,
    pab_eligible,
    player_states,
)

__all__ = [
    "PlayerState",
    "aro",
    "aro_unrounded",
    "colour_difference",
    "colour_preference",
    "max_t",
    "pab_eligible",
    "pair_round",
    "player_states",
]
