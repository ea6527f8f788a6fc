"""The FIDE Burstein system (C.04.4.2, the text in force from 1 February 2026).

:func:`pair_round` pairs one round (its seeding rounds by the Dutch system, 1.6);
:func:`burstein_states` gives the per-player figures the rules are written in (the Index
of 1.7-1.8, colour preferences, PAB eligibility).  The shared core (snapshot, TRF, colour
history, acceleration, matching, weighted brackets, generator) is the parent package.
"""

from .pairer import pair_round
from .state import BursteinPlayerState, burstein_states, is_seeding_round, seeding_rounds

__all__ = ["BursteinPlayerState", "burstein_states", "is_seeding_round", "pair_round", "seeding_rounds"]
