"""Big Burstein brackets without a weighted matching: the first candidate in the order of
4.3 that reaches a bound no candidate can pass, built by kinds of players.

The bound, for a bracket of nb players (BSN order) over a next scoregroup N and the
players L below it:

* [C5] every player paired but one when nb is odd (f = nb mod 2 outgoing floaters);
* [C6] that floater a resident (the lowest score of the bracket);
* [C7] the following bracket ({floater} + N) then pairs all its players but, when it is
  odd, one player of N, and the players left below still pair ([C4]): nothing pairs
  more or floats lower;
* [C8] the fewest players without their colour preference that the colour preferences
  allow, over every choice of a resident floater: with W players preferring White, B
  Black and Z none, max(0, |W - B| - Z) / 2 pairs must have one preference twice, and
  no absolute preference may be more than half the players ([C3]).

The candidate is built in BSN order: each player takes the largest BSN still free whose
kind (colour preference and strength) leaves the rest able to reach the bound by the
same count, legal for the pair itself ([C1], [C3], forbidden pairs); a player with no
such opponent floats, if it may (a resident, one floater at most, [C7] as above).  The
count is necessary for the rest to reach the bound, never more than that, so an opponent
it refuses no candidate reaching the bound could give; when the built candidate reaches
the bound and is complete, it is therefore the first best candidate of 3.2.2.  Anything
not proved (a dead end, a floater whose [C7] cannot be shown, two or more floaters)
returns None: the caller uses the weighted matching.  O(nb) for the bracket plus a few
cardinality matchings on N and L.
"""

from __future__ import annotations

from ..matching import has_perfect_matching, maximum_matching
from .colours import c8_violation

INF = 1 << 60
RESTARTS = 4


def kind(st) -> int:
    """0 no preference, 1 White, 2 absolute White, 3 Black, 4 absolute Black."""
    if st.preference is None:
        return 0
    white = st.preference.value == "w"
    return (2 if st.absolute else 1) if white else (4 if st.absolute else 3)


def fewest_conflicts(c: list[int]) -> int:
    """[C8] lower bound for pairing everyone counted in ``c`` (per kind), INF when [C3]
    makes it impossible (more than half of them share an absolute preference)."""
    n = c[0] + c[1] + c[2] + c[3] + c[4]
    if 2 * c[2] > n or 2 * c[4] > n:
        return INF
    excess = abs(c[1] + c[2] - c[3] - c[4]) - c[0]
    return excess // 2 if excess > 0 else 0


class FastBracket:
    """``rnd``: the round; ``bracket``: round indices in BSN order; ``incoming``: the
    incoming floaters among them (they may not float again: [C6])."""

    def __init__(self, rnd, bracket: list[int], incoming: set[int], nxt: list[int], lower: list[int]):
        self.rnd = rnd
        self.bracket = bracket
        self.incoming = incoming
        self.nxt = nxt
        self.lower = lower
        self.kinds = [kind(rnd.st[v]) for v in bracket]
        self.not_ideal: set[int] = set()  # bracket positions shown not to float ideally ([C7])
        self.witness: dict[int, int | None] = {}  # position -> the N player left for L (None: none)
        self.reached = ""

    # ------------------------------------------------------------ [C7], [C4]

    def _lower_completes(self, extra: list[int]) -> bool:
        legal = self.rnd.legal
        vs = self.lower + extra
        return has_perfect_matching(len(vs), lambda a, b: legal(vs[a], vs[b]))

    def ideal_floater(self, p: int) -> bool | None:
        """True: the following bracket with this floater pairs all but (when odd) one
        player of N and the rest completes; False: it cannot; None: not shown."""
        if p in self.witness:
            return True
        legal = self.rnd.legal
        x = self.bracket[p]
        nxt = self.nxt
        if not nxt:
            return False
        if len(nxt) % 2:  # {x} + N even: all of it pairs, L alone
            vs = [x] + nxt
            if not has_perfect_matching(len(vs), lambda a, b: legal(vs[a], vs[b])):
                return False
            if not self._lower_completes([]):
                return None  # the ideal is out of reach for every floater: not a bound
            self.witness[p] = None
            return True
        # {x} + N odd: one player of N goes down; a dummy vertex stands for the players
        # below, next to the N players who have a legal partner there
        below = self.lower
        excluded: set[int] = set()
        for _ in range(3):
            reach = [y for y in nxt if y not in excluded and any(legal(y, z) for z in below)]
            vs = [x] + nxt
            k = len(vs)
            rset = set(reach)

            def ok(a: int, b: int, vs=vs, k=k, rset=rset) -> bool:
                if a == k:
                    return vs[b] in rset
                if b == k:
                    return vs[a] in rset
                return legal(vs[a], vs[b])

            mate = maximum_matching(k + 1, ok)
            if any(m == -1 for m in mate):
                return False if not excluded else None
            y = vs[mate[k]]
            if self._lower_completes([y]):
                self.witness[p] = y
                return True
            excluded.add(y)
        return None

    # ------------------------------------------------------------ the candidate

    def run(self):
        """(pairs as bracket positions in the order of 4.3, floaters) or None."""
        nb = len(self.bracket)
        f = nb % 2
        if f == 0 and not self._even_completes():
            return None
        for _ in range(RESTARTS):
            got = self._greedy(f)
            if got is None:
                return None
            if got is not True:
                return got
        return None

    def _even_completes(self) -> bool:
        legal = self.rnd.legal
        vs = self.nxt + self.lower
        return has_perfect_matching(len(vs), lambda a, b: legal(vs[a], vs[b]))

    def _greedy(self, f: int):
        rnd = self.rnd
        legal = rnd.legal
        st = rnd.st
        br = self.bracket
        nb = len(br)
        kinds = self.kinds
        can_float = [f == 1 and br[p] not in self.incoming and p not in self.not_ideal for p in range(nb)]
        count = [0] * 5
        float_count = [0] * 5
        for p in range(nb):
            count[kinds[p]] += 1
            if can_float[p]:
                float_count[kinds[p]] += 1

        def rest_bound(c: list[int], fc: list[int], floats_left: int) -> int:
            if floats_left == 0:
                return fewest_conflicts(c)
            best = INF
            for k in range(5):
                if fc[k]:
                    c[k] -= 1
                    best = min(best, fewest_conflicts(c))
                    c[k] += 1
            return best

        bound = rest_bound(count, float_count, f)
        if bound >= INF:
            return None
        # candidates per kind and whether they may float (the bound treats those apart)
        by_sub: list[list[int]] = [[] for _ in range(10)]
        for p in range(nb - 1, -1, -1):
            by_sub[2 * kinds[p] + can_float[p]].append(p)  # descending BSN
        top = [0] * 10
        fixed = [False] * nb
        pairs: list[tuple[int, int]] = []
        floaters: list[int] = []
        spent = 0

        def take(p: int) -> None:
            fixed[p] = True
            count[kinds[p]] -= 1
            if can_float[p]:
                float_count[kinds[p]] -= 1

        for b in range(nb):
            if fixed[b]:
                continue
            take(b)
            kb = kinds[b]
            floats_left = f - len(floaters)
            choice = -1
            for sub in range(10):
                k = sub >> 1
                if not count[k] or (kb == k and kb in (2, 4)):  # none left, or [C3]
                    continue
                lst = by_sub[sub]
                i = top[sub]
                while i < len(lst) and fixed[lst[i]]:
                    i += 1
                top[sub] = i
                j = -1
                while i < len(lst):
                    q = lst[i]
                    if q <= choice:
                        break
                    if not fixed[q] and legal(br[b], br[q]):
                        j = q
                        break
                    i += 1
                if j < 0:
                    continue
                cost = 1 if (kb in (1, 2) and k in (1, 2)) or (kb in (3, 4) and k in (3, 4)) else 0
                count[k] -= 1
                if sub & 1:
                    float_count[k] -= 1
                if spent + cost + rest_bound(count, float_count, floats_left) <= bound:
                    choice = j
                count[k] += 1
                if sub & 1:
                    float_count[k] += 1
            if choice >= 0:
                take(choice)
                spent += 1 if c8_violation(st[br[b]], st[br[choice]]) else 0
                pairs.append((b, choice))
                continue
            # no opponent: b floats, if it may
            if not (floats_left and can_float[b]) or spent + rest_bound(count, float_count, 0) > bound:
                return None
            ideal = self.ideal_floater(b)
            if ideal is None:
                return None
            if not ideal:
                self.not_ideal.add(b)
                return True  # again, with b known not to float ideally
            floaters.append(b)
        if spent != bound or len(floaters) != f:
            return None
        self.reached = (f"[C5] pairs: {len(pairs)}; [C6] outgoing floaters: {len(floaters)}, residents; "
                        f"[C7] the following bracket pairs all its players{' but one' if (len(self.nxt) + f) % 2 else ''}"
                        f"; [C8] players not getting their colour preference: {spent}")
        return pairs, floaters
