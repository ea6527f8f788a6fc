"""Brackets as one maximum-weight matching whose weight packs criteria as levels (shared by
the systems whose criteria are sums over pairs: :mod:`pairing.engine.dutch`,
:mod:`pairing.engine.burstein`).

A :class:`Level` is one criterion: a contribution per pair, the first level the most
significant.  :class:`BracketSolver` packs the levels of every legal pair into one integer
(each level as wide as its largest total needs) and answers "the best matching under these
:class:`Constraints`" (partners allowed per vertex, vertices that must be matched), with
tie-break levels below the criteria added and dropped as a procedure needs them.  Each
question is one rustworkx matching, O(V^3) worst case; rustworkx matches with 128-bit
integers, so a weight of more than :data:`MAX_BITS` bits is matched by
:mod:`pairing.engine.exact_matching` instead (Python's integers, the same answer, slower),
and so is every weight where rustworkx is not installed (:mod:`.blossom`: the checker's
single-file program).
"""

from __future__ import annotations

from collections.abc import Callable, Sequence
from dataclasses import dataclass, field

from . import blossom
from .exact_matching import max_weight_matching

MAX_BITS = 120  # rustworkx: exact below 2**126; the force level and doubling need room.  Wider
# weights go to the pure-Python matching (exact at any size); the procedures keep their
# optional tie-break levels within this width and fall back to slower steps beyond it


@dataclass(frozen=True)
class Level:
    name: str  # the criterion, as the explanation names it ("completion": [C1]-[C4])
    fn: Callable[[int, int], int]  # (x position, y position) -> contribution
    bracket_only: bool  # only bracket pairs contribute (bounds the level's width)
    cap: int = 0  # at most this many pairs contribute (0: no bound beyond bracket_only)
    label: str = ""  # what the level's total counts, for the explanation
    against: str = ""  # "pairs": the level counts pairs keeping the criterion (shown: those not);
    #                    "mdps": the same among the MDP pairs of ``sigma`` (shown: those not)
    sigma: object = None  # the MDP or downfloater score of a per-score level


def widths(levels: Sequence[Level], values: dict[tuple[int, int], tuple[int, ...]], n_vertices: int,
           n_bracket: int) -> list[int]:
    """Bits per level: enough for the level's largest possible total over a matching."""
    out = []
    distinct = set(values.values())
    for k, lv in enumerate(levels):
        top = max((v[k] for v in distinct), default=0)
        pairs = (n_bracket if lv.bracket_only else n_vertices) // 2
        if lv.cap:
            pairs = min(pairs, lv.cap)
        out.append(max(1, (top * pairs).bit_length()))
    return out


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


class BracketSolver:
    """The matching of one bracket step.  ``legal(i, j)`` on positions."""

    def __init__(self, levels, legal_pairs: list[tuple[int, int]], bracket_size: int,
                 completion: str = "C1-C5"):
        """``levels``: the system's levels of one bracket step (``vertices``, and
        ``evaluate(edges) -> (levels kept, values per edge)``); ``completion``: how the
        explanation names the completion level."""
        self.lv = levels
        self.completion = completion
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
        self.silent: frozenset[int] = frozenset()  # criteria levels left out of the weight (constant now)
        self._pack()

    # ------------------------------------------------------------ weights

    def _pack(self) -> None:
        widths = [0 if k in self.silent else w for k, w in enumerate(self.widths)]
        total = sum(widths) + sum(self.extra_widths)
        self.total_bits = total
        self.exact = total > MAX_BITS  # beyond rustworkx's integers: the pure-Python matching
        shifts = []
        s = total
        for w in widths:
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
                for k, (val, sh) in enumerate(zip(v, shifts, strict=True)):
                    if k not in self.silent:
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
            if k and k not in self.silent:
                w |= val << sh
        return w

    def silence(self, c: Constraints, fixed: Sequence[tuple[int, int]]) -> None:
        """Leave out of the weight the criteria levels that are the same for every matching
        the procedure will still ask for: those to which only the pairs ``fixed`` (which
        ``c`` forces: their players may have no other partner, and must be matched) and
        pairs ``c`` excludes contribute.  The best matchings under ``c`` and any stricter
        constraints are then the same, and the room those levels took goes to the tie-break
        levels.  Values and totals still count them.  O(E)."""
        fixed_set = set(fixed)
        ok = c.ok
        open_values = {v for e, v in self.values.items() if e not in fixed_set and ok(*e)}
        loud = {k for v in open_values for k, x in enumerate(v) if x}
        quiet = set(range(1, len(self.level_list))) - loud  # never the completion level
        if quiet:
            self.silent = frozenset(quiet)
            self._pack()

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
        if self.exact or blossom.backend() == "python":
            return self._solve_exact(c, force)
        import rustworkx as rx  # only here: the checker's single-file program runs without it

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

    def _solve_exact(self, c: Constraints, force: int) -> Outcome:
        """:meth:`solve` for a weight wider than rustworkx's integers, or without rustworkx."""
        edges = []
        for (i, j), w in self.base.items():
            if (i < self.n_bracket or j < self.n_bracket) and c.allowed and not c.ok(i, j):
                continue
            f = (i in c.must) + (j in c.must)
            edges.append((i, j, w + f * force if f else w))
        return self._outcome(max_weight_matching(self.n, edges), c)

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
                return self.completion if lv.name == "completion" else lv.name
        return "the order of generation"
