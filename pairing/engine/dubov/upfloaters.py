"""Choosing the upfloaters of a bracket (2025: 2.2.1-2.2.2; 2026: 3.2.1-3.2.2): the minimum
number, then the best set by C6 (containers, D12), C7..C10 and the 4.2 order.
A part of :class:`pairing.engine.dubov.pairer._Round`, which inherits it."""

from __future__ import annotations

import heapq
from collections.abc import Iterator, Sequence
from dataclasses import dataclass
from decimal import Decimal
from itertools import product

from ..matching import has_perfect_matching, min_class_pairs
from ..model import (
    EngineError,
)

CRITERIA = ("C7", "C8", "C9", "C10")


def fmt(score: Decimal) -> str:
    """A score as an arbiter writes it: 2, 2.5, 10."""
    return format(score.normalize(), "f")


def containers(sizes: Sequence[int], k: int) -> Iterator[tuple[int, ...]]:
    """4.2.3 containers of k upfloaters, in the C6 order of D12.

    ``sizes[i]`` is the number of possible upfloaters at the i-th highest pool score.
    A container is yielded as level indices sorted by score ascending (index
    descending); containers come "lowest score as high as possible, then the second
    lowest ..."  ({3,3}, {3,2.5}, {2.5,2.5}, {3,1.5} ...).  Lazy; cost per container
    O(k * levels)."""
    levels = len(sizes)
    used = [0] * levels
    suffix_room = [0] * (levels + 1)
    for i in range(levels):
        suffix_room[i + 1] = suffix_room[i] + sizes[i]  # players at levels 0..i

    def rec(prefix: list[int], max_idx: int, left: int) -> Iterator[tuple[int, ...]]:
        if left == 0:
            yield tuple(prefix)
            return
        for i in range(0, max_idx + 1):
            if used[i] >= sizes[i]:
                continue
            # room at levels 0..i after this pick must hold the rest
            room = suffix_room[i + 1] - sum(used[: i + 1]) - 1
            if room < left - 1:
                continue
            used[i] += 1
            prefix.append(i)
            yield from rec(prefix, i, left - 1)
            prefix.pop()
            used[i] -= 1

    yield from rec([], levels - 1, k)


@dataclass
class _Eval:
    """A bracket (residents + one upfloater set) as far as 2.2.2 needs to know it."""

    upfloaters: tuple[int, ...]
    seqs: tuple[int, ...]
    vector: tuple[int, ...]  # (C7, C8, C9, C10); C8-C10 zero in the last round
    u: int  # 2.2.4.1 minimum pairs inside the smaller subgroup



class UpfloaterChoice:
    """The upfloater methods of :class:`~pairing.engine.dubov.pairer._Round` (its state: see there)."""

    def colour_cost(self, bracket: Sequence[int]) -> tuple[int, int] | None:
        """C7 over all legal pairings of ``bracket`` and the u of 2.2.4.1.

        Returns (C7, u) - C7 = the fewest players not getting their preference, which
        is the number of pairs of two players with the same preference (everyone has
        one, D4); u = the fewest pairs inside the smaller subgroup S.  C7 = 2u +
        (|L| - |S|) / 2.  None if the bracket has no legal pairing.  Cost: one
        cardinality matching (u = 0, the usual case) and, only when that fails, a
        weighted matching on the bracket's explicit graph."""
        vs = list(bracket)
        n = len(vs)
        if n % 2:
            return None
        white = [self.white_seeker[i] for i in vs]
        nw = sum(white)
        nb = n - nw
        in_s = white if nw <= nb else [not w for w in white]
        d = abs(nw - nb) // 2
        u = self.min_inside(vs, in_s)
        return None if u is None else (2 * u + d, u)


    def min_inside(self, vs: Sequence[int], in_s: Sequence[bool]) -> int | None:
        """The fewest pairs with both players in S over all legal pairings of ``vs``
        (2.2.4.1 as read in the engine doc), None without a legal pairing."""
        n = len(vs)
        legal = self.legal
        order = self._order(vs)
        # greedy start: S first (it may only pair outside S), taking constrained L players first
        s_first = [i for i in order if in_s[i]] + [i for i in order if not in_s[i]]
        partners = [i for i in order if not in_s[i]] + [i for i in order if in_s[i]]
        if has_perfect_matching(n, lambda a, b: legal(vs[a], vs[b]) and not (in_s[a] and in_s[b]), s_first,
                                partners):
            return 0
        if not has_perfect_matching(n, lambda a, b: legal(vs[a], vs[b]), order):
            return None
        return min_class_pairs(n, lambda a, b: legal(vs[a], vs[b]), in_s)


    def choose_upfloaters(
        self, score: Decimal, residents: list[int], pool: list[int], max_k: int | None = None
    ) -> tuple[tuple[int, ...], str, _Eval] | None:
        """2.2.1-2.2.2 (2026: 3.2.1-3.2.2): the minimum number k of upfloaters, then the
        first set by C6 (container order D12), then C7, C8, C9, C10 (off in the last
        round), then 4.2 order; every candidate must give a legal bracket and leave the
        rest of the pool completable (C4).

        Sets inside a container are sorted by a lower bound of their quality vector
        (C7 >= |White seekers - Black seekers| / 2; C8-C10 are exact) and evaluated
        lazily, so usually one or two brackets are actually matched.  Cost per
        evaluated set: a matching of the bracket plus a completion test of the pool.
        With ``max_k`` (1997 6.4, ``floaters_down``) no more upfloaters than that are
        taken: None when no such set will do."""
        nr = len(residents)
        levels: list[list[int]] = []
        level_score: list[Decimal] = []
        for i in pool:  # pool is sorted by score desc, TPN asc: sequence numbers of 4.2.2
            if not level_score or level_score[-1] != self.score[i]:
                levels.append([])
                level_score.append(self.score[i])
            levels[-1].append(i)
        seq = {i: s for s, i in enumerate(pool, start=1)}
        wr = sum(self.white_seeker[i] for i in residents)
        why_k = ""
        for k in range(nr % 2, nr + 1, 2):
            if k > len(pool) or (max_k is not None and k > max_k):
                break
            if k == 0:
                cost = self.colour_cost(residents)
                if cost is not None and self.completes(pool):
                    reason = f"No upfloaters: the {nr} residents can be paired among themselves (2.2.1)."
                    return (), reason, _Eval((), (), (cost[0], 0, 0, 0), cost[1])
                why_k = (
                    "the residents cannot all be paired among themselves"
                    if cost is None
                    else "pairing the residents among themselves would leave the lower players incomplete (C4)"
                )
                continue
            if not why_k:
                why_k = "odd number of residents"
            for bars, lvls in self._bar_passes(levels, k):
                skipped: list[tuple[int, ...]] = []
                for cont in containers([len(lv) for lv in lvls], k):
                    self._rejected = []
                    found = self._search_container(residents, pool, lvls, cont, seq, wr, nr, bars)
                    if found is not None:
                        best, runner = found
                        reason = self._upfloater_reason(k, why_k, best, runner, cont, skipped, level_score)
                        return best.upfloaters, reason, best
                    skipped.append(cont)
            why_k = f"no set of {k} upfloater(s) gives a legal bracket that keeps the rest completable"
        if max_k is not None:
            return None
        raise EngineError(  # pragma: no cover - excluded by C4 at the previous step
            f"internal error: bracket {fmt(score)} found no upfloater set although the round is completable"
        )


    def _bar_passes(self, levels: list[list[int]], k: int) -> Iterator[tuple[int | None, list[list[int]]]]:
        """The passes over the containers for k upfloaters: one (no filter) by the 2025
        text.  With the bars of 1997 2.1 (``upfloat_bars``; they are off in the last round),
        sets with no barred player first (the barred players left out of the levels),
        then sets with exactly 1, 2 ... k of them: the bar ranks next to the number of
        upfloaters, above C6 (docs/dubov-1997.md).  Barred players are the C8 figure of
        the vector then (``max_up``)."""
        if not self.rules.upfloat_bars or self.last_round:
            yield None, levels
            return
        yield 0, [[i for i in lv if not self.max_up[i]] for lv in levels]
        for bars in range(1, k + 1):
            yield bars, levels

    def _evaluate(self, residents: list[int], pool: list[int], ups: tuple[int, ...], lower: tuple[int, ...],
                  seqs: tuple[int, ...]) -> _Eval | None:
        cost = self.colour_cost(residents + list(ups))
        if cost is None:
            self._rejected.append((ups, "the bracket cannot be paired legally"))
            return None
        chosen = set(ups)
        if not self.completes([i for i in pool if i not in chosen]):
            self._rejected.append((ups, "the rest of the pool could not be paired (C4)"))
            return None
        return _Eval(ups, seqs, (cost[0],) + lower[1:], cost[1])


    def _kind(self, i: int) -> tuple:
        """What a possible upfloater contributes to the lower-bound vector."""
        if self.last_round:
            return (self.white_seeker[i],)
        return (self.white_seeker[i], self.max_up[i], self.ups[i] if self.max_up[i] else 0, self.up_prev[i])


    def _container_sets(self, levels, cont, seq, wr, nr, bars: int | None = None
                        ) -> Iterator[tuple[tuple[int, ...], tuple[int, ...], tuple]]:
        """The sets of one container in (lower-bound vector, sequence numbers) order,
        lazily.  Players of a level with the same kind (colour sought, C8-C10 figures)
        are interchangeable for the lower bound, so the bound is computed once per
        choice of kind counts; the sets realising each bound are generated in
        lexicographic order and merged.  Cost: the number of kind-count choices plus
        O(k) per set actually taken, instead of C(m, k) up front."""
        counts: dict[int, int] = {}
        for lv in cont:
            counts[lv] = counts.get(lv, 0) + 1
        lv_order = sorted(counts)
        per_level = []
        for lv in lv_order:
            kinds: dict[tuple, int] = {}
            for i in levels[lv]:
                kinds[self._kind(i)] = kinds.get(self._kind(i), 0) + 1
            per_level.append(list(_distributions(sorted(kinds.items()), counts[lv])))
        by_bound: dict[tuple[int, ...], list[tuple]] = {}
        for choice in product(*per_level):
            if bars is not None and sum(kind[1] * c for dist in choice for kind, c in dist) != bars:
                continue  # another pass of 1997 2.1 (_bar_passes)
            w = wr + sum(kind[0] * c for dist in choice for kind, c in dist)
            total = nr + len(cont)
            c7 = abs(2 * w - total) // 2
            if self.last_round:
                bound = (c7, 0, 0, 0)
            else:
                c8 = sum(kind[1] * c for dist in choice for kind, c in dist)
                c9 = sum(kind[2] * c for dist in choice for kind, c in dist)
                c10 = sum(kind[3] * c for dist in choice for kind, c in dist)
                bound = (c7, c8, c9, c10)
            by_bound.setdefault(bound, []).append(choice)
        for bound in sorted(by_bound):
            gens = [self._sets_of_choice(levels, lv_order, choice, seq) for choice in by_bound[bound]]
            for seqs, ups in heapq.merge(*gens):
                yield bound, seqs, ups


    def _sets_of_choice(self, levels, lv_order, choice, seq) -> Iterator[tuple[tuple[int, ...], tuple[int, ...]]]:
        parts = [
            _sets_with_kinds(levels[lv], [self._kind(i) for i in levels[lv]], dict(dist))
            for lv, dist in zip(lv_order, choice, strict=True)
        ]
        for combo in _lazy_product(parts):
            ups = tuple(i for part in combo for i in part)
            yield tuple(seq[i] for i in ups), ups


    def _search_container(self, residents, pool, levels, cont, seq, wr, nr, bars: int | None = None):
        cands = self._container_sets(levels, cont, seq, wr, nr, bars)
        best: _Eval | None = None
        runner: _Eval | tuple | None = None
        evaluated: list[_Eval] = []
        for lower, seqs, ups in cands:
            if best is not None and (lower, seqs) > (best.vector, best.seqs):
                # one more evaluation, only to explain the choice
                ev = self._evaluate(residents, pool, ups, lower, seqs)
                if ev is not None:
                    evaluated.append(ev)
                else:
                    runner = ("invalid", ups)
                break
            ev = self._evaluate(residents, pool, ups, lower, seqs)
            if ev is None:
                continue
            evaluated.append(ev)
            if best is None or (ev.vector, ev.seqs) < (best.vector, best.seqs):
                best = ev
        if best is None:
            return None
        # explain against the set 4.2 order alone would have taken, if it is not the best
        counts: dict[int, int] = {}
        for lv in cont:
            counts[lv] = counts.get(lv, 0) + 1
        first = tuple(i for lv in sorted(counts) for i in levels[lv][: counts[lv]])
        if bars is not None and sum(self.max_up[i] for i in first) != bars:
            first = best.upfloaters  # outside this pass of 1997 2.1: not a rival
        if first != best.upfloaters and all(e.upfloaters != first for e in evaluated) and all(
            u != first for u, _ in self._rejected
        ):
            ev = self._evaluate(residents, pool, first, self._bound(first, wr, nr), tuple(seq[i] for i in first))
            if ev is not None:
                evaluated.append(ev)
        others = [e for e in evaluated if e is not best]
        first_ev = next((e for e in others if e.upfloaters == first), None)
        if first_ev is not None:
            runner = first_ev
        elif others:
            runner = min(others, key=lambda e: (e.vector, e.seqs))
        return best, runner


    def _bound(self, ups: Sequence[int], wr: int, nr: int) -> tuple[int, ...]:
        """The lower-bound vector of one set (C7 bound, C8, C9, C10)."""
        w = wr + sum(self.white_seeker[i] for i in ups)
        c7 = abs(2 * w - (nr + len(ups))) // 2
        if self.last_round:
            return (c7, 0, 0, 0)
        return (
            c7,
            sum(self.max_up[i] for i in ups),
            sum(self.ups[i] for i in ups if self.max_up[i]),
            sum(self.up_prev[i] for i in ups),
        )


    def _upfloater_reason(self, k, why_k, best: _Eval, runner, cont, skipped, level_score) -> str:
        ups = best.upfloaters
        desc = ", ".join(f"{self.name(i)} ({fmt(self.score[i])} pts)" for i in ups)
        parts = [f"{k} upfloater(s) needed (2.2.1: {why_k}): {desc}"]
        if skipped:
            sk = "; ".join("{" + ", ".join(fmt(level_score[i]) for i in c) + "}" for c in skipped)
            parts.append(f"C6: better-scored containers {sk} hold no usable set (no legal bracket, C1/C3, or no completion, C4)")
        else:
            parts.append("C6 keeps the score differences smallest (highest-scored possible upfloaters)")
        c7, c8, c9, c10 = best.vector
        figs = f"C7 {c7} without preference"
        if self.rules.upfloat_bars:
            figs += (", the bars of 2.1 off in the last round" if self.last_round else
                     f", {c8} upfloater(s) barred by 2.1 (rules of 1997: upfloated last round or "
                     f"{self.bar_limit} times already; sets with fewer barred players come first)")
        elif not self.last_round:
            figs += f", C8 {c8} maximum upfloater(s), C9 {c9}, C10 {c10} upfloated last round"
        else:
            figs += ", C8-C10 off in the last round"
        parts.append(figs)
        rejected = list(dict.fromkeys((u, why) for u, why in self._rejected if u != ups))[:3]
        for u, why in rejected:
            parts.append(f"{self.names(u)} rejected: {why}")
        if runner is None:
            parts.append("the only usable set in this container")
        elif isinstance(runner, tuple):
            parts.append(f"next set in order ({self.names(runner[1])}) cannot be paired or completed")
        else:
            diff = next((j for j in range(4) if runner.vector[j] != best.vector[j]), None)
            names = ("C7", "2.1 (1997)", "C9", "C10") if self.rules.upfloat_bars else CRITERIA
            if diff is None:
                parts.append(f"equal on C6-C10 with {self.names(runner.upfloaters)}: {self.order_name} order decides")
            elif runner.seqs < best.seqs:
                parts.append(
                    f"{names[diff]} decides against {self.names(runner.upfloaters)}, first in {self.order_name} order "
                    f"({runner.vector[diff]} vs {best.vector[diff]})"
                )
            else:
                parts.append(
                    f"{names[diff]} decides against {self.names(runner.upfloaters)} "
                    f"({runner.vector[diff]} vs {best.vector[diff]})"
                )
        return "; ".join(parts) + "."



def _distributions(kinds: list[tuple[tuple, int]], c: int) -> Iterator[tuple[tuple[tuple, int], ...]]:
    """Ways to take c players from kinds with the given availabilities."""
    if c == 0:
        yield ()
        return
    if not kinds:
        return
    (kind, avail), rest = kinds[0], kinds[1:]
    if sum(a for _, a in rest) + avail < c:
        return
    for take in range(min(avail, c), -1, -1):
        for tail in _distributions(rest, c - take):
            yield (((kind, take),) if take else ()) + tail


def _sets_with_kinds(members: list[int], kinds: list[tuple], need: dict[tuple, int]) -> Iterator[tuple[int, ...]]:
    """Subsets of ``members`` (in sequence order) with ``need[kind]`` members of each
    kind, in lexicographic order.  O(len(members)) set-up, then O(k * len(members))
    per set at worst."""
    n = len(members)
    suffix: list[dict[tuple, int]] = [{} for _ in range(n + 1)]
    for i in range(n - 1, -1, -1):
        suffix[i] = dict(suffix[i + 1])
        suffix[i][kinds[i]] = suffix[i].get(kinds[i], 0) + 1
    chosen: list[int] = []
    left = dict(need)

    def rec(start: int) -> Iterator[tuple[int, ...]]:
        if not any(left.values()):
            yield tuple(chosen)
            return
        for j in range(start, n):
            if any(suffix[j].get(kd, 0) < cnt for kd, cnt in left.items()):
                return
            kd = kinds[j]
            if left.get(kd, 0) <= 0:
                continue
            left[kd] -= 1
            chosen.append(members[j])
            yield from rec(j + 1)
            chosen.pop()
            left[kd] += 1

    yield from rec(0)


def _lazy_product(parts: list[Iterator[tuple[int, ...]]]) -> Iterator[tuple[tuple[int, ...], ...]]:
    """itertools.product without materialising the first factor (later factors are
    cached as they are consumed)."""
    if not parts:
        yield ()
        return
    first, rest = parts[0], parts[1:]
    cache: list[tuple] | None = None
    for item in first:
        if cache is None:
            cache = list(_lazy_product(rest))
        for tail in cache:
            yield (item,) + tail

