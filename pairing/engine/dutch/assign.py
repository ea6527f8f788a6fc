"""The first transposition (4.2) among the best ones, without a matching per choice.

Once a remainder's S1R and S2R are fixed, its candidates are assignments of every S1R
player to an S2R player, the S2R players left over downfloating.  What a pair is worth
depends only on the two players' *kinds* (their signature: colour preference and its
strength, colour difference, repeated colour, floats...), so the best assignments are
those of a small transportation problem between kinds, solved here exactly (Python
integers, any size) by successive shortest paths.  Its optimal dual prices make a pair
"tight" when it can be part of a best assignment; every best assignment of the real
players uses tight pairs only, and every assignment of tight legal pairs is best
(complementary slackness).  So the first transposition among the best is the
lexicographically first assignment of the tight legal pairs
(:func:`pairing.engine.matching.lex_first_assignment`): one small flow and one
near-linear matching instead of a weighted matching per S1R player.

When the players' own exceptions (rematches, forbidden pairs) make the kinds' optimum
unreachable, the tight pairs admit no assignment and the caller falls back to asking the
weighted matching.  O(K^2 * F) for K kinds and F augmentations, plus the matching.
"""

from __future__ import annotations

from collections.abc import Callable, Sequence

from ..matching import lex_first_assignment

INF = float("inf")


def transport_duals(row_count: dict, col_count: dict, weight: dict[tuple, int],
                    left_over: int) -> tuple[dict, dict, int] | None:
    """See :func:`_transport`: the optimal prices, or None."""
    got = _transport(row_count, col_count, weight, left_over)
    return None if got is None else got[1]


def transport_value(row_count: dict, col_count: dict, weight: dict[tuple, int], left_over: int,
                    caps: dict[tuple, int] | None = None) -> int | None:
    """See :func:`_transport`: the optimal value, or None.  ``caps``: capacities of some
    kind-to-kind arcs (only for values: the prices assume uncapped arcs)."""
    got = _transport(row_count, col_count, weight, left_over, caps)
    return None if got is None else got[0]


def _transport(row_count: dict, col_count: dict, weight: dict[tuple, int],
               left_over: int, caps: dict[tuple, int] | None = None) -> tuple[int, tuple[dict, dict, int]] | None:
    """Maximum-weight assignment of the rows (every row matched) to the columns (at most
    once each; ``left_over`` columns stay unmatched, worth 0), by kinds.  Returns dual
    prices (row kind -> p, column kind -> q, unmatched -> u) with a pair (r, c) tight
    when weight = p[r] - q[c] ... in the form ``reduced(r, c) == 0``; None when the rows
    cannot all be matched."""
    # nodes: 0 source, 1 sink, 2 unmatched, rows, columns
    rows = sorted(row_count, key=str)
    cols = sorted(col_count, key=str)
    rid = {t: 3 + k for k, t in enumerate(rows)}
    cid = {t: 3 + len(rows) + k for k, t in enumerate(cols)}
    n = 3 + len(rows) + len(cols)
    graph: list[list[list]] = [[] for _ in range(n)]  # arc: [to, cap, cost, rev index]

    def arc(a: int, b: int, cap: int, cost: int) -> None:
        graph[a].append([b, cap, cost, len(graph[b])])
        graph[b].append([a, 0, -cost, len(graph[a]) - 1])

    need = sum(row_count.values()) + left_over
    # the kind-to-kind arcs are never the binding capacity (the kinds' counts are), so
    # that an optimal flow uses exactly the arcs of reduced cost 0
    for t in rows:
        arc(0, rid[t], row_count[t], 0)
    if left_over:
        arc(0, 2, left_over, 0)
    for (r, c), w in weight.items():
        if r in rid and c in cid:
            arc(rid[r], cid[c], caps.get((r, c), need + 1) if caps else need + 1, -w)
    for t in cols:
        arc(2, cid[t], need + 1, 0)
        arc(cid[t], 1, col_count[t], 0)
    flow = 0
    total = 0
    dist: list = []
    while flow < need:
        dist = [INF] * n
        dist[0] = 0
        prev: list[tuple[int, int] | None] = [None] * n
        in_queue = [False] * n
        queue = [0]
        in_queue[0] = True
        head = 0
        while head < len(queue):  # SPFA: costs may be negative
            a = queue[head]
            head += 1
            in_queue[a] = False
            da = dist[a]
            for k, (b, cap, cost, _) in enumerate(graph[a]):
                if cap > 0 and da + cost < dist[b]:
                    dist[b] = da + cost
                    prev[b] = (a, k)
                    if not in_queue[b]:
                        in_queue[b] = True
                        queue.append(b)
        if dist[1] == INF:
            return None
        push = need - flow
        v = 1
        while v != 0:
            a, k = prev[v]
            push = min(push, graph[a][k][1])
            v = a
        v = 1
        while v != 0:
            a, k = prev[v]
            e = graph[a][k]
            e[1] -= push
            graph[v][e[3]][1] += push
            v = a
        flow += push
        total += push * dist[1]
    # optimal prices: shortest distances in the final residual graph from a virtual node
    # joined to every node at cost 0 (no negative cycle remains at an optimum)
    pot = [0] * n
    for _ in range(n + 1):
        changed = False
        for a in range(n):
            pa = pot[a]
            for b, cap, cost, _ in graph[a]:
                if cap > 0 and pa + cost < pot[b]:
                    pot[b] = pa + cost
                    changed = True
        if not changed:
            break
    return -total, ({t: pot[rid[t]] for t in rows}, {t: pot[cid[t]] for t in cols}, pot[2])


def first_best_assignment(rows: Sequence[int], cols: Sequence[int], kind: Callable[[int], int],
                          weight: dict[tuple[int, int], int], legal: Callable[[int, int], bool]) -> list[int] | None:
    """The lexicographically first best assignment of ``rows`` (in order) to ``cols``
    (in order): ``result[i]`` = the column given to ``rows[i]``; None when the kinds'
    optimum is out of reach for these players (the caller asks the weighted matching)."""
    row_count: dict[int, int] = {}
    col_count: dict[int, int] = {}
    for r in rows:
        row_count[kind(r)] = row_count.get(kind(r), 0) + 1
    for c in cols:
        col_count[kind(c)] = col_count.get(kind(c), 0) + 1
    left = len(cols) - len(rows)
    if left < 0:
        return None
    duals = transport_duals(row_count, col_count, weight, left)
    if duals is None:
        return None
    p, q, u = duals
    # reduced cost of row kind r -> column kind c: -w + p[r] - q[c] >= 0; tight at 0
    tight = {(r, c) for (r, c), w in weight.items() if r in p and c in q and -w + p[r] - q[c] == 0}
    spare = {c for c in col_count if u - q[c] == 0}
    n = len(cols)
    kr = [kind(r) for r in rows]
    kc = [kind(c) for c in cols]
    greedy = _greedy_by_kinds(rows, cols, kr, kc, row_count, col_count, tight, spare, legal)
    if greedy is not None:
        return greedy

    def ok(i: int, j: int) -> bool:
        if i < len(rows):
            return (kr[i], kc[j]) in tight and legal(rows[i], cols[j])
        return kc[j] in spare

    assignment = lex_first_assignment(n, ok)
    if assignment is None:
        return None
    return [cols[assignment[i]] for i in range(len(rows))]


SPARE = object()  # the left-over columns, as one more row kind


def _greedy_by_kinds(rows, cols, kr, kc, row_count, col_count, tight, spare, legal) -> list[int] | None:
    """Rows in order, each the smallest legal free column whose kind keeps a complete
    assignment of the kinds possible (a flow on the tight pairs, kept up to date by one
    alternating search per change).  That is the lexicographically first assignment when
    it completes (each choice was the smallest one the kinds allow, and the kinds allow
    every real choice); None when a player's own exceptions (rematches, forbidden pairs)
    leave a row without a column, and the caller searches column by column.
    O(n * K^2) for n rows and K kinds."""
    from collections import deque

    by_row: dict = {}
    for r, c in tight:
        by_row.setdefault(r, []).append(c)
    by_row[SPARE] = [c for c in col_count if c in spare]
    # an initial flow on the tight pairs: f[(row kind, column kind)], SPARE for left-over
    f: dict = {}
    need_rows = dict(row_count)
    need_rows[SPARE] = len(cols) - len(rows)
    room = dict(col_count)
    holders: dict = {c: {} for c in col_count}  # column kind -> {row kind: units}

    def move(h, c, units):
        f[(h, c)] = f.get((h, c), 0) + units
        holders[c][h] = holders[c].get(h, 0) + units
        if not f[(h, c)]:
            del f[(h, c)]
            del holders[c][h]

    def path_from(start_rows, goal) -> list | None:
        """Alternating path: a row kind of ``start_rows`` takes a column kind, whose unit
        holder takes another ... until a column kind ``goal(c)`` accepts.  Returns the
        (row kind, column kind) steps."""
        prev: dict = {}
        queue = deque()
        seen_rows = set()
        for h in start_rows:
            seen_rows.add(h)
            queue.append(h)
        seen_cols = set()
        while queue:
            h = queue.popleft()
            for c in by_row.get(h, ()):
                if c in seen_cols:
                    continue
                seen_cols.add(c)
                prev[c] = h
                if goal(c):
                    steps = []
                    while True:
                        h2 = prev[c]
                        steps.append((h2, c))
                        if h2 in start_rows:
                            return steps[::-1]
                        c = prev[("row", h2)]
                for h2 in holders[c]:
                    if h2 not in seen_rows:
                        seen_rows.add(h2)
                        prev[("row", h2)] = c
                        queue.append(h2)
        return None

    # fill the flow: each missing unit by one alternating path to a column with room
    for h in list(need_rows):
        while need_rows[h] > 0:
            steps = path_from({h}, lambda c: room[c] > 0)
            if steps is None:
                return None
            units = 1
            for k, (h2, c) in enumerate(steps):
                move(h2, c, 1)
                if k + 1 < len(steps):
                    move(steps[k + 1][0], c, -1)
            room[steps[-1][1]] -= units
            need_rows[h] -= units
    free: dict = {c: deque() for c in col_count}
    for j, k in enumerate(kc):
        free[k].append(j)
    out: list[int] = []
    for i, t in enumerate(kr):
        options = []
        for k in by_row.get(t, ()):
            q = free[k]
            for j in q:
                if legal(rows[i], cols[j]):
                    options.append((j, k))
                    break
        options.sort()
        for j, k in options:
            if (t, k) in f:
                move(t, k, -1)
            else:
                # k's unit goes to t: its holder takes another column ... until a column
                # that t gives up takes it
                steps = path_from(set(holders[k]), lambda c, t=t, k=k: (t, c) in f and c != k)
                if steps is None:
                    continue
                move(steps[0][0], k, -1)
                for n_, (h2, c) in enumerate(steps):
                    move(h2, c, 1)
                    if n_ + 1 < len(steps):
                        move(steps[n_ + 1][0], c, -1)
                move(t, steps[-1][1], -1)
            free[k].remove(j)
            out.append(cols[j])
            break
        else:
            return None
    return out
