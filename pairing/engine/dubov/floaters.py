"""The floaters of the rules of 1997 (articles 6.4 and 8, switch ``floaters_down`` of
:class:`~pairing.engine.model.DubovRules`): a score group that cannot be paired, after its
islands (7.1) and 7.2's one player, floats its unpaired players down to the next lower
score group, where they are paired first (8.1's order, 8.2's opponent).  The 2025 text has
no downfloaters: the bracket takes more upfloaters from below (2.2.1).  The readings where
the text is silent are docs/dubov-1997.md reading 15.  C4 stays (reading 7): each choice is
the first in the text's order that leaves the players still to pair completable, so no dead
end is met; a choice failing C4 always leads to one, so the pairing is the text's wherever
the text's procedure completes (reading 16; ``look_ahead`` off follows the text and raises
:class:`DeadEnd`).
A part of :class:`pairing.engine.dubov.pairer._Round`, which inherits it."""

from __future__ import annotations

from dataclasses import replace
from decimal import Decimal
from itertools import combinations

from ..history import pairing_scores
from ..model import BracketTrace, EngineError
from .upfloaters import fmt


class DeadEnd(Exception):
    """The procedure of 1997 without the look-ahead of C4 (``look_ahead`` off) met players it
    cannot pair: 9, "a situation which cannot be directly resolved ... the referee"."""

    def __init__(self, score: Decimal, players: list[int]):  # players: ids
        super().__init__(score, players)
        self.score = score
        self.players = players


class FloatersDown:
    """The 6.4 and 8 methods of :class:`~pairing.engine.dubov.pairer._Round` (its state: see there)."""

    def floated_before(self) -> list[bool]:
        """6.4 c-d, "the player was floater from higher score groups", for an earlier
        round: he was paired (a forfeit included, as D7) with an opponent of a lower
        pairing score (reading 15).  O(N * R)."""
        running, _ = pairing_scores(self.snapshot)
        by_id = {p.id: p for p in self.snapshot.players}
        out = []
        for st in self.st:
            out.append(any(e.paired and e.opponent is not None and running[e.opponent][k] < running[st.id][k]
                           for k, e in enumerate(by_id[st.id].history)))
        return out

    def pair_groups_floating(self, groups: dict[Decimal, list[int]], scores: list[Decimal],
                             ranked: dict[Decimal, list[int]]) -> tuple[list[tuple[int, int]], list[BracketTrace]]:
        """The score groups in descending order by the rules of 1997 with floaters: 8.1-8.2
        (the floaters from above), 7.1 (islands), 7.2 and the group's pairing; when the
        group cannot be paired with at most 7.2's one player from below (C4 included),
        6.4 chooses who floats down (:meth:`choose_floaters`)."""
        self.was_floater = self.floated_before()
        taken = [False] * self.n
        pairs: list[tuple[int, int]] = []
        traces: list[BracketTrace] = []
        carry: list[int] = []  # floaters transferred down into the next score group (6.4)
        for gi, s in enumerate(scores):
            residents = [i for i in groups[s] if not taken[i]]
            if not residents and not carry:
                continue
            everyone = list(residents)
            lower = [i for t in scores[gi + 1:] for i in ranked[t] if not taken[i]]
            came = list(carry)
            fpairs, unpaired, notes = self.pair_floaters(came, residents, lower)
            for pair in fpairs:
                for i in pair:
                    taken[i] = True
            pairs.extend(fpairs)
            residents = [i for i in residents if not taken[i]]
            islands: list[tuple[int, int]] = []
            if self.rules.island_opponents and residents:
                islands, inotes = self.island_opponents(residents, lower, tuple(unpaired))
                notes += inotes
                for pair in islands:
                    for i in pair:
                        taken[i] = True
                pairs.extend(islands)
            rest = unpaired + [i for i in residents if not taken[i]]
            pool = [i for i in lower if not taken[i]]
            carry = []
            trace: BracketTrace | None = None
            if rest:
                got = self.choose_upfloaters(s, rest, pool, max_k=len(rest) % 2)
                if got is not None:
                    ups, reason, ev = got
                    u = ev.u
                else:
                    ups, carry, reason = self.choose_floaters(s, rest, pool, came)
                    rest = [i for i in rest if i not in carry]
                    cost = self.colour_cost(rest + list(ups))
                    u = cost[1] if cost else 0
                for i in rest + list(ups):
                    taken[i] = True
                if rest:
                    bpairs, trace = self.pair_bracket(s, rest, tuple(ups), reason, u)
                    pairs.extend(bpairs)
                else:
                    trace = BracketTrace(score=s, residents=(), upfloater_reason=reason)
            traces.append(self.floaters_trace(s, everyone, came, fpairs + islands, notes, carry, trace))
        if carry and not self.look_ahead:
            raise DeadEnd(scores[-1], [self.st[i].id for i in carry])
        if carry:  # pragma: no cover - C4 keeps every step completable
            raise EngineError(f"internal error: floaters {self.names(carry)} left below the lowest score group")
        return pairs, traces

    def floater_order(self, floaters: list[int]) -> list[int]:
        """8.1: the White floaters in 6.2's order, the Black floaters in 6.2's order, paired
        "one by one ... alternating between 'white' and 'black'" from the first White."""
        return self.island_order(floaters)

    def floater_opponent_key(self, f: int, j: int) -> tuple:
        """8.2: "the player having the highest R, if possible having the opposite due
        colour ... equal R, the player with the lowest ARO": the opposite due colour first,
        as in 7.1-7.2 (reading 15), then the name and the initial ranking."""
        return (self.white_seeker[j] == self.white_seeker[f], -self.rating[j], self.aro[j], self.name_key[j],
                self.tpn[j])

    def pair_floaters(self, floaters: list[int], residents: list[int], lower: list[int]
                      ) -> tuple[list[tuple[int, int]], list[int], list[str]]:
        """8.1-8.2: each floater in turn with the first player of the score group in
        :meth:`floater_opponent_key` order who may play him (D11) and whose pairing leaves
        every player still to pair completable (C4, reading 7).  A floater without one stays
        unpaired in the group (and floats on if the group cannot pair him)."""
        pairs: list[tuple[int, int]] = []
        unpaired: list[int] = []
        notes: list[str] = []
        left = [*floaters, *residents, *lower]
        avail = list(residents)
        for f in self.floater_order(floaters):
            cands = sorted((j for j in avail if self.legal(f, j)), key=lambda j, f=f: self.floater_opponent_key(f, j))
            skipped = []
            for j in cands:
                if self.completes([i for i in left if i not in (f, j)]):
                    break
                skipped.append(j)
            else:
                unpaired.append(f)
                notes.append(f"8.2 (rules of 1997): the floater {self.name(f)} can be paired with nobody of this "
                             "score group (C1/C3, or the others could not all be paired after, C4).")
                continue
            pairs.append((f, j))
            avail.remove(j)
            left = [i for i in left if i not in (f, j)]
            if self.white_seeker[j] != self.white_seeker[f]:
                colour = "the opposite due colour"
            elif any(self.white_seeker[k] != self.white_seeker[f] for k in skipped):
                colour = "the same due colour (those of the opposite one passed over, below)"
            else:
                colour = "the same due colour (nobody of the opposite one possible)"
            text = (f"8.2 (rules of 1997): the floater {self.name(f)} ({fmt(self.score[f])} pts) plays "
                    f"{self.name(j)}: {colour}, the highest rating ({self.rating[j]}), the lowest ARO")
            if skipped:
                text += f"; {self.names(skipped)} passed over: the others could not all be paired after (C4)"
            notes.append(text + ".")
        return pairs, unpaired, notes

    def player_72(self, rest: list[int], pool: list[int]) -> int | None:
        """7.2 for a group that 6.4 will float from: the first player of the next possible
        lower score group who may play one of the group (D11), in 7.2's order: not barred by
        2.1 first (reading 8), the highest score, the due colour opposite to the group's
        dominating one, the highest R, the lowest ARO, the name, the initial ranking."""
        if len(rest) % 2 == 0:
            return None
        whites = sum(self.white_seeker[i] for i in rest)
        dominant = None if 2 * whites == len(rest) else 2 * whites > len(rest)

        def key(j: int) -> tuple:
            barred = bool(self.rules.upfloat_bars and not self.last_round and self.max_up[j])
            return (barred, -self.score[j], dominant is not None and self.white_seeker[j] == dominant,
                    -self.rating[j], self.aro[j], self.name_key[j], self.tpn[j])

        cands = sorted((j for j in pool if any(self.legal(j, i) for i in rest)), key=key)
        return cands[0] if cands else None

    def floater_class(self, i: int, came: list[int], next_group: list[int]) -> int:
        """6.4's classes, 0 = a .. 3 = d: "was floater from higher score groups" (this
        round or an earlier one, reading 15) and "cannot be paired in the lower score
        group" (no legal opponent, D11, among the next lower score group's players still
        to pair)."""
        floater = i in came or self.was_floater[i]
        return 2 * floater + (not any(self.legal(i, j) for j in next_group))

    def choose_floaters(self, score: Decimal, rest: list[int], pool: list[int], came: list[int]
                        ) -> tuple[tuple[int, ...], list[int], str]:
        """6.4: 7.2's player comes up (:meth:`player_72`), then the fewest players the
        group can leave unpaired float down: the sets of that size whose others can be
        paired in the group and that leave every player still to pair completable (C4);
        among them 7.2's player kept first, then 6.4's classes (the most a's, then the most
        b's ...), then, in each class, the lowest R, the highest ARO, the name and the
        initial ranking (reading 15).  Returns (7.2's player if he stays, the floaters, the
        reason).  Cost: two completion tests per set tried."""
        p72 = self.player_72(rest, pool)
        bracket = rest + ([p72] if p72 is not None else [])
        below = [j for j in pool if j != p72]
        next_group = [j for j in below if self.score[j] == self.score[below[0]]] if below else []
        cls = {i: self.floater_class(i, came, next_group) for i in bracket}

        def key(i: int) -> tuple:
            return (cls[i], self.rating[i], -self.aro[i], self.name_key[i], self.tpn[i])

        for m in range(len(bracket) % 2, len(bracket) + 1, 2):
            sets = sorted(combinations(bracket, m),
                          key=lambda x: (p72 in x, sorted(cls[i] for i in x), sorted(key(i) for i in x)))
            for x in sets:
                stay = [i for i in bracket if i not in x]
                if self.complete(stay) and self.completes([*x, *below]):
                    break
            else:
                continue
            break
        else:  # pragma: no cover - the players still to pair are completable (C4)
            raise EngineError(f"internal error: no floaters for the score group {fmt(score)} (6.4)")
        floaters = [i for i in bracket if i in x and i != p72]  # 7.2's player, if in x, stays below
        letters = "abcd"
        desc = ", ".join(f"{self.name(i)} (6.4 {letters[cls[i]]})" for i in floaters)
        reason = ("6.4 (rules of 1997): the score group cannot be paired with at most 7.2's one player from "
                  "below (C1/C3, or the others could not all be paired after, C4)")
        if p72 is not None:
            reason += f"; 7.2 transfers {self.name(p72)}"
            if p72 in x:
                reason += " (he goes back: the others cannot all be paired with him in the group)"
        reason += f"; {len(floaters)} player(s) float down to the next score group: {desc or 'none'}"
        if len(sets) > 1:
            everyone = ", ".join(f"{self.name(i)} {letters[cls[i]]}" for i in bracket)
            reason += (f"; chosen by 6.4's classes ({everyone}; a: no floater before and can be paired below, b: "
                       "cannot, c: was floater and can, d: cannot), then the lowest rating, the highest ARO")
        ups = (p72,) if p72 is not None and p72 not in x else ()
        return ups, floaters, reason + "."

    def floaters_trace(self, score: Decimal, residents: list[int], came: list[int], pairs: list[tuple[int, int]],
                       notes: list[str], down: list[int], rest: BracketTrace | None) -> BracketTrace:
        """The group's trace: its residents, the floaters who came in (``moved_down``), their
        pairs and the islands' first in S1/T2 (their opponents lead the upfloaters), the
        players floated down (``downfloaters``)."""
        ids = self._ids
        first, second = [a for a, _ in pairs], [b for _, b in pairs]
        if rest is None:
            rest = BracketTrace(score=score, residents=())
        opponents = [b for a, b in pairs if a not in came]  # the islands' (7.1)
        return replace(rest, residents=ids(residents), upfloaters=ids(opponents) + rest.upfloaters,
                       s1=ids(first) + rest.s1, t2=ids(second) + rest.t2, notes=tuple(notes) + rest.notes,
                       moved_down=ids(came), downfloaters=ids(down))
