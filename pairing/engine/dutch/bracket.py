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
from dataclasses import dataclass, field
from itertools import combinations

import rustworkx as rx

from ..model import EngineError
from .criteria import MAX_BITS, Level, Levels, widths


@dataclass
class Constraints:
    """Restrictions on the matching: ``allowed[v]`` the only partners ``v`` may have
    (None: any), ``must`` the vertices that must be matched."""

    allowed: dict[int, frozenset[int]] = field(default_factory=dict)
    must: set[int] = field(default_factory=set)

    def copy(self) -> Constraints:
        return Constraints(dict(self.allowed), set(self.must))

    def ok(self, i: int, j: int) -> bool:
        a = self.allowed.get(i)
        if a is not None and j not in a:
            return False
        b = self.allowed.get(j)
        return b is None or i in b


@dataclass
class Outcome:
    mate: list[int]  # position -> partner position or -1
    value: tuple[int, ...]  # level sums
    forced: int  # constrained vertices satisfied


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


class BracketSolver:
    """The matching of one bracket step.  ``legal(i, j)`` on positions."""

    def __init__(self, levels: Levels, legal_pairs: list[tuple[int, int]], bracket_size: int):
        self.lv = levels
        self.n = len(levels.vertices)
        self.n_bracket = bracket_size
        self._free = None
        self._free_version = -1
        self._version = 0
        self.edges = legal_pairs
        self.level_list, self.values = levels.evaluate(legal_pairs)
        self.widths = widths(self.level_list, self.values, self.n, bracket_size)
        self.extra: list[dict[tuple[int, int], int]] = []  # tie-break levels added later
        self.extra_widths: list[int] = []
        self._pack()

    # ------------------------------------------------------------ weights

    def _pack(self) -> None:
        total = sum(self.widths) + sum(self.extra_widths)
        if total > MAX_BITS:
            raise EngineError(f"this bracket's criteria need {total} bits of weight, more than the {MAX_BITS} the matching "
                              "handles exactly; the arbiter pairs it (1.9.3) or reports the file to the developers")
        self.total_bits = total
        shifts = []
        s = total
        for w in self.widths:
            s -= w
            shifts.append(s)
        self.shifts = shifts
        ex_shifts = []
        for w in self.extra_widths:
            s -= w
            ex_shifts.append(s)
        self.ex_shifts = ex_shifts
        packed: dict[tuple[int, ...], int] = {}
        base = {}
        for e, v in self.values.items():
            w = packed.get(v)
            if w is None:
                w = 0
                for val, sh in zip(v, shifts, strict=True):
                    w |= val << sh
                packed[v] = w
            base[e] = w
        self._version += 1
        for lvl, sh in zip(self.extra, ex_shifts, strict=True):
            for e, val in lvl.items():
                if val and e in base:
                    base[e] += val << sh
        self.base = base

    def pack(self, v: tuple[int, ...]) -> int:
        """The criteria levels ``v`` of one bracket pair as one weight, for comparing the
        assignments of one remainder: the completion level is left out (its total is the
        same for every complete candidate, pairs and downfloaters alike), and so are the
        tie-break levels."""
        w = 0
        for k, (val, sh) in enumerate(zip(v, self.shifts, strict=True)):
            if k:
                w |= val << sh
        return w

    def drop_levels(self) -> None:
        """Take the tie-break levels out again."""
        self.extra, self.extra_widths = [], []
        self._pack()

    def add_level(self, contributions: dict[tuple[int, int], int], max_total: int) -> None:
        """A tie-break level below the criteria (the exchanges of 4.3)."""
        self.extra.append(contributions)
        self.extra_widths.append(max(1, max_total.bit_length()))
        self._pack()

    # ------------------------------------------------------------ solving

    def solve(self, c: Constraints | None = None) -> Outcome:
        """The best matching under ``c``.  Only the bracket's players are ever
        constrained, so the edges between the others are one graph built once and
        copied (in Rust) for every question."""
        c = c or Constraints()
        force = 1 << self.total_bits
        if self._free is None or self._free_version != self._version:
            free = rx.PyGraph()
            free.add_nodes_from(range(self.n))
            fixed_edges = []
            self._bracket_edges = []
            for e, w in self.base.items():
                if e[0] < self.n_bracket or e[1] < self.n_bracket:
                    self._bracket_edges.append((e[0], e[1], w))
                else:
                    fixed_edges.append((e[0], e[1], w))
            free.add_edges_from(fixed_edges)
            self._free = free
            self._free_version = self._version
        g = self._free.copy()
        edges = []
        must = c.must
        allowed = c.allowed
        for i, j, w in self._bracket_edges:
            if allowed and not c.ok(i, j):
                continue
            f = (i in must) + (j in must)
            edges.append((i, j, w + f * force if f else w))
        g.add_edges_from(edges)
        m = rx.max_weight_matching(g, max_cardinality=False, weight_fn=int)
        mate = [-1] * self.n
        for a, b in m:
            mate[a], mate[b] = b, a
        return self._outcome(mate, c)

    def _outcome(self, mate: list[int], c: Constraints) -> Outcome:
        sums = [0] * (len(self.level_list) + len(self.extra))
        forced = 0
        for i in range(self.n):
            j = mate[i]
            if j > i:
                for k, v in enumerate(self.values[(i, j)]):
                    sums[k] += v
                for k, lvl in enumerate(self.extra):
                    sums[len(self.level_list) + k] += lvl.get((i, j), 0)
                forced += (i in c.must) + (j in c.must)
        return Outcome(mate, tuple(sums), forced)

    def criteria_value(self, o: Outcome) -> tuple[int, ...]:
        return o.value[: len(self.level_list)]

    def level_names(self) -> tuple[str, ...]:
        return tuple(lv.name for lv in self.level_list)

    def first_worse(self, best: tuple[int, ...], other: Outcome | None) -> str:
        """The criterion on which ``other`` falls short of ``best``."""
        if other is None:
            return "C1-C4"
        for lv, a, b in zip(self.level_list, best, self.criteria_value(other), strict=True):
            if a != b:
                return "C1-C5" if lv.name == "completion" else lv.name
        return "the order of generation"


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
