"""One Burstein bracket by the weighted matching (C.04.4.2, 2026 text, Articles 3.2 and 4).

3.2.2: "Choose the first pairing (as ordered according to Article 4) that complies best
with all the pairing criteria."  The criteria are levels of one maximum-weight matching
(:mod:`.criteria`); its value V* is the best any candidate reaches.  The order of 4.3 --
a pairing comes first when BSN 1's opponent has the larger BSN, then BSN 2's, and so on,
a virtual player (BSN 0: the player floats) last -- is then decided position by
position: each player not yet paired takes the first opponent, in that order, that some
candidate reaching V* gives it.  The order itself is one more level below the criteria:
exact (BSN 1's opponent as the most significant digit, base nb + 1) when its digits fit
the weight, otherwise the sum of (nb + 1 - x) * y over the pairs (x, y) (the "fold" 1-nb,
2-(nb-1), ... is its maximum), so that the matching at hand is usually already first and
few positions need a question.

Each question is one rustworkx matching (O(V^3) worst case); the players below the next
scoregroup are first left out (any player may go down to them; each answer is checked by
one cardinality matching on the real players, and the bracket is paired again with them
if a check fails).
"""

from __future__ import annotations

from ..matching import has_perfect_matching
from ..weighted import MAX_BITS, BracketSolver, Constraints
from .criteria import BursteinLevels, describe

FLOAT = -1  # the virtual player of 4.2 (BSN 0)
RELAX_BELOW = 8
NOTE_TESTS = 24  # questions asked only to name why an earlier opponent was not taken


class StandInFailed(Exception):
    """The relaxed bracket gave an answer the real players below do not allow."""


class BracketResult:
    def __init__(self, pairs, floaters, notes):
        self.pairs = pairs  # bracket positions (x, y), x < y, in the order of 4.3
        self.floaters = floaters  # bracket positions, BSN order
        self.notes = notes


def solve_bracket(rnd, bracket: list[int], nxt: list[int], lower: list[int], relaxed: bool) -> BracketResult:
    """The first best candidate of ``bracket`` (round indices in BSN order).  ``rnd``: the
    round (:class:`pairing.engine.burstein.pairer._Round`: states, legality, names)."""
    nb, nn = len(bracket), len(nxt)
    vertices = bracket + nxt + ([] if relaxed else lower)
    levels = BursteinLevels(rnd.st, vertices, nb, nn, relaxed)
    legal = rnd.legal
    n = len(vertices)
    legal_pairs = [(i, j) for i in range(n) for j in range(i + 1, n) if legal(vertices[i], vertices[j])]
    solver = BracketSolver(levels, legal_pairs, nb, completion="C1-C4")
    checked: dict[frozenset[int], bool] = {}

    def real(o) -> bool:
        """The relaxed answer holds for the real players below: the players it leaves
        unpaired go down and pair with them ([C4])."""
        if not relaxed:
            return True
        down = frozenset(vertices[p] for p in range(nb + nn) if o.mate[p] == -1)
        if down not in checked:
            vs = lower + sorted(down)
            checked[down] = has_perfect_matching(len(vs), lambda a, b: legal(vs[a], vs[b]))
        if not checked[down]:
            raise StandInFailed
        return True

    exact = _order_level(solver, nb)
    best = solver.solve()
    if not relaxed and any(m == -1 for m in best.mate):
        rnd.no_pairing(vertices, "No complete pairing of the remaining players exists ([C4])")
    real(best)
    vstar = solver.criteria_value(best)

    def attempt(c: Constraints):
        o = solver.solve(c)
        if o.forced == len(c.must) and solver.criteria_value(o) == vstar and real(o):
            return o, None
        return None, o

    notes = ["Best candidate reached: " + "; ".join(describe(solver.level_list, vstar)) + "."]
    c = Constraints()
    outside = frozenset(range(nb, n))
    fixed: set[int] = set()
    pairs: list[tuple[int, int]] = []
    floaters: list[int] = []
    tests = 0
    for b in range(nb):
        if b in fixed:
            continue
        m = best.mate[b]
        current = m if 0 <= m < nb else FLOAT
        options = [j for j in range(nb - 1, b, -1) if j not in fixed and (b, j) in solver.values] + [FLOAT]
        for opt in options:
            if opt == current:
                break
            if exact and tests >= NOTE_TESTS:
                continue  # the exact order level already says no candidate reaching V* takes it
            t = c.copy()
            if opt == FLOAT:
                t.allowed[b] = outside
            else:
                t.allowed[b] = frozenset({opt})
                t.allowed[opt] = frozenset({b})
                t.must.add(b)
            tests += 1
            trial, fail = attempt(t)
            if trial is not None:
                best = trial
                current = opt
                break
            what = "floating" if opt == FLOAT else f"paired with {rnd.name(vertices[opt])}"
            notes.append(f"{rnd.name(vertices[b])} not {what}: worse on {solver.first_worse(vstar, fail)}.")
        fixed.add(b)
        if current == FLOAT:
            c.allowed[b] = outside
            floaters.append(b)
        else:
            c.allowed[b] = frozenset({current})
            c.allowed[current] = frozenset({b})
            c.must.add(b)
            fixed.add(current)
            pairs.append((b, current))
    return BracketResult(pairs, floaters, notes)


def order_digit(i: int, j: int, nb: int) -> int:
    """4.3 as a number: the pair of bracket positions i < j (BSNs i + 1, j + 1) adds j + 1
    as the digit of position i, in base nb + 1 with position 0 the most significant; a
    floater adds nothing (BSN 0).  Of two pairings the one with the larger sum comes
    first: at the first BSN whose opponents differ, that BSN is the smaller end (or
    floats) in both, and the later digits cannot outweigh it."""
    return (j + 1) * (nb + 1) ** (nb - 1 - i)


def _order_level(solver: BracketSolver, nb: int) -> bool:
    """4.3 as a level below the criteria: exact when its digits fit (True), else the fold
    heuristic (False; the procedure then asks the matching position by position)."""
    base = nb + 1
    digits = {}
    bits = (base ** nb - 1).bit_length()
    if solver.total_bits + bits <= MAX_BITS:
        for (i, j) in solver.values:
            if j < nb:
                digits[(i, j)] = order_digit(i, j, nb)
        solver.add_level(digits, base ** nb - 1)
        return True
    fold = {}
    for (i, j) in solver.values:
        if j < nb:
            fold[(i, j)] = (nb - i) * (j + 1)
    solver.add_level(fold, nb * nb * (nb + 1) // 2 + 1)
    return False
