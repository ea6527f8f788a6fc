"""The islands of the rules of 1997 (article 7.1, switch ``island_opponents`` of
:class:`~pairing.engine.model.DubovRules`): a player who cannot meet anyone of his own
score group gets his own opponent from the next possible lower score group, before the
rest of the group is completed (7.2) and paired.  The 2025 text has no such step (its
bracket takes the best set of upfloaters for all its residents, 2.2.1-2.2.2).
A part of :class:`pairing.engine.dubov.pairer._Round`, which inherits it."""

from __future__ import annotations

from dataclasses import replace
from decimal import Decimal

from ..model import BracketTrace, EngineError
from .upfloaters import fmt


class IslandOpponents:
    """The 7.1 methods of :class:`~pairing.engine.dubov.pairer._Round` (its state: see there)."""

    def island_order(self, islands: list[int]) -> list[int]:
        """The order in which the islands take their opponents.  7.1 is silent; read as
        8.1 orders the floaters (docs/dubov-1997.md, reading 13): the White seekers in
        6.2's order (ARO ascending, then the lower R, then the name), the Black seekers in
        6.2's order (R descending, then the higher ARO, then the name), alternately from
        the first White seeker; then the initial ranking."""
        whites = sorted((i for i in islands if self.white_seeker[i]), key=self.white_key_1997)
        blacks = sorted((i for i in islands if not self.white_seeker[i]), key=self.black_key_1997)
        order: list[int] = []
        for k in range(max(len(whites), len(blacks))):
            order.extend(x[k] for x in (whites, blacks) if k < len(x))
        return order

    def island_candidate_key(self, island: int, j: int) -> tuple:
        """7.1's order of the players who may be transferred for ``island``: the next
        possible lower score group, then "the due colour is opposite to the due colour of
        the player in question", "the player with the highest R", "the same R, the one
        with the lowest ARO"; then the name and the initial ranking.  With the bars of 2.1
        (``upfloat_bars``) a barred player comes after every other, as in the choice of
        upfloaters (reading 8)."""
        barred = bool(self.rules.upfloat_bars and not self.last_round and self.max_up[j])
        return (barred, -self.score[j], self.white_seeker[j] == self.white_seeker[island], -self.rating[j],
                self.aro[j], self.name_key[j], self.tpn[j])

    def island_opponents(self, residents: list[int], pool: list[int], extra: tuple[int, ...] = ()
                         ) -> tuple[list[tuple[int, int]], list[str]]:
        """1997 7.1: the residents with no legal opponent (D11) among the other residents
        (at least one other: a player alone in his score group is 7.2's odd group),
        each paired, in :meth:`island_order`, with the first player of the pool in
        :meth:`island_candidate_key` order who may play him and whose transfer leaves
        every player still to pair completable (C4, kept as in the 2025 frame, reading 7).
        ``extra``: players still to pair who are neither (1997 6.4's floaters come down
        into the group, ``floaters_down``), counted in the completion test only.
        Returns the (island, opponent) pairs and one note per island.  Cost: one
        completion test per candidate tried, usually one per island."""
        legal = self.legal
        if len(residents) < 2:  # alone in his score group: the odd group of 7.2 (reading 13)
            return [], []
        islands = [i for i in residents if not any(legal(i, j) for j in residents if j != i)]
        if not islands:
            return [], []
        pairs: list[tuple[int, int]] = []
        notes: list[str] = []
        used: set[int] = set()
        left = set(residents) | set(pool) | set(extra)
        for isl in self.island_order(islands):
            cands = sorted((j for j in pool if j not in used and legal(isl, j)),
                           key=lambda j, isl=isl: self.island_candidate_key(isl, j))
            skipped: list[int] = []
            for j in cands:
                rest = [i for i in [*residents, *pool, *extra] if i in left and i not in (isl, j)]
                if self.completes(rest):
                    break
                skipped.append(j)
            else:
                if not self.look_ahead:  # the 1997 text without C4's look-ahead: a dead end (reading 16)
                    from .floaters import DeadEnd
                    raise DeadEnd(self.score[isl], [self.st[isl].id])
                # pragma: no cover - the round is completable, so some partner keeps it so
                raise EngineError(f"internal error: no opponent for the island {self.name(isl)} (7.1)")
            pairs.append((isl, j))
            used.add(j)
            left -= {isl, j}
            colour = "the opposite due colour" if self.white_seeker[j] != self.white_seeker[isl] else \
                "the same due colour (nobody of the opposite one could be transferred)"
            text = (f"7.1 (rules of 1997): {self.name(isl)} cannot meet anyone of his score group (an island): "
                    f"{self.name(j)} ({fmt(self.score[j])} pts, rating {self.rating[j]}) transferred as his "
                    f"opponent: the next possible lower score group, {colour}, the highest rating, the lowest ARO")
            if self.island_candidate_key(isl, j)[0]:
                text += ", though barred by 2.1 (every other choice was barred too)"
            if skipped:
                text += f"; {self.names(skipped)} passed over: the others could not all be paired after (C4)"
            notes.append(text + ".")
        return pairs, notes

    def islands_trace(self, score: Decimal, residents: list[int], islands: list[tuple[int, int]],
                      notes: list[str], rest: BracketTrace | None = None) -> BracketTrace:
        """The bracket's trace with the islands' pairs first: their opponents lead the
        upfloaters, the islands lead S1 and their opponents T2 (so that S1/T2 still
        read as the bracket's pairs)."""
        ids = self._ids
        isl = [a for a, _ in islands]
        opp = [b for _, b in islands]
        if rest is None:
            return BracketTrace(score=score, residents=ids(residents), upfloaters=ids(opp),
                                upfloater_reason="7.1 (rules of 1997): the islands' opponents.",
                                s1=ids(isl), t2=ids(opp), notes=tuple(notes))
        reason = "7.1 (rules of 1997): the islands' opponents " + self.names(opp) + "; then " + rest.upfloater_reason
        return replace(rest, residents=ids(residents), upfloaters=ids(opp) + rest.upfloaters, upfloater_reason=reason,
                       s1=ids(isl) + rest.s1, t2=ids(opp) + rest.t2, notes=tuple(notes) + rest.notes)
