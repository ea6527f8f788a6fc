"""A literal enumerator of the Dubov rules (C.04.4.1, text applied from 1 July 2025).

Deliberately simple and slow: it follows the rule text and the reading decisions
D1-D14 of docs/dubov-engine.md step by step, trying candidates in the order the
text gives and testing each one by brute force.  Tests only, small fields
(<= 16 players).  Written without looking at the fast engine, so that agreement
between the two is evidence.

Per-player figures (score, ARO, preference, upfloats, PAB eligibility) come from
``state.player_states``; every procedural step is written here.

Article numbers are those of the 2025 text (the 2026 text moves the criteria to
Article 2 and the procedure to Article 3).

``snapshot.dubov_rules`` switches on the differences of the 1997 text one by one, as
docs/dubov-1997.md reads them (each method says which it follows).
"""

from __future__ import annotations

import itertools
from collections import Counter
from collections.abc import Iterable, Sequence
from decimal import Decimal

from pairing.engine.dubov.state import PlayerState, player_states
from pairing.engine.history import pairing_scores
from pairing.engine.model import (
    Board,
    ByeDecision,
    Colour,
    Explanation,
    NoLegalPairing,
    Pairing,
    PreferenceStrength,
    Snapshot,
)

#: Which rules and branches the enumerator has exercised (the cross-check prints
#: it, so that a clean run also shows what it proved).
COVERAGE: Counter[str] = Counter()


class Round:
    """Everything needed to pair one round; the methods are the rule articles."""

    def __init__(self, snapshot: Snapshot):
        self.snapshot = snapshot
        self.st: dict[int, PlayerState] = player_states(snapshot)
        self.last_round = snapshot.round_number == snapshot.total_rounds  # D9
        self.met: dict[int, set[int]] = {p.id: set() for p in snapshot.players}
        for p in snapshot.players:
            for e in p.history:
                if e.played and e.opponent is not None:  # D2
                    self.met[p.id].add(e.opponent)
        self.to_pair = sorted(p.id for p in snapshot.players if p.id not in snapshot.absent)
        self.rules = snapshot.dubov_rules
        self.rating = {p.id: p.rating for p in snapshot.players}
        self.alpha = {p.id: p.name.casefold() for p in snapshot.players}
        self._matchable: dict[frozenset[int], bool] = {}
        self._min_cost: dict[tuple[frozenset[int], str], int] = {}

    def aro(self, p: int):
        """2025 1.6.1 rounded, or 1997 1.2 unrounded (``aro_unrounded``)."""
        return self.st[p].aro_exact if self.rules.aro_unrounded else self.st[p].aro

    def barred(self, p: int) -> bool:
        """1997 2.1 (``upfloat_bars``): upfloated in the previous round, or 3 times (4 in
        10 rounds or more) already; never in the last round."""
        if self.last_round:
            return False
        limit = 3 if self.snapshot.total_rounds < 10 else 4
        return self.st[p].upfloated_previous or self.st[p].upfloats >= limit

    # ------------------------------------------------------------ legality

    def legal(self, a: int, b: int) -> bool:
        """D11: not met in a played game (C1), not forbidden, not the same
        absolute colour preference (C3)."""
        if a == b or b in self.met[a]:
            return False
        if frozenset((a, b)) in self.snapshot.forbidden:
            return False
        pa, pb = self.st[a].preference, self.st[b].preference
        if (
            pa.strength is PreferenceStrength.ABSOLUTE
            and pb.strength is PreferenceStrength.ABSOLUTE
            and pa.colour is pb.colour
        ):
            return False
        return True

    def can_pair_all(self, players: Iterable[int]) -> bool:
        """Is there a perfect matching of legal pairs?  Brute force: the first
        player (smallest id) tries every legal partner, recursively."""
        key = frozenset(players)
        if key in self._matchable:
            return self._matchable[key]
        if not key:
            ok = True
        elif len(key) % 2:
            ok = False
        else:
            first = min(key)
            rest = key - {first}
            ok = any(self.legal(first, b) and self.can_pair_all(rest - {b}) for b in sorted(rest))
        self._matchable[key] = ok
        return ok

    def all_pairings(self, players: Iterable[int]) -> Iterable[list[tuple[int, int]]]:
        """Every perfect matching of legal pairs (lists of pairs)."""
        key = sorted(players)
        if not key:
            yield []
            return
        first, rest = key[0], key[1:]
        for b in rest:
            if self.legal(first, b):
                remaining = [x for x in rest if x != b]
                for tail in self.all_pairings(remaining):
                    yield [(first, b), *tail]

    def min_over_pairings(self, players: Iterable[int], cost_name: str, cost) -> int | None:
        """Minimum of sum(cost(pair)) over all legal perfect matchings, None if
        there is none.  Same recursion as all_pairings, memoised on the set of
        players left (the minimum over a set does not depend on how we got there)."""
        key = frozenset(players)
        memo = (key, cost_name)
        if memo in self._min_cost:
            return self._min_cost[memo]
        if not key:
            best: int | None = 0
        else:
            first = min(key)
            rest = key - {first}
            best = None
            for b in sorted(rest):
                if not self.legal(first, b):
                    continue
                sub = self.min_over_pairings(rest - {b}, cost_name, cost)
                if sub is not None and (best is None or cost(first, b) + sub < best):
                    best = cost(first, b) + sub
        self._min_cost[memo] = best
        return best

    # ------------------------------------------------------------ 2.1 PAB

    def choose_bye(self) -> int | None:
        """2.1: the eligible player (2.1.1, C2 / D8) whose removal allows a complete
        pairing of all the others (2.1.2, C4); lowest score (2.1.3), most games
        played (2.1.4), lowest in the initial ranking, i.e. largest TPN (2.1.5)."""
        players = self.to_pair
        if len(players) % 2 == 0:
            if not self.can_pair_all(players):
                raise NoLegalPairing("no complete pairing of the players present", tuple(players))
            return None
        eligible = [p for p in players if self.st[p].pab_eligible]
        if self.rules.bye_by_rating:
            # 1997 4: lowest score, lowest R; equal R: the dominating due colour of the
            # scoregroup first, then the higher ARO; then the largest TPN
            def dominated(p: int) -> int:
                group = [x for x in players if self.st[x].score == self.st[p].score]
                whites = sum(self.st[x].preference.colour is Colour.WHITE for x in group)
                if 2 * whites == len(group):
                    return 0
                dominant = Colour.WHITE if 2 * whites > len(group) else Colour.BLACK
                return int(self.st[p].preference.colour is not dominant)

            eligible.sort(key=lambda p: (self.st[p].score, self.rating[p], dominated(p), -self.aro(p), -self.st[p].tpn))
        else:
            eligible.sort(key=lambda p: (self.st[p].score, -self.st[p].games_played, -self.st[p].tpn))
        for p in eligible:
            if self.can_pair_all(x for x in players if x != p):
                COVERAGE["2.1 PAB"] += 1
                if p != eligible[0]:
                    COVERAGE["2.1.2 PAB candidate rejected by C4"] += 1
                return p
        raise NoLegalPairing("no player can take the pairing-allocated bye", tuple(players))

    # ------------------------------------------------------------ 2.2 brackets

    def upfloater_order(self, pool: Sequence[int]) -> list[int]:
        """4.2.2: sequence numbers by score (descending), then initial ranking.  1997 7.1-7.2
        b-c (``upfloaters_by_rating``): then the highest R, the lowest ARO, the name."""
        if self.rules.upfloaters_by_rating:
            return sorted(pool, key=lambda p: (-self.st[p].score, -self.rating[p], self.aro(p), self.alpha[p],
                                               self.st[p].tpn))
        return sorted(pool, key=lambda p: (-self.st[p].score, self.st[p].tpn))

    def quality(self, residents: Sequence[int], ups: Sequence[int]) -> tuple:
        """The vector C6..C10 of the bracket residents + ups (smaller is better).

        C6 (D12): upfloater scores sorted ascending, higher lexicographically is
        better.  C7: fewest players not getting their preference over all legal
        pairings of the bracket (a pair whose players prefer the same colour costs
        one).  C8: maximum upfloaters (D6).  C9 (D13): their earlier upfloats,
        summed.  C10: upfloated in the previous round (D7).  C8-C10 are off in the
        last round (D9).  The vector starts with the number of upfloaters barred by 1997 2.1
        (``upfloat_bars``, which then replaces C8-C10), 0 by the 2025 text."""
        c6 = tuple(-s for s in sorted(self.st[p].score for p in ups))
        c7 = self.min_c7([*residents, *ups])
        bars = 0
        if self.rules.upfloat_bars:
            bars = sum(self.barred(p) for p in ups)
            c8 = c9 = c10 = 0
        elif self.last_round:
            c8 = c9 = c10 = 0
        else:
            maxi = [p for p in ups if self.st[p].max_upfloater]
            c8 = len(maxi)
            c9 = sum(self.st[p].upfloats for p in maxi)
            c10 = sum(1 for p in ups if self.st[p].upfloated_previous)
        return (bars, c6, c7, c8, c9, c10)

    def min_c7(self, bracket: Sequence[int]) -> int | None:
        """C7: fewest players without their colour preference over all legal
        pairings of the bracket (a pair of players who prefer the same colour
        costs one; every player has a preference, D4)."""
        return self.min_over_pairings(
            bracket,
            "c7",
            lambda a, b: int(self.st[a].preference.colour is self.st[b].preference.colour),
        )

    def choose_upfloaters(self, residents: list[int], pool: list[int], most: int | None = None) -> list[int] | None:
        """2.2.1-2.2.2 with C4 and C5: the smallest k for which some k-set makes the
        bracket legally pairable and leaves the rest of the pool completable; among
        those sets the best quality vector, the first in 4.2 order among equals
        (containers as C6 / D12, then lexicographic on sequence numbers).  ``most``: no
        more than that many (1997 6.4), None if no such set will do."""
        order = self.upfloater_order(pool)
        for k in range(len(order) + 1):
            if most is not None and k > most:
                return None
            if (len(residents) + k) % 2:
                continue
            best = None
            candidates = []
            for idx in itertools.combinations(range(len(order)), k):
                ups = [order[i] for i in idx]
                if not self.can_pair_all([*residents, *ups]):
                    continue
                if not self.can_pair_all(p for p in pool if p not in ups):
                    COVERAGE["C4 rejects an upfloater set"] += 1
                    continue
                q = self.quality(residents, ups)
                key = (q, idx)  # 4.2.3: containers sorted along C6 (q[1]), then the sets' order
                candidates.append(key)
                if best is None or key < best[0]:
                    best = (key, ups)
            if best is not None:
                self._note_upfloaters(k, best[0], candidates)
                return best[1]
        if most is not None:
            return None
        raise NoLegalPairing(f"no legal set of upfloaters for the bracket {residents}", tuple(residents))

    def _note_upfloaters(self, k: int, best: tuple, candidates: list[tuple]) -> None:
        """Coverage only: which criterion decided the upfloater choice."""
        if k == 0:
            return
        COVERAGE[f"upfloaters k={k}"] += 1
        if self.rules.upfloat_bars:
            COVERAGE["1997 2.1 bars decide"] += len({c[0][0] for c in candidates}) > 1
            COVERAGE["1997 2.1 a barred upfloater unavoidable"] += best[0][0] > 0
            return
        first = min(candidates, key=lambda c: (c[0][1], c[1]))  # pure 4.2 order
        q_best, q_first = best[0], first[0]
        if q_best[1] != q_first[1]:
            raise AssertionError("C6 is the container order")  # pragma: no cover
        if best != first:
            i = next(i for i in range(2, 6) if q_best[i] != q_first[i])
            COVERAGE[f"upfloaters decided by C{5 + i}"] += 1
        elif len({c[0][1] for c in candidates}) > 1:
            COVERAGE["upfloaters decided by C6"] += 1
            # would "highest scores first" have chosen another container?
            alt = max(candidates, key=lambda c: sorted((-x for x in c[0][1]), reverse=True))
            if alt[0][1] != best[0][1]:
                COVERAGE["D12 decisive (highest-first reading differs)"] += 1
        elif len(candidates) > 1:
            COVERAGE["upfloaters decided by 4.2.3 lexicographic order"] += 1

    # ------------------------------------------------------------ 2.2.3-2.2.6

    def shifter_order(self, group: Sequence[int], by_tpn_only: bool) -> list[int]:
        """4.3.2-4.3.3: White seekers by ARO ascending then initial ranking, Black
        seekers by initial ranking; sequence numbers from the (remaining) middle
        outwards, the higher of two middles first.  1997 7.3-7.4 (``shift_extremes``, where
        players have played): White seekers by the lowest ARO, then the higher R; Black
        seekers by the highest ARO, then the lower R; then the name; no middle-out."""
        if self.rules.shift_extremes and not by_tpn_only:
            colour = {self.st[p].preference.colour for p in group}
            if colour == {Colour.WHITE}:
                return sorted(group, key=lambda p: (self.aro(p), -self.rating[p], self.alpha[p], self.st[p].tpn))
            return sorted(group, key=lambda p: (-self.aro(p), self.rating[p], self.alpha[p], self.st[p].tpn))
        if by_tpn_only:
            ranked = sorted(group, key=lambda p: self.st[p].tpn)
        else:
            colour = {self.st[p].preference.colour for p in group}
            assert len(colour) <= 1, "a subgroup of seekers wants one colour"
            if colour == {Colour.WHITE}:
                ranked = sorted(group, key=lambda p: (self.aro(p), self.st[p].tpn))
            else:
                ranked = sorted(group, key=lambda p: self.st[p].tpn)
        numbered = []
        remaining = list(ranked)
        while remaining:
            n = len(remaining)
            mid = n // 2 if n % 2 else n // 2 - 1
            numbered.append(remaining.pop(mid))
        return numbered

    def crossing_pairing_exists(self, g1: Sequence[int], g2: Sequence[int]) -> bool:
        """A legal pairing in which every pair has one player of G1 and one of G2."""
        if len(g1) != len(g2):
            return False
        if not g1:
            return True
        first, rest = g1[0], g1[1:]
        return any(
            self.legal(first, b) and self.crossing_pairing_exists(rest, [x for x in g2 if x != b]) for b in g2
        )

    def pair_bracket(self, bracket: list[int]) -> list[tuple[int, int]]:
        st = self.st
        nobody_played = all(st[p].games_played == 0 for p in bracket)
        # 2.2.3
        if nobody_played:
            COVERAGE["2.2.3 G1 = top half"] += 1
            by_tpn = sorted(bracket, key=lambda p: st[p].tpn)
            g1 = by_tpn[: len(bracket) // 2]
        else:
            g1 = [p for p in bracket if st[p].preference.colour is Colour.WHITE]
        g2 = [p for p in bracket if p not in g1]
        # 2.2.4: S the smaller subgroup (G1 if equal), L the other.
        s_is_g1 = len(g1) <= len(g2)
        small, large = (g1, g2) if s_is_g1 else (g2, g1)
        # 2.2.4.1: u = minimum, over legal pairings, of the pairs inside S.
        small_set = set(small)
        u = self.min_over_pairings(
            bracket, f"inside{sorted(small_set)}", lambda a, b: int(a in small_set and b in small_set)
        )
        assert u is not None
        v = (len(large) - len(small)) // 2 + u
        # the colour L's players seek (G1: White seekers; G2: the rest, Black seekers)
        large_colour = Colour.WHITE if not s_is_g1 else Colour.BLACK
        chosen = None
        # 1997 2.2 (``shift_spares_absolute``): first without moving a player with an
        # absolute preference, then (if no such shift pairs the bracket) as by 2025
        spare_passes = [True, False] if self.rules.shift_spares_absolute and not nobody_played else [False]
        for spare in spare_passes:
            chosen = self._shift(bracket, small, large, s_is_g1, u, v, nobody_played, large_colour, spare)
            if chosen:
                COVERAGE["1997 2.2 an absolute player shifted"] += self.rules.shift_spares_absolute and not spare
                break
        assert chosen is not None, "2.2.4 always finds a shift"
        new_g1, new_g2 = chosen if s_is_g1 else (chosen[1], chosen[0])
        if self.rules.lists_by_rating and not nobody_played:
            # 1997 6.2: Whites by ARO, equal ARO the lower R; Blacks by R descending, equal R the higher ARO
            s1 = sorted(new_g1, key=lambda p: (self.aro(p), self.rating[p], self.alpha[p], st[p].tpn))
            g2_sorted = sorted(new_g2, key=lambda p: (-self.rating[p], -self.aro(p), self.alpha[p], st[p].tpn))
        else:
            # 2.2.5: S1 = G1 by ARO ascending, then initial ranking.
            s1 = sorted(new_g1, key=lambda p: (self.aro(p), st[p].tpn))
            # 2.2.6 / 4.4: transpositions of G2 numbered by initial ranking.
            g2_sorted = sorted(new_g2, key=lambda p: st[p].tpn)
        for t2 in itertools.permutations(g2_sorted):
            if all(self.legal(a, b) for a, b in zip(s1, t2, strict=True)):
                COVERAGE["2.2.6 T2 not the first transposition"] += t2 != tuple(g2_sorted)
                pairs = list(zip(s1, t2, strict=True))
                # Doc step 7: with these shifts every legal T2 has the optimal C7.
                same = sum(st[a].preference.colour is st[b].preference.colour for a, b in pairs)
                assert same == self.min_c7(bracket), "T2 misses the optimal C7"
                return pairs
        raise AssertionError("a crossing pairing exists, so some transposition is legal")

    def _shift(self, bracket, small, large, s_is_g1, u, v, nobody_played, large_colour, spare):
        """2.2.4.1-2.2.4.2: the first step-(a) set (4.3 order) for which some step-(b) set
        gives a crossing pairing, and the first such step-(b) set; with ``spare`` no
        player with an absolute preference is moved (1997 2.2).  None if there is none."""
        st = self.st

        def movable(group):
            if not spare:
                return list(group)
            return [p for p in group if st[p].preference.strength is not PreferenceStrength.ABSOLUTE]

        small_order = self.shifter_order(movable(small), nobody_played)
        if self.rules.white_meets_white and u and s_is_g1 and not nobody_played:
            # 1997 6.3, last paragraph: "If the 'white' No. k has already played with all the
            # 'blacks', we look for an opponent for him, beginning with the 'white' No. k+1
            # down to the end of the column, and then, beginning with the 'white' No. k-1
            # down to the 'white' No. 1" (the White moved by step (a) is k's opponent)
            if self.rules.lists_by_rating:
                column = sorted(small, key=lambda p: (self.aro(p), self.rating[p], self.alpha[p], st[p].tpn))
            else:
                column = sorted(small, key=lambda p: (self.aro(p), st[p].tpn))
            stranded = [k for k, p in enumerate(column) if not any(self.legal(p, b) for b in large)]
            if stranded:
                k = stranded[0]
                allowed = movable(small)
                small_order = [p for p in column[k + 1 :] + column[:k][::-1] + [column[k]] if p in allowed]
                COVERAGE["1997 6.3 a White seeker who played every Black seeker"] += 1
        chosen = None
        for a_idx in itertools.combinations(range(len(small_order)), u):
            a_set = [small_order[i] for i in a_idx]
            after_a = [*large, *a_set]  # L as it stands after step (a)
            # 2.2.4.2 with 4.3 / 4.3.1 (D14): the pool is every possible shifter of L
            # after step (a).  Nobody has played: everyone has a mild Black preference
            # (1.5.2.4), so every member of L, the players just moved in included.
            # Otherwise the seekers of L's colour (those moved in seek the other one).
            if nobody_played:
                pool = after_a
            else:
                pool = [p for p in after_a if st[p].preference.colour is large_colour]
            large_order = self.shifter_order(movable(pool), nobody_played)
            for b_idx in itertools.combinations(range(len(large_order)), v):
                b_set = [large_order[i] for i in b_idx]
                new_small = [p for p in small if p not in a_set] + b_set
                new_large = [p for p in after_a if p not in b_set]
                if self.crossing_pairing_exists(new_small, new_large):
                    chosen = (new_small, new_large)
                    COVERAGE["2.2.4.1 u > 0"] += u > 0
                    COVERAGE["2.2.4.2 shift"] += v > 0
                    COVERAGE["2.2.4.1 not the first u-set"] += a_idx != tuple(range(u))
                    COVERAGE["2.2.4.2 not the first shift set"] += b_idx != tuple(range(v))
                    COVERAGE["2.2.4.2 a step-(a) player shifted back"] += any(p in a_set for p in b_set)
                    if nobody_played and u:
                        self._note_d14(small, large, a_set, b_set, v)
                    break
            if chosen:
                break
        return chosen

    def _note_d14(self, small: list[int], large: list[int], a_set: list[int], b_set: list[int], v: int) -> None:
        """Coverage only: a bracket where nobody has played with a step-(a) shift, where
        D14 puts the players moved in by step (a) into the step-(b) pool.  Would the
        earlier reading (L's original members only) have shifted another set?"""
        COVERAGE["2.2.4.2 D14: step-(a) players in the step-(b) pool (nobody has played)"] += 1
        old_order = self.shifter_order(large, True)
        for b_idx in itertools.combinations(range(len(old_order)), v):
            old_b = [old_order[i] for i in b_idx]
            new_small = [p for p in small if p not in a_set] + old_b
            new_large = [p for p in large if p not in old_b] + a_set
            if self.crossing_pairing_exists(new_small, new_large):
                if sorted(old_b) != sorted(b_set):
                    COVERAGE["2.2.4.2 D14 decisive (original-members reading differs)"] += 1
                return

    # ------------------------------------------------------------ 1997 7.1

    def islands_1997(self, residents: list[int], pool: list[int], unpaired: list[int]) -> list[tuple[int, int]]:
        """1997 7.1 (``island_opponents``): "If a player has already played with all the
        players of his own score group, a player from the next possible lower score group
        is transferred ... who has not yet played with the player in question and can be
        paired according to the colour allocation rules": the due colour opposite to his,
        then the highest R, then the lowest ARO (then the name and the TPN).  Readings of
        docs/dubov-1997.md: "played with all" is "has no legal opponent" (D11); the islands
        take their opponents in 8.1's order of floaters; a barred player (2.1) only when
        nobody else can be transferred; the choice keeps everyone left completable (C4)."""
        st = self.st
        if len(residents) == 1:  # alone in his score group: 7.2's odd group, not an island
            return []
        islands = [p for p in residents if not any(self.legal(p, q) for q in residents if q != p)]
        left = list(unpaired)
        out = []
        for island in self.floater_order_1997(islands):
            def rank(q, island=island):
                barred = self.rules.upfloat_bars and self.barred(q)
                same_colour = st[q].preference.colour is st[island].preference.colour
                return (barred, -st[q].score, same_colour, -self.rating[q], self.aro(q), self.alpha[q], st[q].tpn)

            for q in sorted((q for q in pool if q in left and self.legal(island, q)), key=rank):
                if self.can_pair_all(x for x in left if x not in (island, q)):
                    COVERAGE["1997 7.1 an island's opponent"] += 1
                    COVERAGE["1997 7.1 the opponent of the same due colour"] += rank(q)[2]
                    out.append((island, q))
                    left = [x for x in left if x not in (island, q)]
                    break
            else:
                raise AssertionError("the round is completable, so the island has an opponent")
        return out

    # ------------------------------------------------------------ 1997 6.4 and 8

    def floater_order_1997(self, players: list[int]) -> list[int]:
        """1997 8.1: the White floaters in 6.2's order (ARO ascending, the lower R, the name),
        the Black ones in 6.2's order (R descending, the higher ARO, the name), then TPN;
        alternately from the first White.  7.1's islands take their opponents in this
        order too (docs/dubov-1997.md)."""
        st = self.st
        white = sorted((p for p in players if st[p].preference.colour is Colour.WHITE),
                       key=lambda p: (self.aro(p), self.rating[p], self.alpha[p], st[p].tpn))
        black = sorted((p for p in players if st[p].preference.colour is not Colour.WHITE),
                       key=lambda p: (-self.rating[p], -self.aro(p), self.alpha[p], st[p].tpn))
        order = []
        for k in range(max(len(white), len(black))):
            order += [col[k] for col in (white, black) if k < len(col)]
        return order

    def was_floater(self, p: int) -> bool:
        """1997 6.4 c-d for an earlier round (docs/dubov-1997.md reading 15): paired (a
        forfeit too) with an opponent who had a lower score before that round."""
        scores = pairing_scores(self.snapshot)[0]
        mine = scores[p]
        player = next(x for x in self.snapshot.players if x.id == p)
        for k, e in enumerate(player.history):
            if e.paired and e.opponent is not None and scores[e.opponent][k] < mine[k]:
                return True
        return False

    def floaters_in(self, floaters: list[int], residents: list[int], unpaired: list[int]
                    ) -> tuple[list[tuple[int, int]], list[int]]:
        """1997 8.1-8.2 (``floaters_down``): "The floaters having due colour white are
        arranged according to chapter 6.2.  The floaters having due colour black are
        arranged according to chapter 6.2.  Beginning with the highest 'white' floater the
        floaters are paired one by one ... alternating between 'white' and 'black'."
        "Each of the floaters is paired with the player having the highest R, if possible
        having the opposite due colour.  If there are more than one player with equal R,
        the player with the lowest ARO is chosen."  Read (reading 15): the opposite colour
        first, then R, ARO, name, TPN; among the score group's players; the first whose
        pairing keeps everyone left completable (C4).  Returns the pairs and the floaters
        left without an opponent."""
        st = self.st
        left = list(unpaired)
        out, alone = [], []
        for f in self.floater_order_1997(floaters):
            def rank(q, f=f):
                return (st[q].preference.colour is st[f].preference.colour, -self.rating[q], self.aro(q),
                        self.alpha[q], st[q].tpn)

            for q in sorted((q for q in residents if q in left and self.legal(f, q)), key=rank):
                if self.can_pair_all(x for x in left if x not in (f, q)):
                    COVERAGE["1997 8.2 a floater's opponent"] += 1
                    COVERAGE["1997 8.2 the opponent of the same due colour"] += rank(q)[0]
                    out.append((f, q))
                    left = [x for x in left if x not in (f, q)]
                    break
            else:
                COVERAGE["1997 8.2 a floater with no opponent in the group"] += 1
                alone.append(f)
        return out, alone

    def floaters_out(self, rest: list[int], pool: list[int], came: list[int]) -> tuple[list[int], list[int]]:
        """1997 6.4 (``floaters_down``): "If that cannot be achieved the remaining unpaired
        players are transferred to the next lower score group", chosen "due to these
        characteristics with decreasing preference": a. not a floater from higher score
        groups and can be paired in the lower score group, b. not and cannot, c. was and
        can, d. was and cannot.  Reading 15: 7.2 first brings one player if the group is
        odd (7.2's order; one who may play somebody of the group); the fewest players left
        unpaired, the others paired in the group and everyone left completable (C4);
        7.2's player kept in the group if possible; then the most a's, b's, c's; then the
        lowest R, the highest ARO, the name, the TPN.  Returns (the group as paired, the
        floaters)."""
        st = self.st
        extra: list[int] = []
        if len(rest) % 2:
            whites = sum(st[p].preference.colour is Colour.WHITE for p in rest)
            dominant = None if 2 * whites == len(rest) else (Colour.WHITE if 2 * whites > len(rest) else Colour.BLACK)

            def rank72(q):
                barred = self.rules.upfloat_bars and self.barred(q)
                return (barred, -st[q].score, st[q].preference.colour is dominant, -self.rating[q], self.aro(q),
                        self.alpha[q], st[q].tpn)

            could = sorted((q for q in pool if any(self.legal(q, p) for p in rest)), key=rank72)
            extra = could[:1]
        group = rest + extra
        below = [q for q in pool if q not in extra]
        nxt = [q for q in below if st[q].score == max(st[x].score for x in below)] if below else []

        def klass(p):
            floated = p in came or self.was_floater(p)
            return 2 * floated + (not any(self.legal(p, q) for q in nxt))

        for m in range(len(group) % 2, len(group) + 1, 2):
            fits = []
            for x in itertools.combinations(group, m):
                if self.can_pair_all(p for p in group if p not in x) and self.can_pair_all([*x, *below]):
                    fits.append(x)
            if fits:
                best = min(fits, key=lambda x: (any(p in extra for p in x), sorted(klass(p) for p in x),
                                                sorted((klass(p), self.rating[p], -self.aro(p), self.alpha[p],
                                                        st[p].tpn) for p in x)))
                COVERAGE["1997 6.4 players floated down"] += len(best)
                COVERAGE["1997 6.4 the classes decide"] += len({tuple(sorted(klass(p) for p in x)) for x in fits}) > 1
                COVERAGE["1997 6.4 a floater of an earlier round kept"] += any(
                    self.was_floater(p) and p not in best for p in group)
                return [p for p in group if p not in best], [p for p in best if p not in extra]
        raise AssertionError("the round is completable, so some players can float")

    # ------------------------------------------------------------ Article 5

    def higher_ranked(self, a: int, b: int) -> int:
        """5.2.1 / D10: more points, then a higher position in the initial ranking."""
        ka = (-self.st[a].score, self.st[a].tpn)
        kb = (-self.st[b].score, self.st[b].tpn)
        return a if ka < kb else b

    def colours(self, a: int, b: int, pair_number: int) -> tuple[int, int]:
        """5.2.1-5.2.5: returns (white, black)."""
        rule, pair = self.colour_rule(a, b, pair_number)
        COVERAGE[f"colour {rule}"] += 1
        return pair

    def colour_rule(self, a: int, b: int, pair_number: int) -> tuple[str, tuple[int, int]]:
        st = self.st
        hi = self.higher_ranked(a, b)
        lo = b if hi == a else a
        nobody_played = st[a].games_played == 0 and st[b].games_played == 0
        if self.rules.first_round_by_pair and nobody_played and self.snapshot.round_number == 1:
            # 1997 5: odd pairs as pair 1 (the upper player: the initial colour), even pairs the other
            hi_colour = self.snapshot.initial_colour if pair_number % 2 else self.snapshot.initial_colour.opposite
            return "1997 5", ((hi, lo) if hi_colour is Colour.WHITE else (lo, hi))
        # 5.2.1 (1997: no such rule; two players yet to play go on to the rules below)
        if nobody_played and not self.rules.first_round_by_pair:
            hi_colour = self.snapshot.initial_colour
            if st[hi].tpn % 2 == 0:
                hi_colour = hi_colour.opposite
            return "5.2.1", ((hi, lo) if hi_colour is Colour.WHITE else (lo, hi))
        pa, pb = st[a].preference, st[b].preference
        # 5.2.2
        if pa.colour is not pb.colour:
            return "5.2.2", ((a, b) if pa.colour is Colour.WHITE else (b, a))
        # 5.2.3
        if pa.strength != pb.strength:
            strong = a if pa.strength > pb.strength else b
            other = b if strong == a else a
            return "5.2.3", ((strong, other) if pa.colour is Colour.WHITE else (other, strong))
        # 5.2.4: aligned at the latest game, the most recent position where they differ.
        ca, cb = st[a].colours, st[b].colours
        for i in range(1, min(len(ca), len(cb)) + 1):
            if ca[-i] is not cb[-i]:
                # give each the colour the other had
                return "5.2.4", ((a, b) if cb[-i] is Colour.WHITE else (b, a))
        # 1997 3, its last two lines: White to the higher ARO, then to the lower R
        if self.rules.colours_by_aro:
            if self.aro(a) != self.aro(b):
                return "1997 3 ARO", ((a, b) if self.aro(a) > self.aro(b) else (b, a))
            if self.rating[a] != self.rating[b]:
                return "1997 3 R", ((a, b) if self.rating[a] < self.rating[b] else (b, a))
        # 5.2.5
        hp = st[hi].preference.colour
        return "5.2.5", ((hi, lo) if hp is Colour.WHITE else (lo, hi))

    # ------------------------------------------------------------ the round

    def pair(self) -> tuple[list[tuple[int, int]], int | None]:
        st = self.st
        bye = self.choose_bye()
        unpaired = [p for p in self.to_pair if p != bye]
        pairs: list[tuple[int, int]] = []
        if self.rules.floaters_down:
            pairs = self.pair_floating(unpaired)
            unpaired = []
        while unpaired:
            top = max(st[p].score for p in unpaired)
            residents = sorted((p for p in unpaired if st[p].score == top), key=lambda p: st[p].tpn)
            pool = [p for p in unpaired if st[p].score < top]
            if self.rules.island_opponents:
                for island, opponent in self.islands_1997(residents, pool, unpaired):
                    pairs.append((island, opponent))
                    unpaired = [p for p in unpaired if p not in (island, opponent)]
                residents = [p for p in residents if p in unpaired]
                pool = [p for p in pool if p in unpaired]
                if not residents:
                    continue
            ups = self.choose_upfloaters(residents, pool)
            bracket = residents + ups
            pairs.extend(self.pair_bracket(bracket))
            unpaired = [p for p in unpaired if p not in bracket]
        flat = sorted(p for pair in pairs for p in pair)
        assert flat == sorted(p for p in self.to_pair if p != bye), "everyone paired once"
        assert all(self.legal(a, b) for a, b in pairs), "absolute criteria hold"
        pairs.sort(key=self.board_key)  # the board order does not depend on the colours
        coloured = [self.colours(a, b, k) for k, (a, b) in enumerate(pairs, start=1)]
        return coloured, bye

    def pair_floating(self, unpaired: list[int]) -> list[tuple[int, int]]:
        """The score groups by the rules of 1997 with floaters (``floaters_down``): the
        floaters from above (8), the islands (7.1), then at most 7.2's one player from below
        (2.2.1-2.2.2 limited so); when that will not do, 6.4."""
        st = self.st
        pairs: list[tuple[int, int]] = []
        came: list[int] = []
        for top in sorted({st[p].score for p in unpaired}, reverse=True):
            residents = sorted((p for p in unpaired if st[p].score == top), key=lambda p: st[p].tpn)
            got, alone = self.floaters_in(came, residents, unpaired)
            for f, q in got:
                pairs.append((f, q))
                unpaired = [p for p in unpaired if p not in (f, q)]
            residents = [p for p in residents if p in unpaired]
            pool = [p for p in unpaired if st[p].score < top]
            if self.rules.island_opponents and residents:
                for island, opponent in self.islands_1997(residents, pool, unpaired):
                    pairs.append((island, opponent))
                    unpaired = [p for p in unpaired if p not in (island, opponent)]
                residents = [p for p in residents if p in unpaired]
                pool = [p for p in pool if p in unpaired]
            rest = alone + residents
            came = []
            if not rest:
                continue
            ups = self.choose_upfloaters(rest, pool, most=len(rest) % 2)
            if ups is not None:
                bracket = rest + ups
            else:
                bracket, came = self.floaters_out(rest, pool, alone)  # the floaters still here came down
            if bracket:
                pairs.extend(self.pair_bracket(bracket))
            unpaired = [p for p in unpaired if p not in bracket]
        assert not came, "floaters below the lowest score group"
        return pairs

    def board_key(self, board: tuple[int, int]) -> tuple[Decimal, Decimal, int]:
        """C.04.2 board order: higher-ranked player's score desc, then the sum of
        both scores desc, then the higher-ranked player's TPN."""
        w, b = board
        hi = self.higher_ranked(w, b)
        return (-self.st[hi].score, -(self.st[w].score + self.st[b].score), self.st[hi].tpn)


def literal_pairs(snapshot: Snapshot) -> tuple[list[tuple[int, int]], int | None]:
    """(white, black) pairs in board order, and the PAB id or None."""
    return Round(snapshot).pair()


def literal_pair_round(snapshot: Snapshot) -> Pairing:
    """The same as a :class:`Pairing` (explanation: the bye only)."""
    pairs, bye = literal_pairs(snapshot)
    boards = tuple(Board(i, w, b) for i, (w, b) in enumerate(pairs, start=1))
    return Pairing(
        round_number=snapshot.round_number,
        boards=boards,
        bye=bye,
        explanation=Explanation(bye=ByeDecision(player=bye)),
    )
