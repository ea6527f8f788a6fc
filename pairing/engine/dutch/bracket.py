"""One Dutch bracket (C.04.3, 2026 text, Articles 3-4): the best candidate by the
criteria, and among the equally good ones the first in the order candidates are
generated.

The criteria are levels of one maximum-weight matching over every player still to pair
(:mod:`.criteria`); its value V* is the best any candidate can reach.  The order of
generation then decides, step by step, each step one question "does a candidate that
reaches V* make this choice?" answered by the same matching under constraints:

1. the MDPs paired in the bracket (S1 of 3.2.2): the valid sets of 4.4 in the order of
   4.4.2 (smallest differing BSN first), i.e. each MDP in turn, in BSN order, is taken
   when some best candidate pairs it;
2. their opponents (the MDP-pairing, 3.3.3): the transpositions of S2 (4.2), i.e. each
   paired MDP in turn takes the resident of the smallest BSN that some best candidate
   gives it;
3. the remainder (3.3.3; fresh BSNs, 4.1): the resident-exchange of 4.3 that comes first
   (fewest exchanged, smallest difference of the BSN sums, then the rules (c) and (d))
   among those that allow a best candidate; the number exchanged and the sums are two
   more weight levels, the rest is tried in order;
4. the transposition of S2R (4.2): each S1R player in turn takes the S2R player of the
   smallest BSN that some best candidate gives it.

Each question is one rustworkx matching (O(V^3) worst case, usually far less); a bracket
asks about (MDPs + pairs + exchanges tried) of them, fewer when the matching at hand
already answers.
"""

from __future__ import annotations

from collections.abc import Sequence
from dataclasses import dataclass
from itertools import combinations

from ..weighted import BracketSolver, Constraints, Level, Outcome  # noqa: F401 - shared, named here too


@dataclass
class BracketResult:
    pairs: list[tuple[int, int]]  # positions (MDP or resident, resident), in S1 order
    downfloaters: list[int]  # positions in the bracket left unpaired
    paired_mdps: list[int]
    limbo: list[int]
    s1r: list[int]
    s2r: list[int]
    exchanged: tuple[tuple[int, ...], tuple[int, ...]]
    value: tuple[int, ...]
    level_names: tuple[str, ...]
    notes: list[str]


def exchange_order(s1: Sequence[int], s2: Sequence[int], k: int, target_diff: int):
    """Resident-exchanges of k players between S1 and S2 (BSNs) whose difference of sums
    (moved to S1 minus moved to S2) is ``target_diff``, in the order of 4.3 (c) and (d):
    the highest differing BSN moved from S1 to S2 first, then the lowest differing BSN
    moved from S2 to S1."""
    xs = sorted(combinations(s1, k), key=lambda x: sorted(x, reverse=True), reverse=True)
    ys = sorted(combinations(s2, k), key=lambda y: sorted(y))
    for x in xs:
        sx = sum(x)
        for y in ys:
            if sum(y) - sx == target_diff:
                yield x, y


def exchanges_in_order(s1: Sequence[int], s2: Sequence[int]):
    """Every resident-exchange (none first) in the order of 4.3: (a) fewest exchanged,
    (b) smallest difference of the sums, (c), (d)."""
    yield (), ()
    for k in range(1, min(len(s1), len(s2)) + 1):
        diffs = sorted({sum(y) - sum(x) for x in combinations(s1, k) for y in combinations(s2, k)})
        for diff in diffs:
            yield from exchange_order(s1, s2, k, diff)


__all__ = ["BracketResult", "BracketSolver", "Constraints", "Level", "Outcome", "exchange_order", "exchanges_in_order"]
