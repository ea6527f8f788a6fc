"""The Dubov pairing procedure: :func:`pair_round`.

Article numbers are those of C.04.4.1 as applied from 1 July 2025; the text applied
from 1 February 2026 moved the criteria to Article 2 and the procedure to Article 3
(2025 "2.1 PAB" = 2026 "3.1", 2025 "2.2.x" = 2026 "3.2.x", 2025 "3.x criteria" = 2026
"2.x").  Reading decisions D1-D14 are in ``/work/shared/docs/dubov-engine.md``; the
further ones are in ``docs/interpretation.md``.

Outline (each step is local to one bracket; see the method docstrings for costs):

1. validate the snapshot, compute the player figures (``state.player_states``);
2. the PAB (2.1) if the number of players to pair is odd, completion checked by one
   maximum-matching test per candidate tried (C4);
3. brackets in descending score: the minimum number of upfloaters (2.2.1), the best
   set by C6 (containers, D12) then C7..C10 then 4.2 order (2.2.2), G1/G2 (2.2.3),
   shifts (2.2.4), S1 (2.2.5), T2 (2.2.6);
4. colours (Article 5), board order, and a final verification of the output.

Legality (D11) is one predicate, :meth:`_Round.legal`, stored as its complement: each
player's set of met opponents and forbidden partners, plus the absolute-preference
class.  No O(n^2) structure is ever built for the whole field.
"""

from __future__ import annotations

import heapq
from collections.abc import Iterator, Sequence
from dataclasses import dataclass
from decimal import Decimal
from itertools import combinations, product

from .colours import allocate, ranks_higher, who
from .matching import has_perfect_matching, lex_first_assignment, maximum_matching, min_class_pairs
from .model import (
    Board,
    BracketTrace,
    ByeDecision,
    Colour,
    ColourDecision,
    EngineError,
    Explanation,
    NoLegalPairing,
    Pairing,
    PreferenceStrength,
    Snapshot,
)
from .state import PlayerState, player_states

CRITERIA = ("C7", "C8", "C9", "C10")


def pair_round(snapshot: Snapshot) -> Pairing:
    """Pair ``snapshot.round_number`` by the Dubov system (C.04.4.1).

    Raises :class:`InvalidSnapshot` for inconsistent input and :class:`NoLegalPairing`
    when the round cannot be paired (1.8.3: the arbiter decides).  Typical cost
    O(N * R + sum over brackets of |pool|), i.e. near-linear in the field size.
    """
    states = player_states(snapshot)  # validates (style 8)
    return _Round(snapshot, states).run()


def fmt(score: Decimal) -> str:
    """A score as an arbiter writes it: 2, 2.5, 10."""
    return format(score.normalize(), "f")


def middle_out(items: Sequence[int]) -> list[int]:
    """4.3.3 (2026: 3.3.3): sequence numbers from the (remaining) middle outwards,
    the higher of two middles first.  A..G -> D, C, E, B, F, A, G.  O(n)."""
    n = len(items)
    if n == 0:
        return []
    if n % 2:
        mid = n // 2
        out = [items[mid]]
        lo, hi = mid - 1, mid + 1
    else:
        lo, hi = n // 2 - 1, n // 2
        out = []
    # take the upper middle first, then the lower one, alternating
    while lo >= 0 or hi < n:
        if lo >= 0:
            out.append(items[lo])
            lo -= 1
        if hi < n:
            out.append(items[hi])
            hi += 1
    return out


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


class _Round:
    """One round being paired.  Players are local indices 0..n-1 (TPN order)."""

    def __init__(self, snapshot: Snapshot, states: dict[int, PlayerState]):
        self.snapshot = snapshot
        present = sorted(
            (st for pid, st in states.items() if pid not in snapshot.absent), key=lambda st: st.tpn
        )
        self.st: list[PlayerState] = present
        index = {st.id: i for i, st in enumerate(present)}
        self.index = index
        n = len(present)
        self.n = n
        self.score = [st.score for st in present]
        self.tpn = [st.tpn for st in present]
        self.aro = [st.aro for st in present]
        self.white_seeker = [st.preference.colour is Colour.WHITE for st in present]
        self.absc = [
            (1 if st.preference.colour is Colour.WHITE else 2)
            if st.preference.strength is PreferenceStrength.ABSOLUTE
            else 0
            for st in present
        ]
        blocked: list[set[int]] = [set() for _ in range(n)]
        by_id = {p.id: p for p in snapshot.players}
        for i, st in enumerate(present):
            for e in by_id[st.id].history:
                if e.played and e.opponent in index:
                    blocked[i].add(index[e.opponent])
        for pair in snapshot.forbidden:
            a, b = tuple(pair)
            if a in index and b in index:
                blocked[index[a]].add(index[b])
                blocked[index[b]].add(index[a])
        self.blocked = blocked
        self.last_round = snapshot.round_number == snapshot.total_rounds  # D9
        self.max_up = [st.max_upfloater for st in present]
        self.ups = [st.upfloats for st in present]
        self.up_prev = [st.upfloated_previous for st in present]
        self._rejected: list[tuple[tuple[int, ...], str]] = []  # explanation of 2.2.2

    # ------------------------------------------------------------ legality (D11)

    def legal(self, a: int, b: int) -> bool:
        """D11: not met in a played game, not forbidden, not the same absolute
        preference (C1, C3).  O(1)."""
        if a == b or b in self.blocked[a]:
            return False
        c = self.absc[a]
        return c == 0 or c != self.absc[b]

    def _order(self, vs: Sequence[int]) -> list[int]:
        """Greedy order for matchings: absolute-preference players first (the
        classes are the dense part of the complement)."""
        return sorted(range(len(vs)), key=lambda i: (self.absc[vs[i]] == 0, -len(self.blocked[vs[i]])))

    def complete(self, vs: Sequence[int]) -> bool:
        """C4: the players ``vs`` have a perfect matching of legal pairs.
        Greedy plus Edmonds augmentations: near O(|vs|) on a typical field,
        O(|vs|^3) worst case."""
        if len(vs) % 2:
            return False
        legal = self.legal
        return has_perfect_matching(len(vs), lambda a, b: legal(vs[a], vs[b]), self._order(vs))

    def unpaired_in_maximum(self, vs: Sequence[int]) -> list[int]:
        """Players a maximum matching of ``vs`` leaves unpaired (for NoLegalPairing)."""
        legal = self.legal
        mate = maximum_matching(len(vs), lambda a, b: legal(vs[a], vs[b]), self._order(vs))
        return [vs[i] for i in range(len(vs)) if mate[i] == -1]

    def name(self, i: int) -> str:
        return who(self.st[i])

    def names(self, vs: Sequence[int]) -> str:
        return ", ".join(self.name(i) for i in vs) if vs else "none"

    # ------------------------------------------------------------ driver

    def run(self) -> Pairing:
        snap = self.snapshot
        everyone = list(range(self.n))
        bye, bye_decision = self.choose_bye(everyone)
        remaining = [i for i in everyone if i != bye]
        pairs: list[tuple[int, int]] = []
        traces: list[BracketTrace] = []
        # scoregroups, descending
        groups: dict[Decimal, list[int]] = {}
        for i in remaining:
            groups.setdefault(self.score[i], []).append(i)  # TPN order within a group
        scores = sorted(groups, reverse=True)
        taken = [False] * self.n
        for gi, s in enumerate(scores):
            residents = [i for i in groups[s] if not taken[i]]
            if not residents:
                continue
            pool = [i for t in scores[gi + 1 :] for i in groups[t] if not taken[i]]
            ups, up_reason, ev = self.choose_upfloaters(s, residents, pool)
            bracket = residents + list(ups)
            for i in bracket:
                taken[i] = True
            bpairs, trace = self.pair_bracket(s, residents, ups, up_reason, ev.u)
            pairs.extend(bpairs)
            traces.append(trace)
        boards, colours = self.colours_and_boards(pairs)
        bye_id = self.st[bye].id if bye is not None else None
        pairing = Pairing(
            round_number=snap.round_number,
            boards=tuple(boards),
            bye=bye_id,
            explanation=Explanation(bye=bye_decision, brackets=tuple(traces), colours=tuple(colours)),
        )
        self.verify(pairing)
        return pairing

    # ------------------------------------------------------------ 2.1 PAB

    def choose_bye(self, everyone: list[int]) -> tuple[int | None, ByeDecision]:
        """2.1 (2026: 3.1): among C2-eligible players (D8), the first in the order
        lowest score, most played games, lowest initial ranking (largest TPN) whose
        removal leaves a complete pairing (C4).  One completion test per candidate
        tried, usually one."""
        if self.n % 2 == 0:
            if not self.complete(everyone):
                bad = self.unpaired_in_maximum(everyone)
                raise NoLegalPairing(
                    "No complete round-pairing exists (C1/C3/C4): players "
                    f"{self.names(bad)} cannot all be paired legally; the arbiter decides (1.8.3).",
                    tuple(self.st[i].id for i in bad),
                )
            return None, ByeDecision(player=None, reason="Even number of players to pair: no pairing-allocated bye.")
        eligible = [i for i in everyone if self.st[i].pab_eligible]
        eligible.sort(key=lambda i: (self.score[i], -self.st[i].games_played, -self.tpn[i]))
        rejected: list[int] = []
        for c in eligible:
            rest = [i for i in everyone if i != c]
            if self.complete(rest):
                ids = tuple(self.st[i].id for i in eligible)
                reason = self._bye_reason(c, eligible, rejected)
                return c, ByeDecision(
                    player=self.st[c].id,
                    eligible=ids,
                    rejected_incomplete=tuple(self.st[i].id for i in rejected),
                    reason=reason,
                )
            rejected.append(c)
            if len(rejected) == 1:
                # one maximum matching of everyone: more than one player left over means
                # no choice of bye can complete the round (saves trying every candidate)
                left_over = self.unpaired_in_maximum(everyone)
                if len(left_over) > 1:
                    raise NoLegalPairing(
                        "No complete round-pairing exists whoever gets the bye (C1/C3/C4): players "
                        f"{self.names(left_over)} cannot all be paired legally; the arbiter decides (1.8.3).",
                        tuple(self.st[i].id for i in left_over),
                    )
        if not eligible:
            msg = "Odd number of players and nobody is eligible for the pairing-allocated bye (C2)"
            bad = everyone
        else:
            msg = (
                "Odd number of players and no bye-eligible player leaves a complete pairing of the "
                f"others (2.1.2 / C4); tried {self.names(eligible)}"
            )
            bad = self.unpaired_in_maximum(everyone)
        raise NoLegalPairing(msg + "; the arbiter decides (1.8.3).", tuple(self.st[i].id for i in bad))

    def _bye_reason(self, c: int, eligible: list[int], rejected: list[int]) -> str:
        st = self.st[c]
        parts = [f"Pairing-allocated bye to {who(st)}"]
        ineligible = self.n - len(eligible)
        if ineligible:
            parts.append(f"{ineligible} player(s) not eligible (C2: earlier PAB, forfeit win or full-point bye)")
        if rejected:
            parts.append(f"{self.names(rejected)} rejected: the others could not all be paired (2.1.2 / C4)")
        others = [i for i in eligible if i != c and i not in rejected]
        if not others:
            parts.append("the only eligible player left")
        else:
            nxt = others[0]
            if self.score[nxt] != self.score[c]:
                parts.append(f"lowest score {fmt(self.score[c])} (2.1.3; next {self.name(nxt)} has {fmt(self.score[nxt])})")
            elif self.st[nxt].games_played != st.games_played:
                parts.append(
                    f"score {fmt(self.score[c])}, most games played {st.games_played} "
                    f"(2.1.4; {self.name(nxt)} played {self.st[nxt].games_played})"
                )
            else:
                parts.append(
                    f"score {fmt(self.score[c])}, {st.games_played} games played, lowest in the initial "
                    f"ranking (2.1.5: TPN {st.tpn}; next {self.name(nxt)})"
                )
        return "; ".join(parts) + "."

    # ------------------------------------------------------------ 2.2.1-2.2.2 upfloaters

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
        self, score: Decimal, residents: list[int], pool: list[int]
    ) -> tuple[tuple[int, ...], str, _Eval]:
        """2.2.1-2.2.2 (2026: 3.2.1-3.2.2): the minimum number k of upfloaters, then the
        first set by C6 (container order D12), then C7, C8, C9, C10 (off in the last
        round), then 4.2 order; every candidate must give a legal bracket and leave the
        rest of the pool completable (C4).

        Sets inside a container are sorted by a lower bound of their quality vector
        (C7 >= |White seekers - Black seekers| / 2; C8-C10 are exact) and evaluated
        lazily, so usually one or two brackets are actually matched.  Cost per
        evaluated set: a matching of the bracket plus a completion test of the pool."""
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
            if k > len(pool):
                break
            if k == 0:
                cost = self.colour_cost(residents)
                if cost is not None and self.complete(pool):
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
            skipped: list[tuple[int, ...]] = []
            for cont in containers([len(lv) for lv in levels], k):
                self._rejected = []
                found = self._search_container(residents, pool, levels, cont, seq, wr, nr)
                if found is not None:
                    best, runner = found
                    reason = self._upfloater_reason(k, why_k, best, runner, cont, skipped, level_score)
                    return best.upfloaters, reason, best
                skipped.append(cont)
            why_k = f"no set of {k} upfloater(s) gives a legal bracket that keeps the rest completable"
        raise EngineError(  # pragma: no cover - excluded by C4 at the previous step
            f"internal error: bracket {fmt(score)} found no upfloater set although the round is completable"
        )

    def _evaluate(self, residents: list[int], pool: list[int], ups: tuple[int, ...], lower: tuple[int, ...],
                  seqs: tuple[int, ...]) -> _Eval | None:
        cost = self.colour_cost(residents + list(ups))
        if cost is None:
            self._rejected.append((ups, "the bracket cannot be paired legally"))
            return None
        chosen = set(ups)
        if not self.complete([i for i in pool if i not in chosen]):
            self._rejected.append((ups, "the rest of the pool could not be paired (C4)"))
            return None
        return _Eval(ups, seqs, (cost[0],) + lower[1:], cost[1])

    def _kind(self, i: int) -> tuple:
        """What a possible upfloater contributes to the lower-bound vector."""
        if self.last_round:
            return (self.white_seeker[i],)
        return (self.white_seeker[i], self.max_up[i], self.ups[i] if self.max_up[i] else 0, self.up_prev[i])

    def _container_sets(self, levels, cont, seq, wr, nr) -> Iterator[tuple[tuple[int, ...], tuple[int, ...], tuple]]:
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

    def _search_container(self, residents, pool, levels, cont, seq, wr, nr):
        cands = self._container_sets(levels, cont, seq, wr, nr)
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
        if not self.last_round:
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
            if diff is None:
                parts.append(f"equal on C6-C10 with {self.names(runner.upfloaters)}: 4.2 order decides")
            elif runner.seqs < best.seqs:
                parts.append(
                    f"{CRITERIA[diff]} decides against {self.names(runner.upfloaters)}, first in 4.2 order "
                    f"({runner.vector[diff]} vs {best.vector[diff]})"
                )
            else:
                parts.append(
                    f"{CRITERIA[diff]} decides against {self.names(runner.upfloaters)} "
                    f"({runner.vector[diff]} vs {best.vector[diff]})"
                )
        return "; ".join(parts) + "."

    # ------------------------------------------------------------ 2.2.3-2.2.6

    def _shift_oracle(self, vs: list[int], roles: list[int]) -> bool:
        """Is there a legal pairing of the bracket in which every pair crosses the
        re-composed G1/G2?  Roles: 0 = S member staying, 1 = S member shifted (X),
        2 = L member that must shift (F), 3 = L member that may shift (A),
        4 = L member that must stay (N).  One cardinality matching."""
        legal = self.legal
        ok_roles = _ROLE_OK

        def ok(a: int, b: int) -> bool:
            return ok_roles[roles[a]][roles[b]] and legal(vs[a], vs[b])

        return has_perfect_matching(len(vs), ok, self._order(vs))

    def pair_bracket(self, score: Decimal, residents: list[int], ups: tuple[int, ...], up_reason: str,
                     u: int) -> tuple[list[tuple[int, int]], BracketTrace]:
        """2.2.3-2.2.6 (2026: 3.2.3-3.2.6) for one bracket.

        G1/G2; shifts of 2.2.4 as decided in the engine doc: u = the minimum number of
        pairs inside the smaller subgroup S; step (a) the first u-set of S in 4.3 order
        for which a step-(b) set exists; step (b) the first set in 4.3 order of the
        possible shifters of L as it stands after step (a) (D14: where players have
        played, L's original members; where nobody has played, L and the players moved
        in by step (a), numbered together, though those are never chosen) giving an
        all-crossing legal pairing, found greedily element by element with one
        matching test per candidate (the first m candidates are tried together first).  S1 by ARO then TPN, T2 the lexicographically first legal
        transposition.  Cost: O(m) matchings of the bracket in the usual case."""
        bracket = residents + list(ups)
        played_any = any(self.st[i].games_played for i in bracket)
        notes: list[str] = []
        if played_any:
            g1 = sorted((i for i in bracket if self.white_seeker[i]), key=lambda i: self.tpn[i])
            g2 = sorted((i for i in bracket if not self.white_seeker[i]), key=lambda i: self.tpn[i])
        else:
            by_tpn = sorted(bracket, key=lambda i: self.tpn[i])
            g1, g2 = by_tpn[: len(by_tpn) // 2], by_tpn[len(by_tpn) // 2 :]
            notes.append("Nobody in the bracket has played: G1 = first half by initial ranking (2.2.3).")
        s_is_g1 = len(g1) <= len(g2)
        small, large = (g1, g2) if s_is_g1 else (g2, g1)
        if not played_any:  # S is the top half by TPN, not a colour class
            small_set = set(small)
            u = self.min_inside(bracket, [i in small_set for i in bracket]) or 0

        def shifter_list(group: list[int], white: bool) -> list[int]:
            if played_any and white:
                srt = sorted(group, key=lambda i: (self.aro[i], self.tpn[i]))
            else:
                srt = sorted(group, key=lambda i: self.tpn[i])
            return middle_out(srt)

        s_order = shifter_list(small, s_is_g1)
        l_order = shifter_list(large, not s_is_g1)
        vs = small + large
        pos = {i: p for p, i in enumerate(vs)}
        m = (len(large) - len(small)) // 2 + u
        shifted_x: tuple[int, ...] = ()
        shifted_y: tuple[int, ...] = ()
        if u or m:
            base_roles = [0] * len(small) + [3] * len(large)
            if u:
                for xs in combinations(s_order, u):
                    roles = list(base_roles)
                    for x in xs:
                        roles[pos[x]] = 1
                    if self._shift_oracle(vs, roles):
                        shifted_x = xs
                        base_roles = roles
                        break
                else:  # pragma: no cover - u is attained by some pairing
                    raise EngineError("internal error: no step-(a) shift set")
                notes.append(
                    f"2.2.4.1: at least {u} pair(s) inside the smaller subgroup in every legal pairing; "
                    f"shifted {self.names(shifted_x)} (first such set in 4.3 order)."
                )
            if m:
                if shifted_x and not played_any:
                    # D14: the step-(b) pool is every possible shifter of L as it stands
                    # after step (a).  Nobody has played, so everyone is a mild Black
                    # seeker (1.5.2.4) and the players just moved in are in the pool
                    # and in its middle-out numbering (4.3.3).  They are never chosen:
                    # moving one back would leave at most u - 1 pairs inside S, below
                    # the minimum u.  So they only change the others' sequence numbers;
                    # dropping them from the numbered list keeps the others' order.
                    moved = set(shifted_x)
                    l_order = [i for i in shifter_list(large + list(shifted_x), not s_is_g1) if i not in moved]
                shifted_y = self._first_y(vs, base_roles, l_order, pos, m)
                notes.append(
                    f"2.2.4.2: shifted {self.names(shifted_y)} from the larger subgroup "
                    "(first set in 4.3 order that allows a legal pairing)."
                )
        xs_set, ys_set = set(shifted_x), set(shifted_y)
        new_small = [i for i in small if i not in xs_set] + list(shifted_y)
        new_large = [i for i in large if i not in ys_set] + list(shifted_x)
        ng1, ng2 = (new_small, new_large) if s_is_g1 else (new_large, new_small)
        s1 = sorted(ng1, key=lambda i: (self.aro[i], self.tpn[i]))
        t2_pool = sorted(ng2, key=lambda i: self.tpn[i])
        legal = self.legal
        cols = lex_first_assignment(len(s1), lambda r, c: legal(s1[r], t2_pool[c]))
        if cols is None:  # pragma: no cover - the shift oracle guaranteed one
            raise EngineError(f"internal error: no transposition in bracket {fmt(score)}")
        t2 = [t2_pool[c] for c in cols]
        c7 = sum(1 for a, b in zip(s1, t2, strict=True) if self.white_seeker[a] == self.white_seeker[b])
        if not (u or m):
            notes.append(f"G1 and G2 have {len(g1)} players each: no shift (2.2.4).")
        why = ""
        if c7 and all(self.st[i].games_played == 0 for i in (*s1, *t2)):
            why = " (before a first game everyone has a mild preference for Black, 1.5.2.4)"
        notes.append(f"C7: {c7} player(s) do not get their colour preference{why}.")
        ids = self._ids
        trace = BracketTrace(
            score=score,
            residents=ids(residents),
            upfloaters=ids(ups),
            upfloater_reason=up_reason,
            g1=ids(sorted(g1, key=lambda i: self.tpn[i])),
            g2=ids(sorted(g2, key=lambda i: self.tpn[i])),
            shifted_from_smaller=ids(shifted_x),
            shifted_from_larger=ids(shifted_y),
            s1=ids(s1),
            t2=ids(t2),
            notes=tuple(notes),
        )
        return list(zip(s1, t2, strict=True)), trace

    def _ids(self, vs: Sequence[int]) -> tuple[int, ...]:
        return tuple(self.st[i].id for i in vs)

    def _first_y(self, vs: list[int], base_roles: list[int], l_order: list[int], pos: dict[int, int],
                 m: int) -> tuple[int, ...]:
        """2.2.4.2: the lexicographically first m-set of L (4.3 order) that allows an
        all-crossing legal pairing.  Greedy: fix the smallest feasible candidate for
        each position; feasibility of "this prefix plus any later candidates" is one
        matching with roles F/A/N."""
        first = l_order[:m]
        roles = list(base_roles)
        for i in l_order:
            roles[pos[i]] = 4
        for i in first:
            roles[pos[i]] = 2
        if self._shift_oracle(vs, roles):
            return tuple(first)
        chosen: list[int] = []
        start = 0
        for step in range(m):
            for p in range(start, len(l_order) - (m - step) + 1):
                c = l_order[p]
                roles = list(base_roles)
                for q, i in enumerate(l_order):
                    roles[pos[i]] = 3 if q > p else 4
                for i in chosen + [c]:
                    roles[pos[i]] = 2
                if self._shift_oracle(vs, roles):
                    chosen.append(c)
                    start = p + 1
                    break
            else:  # pragma: no cover - excluded by step (a)
                raise EngineError("internal error: no step-(b) shift set")
        return tuple(chosen)

    # ------------------------------------------------------------ Article 5, boards

    def colours_and_boards(self, pairs: list[tuple[int, int]]) -> tuple[list[Board], list[ColourDecision]]:
        """Article 5 per pair, then board order (C.04.2 / General Handling Rules):
        higher-ranked player's score, sum of scores, higher-ranked player's TPN.
        O(P log P)."""
        init = self.snapshot.initial_colour
        rows = []
        for a, b in pairs:
            sa, sb = self.st[a], self.st[b]
            high, low = (sa, sb) if ranks_higher(sa, sb) else (sb, sa)
            white, black, rule, reason = allocate(sa, sb, init)
            rows.append(((-high.score, -(high.score + low.score), high.tpn), white, black, rule, reason))
        rows.sort(key=lambda r: r[0])
        boards = [Board(number=k, white=w, black=b) for k, (_, w, b, _, _) in enumerate(rows, start=1)]
        decisions = [ColourDecision(white=w, black=b, rule=rule, reason=reason) for (_, w, b, rule, reason) in rows]
        return boards, decisions

    # ------------------------------------------------------------ verification

    def verify(self, pairing: Pairing) -> None:
        """Style 8: every present player exactly once, no rematch of a played game, no
        forbidden pair, no two equal absolute preferences, an eligible bye player.  O(N)."""
        seen: set[int] = set()
        for b in pairing.boards:
            for pid in (b.white, b.black):
                if pid in seen:
                    raise EngineError(f"internal error: player {pid} paired twice")
                seen.add(pid)
            if not self.legal(self.index[b.white], self.index[b.black]):
                raise EngineError(f"internal error: illegal pair {b.white}-{b.black}")
        if pairing.bye is not None:
            if pairing.bye in seen:
                raise EngineError(f"internal error: bye player {pairing.bye} also paired")
            if not self.st[self.index[pairing.bye]].pab_eligible:
                raise EngineError(f"internal error: bye player {pairing.bye} is not eligible (C2)")
            seen.add(pairing.bye)
        expected = {st.id for st in self.st}
        if seen != expected:
            missing = sorted(expected - seen)
            raise EngineError(f"internal error: players not paired: {missing}")


# role compatibility for the shift oracle (see _Round._shift_oracle):
# S-stay pairs with X, A, N; X with S-stay, F, A; F with X, A, N; A with all but F-F/N-N rules.
_S, _X, _F, _A, _N = range(5)
_ROLE_OK = [[False] * 5 for _ in range(5)]
for _a, _b in ((_S, _X), (_S, _A), (_S, _N), (_X, _F), (_X, _A), (_F, _A), (_F, _N), (_A, _A), (_A, _N)):
    _ROLE_OK[_a][_b] = _ROLE_OK[_b][_a] = True


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
