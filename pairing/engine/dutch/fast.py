"""A big bracket without a weighted matching: the first candidate in the order of
generation, proved best by a bound (C.04.3, 2026 text).

A bracket of hundreds of residents (a 10,000-player open has scoregroups of 1,500) is out
of reach of a general weighted matching.  What a pair is worth depends only on the two
players' kinds (:mod:`.criteria` signatures), and kinds are few, so:

1. S1 = the first MaxPairs residents, S2 the others (no exchange, 4.3's first); the first
   best transposition of S2 for the kinds (:func:`.assign.first_best_assignment`);
2. a bound on every candidate of the bracket, exchanges included: the fractional
   matching of the kinds (each kind a row and a column of a transportation problem, half
   a pair per unit; an upper bound on the integral optimum).  If the transposition reaches
   it, no candidate is better on [C6], [C7], [C9]-[C21];
3. the downfloater (at most one) is as good as any can be on [C4] and [C8]: it pairs in
   the next scoregroup, which then pairs as far as it can, and the players below still
   complete the round (cardinality matchings on the real players); with [C9] in force,
   it is the PAB assignee and everyone else still pairs.

Then that candidate is the best, and the first of the best in the order of generation.
A bracket with one MDP tries the MDP's opponents in BSN order the same way.  Anything
else (more MDPs, a bound not reached, a downfloater not shown ideal) returns None and
the bracket goes to the weighted matching.  Cost: O(K^2) flows of K kinds plus the
matchings, near-linear on the usual Swiss field.
"""

from __future__ import annotations

from ..matching import has_perfect_matching, maximum_matching
from ..model import PreferenceStrength
from .assign import first_best_assignment, transport_value
from .criteria import Levels, describe

FAST_MIN = 40  # residents: below this, the weighted matching is quick and says more
FAST_MDPS = 6  # more MDPs than this: the matching (the fast path pairs them all or gives up)


def _bound(counts: dict[int, int], weight: dict[tuple[int, int], int], pairs: int) -> int | None:
    """Twice the fractional optimum of ``pairs`` pairs among players of the given kinds:
    a transportation problem with every kind as a row and as a column (capacity: its
    count), flow 2 * pairs.  None if that many pairs cannot be formed by kinds."""
    total = sum(counts.values())
    left = total - 2 * pairs
    if left < 0:
        return None
    # rows: the kinds, every player once; columns: the kinds, every player once; ``left``
    # players on each side are left out: a spare column takes the rows left out, a spare
    # row the columns (never the spare column: 2 * pairs units pair)
    rows: dict = dict(counts)
    cols: dict = dict(counts)
    w = dict(weight)
    if left:
        rows["spare"] = left
        cols["spare"] = left
        for t in counts:
            w[(t, "spare")] = 0
            w[("spare", t)] = 0
    # two players of one kind make one pair: the arc of a kind to itself carries at most
    # twice the pairs its players can form (no player paired with itself, even by halves)
    caps = {(t, t): 2 * (c // 2) for t, c in counts.items()}
    return transport_value(rows, cols, w, 0, caps)


class FastBracket:
    """One bracket by kinds (see the module docstring).  ``rnd``: the round
    (:class:`pairing.engine.dutch.pairer._Round`)."""

    def __init__(self, rnd, score, mdps: list[int], residents: list[int], nxt: list[int], lower: list[int],
                 odd: bool, c9: bool):
        self.rnd = rnd
        self.mdps, self.residents, self.nxt, self.lower = mdps, residents, nxt, lower
        self.odd, self.c9 = odd, c9
        vertices = mdps + residents
        self.vertices = vertices
        self.levels = Levels(rnd.st, vertices, len(mdps), len(residents), 0, [rnd.cand[v] for v in vertices],
                             odd, c9, rnd.s_star, rnd.snapshot.round_number - 1, relaxed=True)
        lv = self.levels
        self.kind = lv.sig
        rep: dict[int, int] = {}
        for p, k in enumerate(lv.sig):
            rep.setdefault(k, p)
        self.rep = rep
        levels = lv.all_levels
        # every level packed (Python integers: no width limit), completion left out
        tops = []
        for k, level in enumerate(levels):
            if k == 0:
                tops.append(0)
                continue
            top = 0
            for a in rep.values():
                for b in rep.values():
                    top = max(top, level.fn(a, b))
            tops.append(top)
        n_pairs = len(vertices) // 2 + 1
        shifts = []
        s = 0
        for k in range(len(levels) - 1, -1, -1):
            shifts.append((k, s))
            s += max(1, (tops[k] * n_pairs).bit_length())
        self.shift = dict(shifts)
        self.level_fns = levels
        self._w: dict[tuple[int, int], int] = {}

    def reached(self, pairs: list[tuple[int, int]]) -> list[str]:
        """What the candidate reaches on the bracket's criteria, as the explanation says it
        (:func:`.criteria.describe`), levels no pair differs on left out."""
        levels = self.level_fns
        sums = [0] * len(levels)
        for a, b in pairs:
            for k, level in enumerate(levels):
                sums[k] += level.fn(self.rep[self.kind[a]], self.rep[self.kind[b]])
        keep = [k for k, level in enumerate(levels)
                if level.name in ("C6", "C7") or any(level.fn(x, y) != levels[1].fn(x, y) * level.fn(x, y)
                                                       for x in self.rep.values() for y in self.rep.values())
                or sums[k] not in (0, sums[1])]
        return describe([levels[k] for k in keep], [sums[k] for k in keep])

    # ------------------------------------------------------------ kinds

    def _kind_legal(self, ka: int, kb: int) -> bool:
        """[C3] by kinds: two non-topscorers with the same absolute preference."""
        a = self.levels.st[self.rep[ka]]
        b = self.levels.st[self.rep[kb]]
        return not (a.strength is PreferenceStrength.ABSOLUTE and b.strength is PreferenceStrength.ABSOLUTE
                    and a.preference is b.preference and not a.topscorer and not b.topscorer)

    def weight(self, ka: int, kb: int) -> int:
        """A pair of kinds (the first one ranked higher), every criterion level packed."""
        key = (ka, kb)
        w = self._w.get(key)
        if w is None:
            a, b = self.rep[ka], self.rep[kb]
            w = 0
            for k, level in enumerate(self.level_fns):
                if k:
                    w += level.fn(a, b) << self.shift[k]
            self._w[key] = w
        return w

    def _weights(self, kinds_a, kinds_b) -> dict[tuple[int, int], int]:
        return {(a, b): self.weight(a, b) for a in kinds_a for b in kinds_b if self._kind_legal(a, b)}

    # ------------------------------------------------------------ homogeneous part

    def remainder(self, positions: list[int]) -> tuple[list[tuple[int, int]], list[int], int] | None:
        """Residents ``positions`` (BSN order) as a homogeneous bracket: the pairs, the
        players left over, the value; None unless proved best by the bound."""
        n_pairs = len(positions) // 2
        if not n_pairs:
            return [], list(positions), 0
        s1, s2 = positions[:n_pairs], positions[n_pairs:]
        kind = self.kind
        kinds = {kind[p] for p in positions}
        weight = self._weights(kinds, kinds)
        counts: dict[int, int] = {}
        for p in positions:
            counts[kind[p]] = counts.get(kind[p], 0) + 1
        bound = _bound(counts, weight, n_pairs)
        if bound is None:
            return None
        got = self._split(s1, s2, weight, bound)
        if got is not None:
            return got
        # 4.3: the first resident-exchange of one player whose S1/S2 reach the bound (the
        # kinds say which swaps of kinds can; only those are tried on the players)
        bsn = {p: k + 1 for k, p in enumerate(positions)}
        swaps = sorted(((x, y) for x in s1 for y in s2), key=lambda e: (bsn[e[1]] - bsn[e[0]], -bsn[e[0]], bsn[e[1]]))
        c1: dict[int, int] = {}
        c2: dict[int, int] = {}
        for p in s1:
            c1[kind[p]] = c1.get(kind[p], 0) + 1
        for p in s2:
            c2[kind[p]] = c2.get(kind[p], 0) + 1
        by_kinds: dict[tuple[int, int], bool] = {}
        for x, y in swaps:
            key = (kind[x], kind[y])
            if key not in by_kinds:
                r = dict(c1)
                c = dict(c2)
                r[key[0]] -= 1
                r[key[1]] = r.get(key[1], 0) + 1
                c[key[1]] -= 1
                c[key[0]] = c.get(key[0], 0) + 1
                r = {k: v for k, v in r.items() if v}
                c = {k: v for k, v in c.items() if v}
                value = transport_value(r, c, weight, len(s2) - len(s1))
                by_kinds[key] = value is not None and 2 * value == bound
            if not by_kinds[key]:
                continue
            new_s1 = sorted((set(s1) - {x}) | {y})
            new_s2 = sorted((set(s2) - {y}) | {x})
            got = self._split(new_s1, new_s2, weight, bound)
            if got is not None:
                return got
        return None

    def _split(self, s1: list[int], s2: list[int], weight: dict, bound: int):
        """The first best transposition of one S1/S2 split, if it reaches ``bound``."""
        vertices = self.vertices
        legal = self.rnd.legal
        cols = first_best_assignment(s1, s2, self.kind.__getitem__, weight,
                                     lambda a, b: legal(vertices[a], vertices[b]))
        if cols is None:
            return None
        value = sum(self.weight(self.kind[a], self.kind[b]) for a, b in zip(s1, cols, strict=True))
        if 2 * value != bound:
            return None
        used = set(cols)
        return list(zip(s1, cols, strict=True)), [p for p in s2 if p not in used], value

    # ------------------------------------------------------------ the bracket

    def run(self) -> tuple[list[tuple[int, int]], list[int]] | None:
        """(pairs, downfloaters) as positions, or None."""
        res = list(range(len(self.mdps), len(self.vertices)))
        if not self.mdps:
            got = self.remainder(res)
            if got is None:
                return None
            pairs, down, _ = got
            return (pairs, down) if self._ideal(down) else None
        if len(self.mdps) == 1:
            return self._one_mdp(res)
        return self._mdps(res)

    def _mixed_bound(self, mdp_kinds: list[int], res_counts: dict[int, int]) -> int | None:
        """Twice the fractional optimum of the MDPs (``mdp_kinds``, every one paired with a
        resident) and the residents (paired among themselves or left out): the kinds'
        transportation problem, MDP rows and columns joined to residents only."""
        rows: dict = {}
        for k in mdp_kinds:
            rows[("m", k)] = rows.get(("m", k), 0) + 1
        for k, c in res_counts.items():
            if c:
                rows[("r", k)] = c
        n_res = sum(res_counts.values())
        w: dict = {}
        for a in rows:
            for b in rows:
                if a[0] == "m" and b[0] == "m":
                    continue
                if a[0] == "m":
                    if self._kind_legal(a[1], b[1]):
                        w[(a, b)] = self.weight(a[1], b[1])
                elif b[0] == "m":
                    if self._kind_legal(b[1], a[1]):
                        w[(a, b)] = self.weight(b[1], a[1])
                elif self._kind_legal(a[1], b[1]):
                    w[(a, b)] = self.weight(a[1], b[1])
        cols = dict(rows)
        if n_res:
            rows["spare"] = n_res
            cols["spare"] = n_res
            w[("spare", "spare")] = 0
            for a in list(cols):
                if a != "spare" and a[0] == "r":
                    w[(a, "spare")] = 0
                    w[("spare", a)] = 0
        caps = {(a, a): 2 * (c // 2) for a, c in cols.items() if a != "spare" and a[0] == "r"}
        return transport_value(rows, cols, w, 0, caps)

    def _mdps(self, res: list[int]) -> tuple[list[tuple[int, int]], list[int]] | None:
        """Several MDPs, all of them paired (else the matching decides the Limbo): each in
        BSN order takes the first resident the kinds' bound still allows (4.2), then the
        remainder as a homogeneous bracket; the whole candidate must reach the bound."""
        legal = self.rnd.legal
        mdps = list(range(len(self.mdps)))
        counts: dict[int, int] = {}
        for p in res:
            counts[self.kind[p]] = counts.get(self.kind[p], 0) + 1
        total = self._mixed_bound([self.kind[m] for m in mdps], counts)
        if total is None:
            return None
        fixed: list[tuple[int, int]] = []
        fixed_value = 0
        taken: set[int] = set()
        for i, m in enumerate(mdps):
            km = self.kind[m]
            failed: set[int] = set()
            for r in res:
                t = self.kind[r]
                if r in taken or t in failed or not legal(self.vertices[m], self.vertices[r]):
                    continue
                rest = dict(counts)
                rest[t] -= 1
                later = [self.kind[x] for x in mdps[i + 1:]]
                b = self._mixed_bound(later, rest)
                w = self.weight(km, t)
                if b is not None and 2 * (fixed_value + w) + b == total:
                    fixed.append((m, r))
                    fixed_value += w
                    taken.add(r)
                    counts = rest
                    break
                failed.add(t)
            else:
                return None
        got = self.remainder([p for p in res if p not in taken])
        if got is None:
            return None
        pairs, down, value = got
        if 2 * (fixed_value + value) != total:
            return None
        return (fixed + pairs, down) if self._ideal(down) else None

    def _one_mdp(self, res: list[int]) -> tuple[list[tuple[int, int]], list[int]] | None:
        m = 0
        km = self.kind[m]
        legal = self.rnd.legal
        vm = self.vertices[m]
        counts: dict[int, int] = {}
        for p in res:
            counts[self.kind[p]] = counts.get(self.kind[p], 0) + 1
        kinds = set(counts)
        weight = self._weights(kinds, kinds)
        # the best any candidate can do: the MDP with a resident of some kind, or not paired
        best = None
        options = {}
        for t in kinds:
            if not self._kind_legal(km, t):
                continue
            rest = dict(counts)
            rest[t] -= 1
            if not rest[t]:
                del rest[t]
            b = _bound(rest, weight, (len(res) - 1) // 2)
            if b is None:
                continue
            options[t] = 2 * self.weight(km, t) + b
            best = options[t] if best is None or options[t] > best else best
        alone = _bound(counts, weight, len(res) // 2)
        if best is None or (alone is not None and alone >= best):
            return None  # the MDP may be better left in the Limbo: let the matching decide
        for r in res:
            t = self.kind[r]
            if options.get(t) != best or not legal(vm, self.vertices[r]):
                continue
            # the first resident a best candidate may give the MDP (4.2): its remainder
            # must be proved best too (a remainder needing an exchange is the matching's)
            rest = [p for p in res if p != r]
            got = self.remainder(rest)
            if got is None:
                return None
            pairs, down, value = got
            if 2 * (self.weight(km, t) + value) != best:
                return None
            return ([(m, r)] + pairs, down) if self._ideal(down) else None
        return None

    # ------------------------------------------------------------ [C4], [C8], [C9]

    def _ideal(self, down: list[int]) -> bool:
        """The downfloaters (positions) are as good as any on [C4] and [C8] (and, with
        [C9] in force, are the PAB assignee)."""
        rnd = self.rnd
        legal = rnd.legal
        d = [self.vertices[p] for p in down]
        nxt, lower = self.nxt, self.lower
        if len(d) > 1:
            return False
        if self.c9 or not nxt:
            # the downfloater (if any) gets the PAB; everyone below pairs among themselves
            if d and not rnd.cand[d[0]]:
                return False
            if self.odd and not d:
                return False
            rest = nxt + lower
            return has_perfect_matching(len(rest), lambda a, b: legal(rest[a], rest[b]))
        if not d:
            rest = nxt + lower
            if len(rest) % 2:
                return rnd._complete_with_bye(rest, {v for v in rest if rnd.cand[v]})
            return has_perfect_matching(len(rest), lambda a, b: legal(rest[a], rest[b]))
        x = d[0]
        group = [x] + nxt  # the next bracket: x (an MDP there) with the next residents
        k = len(group)

        def ok(a: int, b: int) -> bool:
            if a == k or b == k:  # the one next resident going further down
                return (b if a == k else a) != 0
            return legal(group[a], group[b])

        size = k + (k % 2)
        mate = maximum_matching(size, ok)
        if any(mate[i] == -1 for i in range(size)):
            return False
        leaving = [group[mate[k]]] if k % 2 else []
        rest = leaving + lower
        if len(rest) % 2:
            return rnd._complete_with_bye(rest, {v for v in rest if rnd.cand[v]})
        return has_perfect_matching(len(rest), lambda a, b: legal(rest[a], rest[b]))
