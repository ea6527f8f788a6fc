"""Pairing one bracket once its upfloaters are chosen (2025: 2.2.3-2.2.6; 2026: 3.2.3-3.2.6):
G1/G2, shifts (D14), S1 and T2.  A part of :class:`pairing.engine.dubov.pairer._Round`."""

from __future__ import annotations

from collections.abc import Sequence
from decimal import Decimal
from itertools import combinations

from ..matching import has_perfect_matching, lex_first_assignment
from ..model import (
    BracketTrace,
    EngineError,
)
from .upfloaters import fmt


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



# role compatibility for the shift oracle (see BracketPairing._shift_oracle):
# S-stay pairs with X, A, N; X with S-stay, F, A; F with X, A, N; A with all but F-F/N-N rules.
_S, _X, _F, _A, _N = range(5)
_ROLE_OK = [[False] * 5 for _ in range(5)]
for _a, _b in ((_S, _X), (_S, _A), (_S, _N), (_X, _F), (_X, _A), (_F, _A), (_F, _N), (_A, _A), (_A, _N)):
    _ROLE_OK[_a][_b] = _ROLE_OK[_b][_a] = True


class BracketPairing:
    """The bracket methods of :class:`~pairing.engine.dubov.pairer._Round` (its state: see there)."""

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

        extremes = played_any and self.rules.shift_extremes

        def shifter_list(group: list[int], white: bool) -> list[int]:
            if extremes:  # 1997 7.3-7.4: the extremes first, no middle-out
                return sorted(group, key=self.shift_key_1997 if white else self.black_shift_key_1997)
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
        order_name = "7.3-7.4 (rules of 1997)" if extremes else "4.3"
        if u or m:
            base_roles = [0] * len(small) + [3] * len(large)
            spared: set[int] = set()
            if played_any and self.rules.shift_spares_absolute:
                spared = self._spared_1997(vs, base_roles, s_order, pos, u)
                if spared:  # the possible shifters (4.3.1) are the others: numbered without them
                    s_order = shifter_list([i for i in small if i not in spared], s_is_g1)
                    l_order = shifter_list([i for i in large if i not in spared], not s_is_g1)
                    for i in spared:
                        base_roles[pos[i]] = 0 if base_roles[pos[i]] == 0 else 4
                    notes.append(f"2.2 (rules of 1997): {self.names(sorted(spared, key=lambda i: self.tpn[i]))} "
                                 "not moved to the other colour's subgroup (absolute colour preference).")
            a_order_name = order_name
            if u and played_any and s_is_g1 and self.rules.white_meets_white:
                column = self.white_column_order(small, large, s_order)
                if column is not None:  # 1997 6.3, last paragraph: White No. k+1 ..., then k-1 ... 1
                    s_order, k = column
                    a_order_name = "6.3 (rules of 1997: after him in the list, then before him)"
                    notes.append(f"6.3 (rules of 1997): {self.name(k)} has played every Black seeker; his opponent "
                                 "is looked for among the White seekers after him in the list, then before him.")
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
                    f"shifted {self.names(shifted_x)} (first such set in {a_order_name} order)."
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
                    f"(first set in {order_name} order that allows a legal pairing)."
                )
        xs_set, ys_set = set(shifted_x), set(shifted_y)
        new_small = [i for i in small if i not in xs_set] + list(shifted_y)
        new_large = [i for i in large if i not in ys_set] + list(shifted_x)
        ng1, ng2 = (new_small, new_large) if s_is_g1 else (new_large, new_small)
        if played_any and self.rules.lists_by_rating:
            # 1997 6.2: Whites by ARO ascending, equal ARO the lower R higher; Blacks by R
            # descending, equal R the higher ARO higher; then alphabetically (and TPN)
            s1 = sorted(ng1, key=self.white_key_1997)
            t2_pool = sorted(ng2, key=self.black_key_1997)
        else:
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


    def white_key_1997(self, i: int) -> tuple:
        """1997 6.2's list of White seekers: ARO ascending, equal ARO the lower R first,
        then alphabetically (and TPN)."""
        return (self.aro[i], self.rating[i], self.name_key[i], self.tpn[i])

    def black_key_1997(self, i: int) -> tuple:
        """1997 6.2's list of Black seekers: R descending, equal R the higher ARO first,
        then alphabetically (and TPN)."""
        return (-self.rating[i], -self.aro[i], self.name_key[i], self.tpn[i])

    def white_list_key(self, i: int) -> tuple:
        """The White seekers' list (S1): 1997 6.2 (``lists_by_rating``) or 2025 2.2.5 (ARO,
        then the initial ranking)."""
        if self.rules.lists_by_rating:
            return self.white_key_1997(i)
        return (self.aro[i], self.tpn[i])

    def white_column_order(self, whites: list[int], blacks: list[int], movable: list[int]
                           ) -> tuple[list[int], int] | None:
        """1997 6.3, last paragraph (``white_meets_white``): "If the 'white' No. k has already
        played with all the 'blacks', we look for an opponent for him, beginning with the
        'white' No. k+1 down to the end of the column, and then, beginning with the 'white'
        No. k-1 down to the 'white' No. 1."  k is the first White seeker of the list (S1
        order) with no legal opponent (D11) among the Black seekers; the order returned is
        the one in which step (a) of 2.2.4.1 tries the White seekers it moves to the other
        subgroup (the one moved is k's opponent: k can play nobody else there), k itself
        last; only players ``movable`` holds (1997 2.2 may spare some).  None when no White
        seeker has played every Black seeker (the paragraph does not apply)."""
        column = sorted(whites, key=self.white_list_key)
        legal = self.legal
        k = next((p for p, i in enumerate(column) if not any(legal(i, j) for j in blacks)), None)
        if k is None:
            return None
        allowed = set(movable)
        order = column[k + 1 :] + column[:k][::-1] + [column[k]]
        return [i for i in order if i in allowed], column[k]

    def shift_key_1997(self, i: int) -> tuple:
        """1997 7.3: White seekers moved to the Black group, "the lowest ARO ... equal ARO,
        the higher R ... then alphabetically" (then TPN)."""
        return (self.aro[i], -self.rating[i], self.name_key[i], self.tpn[i])

    def black_shift_key_1997(self, i: int) -> tuple:
        """1997 7.4: Black seekers moved to the White group, "the highest ARO ... equal ARO,
        the lower R ... then alphabetically" (then TPN)."""
        return (-self.aro[i], self.rating[i], self.name_key[i], self.tpn[i])

    def _spared_1997(self, vs: list[int], base_roles: list[int], s_order: list[int], pos: dict[int, int],
                     u: int) -> set[int]:
        """1997 2.2: the players with an absolute colour preference (their colour again
        would break C.04.1 f or g) that stay in their subgroup: all of them when some shift
        without them pairs the bracket (step (a) among the others of S, step (b) among
        the others of L), none otherwise (reading: the limit gives way, the colours of
        every pair still keep C3).  One matching per step-(a) set tried."""
        absolute = {i for i in vs if self.absc[i]}
        if not absolute:
            return set()
        roles = [4 if r == 3 and vs[p] in absolute else r for p, r in enumerate(base_roles)]
        if not u:
            return absolute if self._shift_oracle(vs, roles) else set()
        for xs in combinations([i for i in s_order if i not in absolute], u):
            trial = list(roles)
            for x in xs:
                trial[pos[x]] = 1
            if self._shift_oracle(vs, trial):
                return absolute
        return set()

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

