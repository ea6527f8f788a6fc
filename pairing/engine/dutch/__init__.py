"""The FIDE Dutch system (C.04.3, the text in force from 1 February 2026).

:func:`pair_round` pairs one round; :func:`dutch_states` gives the per-player figures the
rules are written in (colour preferences, floats, PAB eligibility, topscorers).  The
shared core (snapshot, TRF, colour history, acceleration, matching, generator) is the
parent package.
"""

from .pairer import pair_round
from .state import DutchPlayerState, Float, dutch_states

__all__ = ["DutchPlayerState", "Float", "dutch_states", "pair_round"]
