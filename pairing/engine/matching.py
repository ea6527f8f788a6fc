"""Matching primitives for the Dubov engine (private).

Graphs here are *implicit*: vertices are ``0 .. n-1`` and an ``ok(a, b)`` predicate
says whether ``a`` and ``b`` may be paired.  Legality in a Swiss round is "everyone
except a few" (met opponents, forbidden pairs, the two absolute-preference classes),
so no edge list is ever built for big vertex sets.

* :func:`maximum_matching` - Edmonds' blossom algorithm (cardinality), started from
  a greedy matching.  Each augmenting search is O(n^2) on an implicit dense graph in
  the worst case, but in the dense graphs of a Swiss round the greedy start leaves
  few free vertices and a search usually ends after a handful of steps.
* :func:`lex_first_assignment` - the lexicographically first perfect bipartite
  matching (Dubov 2.2.6 / Art. 3.2.6 of the 2026 text: T2).
* :func:`min_class_pairs` - exact minimum number of pairs inside a vertex class over
  all perfect matchings (C7 / 2.2.4), by a weighted matching (:mod:`.blossom`); only called
  on a bracket where the cheap cardinality test has failed.
"""

from __future__ import annotations

from collections import deque
from collections.abc import Callable, Sequence

Ok = Callable[[int, int], bool]


def greedy_matching(n: int, ok: Ok, order: Sequence[int] | None = None, mate: list[int] | None = None,
                    partners: Sequence[int] | None = None) -> list[int]:
    """Greedy maximal matching: each free vertex (in ``order``) takes the first free
    legal partner, scanning ``partners`` (default: ``order`` reversed).  O(n) in
    dense graphs, O(n^2) worst case."""
    if mate is None:
        mate = [-1] * n
    if order is None:
        order = range(n)
    free = [v for v in order if mate[v] == -1]
    partners = free[::-1] if partners is None else [v for v in partners if mate[v] == -1]
    start = 0
    for v in free:
        if mate[v] != -1:
            continue
        while start < len(partners) and mate[partners[start]] != -1:
            start += 1
        for j in range(start, len(partners)):
            u = partners[j]
            if u != v and mate[u] == -1 and ok(v, u):
                mate[v] = u
                mate[u] = v
                break
    return mate


def _augment_from(root: int, n: int, ok: Ok, mate: list[int]) -> bool:
    """One Edmonds search (BFS with blossom contraction) from the free vertex
    ``root``; augments ``mate`` and returns True if an augmenting path exists.
    O(n^2) on an implicit graph (every dequeued vertex scans all others)."""
    used = [False] * n
    parent = [-1] * n
    base = list(range(n))
    used[root] = True
    queue = deque([root])

    def lca(a: int, b: int) -> int:
        seen = [False] * n
        while True:
            a = base[a]
            seen[a] = True
            if mate[a] == -1:
                break
            a = parent[mate[a]]
        while True:
            b = base[b]
            if seen[b]:
                return b
            b = parent[mate[b]]

    def mark(v: int, b: int, child: int, blossom: list[bool]) -> None:
        while base[v] != b:
            blossom[base[v]] = True
            blossom[base[mate[v]]] = True
            parent[v] = child
            child = mate[v]
            v = parent[mate[v]]

    while queue:
        v = queue.popleft()
        for to in range(n):
            if to == v or base[v] == base[to] or mate[v] == to or not ok(v, to):
                continue
            if to == root or (mate[to] != -1 and parent[mate[to]] != -1):
                cur = lca(v, to)
                blossom = [False] * n
                mark(v, cur, to, blossom)
                mark(to, cur, v, blossom)
                for i in range(n):
                    if blossom[base[i]]:
                        base[i] = cur
                        if not used[i]:
                            used[i] = True
                            queue.append(i)
            elif parent[to] == -1:
                parent[to] = v
                if mate[to] == -1:
                    # augment along the path ending at ``to``
                    w = to
                    while w != -1:
                        pv = parent[w]
                        nxt = mate[pv]
                        mate[w] = pv
                        mate[pv] = w
                        w = nxt
                    return True
                used[mate[to]] = True
                queue.append(mate[to])
    return False


def _quick_augment(root: int, n: int, ok: Ok, mate: list[int]) -> bool:
    """A cheap search for an augmenting path from the free vertex ``root``: a BFS
    tree in which every vertex is labelled once and blossoms are ignored.  A path
    it finds is a valid augmenting path; when it finds none, the full Edmonds
    search decides.  Each dequeued vertex first tries the free vertices, then the
    vertices not yet in the tree, so in a dense graph the cost is about O(n)."""
    free = [v for v in range(n) if mate[v] == -1 and v != root]
    if not free:
        return False
    unlabelled = set(range(n))
    unlabelled.discard(root)
    for f in free:
        unlabelled.discard(f)
    parent: dict[int, int] = {}
    queue = deque([root])
    while queue:
        v = queue.popleft()
        end = -1
        for f in free:
            if mate[f] == -1 and ok(v, f):
                end = f
                break
        if end == -1:
            grown = []
            for u in unlabelled:
                if ok(v, u):
                    grown.append(u)
            for u in grown:
                if u not in unlabelled:
                    continue
                w = mate[u]
                unlabelled.discard(u)
                unlabelled.discard(w)
                parent[u] = v
                queue.append(w)
            continue
        # augment: v's tree path back to the root, then v-end
        a, b = v, end
        while True:
            nxt = mate[a]
            mate[a] = b
            mate[b] = a
            if a == root:
                return True
            b = nxt
            a = parent[b]
    return False


def maximum_matching(n: int, ok: Ok, order: Sequence[int] | None = None, mate: list[int] | None = None,
                     stop_on_failure: bool = False, partners: Sequence[int] | None = None) -> list[int]:
    """Maximum cardinality matching (Edmonds), greedy start.  ``mate[v]`` is v's
    partner or -1.  Each free vertex first tries the cheap tree search, then the
    full blossom search.  With ``stop_on_failure`` it returns as soon as one free
    vertex has no augmenting path (enough to answer "is there a perfect
    matching?")."""
    mate = greedy_matching(n, ok, order, mate, partners)
    for v in range(n):
        if mate[v] == -1:
            if _quick_augment(v, n, ok, mate):
                continue
            if not _augment_from(v, n, ok, mate) and stop_on_failure:
                return mate
    return mate


def has_perfect_matching(n: int, ok: Ok, order: Sequence[int] | None = None,
                         partners: Sequence[int] | None = None) -> bool:
    """C4 / D11 on an implicit graph: does a perfect matching exist?  ``order`` and
    ``partners`` steer the greedy start only (speed, never the answer)."""
    if n % 2:
        return False
    if n == 0:
        return True
    mate = maximum_matching(n, ok, order, stop_on_failure=True, partners=partners)
    return all(m != -1 for m in mate)


def lex_first_assignment(n: int, ok: Ok) -> list[int] | None:
    """Lexicographically first perfect matching of a balanced bipartite graph with
    rows 0..n-1 and columns 0..n-1 (``ok(row, col)``): row 0 takes the smallest
    column that still allows a perfect matching, then row 1, and so on.

    This is the first transposition of 4.4 (2026: 4.4) that yields a legal pairing
    (2.2.6; 2026: 3.2.6).  A greedy start and augmenting paths give a perfect
    matching; then for each row the smaller unfixed columns are tried, each by one
    alternating-path search that must reach the column the row gives up.  Near O(n)
    when almost every pair is legal, O(n * E) worst case.  Returns ``cols`` with
    cols[row] = column, or None."""
    row_of = [-1] * n  # column -> row
    col_of = [-1] * n  # row -> column
    free_cols = list(range(n))
    for r in range(n):  # greedy start: the first free legal column
        for idx, col in enumerate(free_cols):
            if ok(r, col):
                col_of[r] = col
                row_of[col] = r
                del free_cols[idx]
                break
    for r in range(n):
        if col_of[r] == -1 and not _reassign(r, -1, n, ok, row_of, col_of):
            return None
    open_cols = list(range(n))  # columns not yet fixed, ascending
    for r in range(n):
        current = col_of[r]
        for col in open_cols:
            if col >= current:
                break
            if not ok(r, col):
                continue
            other = row_of[col]
            # give col to r; `other` loses col and must reach the freed `current`
            col_of[r] = col
            row_of[col] = r
            row_of[current] = -1
            col_of[other] = -1
            if _reassign(other, r, n, ok, row_of, col_of, target=current):
                break
            col_of[other] = col
            row_of[col] = other
            col_of[r] = current
            row_of[current] = r
        open_cols.remove(col_of[r])
    return col_of


def _reassign(row: int, fixed_row: int, n: int, ok: Ok, row_of: list[int], col_of: list[int],
              target: int = -1) -> bool:
    """Augmenting path from free ``row`` to a free column, using only rows after
    ``fixed_row``.  BFS, O(E); when the only free column ``target`` is known, each
    row first tries it directly.  Leaves the matching unchanged on failure."""
    prev: dict[int, int] = {}
    queue = deque([row])
    seen: set[int] = set()
    while queue:
        rr = queue.popleft()
        if target >= 0 and target not in seen and ok(rr, target):
            seen.add(target)
            prev[target] = rr
            col = target
        else:
            col = -1
            for c in range(n):
                if c in seen:
                    continue
                other = row_of[c]
                if other != -1 and other <= fixed_row:
                    continue
                if not ok(rr, c):
                    continue
                seen.add(c)
                prev[c] = rr
                if other == -1:
                    col = c
                    break
                queue.append(other)
        if col >= 0:
            while True:
                r2 = prev[col]
                old = col_of[r2]
                col_of[r2] = col
                row_of[col] = r2
                if r2 == row:
                    return True
                col = old
    return False


def min_class_pairs(n: int, ok: Ok, in_class: Sequence[bool]) -> int | None:
    """Exact minimum, over all perfect matchings, of the number of pairs with both
    ends in the class (C7 / 2.2.4.1; 2026: C7 / 3.2.4.1).  Maximum weight matching
    (:mod:`.blossom`) with maximum cardinality, weight 2 for a pair leaving the class, 1 inside.
    Builds the explicit graph: O(n^2) edges, O(n^3) time; called only on brackets
    where the cardinality test (no pair inside the class) failed.  None if there is no
    perfect matching."""
    from .blossom import max_weight_matching

    edges = [(a, b, 1 if (in_class[a] and in_class[b]) else 2)
             for a in range(n) for b in range(a + 1, n) if ok(a, b)]
    mate = max_weight_matching(n, edges, max_cardinality=True)
    if any(m == -1 for m in mate):
        return None
    return sum(1 for a in range(n) if mate[a] > a and in_class[a] and in_class[mate[a]])
