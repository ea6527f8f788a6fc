"""The Burstein criteria of one bracket as weight levels of a matching (C.04.4.2, 2026 text).

A bracket's candidate is judged by [C1]-[C4] (absolute and completion) and the quality
criteria [C5]-[C8], in that priority.  Each is a sum over the pairs of the round, so the
best candidate is a maximum-weight matching whose weight packs the criteria as levels
(:mod:`pairing.engine.weighted`), over the bracket (positions 0 .. nb-1 in BSN order),
the next scoregroup and, unless left out (a relaxation checked afterwards), the players
below it.  For a legal pair (x, y), x before y:

* completion: 1 for every pair (a perfect matching of everyone still to pair: [C4]; the
  PAB is assigned before the brackets, 3.1); 0 when the players below are left out;
* [C5]: 1 for a pair inside the bracket;
* [C6]: per score of the bracket above its lowest, highest first: the players of that
  score in the pair when it is inside the bracket (the outgoing floaters' scores, in
  descending order, as low as possible);
* [C7] (B7 in docs/burstein.md): the following bracket -- the outgoing floaters with the
  next scoregroup -- first its pairs (a floater with a player of the next scoregroup, or
  two of them), then per score of this bracket, highest first, its floaters paired
  there ([C5] and [C6] of the following bracket, one bracket ahead);
* [C8]: 1 for a pair inside the bracket in which both players get their colour
  preference.

Building is O(V^2) for V players still to pair.
"""

from __future__ import annotations

from collections.abc import Sequence
from decimal import Decimal

from ..weighted import Level
from .colours import c8_violation
from .state import BursteinPlayerState


def _fmt(score) -> str:
    return format(score.normalize(), "f") if isinstance(score, Decimal) else str(score)


class BursteinLevels:
    """The weight levels of one bracket.  ``vertices``: indices into ``states`` -- the
    bracket in BSN order, the next scoregroup, then (unless ``relaxed``) the players below."""

    def __init__(self, states: Sequence[BursteinPlayerState], vertices: Sequence[int], nb: int, nn: int,
                 relaxed: bool):
        self.vertices = list(vertices)
        st = [states[v] for v in vertices]
        self.st = st
        n = len(st)
        self.nb, self.nn = nb, nn
        score = [s.score for s in st]
        in_b = [i < nb for i in range(n)]
        in_n = [nb <= i < nb + nn for i in range(n)]
        b_scores = sorted({score[i] for i in range(nb)}, reverse=True)
        count = {}
        for i in range(nb):
            count[score[i]] = count.get(score[i], 0) + 1
        levels: list[Level] = []
        if relaxed:
            levels.append(Level("completion", lambda i, j: 0, False))
        else:
            levels.append(Level("completion", lambda i, j: 1, False))
        levels.append(Level("C5", lambda i, j: 1 if in_b[j] else 0, True, label="pairs"))
        for sigma in b_scores[:-1]:
            levels.append(Level("C6", lambda i, j, s=sigma: ((score[i] == s) + (score[j] == s)) if in_b[j] else 0,
                                True, count[sigma], f"players scoring {_fmt(sigma)} paired", sigma=sigma))
        if nn:
            levels.append(Level("C7", lambda i, j: 1 if in_n[j] and (in_b[i] or in_n[i]) else 0, False,
                                (nb + nn) // 2, "pairs in the following bracket"))
            for sigma in b_scores:
                levels.append(Level("C7", lambda i, j, s=sigma: 1 if in_b[i] and in_n[j] and score[i] == s else 0,
                                    False, min(count[sigma], nn),
                                    f"outgoing floaters scoring {_fmt(sigma)} paired in the following bracket",
                                    sigma=sigma))
        levels.append(Level("C8", lambda i, j: 1 if in_b[j] and not c8_violation(st[i], st[j]) else 0, True,
                            label="players not getting their colour preference", against="pairs"))
        self.all_levels = levels

    def evaluate(self, edges: Sequence[tuple[int, int]]) -> tuple[list[Level], dict[tuple[int, int], tuple[int, ...]]]:
        """The levels that can differ between matchings, and every legal edge's values."""
        levels = self.all_levels
        raw = {(i, j): tuple(lv.fn(i, j) for lv in levels) for i, j in edges}
        distinct = set(raw.values())
        keep = [k for k in range(len(levels)) if k <= 1 or len({v[k] for v in distinct}) > 1]
        kept = [levels[k] for k in keep]
        values = {e: tuple(v[k] for k in keep) for e, v in raw.items()}
        return kept, values


def describe(levels: Sequence[Level], values: Sequence[int]) -> list[str]:
    """The criteria a candidate reached, as an arbiter reads them."""
    out = []
    c5 = next((v for lv, v in zip(levels, values, strict=True) if lv.name == "C5"), 0)
    for lv, v in zip(levels, values, strict=True):
        if lv.name == "completion":
            continue
        if lv.against == "pairs":
            v = c5 - v
        out.append(f"[{lv.name}] {lv.label}: {v}")
    return out
