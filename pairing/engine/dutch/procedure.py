"""The pairing of one Dutch bracket (C.04.3, 2026 text, Articles 3-4): a part of
:class:`pairing.engine.dutch.pairer._Round`, which inherits it (its state: see there).

A big bracket with at most one MDP goes first to :mod:`.fast` (the first candidate in
the order of generation, proved best by a bound); the others, and any the fast path
cannot prove, to the weighted matching of :mod:`.bracket`, with the players below the
next scoregroup first left out (a relaxation, each answer checked on them), then, if a
check fails, with them.  The order of generation is then decided step by step: the
MDPs paired (4.4), their opponents (4.2), the remainder's exchange (4.3) and its
transposition (4.2, by kinds when the kinds prove it: :mod:`.assign`).
"""

from __future__ import annotations

from decimal import Decimal
from itertools import combinations

from ..matching import has_perfect_matching
from ..model import BracketTrace, EngineError
from .assign import first_best_assignment
from .bracket import BracketSolver, Constraints, Outcome, exchange_order, exchanges_in_order
from .criteria import MAX_BITS, Levels, describe
from .fast import FAST_MDPS, FAST_MIN, FastBracket

MAX_BITS_ORDER = MAX_BITS
MAX_BITS_RULE_C = MAX_BITS  # 4.3 (c) as a level up to this width, else by questions (tests lower it)
RELAX_BELOW = 8  # more players than this below the next scoregroup: pair the bracket relaxed first


class _StandInFailed(Exception):
    """The relaxed bracket gave an answer the real players below do not allow."""


class BracketProcedure:
    """The bracket methods of :class:`~pairing.engine.dutch.pairer._Round`."""

    def pair_bracket(self, score: Decimal, mdps: list[int], residents: list[int], nxt: list[int],
                     lower: list[int], odd: bool):
        """The bracket's candidate.  The players below the next scoregroup matter only for
        completion ([C4]); when they are many, the matching leaves them out and lets any
        player of the bracket or the next scoregroup go down to them (a relaxation: it
        allows every real candidate and more), and every answer it gives is checked on the
        real players (one cardinality matching); if one fails, the bracket is paired again
        with the real players."""
        c9 = odd and self.s_star is not None and self.s_star >= score and self._pairs_all_but_one(
            mdps, residents, nxt + lower)
        if len(residents) >= FAST_MIN and len(mdps) <= FAST_MDPS:
            fast = FastBracket(self, score, mdps, residents, nxt, lower, odd, c9)
            got = fast.run()
            if got is not None:
                return self._fast_result(score, mdps, residents, got, c9, fast.reached(got[0]))
        if len(lower) > RELAX_BELOW:
            try:
                return self._pair_bracket(score, mdps, residents, nxt, lower, odd, c9, True)
            except _StandInFailed:
                pass
        return self._pair_bracket(score, mdps, residents, nxt, lower, odd, c9, False)

    def _pair_bracket(self, score: Decimal, mdps: list[int], residents: list[int], nxt: list[int],
                      lower: list[int], odd: bool, c9: bool, relaxed: bool):
        nb = len(mdps) + len(residents)
        n_end = nb + len(nxt)
        vertices = mdps + residents + nxt + ([] if relaxed else lower)
        st = self.st
        cand = [self.cand[v] for v in vertices]
        levels = Levels(st, vertices, len(mdps), len(residents), len(nxt), cand, odd, c9, self.s_star,
                        self.snapshot.round_number - 1, relaxed)
        n_m = len(mdps)
        legal = self.legal
        legal_pairs = []
        for i in range(len(vertices)):
            vi = vertices[i]
            for j in range(max(i + 1, n_m), len(vertices)):
                if legal(vi, vertices[j]):
                    legal_pairs.append((i, j))
        solver = BracketSolver(levels, legal_pairs, nb)
        checked: dict[frozenset[int], bool] = {}

        def real(o) -> bool:
            """The relaxed answer holds for the real players below: those the matching
            left unpaired go down to them, and all of them still pair ([C4]; the PAB, if
            any, to a player [C2] and [C5] allow)."""
            if not relaxed:
                return True
            down = frozenset(vertices[p] for p in range(n_end) if o.mate[p] == -1)
            if down not in checked:
                vs = lower + sorted(down)
                if len(vs) % 2:
                    checked[down] = self._complete_with_bye(vs, {v for v in vs if self.cand[v]})
                else:
                    checked[down] = has_perfect_matching(len(vs), lambda a, b: legal(vs[a], vs[b]))
            if not checked[down]:
                raise _StandInFailed
            return True

        # the order of 4.4.2 (MDP sets) and 4.2 (their opponents) as two more levels, when
        # they fit: the lexicographically first set, then each MDP's smallest resident
        res_positions = range(n_m, nb)
        mdp_levels = False
        if n_m:
            rbits = len(residents).bit_length()
            if solver.total_bits + n_m + n_m * rbits <= MAX_BITS_ORDER:
                mdp_levels = True
                set_level = {}
                opp_level = {}
                for (i, j) in solver.values:
                    if i < n_m and j in res_positions:
                        set_level[(i, j)] = 1 << (n_m - 1 - i)
                        opp_level[(i, j)] = (nb - j) << (rbits * (n_m - 1 - i))
                solver.add_level(set_level, (1 << n_m) - 1)
                solver.add_level(opp_level, (1 << (rbits * n_m)) - 1)
        pre_pairs = 0
        if not n_m and len(residents) >= 2:
            # a homogeneous bracket: the remainder is every resident, and its pairs are
            # usually half of them: the exchange levels of step 3 go into this first
            # matching (taken out again if the pairs turn out fewer)
            pre_pairs = len(residents) // 2
            if not self._exchange_levels(solver, list(range(nb)), pre_pairs):
                pre_pairs = 0
        best = solver.solve()
        need = len(vertices) // 2
        matched = sum(1 for m in best.mate if m != -1) // 2
        if not relaxed and (matched < need or (odd and not any(
                best.mate[p] == -1 and cand[p] for p in range(len(vertices))))):
            self._no_pairing(vertices, "No complete pairing of the remaining players exists ([C4])")
        real(best)
        vstar = solver.criteria_value(best)
        notes: list[str] = []
        c = Constraints()
        is_r = levels.is_r
        res_pos = [p for p in range(len(vertices)) if is_r[p]]
        res_set = frozenset(res_pos)
        everyone = frozenset(range(len(vertices)))

        def attempt(extra: Constraints):
            o = solver.solve(extra)
            if o.forced == len(extra.must) and solver.criteria_value(o) == vstar and real(o):
                return o, None
            return None, o

        # 1. the MDPs paired here (4.4)
        paired_mdps: list[int] = []
        limbo: list[int] = []
        for m in range(len(mdps)):
            if best.mate[m] in res_set or mdp_levels:
                if best.mate[m] not in res_set:
                    limbo.append(m)
                    c.allowed[m] = everyone - res_set
                    continue
                trial = None
            else:
                t = c.copy()
                t.allowed[m] = res_set
                t.must.add(m)
                trial, fail = attempt(t)
                if trial is None:
                    limbo.append(m)
                    c.allowed[m] = everyone - res_set
                    notes.append(f"MDP {self.name(vertices[m])} not paired here: pairing it is worse on "
                                 f"{solver.first_worse(vstar, fail)}.")
                    continue
                best = trial
            c.allowed[m] = res_set
            c.must.add(m)
            paired_mdps.append(m)
        # 2. their opponents (4.2 on S2 = the residents)
        taken: set[int] = set()
        mdp_pairs: list[tuple[int, int]] = []
        for m in paired_mdps:
            current = best.mate[m]
            for r in res_pos:
                if r >= current or mdp_levels:
                    break
                if r in taken or (m, r) not in solver.values:
                    continue
                t = c.copy()
                t.allowed[m] = frozenset({r})
                t.allowed[r] = frozenset({m})
                trial, fail = attempt(t)
                if trial is not None:
                    best = trial
                    break
                notes.append(f"MDP {self.name(vertices[m])} not paired with {self.name(vertices[r])}: worse on "
                             f"{solver.first_worse(vstar, fail)}.")
            r = best.mate[m]
            c.allowed[m] = frozenset({r})
            c.allowed[r] = frozenset({m})
            taken.add(r)
            mdp_pairs.append((m, r))
        # 3. the remainder: exchanges (4.3), then 4. transpositions (4.2)
        remainder = [p for p in res_pos if p not in taken]
        rem_set = set(remainder)
        n_pairs = sum(1 for p in remainder if best.mate[p] in rem_set) // 2
        if n_m and n_pairs:
            # the MDPs' pairs are settled: the order levels of steps 1-2 leave the weight, and
            # so, when 4.3's levels need the room, do the levels only the MDPs' pairs count
            # ([C7], [C18]-[C21] per MDP score)
            solver.drop_levels()
            if solver.total_bits + self._exchange_bits(remainder, n_pairs) > MAX_BITS_ORDER:
                solver.silence(c, mdp_pairs)
        s1, s2 = remainder[:n_pairs], remainder[n_pairs:]
        exchanged: tuple[tuple[int, ...], tuple[int, ...]] = ((), ())
        rem_pairs: list[tuple[int, int]] = []
        if pre_pairs and n_pairs != pre_pairs:
            solver.drop_levels()
        if n_pairs:
            bsn = {p: k + 1 for k, p in enumerate(remainder)}
            s1_set = set(s1)
            levels_in = pre_pairs == n_pairs or self._exchange_levels(solver, remainder, n_pairs)
            if pre_pairs == n_pairs:
                o = best
            elif levels_in:
                o = solver.solve(c)
            else:
                o = best
            lows = sorted(i for i in remainder if o.mate[i] in rem_set and o.mate[i] > i)
            k = sum(1 for i in lows if i not in s1_set)
            diff = sum(bsn[i] for i in lows) - sum(bsn[i] for i in s1)
            best = o
            chosen = None
            if k == 0 and levels_in:
                chosen = ((), ())
            else:
                if levels_in:  # 4.3 (c) and (d) as levels too, when they fit
                    chosen, trial = self._exchange_by_levels(solver, remainder, n_pairs, c, everyone, attempt, diff,
                                                             best)
                    if trial is not None:
                        best = trial
                # with the levels in, only the exchanges of that size and difference; without
                # them (too wide a weight), every exchange in the order of 4.3
                order = (() if chosen is not None
                         else exchange_order([bsn[p] for p in s1], [bsn[p] for p in s2], k, diff) if levels_in
                         else exchanges_in_order([bsn[p] for p in s1], [bsn[p] for p in s2]))
                for x, y in order:
                    new_s1 = sorted((set(s1) - {remainder[b - 1] for b in x}) | {remainder[b - 1] for b in y})
                    t = self._crossing(c, new_s1, remainder, everyone)
                    trial, _ = attempt(t)
                    if trial is not None:
                        chosen = (x, y)
                        best = trial
                        break
                if chosen is None:  # pragma: no cover - the weights found one
                    raise EngineError("internal error: no resident-exchange reaches the best candidate")
            exchanged = chosen
            xs = {remainder[b - 1] for b in chosen[0]}
            s1_shown: list[int] = []
            ys = {remainder[b - 1] for b in chosen[1]}
            s1 = sorted((set(s1) - xs) | ys)
            s2 = sorted((set(s2) - ys) | xs)
            c = self._crossing(c, s1, remainder, everyone)
            s1_shown = list(s1)
            if chosen[0]:
                notes.append(
                    f"Remainder exchange (4.3): {', '.join(str(b) for b in chosen[0])} moved from S1 to S2, "
                    f"{', '.join(str(b) for b in chosen[1])} from S2 to S1 (BSNs of the remainder).")
            fast = self._first_best(solver, levels, s1, s2, c, attempt, best)
            if fast is not None:
                best, fixed = fast
                for a, b in fixed:
                    c.allowed[a] = frozenset({b})
                    c.allowed[b] = frozenset({a})
                    taken.add(b)
                    rem_pairs.append((a, b))
                    earlier = [x for x in s2 if x < b and x not in taken and (min(a, x), max(a, x)) in solver.values]
                    if earlier:
                        notes.append(f"{self.name(vertices[a])} not paired with "
                                     f"{', '.join(self.name(vertices[x]) for x in earlier)} (earlier in S2): no best "
                                     "candidate pairs them (4.2).")
                s1 = []  # done
            for a in s1:
                current = best.mate[a]
                for b in s2:
                    if b == current:
                        break
                    if b in taken or (min(a, b), max(a, b)) not in solver.values:
                        continue
                    t = c.copy()
                    t.allowed[a] = frozenset({b})
                    t.allowed[b] = frozenset({a})
                    trial, fail = attempt(t)
                    if trial is not None:
                        best = trial
                        break
                    notes.append(f"{self.name(vertices[a])} not paired with {self.name(vertices[b])}: worse on "
                                 f"{solver.first_worse(vstar, fail)}.")
                b = best.mate[a]
                c.allowed[a] = frozenset({b})
                c.allowed[b] = frozenset({a})
                taken.add(b)
                rem_pairs.append((a, b))
        all_pairs = mdp_pairs + rem_pairs
        paired = {p for pr in all_pairs for p in pr}
        down = [p for p in range(nb) if p not in paired]
        trace = self._trace(score, vertices, mdps, residents, paired_mdps, limbo, mdp_pairs, rem_pairs,
                            s1_shown if n_pairs else [], s2 if n_pairs else remainder, exchanged, down, solver, vstar,
                            notes, c9)
        return ([(vertices[a], vertices[b]) for a, b in all_pairs], [vertices[p] for p in down], trace)

    def _exchange_by_levels(self, solver: BracketSolver, remainder: list[int], n_pairs: int, c: Constraints,
                            everyone: frozenset[int], attempt, diff: int, reached: Outcome):
        """4.3 (c) and (d) once (a) and (b) are levels: (c) the S1 players moved to S2, the
        highest BSN first, as one more level (each pair whose higher player stays in S1 is
        worth 2^|S1| less 2 to the player's place in S1: the best leave the lowest places
        there); then (d) the S2 players moved to S1, the lowest BSN first, as another level
        when it fits (else each set of the right sum in order).  Each answer is checked by
        the constrained matching of that exchange.  ((moved from S1, moved from S2), the
        best candidate), or (None, None) when the levels do not fit or the check fails (the
        caller then tries the exchanges one by one).  When (c) does not fit either, the
        players moved from S1 are found one at a time, from the highest BSN down, each
        asked by one constrained matching that must reach ``reached`` on (a) and (b) too."""
        s1, s2 = remainder[:n_pairs], remainder[n_pairs:]
        bsn = {p: k + 1 for k, p in enumerate(remainder)}
        s1_set, s2_set, rem_set = set(s1), set(s2), set(remainder)
        if solver.total_bits + len(s1) + n_pairs.bit_length() > MAX_BITS_RULE_C:
            x = self._moved_from_s1(solver, remainder, n_pairs, c, attempt, reached)
            if x is None:
                return None, None
            for y in combinations(sorted(bsn[p] for p in s2), len(x)):
                if sum(y) - sum(x) != diff:
                    continue
                new_s1 = sorted((s1_set - {remainder[b - 1] for b in x}) | {remainder[b - 1] for b in y})
                trial, _ = attempt(self._crossing(c, new_s1, remainder, everyone))
                if trial is not None:
                    return (x, y), trial
            return None, None
        keep: dict[tuple[int, int], int] = {}
        low: dict[tuple[int, int], int] = {}
        for (i, j) in solver.values:
            if j in rem_set:
                if i in s1_set:
                    keep[(i, j)] = (1 << len(s1)) - (1 << (bsn[i] - 1))
                elif i in s2_set:
                    low[(i, j)] = 1 << (len(remainder) - bsn[i])
        solver.add_level(keep, n_pairs << len(s1))
        with_d = solver.total_bits + len(s2) <= MAX_BITS_ORDER
        if with_d:
            solver.add_level(low, (1 << len(s2)) - 1)
        o = solver.solve(c)
        higher = {p for p in remainder if o.mate[p] in rem_set and o.mate[p] > p}
        x = tuple(sorted(bsn[p] for p in s1 if p not in higher))
        if with_d:
            ys = [tuple(sorted(bsn[p] for p in s2 if p in higher))]
        else:
            ys = [y for y in combinations(sorted(bsn[p] for p in s2), len(x)) if sum(y) - sum(x) == diff]
        for y in ys:
            new_s1 = sorted((s1_set - {remainder[b - 1] for b in x}) | {remainder[b - 1] for b in y})
            trial, _ = attempt(self._crossing(c, new_s1, remainder, everyone))
            if trial is not None:
                return (x, y), trial
        return None, None

    def _moved_from_s1(self, solver: BracketSolver, remainder: list[int], n_pairs: int, c: Constraints, attempt,
                       reached: Outcome) -> tuple[int, ...] | None:
        """4.3 (c) by questions: the BSNs of the S1 players a best candidate of the
        exchange size and sum difference at hand moves to S2, the highest first: each
        player in turn from the highest BSN down is asked to move (its partner, if any, a
        remainder player above it or none there) while the ones passed over stay (each
        paired with a remainder player below it).  O(|S1|) matchings."""
        s1 = remainder[:n_pairs]
        rank = {p: k for k, p in enumerate(remainder)}
        tie_break = reached.value[len(solver.level_list):]
        n_moved = sum(1 for p in s1 if not (reached.mate[p] in rank and reached.mate[p] > p))
        everyone = frozenset(range(solver.n))
        rem = frozenset(remainder)
        moved: list[int] = []
        stay: list[int] = []
        for p in reversed(s1):
            if len(moved) == n_moved:
                break
            t = c.copy()
            for q in (*moved, p):
                t.allowed[q] = everyone - frozenset(r for r in remainder if rank[r] > rank[q])
                t.must.discard(q)
            for q in stay:
                t.allowed[q] = frozenset(r for r in rem if rank[r] > rank[q])
                t.must.add(q)
            trial, _ = attempt(t)
            if trial is not None and trial.value[len(solver.level_list):] == tie_break:
                moved.append(p)
            else:
                stay.append(p)
        if len(moved) != n_moved:
            return None
        return tuple(sorted(rank[p] + 1 for p in moved))

    @staticmethod
    def _exchange_bits(remainder: list[int], n_pairs: int) -> int:
        return n_pairs.bit_length() + (n_pairs * (len(remainder) + 1)).bit_length()

    @staticmethod
    def _exchange_levels(solver: BracketSolver, remainder: list[int], n_pairs: int) -> bool:
        """4.3 (a) and (b) as two weight levels below the criteria: the pairs whose
        higher player is in the original S1R (the fewer exchanged, the more), then the
        BSNs of the pairs' higher players (the smaller the sum, the better)."""
        rem_set = set(remainder)
        bsn = {p: k + 1 for k, p in enumerate(remainder)}
        s1_set = set(remainder[:n_pairs])
        in_s1 = {}
        low_sum = {}
        for (i, j) in solver.values:
            if i in rem_set and j in rem_set:
                in_s1[(i, j)] = 1 if i in s1_set else 0
                low_sum[(i, j)] = len(remainder) + 1 - bsn[i]
        bits = BracketProcedure._exchange_bits(remainder, n_pairs)
        if solver.total_bits + bits > MAX_BITS_ORDER:
            return False  # the caller tries the exchanges one by one instead
        solver.add_level(in_s1, n_pairs)
        solver.add_level(low_sum, n_pairs * (len(remainder) + 1))
        return True

    def _first_best(self, solver: BracketSolver, levels: Levels, s1: list[int], s2: list[int], c: Constraints,
                    attempt, known=None):
        """4.2 without a matching per S1R player (:mod:`.assign`): the first best
        assignment of the kinds, checked once on the whole candidate.  None when the
        check fails (the caller then asks the matching player by player)."""
        kind = levels.sig.__getitem__
        weight: dict[tuple[int, int], int] = {}
        values = solver.values
        for a in s1:
            for b in s2:
                e = (a, b) if a < b else (b, a)
                v = values.get(e)
                if v is not None:
                    weight[(kind(a), kind(b))] = solver.pack(v)
        cols = first_best_assignment(s1, s2, kind, weight,
                                     lambda a, b: ((a, b) if a < b else (b, a)) in values)
        if cols is None:
            return None
        pairs = list(zip(s1, cols, strict=True))
        # the same downfloaters as a best candidate at hand, and pairs worth as much: best
        if known is not None:
            s2_set = set(s2)
            left_known = {b for b in s2 if known.mate[b] not in set(s1)}
            if left_known == s2_set - set(cols):
                def total(prs):
                    out = [0] * len(solver.level_list)
                    for a, b in prs:
                        for k, x in enumerate(values[(a, b) if a < b else (b, a)]):
                            out[k] += x
                    return out
                known_pairs = [(a, known.mate[a]) for a in s1]
                if all(m in s2_set for _, m in known_pairs) and total(pairs) == total(known_pairs):
                    return known, pairs
        t = c.copy()
        for a, b in zip(s1, cols, strict=True):
            t.allowed[a] = frozenset({b})
            t.allowed[b] = frozenset({a})
        trial, _ = attempt(t)
        if trial is None:
            return None
        return trial, list(zip(s1, cols, strict=True))

    def _fast_result(self, score: Decimal, mdps: list[int], residents: list[int], got, c9: bool,
                     reached: list[str]):
        """A bracket paired by :mod:`.fast`: pairs and downfloaters as the driver wants
        them, and its trace."""
        pairs, down = got
        vertices = mdps + residents
        ids = [self.st[v].id for v in vertices]
        paired = {p for pr in pairs for p in pr}
        down = [p for p in range(len(vertices)) if p not in paired]
        mdp_pairs = [pr for pr in pairs if pr[0] < len(mdps)]
        rem = [p for p in range(len(mdps), len(vertices)) if p not in {b for _, b in mdp_pairs}]
        n_rem = (len(rem)) // 2
        s1r = sorted(a for a, _ in pairs if a >= len(mdps))  # the S1 player of each remainder pair
        s2r = [p for p in rem if p not in set(s1r)]
        bsn = {p: k + 1 for k, p in enumerate(rem)}
        moved_out = tuple(bsn[p] for p in rem[:n_rem] if p not in set(s1r))
        moved_in = tuple(bsn[p] for p in s1r if p not in set(rem[:n_rem]))
        notes = ["The first candidate in the order of generation reaches a bound no candidate can pass on the "
                 "criteria ([C6], [C7], [C9]-[C21] by kinds of players), and its downfloater is as good as any on "
                 "[C4] and [C8]: accepted (3.4)."]
        notes.append("Reached: " + "; ".join(reached) + ".")
        if moved_out:
            notes.append(f"Remainder exchange (4.3): {', '.join(map(str, moved_out))} moved from S1 to S2, "
                         f"{', '.join(map(str, moved_in))} from S2 to S1 (BSNs of the remainder).")
        if c9:
            notes.append("[C9] applies: this bracket's only downfloater receives the pairing-allocated bye.")
        trace = BracketTrace(
            score=score,
            residents=tuple(ids[p] for p in range(len(mdps), len(vertices))),
            moved_down=tuple(ids[p] for p in range(len(mdps))),
            limbo=tuple(ids[p] for p in range(len(mdps)) if p in down),
            s1=tuple(ids[a] for a, _ in pairs),
            t2=tuple(ids[b] for _, b in pairs),
            remainder_s1=tuple(ids[p] for p in s1r),
            remainder_s2=tuple(ids[p] for p in s2r),
            exchanged=(moved_out, moved_in),
            downfloaters=tuple(ids[p] for p in down),
            notes=tuple(notes),
        )
        return [(vertices[a], vertices[b]) for a, b in pairs], [vertices[p] for p in down], trace

    def _crossing(self, c: Constraints, s1: list[int], remainder: list[int], everyone: frozenset[int]) -> Constraints:
        """S1R players must pair with S2R players; S2R players may not pair each other."""
        t = c.copy()
        s1_set = frozenset(s1)
        s2_set = frozenset(p for p in remainder if p not in s1_set)
        for p in s1:
            t.allowed[p] = s2_set
            t.must.add(p)
        for p in s2_set:
            t.allowed[p] = everyone - s2_set - frozenset(remainder) | s1_set
        return t

    def _pairs_all_but_one(self, mdps: list[int], residents: list[int], below: list[int]) -> bool:
        """[C9] applies: the bracket can pair all its players but one (the PAB assignee)
        with everyone below still paired (a cardinality question)."""
        nb = len(mdps) + len(residents)
        if nb % 2 == 0:
            return False
        bracket = mdps + residents
        m = len(mdps)

        def ok_in(a: int, b: int) -> bool:
            if a < m and b < m:
                return False
            return self.legal(bracket[a], bracket[b])

        # the bracket without one of its PAB candidates pairs completely, and so does below
        if not has_perfect_matching(len(below), lambda a, b: self.legal(below[a], below[b])):
            return False
        k = nb

        def ok(a: int, b: int) -> bool:
            if a == k:
                return self.cand[bracket[b]]
            if b == k:
                return self.cand[bracket[a]]
            return ok_in(a, b)

        return has_perfect_matching(k + 1, ok)

    def _trace(self, score, vertices, mdps, residents, paired_mdps, limbo, mdp_pairs, rem_pairs, s1, s2,
               exchanged, down, solver, vstar, notes, c9) -> BracketTrace:
        ids = [self.st[v].id for v in vertices]
        all_notes = ["Best candidate reached: " + "; ".join(describe(solver.level_list, vstar)) + "."]
        if c9:
            all_notes.append("[C9] applies: this bracket's only downfloater receives the pairing-allocated bye.")
        all_notes.extend(notes)
        return BracketTrace(
            score=score,
            residents=tuple(ids[p] for p in range(len(mdps), len(mdps) + len(residents))),
            moved_down=tuple(ids[p] for p in range(len(mdps))),
            limbo=tuple(ids[p] for p in limbo),
            s1=tuple(ids[a] for a, _ in mdp_pairs + rem_pairs),
            t2=tuple(ids[b] for _, b in mdp_pairs + rem_pairs),
            remainder_s1=tuple(ids[p] for p in s1),
            remainder_s2=tuple(ids[p] for p in s2),
            exchanged=exchanged,
            downfloaters=tuple(ids[p] for p in down),
            notes=tuple(all_notes),
        )

    # ------------------------------------------------------------ colours, boards, checks
