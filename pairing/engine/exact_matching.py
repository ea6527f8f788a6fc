"""Maximum-weight matching in a general graph with integer weights of any size (private).

rustworkx matches with 128-bit integers; a bracket whose packed criteria need more bits
(:mod:`pairing.engine.weighted`) is matched here instead, with Python's integers, so that
no legal round is refused for the size of its weights.  Slower than rustworkx by a
constant factor (pure Python), the same answer: a matching of maximum total weight, not
necessarily of maximum cardinality.

The algorithm is Edmonds' primal-dual blossom method in the O(V^3) form of Galil
("Efficient algorithms for finding maximum matching in graphs", ACM Computing Surveys
18, 1986): stages, each growing alternating trees from the free vertices over tight
edges until an augmenting path is found, or changing the dual variables by the least
amount that makes a new edge tight, makes a blossom's dual zero (the blossom is then
expanded) or makes a free vertex's dual zero (the matching is then optimal).  Each
vertex and each non-trivial blossom keeps the least-slack edge to an outer (S) blossom,
so a dual change costs O(V).

Exactness: with slack(i, j) = u(i) + u(j) - 2 w(i, j) (the duals doubled) every vertex
of the trees has the parity of the free vertices' duals (tree edges are tight and the
free vertices have changed together since the start), so the slack of an edge between
two outer vertices is even and every dual change is an integer.
"""

from __future__ import annotations

from collections.abc import Iterator, Sequence

_FREE, _OUTER, _INNER = 0, 1, 2  # labels: unlabelled, S (outer), T (inner)


class _Matcher:
    def __init__(self, n: int, edges: Sequence[tuple[int, int, int]]):
        self.n = n
        self.ends = [(i, j) for i, j, _ in edges]
        self.weight = [w for _, _, w in edges]
        self.incident: list[list[int]] = [[] for _ in range(n)]
        for k, (i, j) in enumerate(self.ends):
            self.incident[i].append(k)
            self.incident[j].append(k)
        size = 2 * n
        self.mate = [-1] * n  # the matched edge of each vertex
        self.top = list(range(n))  # each vertex's outermost blossom
        self.parent = [-1] * size  # the blossom directly containing a vertex or blossom
        self.base = list(range(n)) + [-1] * n
        # a blossom's sub-blossoms round its cycle, from the one holding the base, and the
        # edges joining them: cycle[b][i] = (edge, end in children[b][i]), the edge's
        # other end in children[b][i + 1]
        self.children: list[list[int]] = [[] for _ in range(size)]
        self.cycle: list[list[tuple[int, int]]] = [[] for _ in range(size)]
        top_weight = max(self.weight, default=0)
        self.dual = [max(top_weight, 0)] * n + [0] * n
        self.spare = list(range(n, size))
        self.label = [_FREE] * size
        self.label_edge = [-1] * size  # the edge through which the label came
        self.label_at = [-1] * size  # that edge's end inside the labelled blossom
        self.best = [-1] * size  # least-slack edge to an outer blossom
        self.best_list: list[list[int] | None] = [None] * size  # an outer blossom's such edges
        self.allowed = [False] * len(edges)
        self.queue: list[int] = []

    # ------------------------------------------------------------ small helpers

    def other(self, k: int, v: int) -> int:
        i, j = self.ends[k]
        return j if i == v else i

    def slack(self, k: int) -> int:
        i, j = self.ends[k]
        return self.dual[i] + self.dual[j] - 2 * self.weight[k]

    def leaves(self, b: int) -> Iterator[int]:
        stack = [b]
        while stack:
            x = stack.pop()
            if x < self.n:
                yield x
            else:
                stack.extend(self.children[x])

    def outer_end(self, b: int) -> int:
        """The end, outside ``b``, of the edge through which ``b`` got its label."""
        return self.other(self.label_edge[b], self.label_at[b])

    # ------------------------------------------------------------ labels and blossoms

    def set_label(self, v: int, kind: int, k: int) -> None:
        """Label vertex ``v``'s outermost blossom ``kind``, reached through edge ``k``
        (-1: a free vertex, a root); an inner blossom's mate becomes outer."""
        b = self.top[v]
        for x in (v, b):
            self.label[x], self.label_edge[x], self.label_at[x], self.best[x] = kind, k, v, -1
        if kind == _OUTER:
            self.queue.extend(self.leaves(b))
        else:
            root = self.base[b]
            km = self.mate[root]
            self.set_label(self.other(km, root), _OUTER, km)

    def common_base(self, v: int, w: int) -> int:
        """Trace the trees back from the outer vertices ``v`` and ``w`` together: the base
        of the blossom their edge closes, or -1 when they are in different trees (an
        augmenting path)."""
        marked = []
        found = -1
        while v != -1:
            b = self.top[v]
            if self.label[b] & 4:
                found = self.base[b]
                break
            marked.append(b)
            self.label[b] = _OUTER | 4
            if self.label_edge[b] == -1:
                v = -1
            else:
                t = self.top[self.outer_end(b)]  # the inner blossom above
                v = self.outer_end(t)
            if w != -1:
                v, w = w, v
        for b in marked:
            self.label[b] = _OUTER
        return found

    def make_blossom(self, root: int, k: int) -> None:
        """The blossom closed by edge ``k`` between two outer vertices of one tree, whose
        base is ``root``."""
        v, w = self.ends[k]
        top = self.top
        bb = top[root]
        b = self.spare.pop()
        self.base[b], self.parent[b], self.parent[bb] = root, -1, b
        sides = []
        for start in (top[v], top[w]):
            chain = []
            c = start
            while c != bb:
                self.parent[c] = b
                chain.append(c)
                c = top[self.outer_end(c)]
            sides.append(chain)
        from_v, from_w = sides
        from_v.reverse()
        self.children[b] = [bb, *from_v, *from_w]
        self.cycle[b] = ([(self.label_edge[c], self.outer_end(c)) for c in from_v] + [(k, v)]
                         + [(self.label_edge[c], self.label_at[c]) for c in from_w])
        self.label[b], self.label_edge[b], self.label_at[b] = _OUTER, self.label_edge[bb], self.label_at[bb]
        self.dual[b] = 0
        for x in self.leaves(b):
            if self.label[top[x]] == _INNER:  # inner vertices become outer: scan them
                self.queue.append(x)
            top[x] = b
        best_to: dict[int, int] = {}
        for c in self.children[b]:
            lists = [self.incident[x] for x in self.leaves(c)] if self.best_list[c] is None else [self.best_list[c]]
            for edges in lists:
                for e in edges:
                    i, j = self.ends[e]
                    far = top[j] if top[i] == b else top[i]
                    if far != b and self.label[far] == _OUTER:
                        old = best_to.get(far)
                        if old is None or self.slack(e) < self.slack(old):
                            best_to[far] = e
            self.best_list[c] = None
            self.best[c] = -1
        self.best_list[b] = list(best_to.values())
        self.best[b] = min(self.best_list[b], key=self.slack, default=-1)

    def expand(self, b: int, end_of_stage: bool) -> None:
        """Undo blossom ``b`` (its dual is zero).  During a stage an inner blossom's
        children on the even path from its entry to its base keep the tree alternating."""
        top = self.top
        for s in self.children[b]:
            self.parent[s] = -1
            if s < self.n:
                top[s] = s
            elif end_of_stage and self.dual[s] == 0:
                self.expand(s, end_of_stage)
            else:
                for x in self.leaves(s):
                    top[x] = s
        if not end_of_stage and self.label[b] == _INNER:
            self._relabel_inner(b)
        self.label[b] = _FREE
        self.label_edge[b] = self.label_at[b] = self.base[b] = self.best[b] = -1
        self.children[b], self.cycle[b], self.best_list[b] = [], [], None
        self.spare.append(b)

    def _relabel_inner(self, b: int) -> None:
        children, cycle = self.children[b], self.cycle[b]
        entry = self.top[self.label_at[b]]
        j = children.index(entry)
        step = 1 if j & 1 else -1
        if step == 1:
            j -= len(children)
        at, k = self.label_at[b], self.label_edge[b]  # where the current inner child is entered
        while j != 0:
            km = cycle[j][0] if step == 1 else cycle[j - 1][0]  # matched: to the next child
            self.label[at] = _FREE
            self.set_label(at, _INNER, k)
            self.allowed[km] = True
            j += step
            if step == 1:
                k, x = cycle[j]
                at = self.other(k, x)
            else:
                k, at = cycle[j - 1]
            self.allowed[k] = True
            j += step
        c = children[j]  # the base's child: inner, its mate already outer
        for x in (at, c):
            self.label[x], self.label_edge[x], self.label_at[x] = _INNER, k, at
        self.best[c] = -1
        j += step
        while children[j] != entry:
            c = children[j]
            j += step
            if self.label[c] == _OUTER:  # labelled on the way round
                continue
            reached = next((x for x in self.leaves(c) if self.label[x] != _FREE), -1)
            if reached != -1:  # a vertex of c was reached from outside while it was inside b
                self.label[reached] = _FREE
                self.set_label(reached, _INNER, self.label_edge[reached])

    # ------------------------------------------------------------ augmenting

    def rebase(self, b: int, v: int) -> None:
        """Make vertex ``v`` the base of blossom ``b``, swapping the matched and
        unmatched edges on the even path round the cycle from it."""
        t = v
        while self.parent[t] != b:
            t = self.parent[t]
        if t >= self.n:
            self.rebase(t, v)
        children, cycle = self.children[b], self.cycle[b]
        i = j = children.index(t)
        step = 1 if i & 1 else -1
        if step == 1:
            j -= len(children)
        while j != 0:
            j += step
            if step == 1:
                k, x = cycle[j]
                y = self.other(k, x)
            else:
                k, y = cycle[j - 1]
                x = self.other(k, y)
            if children[j] >= self.n:
                self.rebase(children[j], x)
            j += step
            if children[j] >= self.n:
                self.rebase(children[j], y)
            self.mate[x] = self.mate[y] = k
        self.children[b] = children[i:] + children[:i]
        self.cycle[b] = cycle[i:] + cycle[:i]
        self.base[b] = self.base[self.children[b][0]]

    def augment(self, k: int) -> None:
        """Augment along the path through edge ``k`` between two trees."""
        for s in self.ends[k]:
            edge = k
            while True:
                bs = self.top[s]
                if bs >= self.n:
                    self.rebase(bs, s)
                self.mate[s] = edge
                if self.label_edge[bs] == -1:
                    break
                bt = self.top[self.outer_end(bs)]
                s, j = self.outer_end(bt), self.label_at[bt]
                if bt >= self.n:
                    self.rebase(bt, j)
                edge = self.mate[j] = self.label_edge[bt]

    # ------------------------------------------------------------ the stages

    def run(self) -> list[int]:
        n = self.n
        for _ in range(n):
            if not self._stage():
                break
        return [self.other(k, v) if k != -1 else -1 for v, k in enumerate(self.mate)]

    def _stage(self) -> bool:
        """One stage: True when the matching grew."""
        n, top, label = self.n, self.top, self.label
        size = 2 * n
        self.label[:] = [_FREE] * size
        self.best[:] = [-1] * size
        self.best_list[n:] = [None] * n
        self.allowed[:] = [False] * len(self.allowed)
        self.queue = []
        for v in range(n):
            if self.mate[v] == -1 and label[top[v]] == _FREE:
                self.set_label(v, _OUTER, -1)
        while True:
            while self.queue:
                v = self.queue.pop()
                for k in self.incident[v]:
                    w = self.other(k, v)
                    bv, bw = top[v], top[w]
                    if bv == bw:
                        continue
                    gap = 0
                    if not self.allowed[k]:
                        gap = self.slack(k)
                        if gap <= 0:
                            self.allowed[k] = True
                    if self.allowed[k]:
                        if label[bw] == _FREE:
                            self.set_label(w, _INNER, k)
                        elif label[bw] == _OUTER:
                            root = self.common_base(v, w)
                            if root == -1:
                                self.augment(k)
                                self._end_of_stage()
                                return True
                            self.make_blossom(root, k)
                        elif label[w] == _FREE:  # inside an inner blossom: kept for its expansion
                            label[w], self.label_edge[w], self.label_at[w] = _INNER, k, w
                    elif label[bw] == _OUTER:
                        if self.best[bv] == -1 or gap < self.slack(self.best[bv]):
                            self.best[bv] = k
                    elif label[w] == _FREE:
                        if self.best[w] == -1 or gap < self.slack(self.best[w]):
                            self.best[w] = k
            # no tight edge left to grow on: change the duals
            kind, delta, what = 1, min(self.dual[:n]), -1
            for v in range(n):
                if label[top[v]] == _FREE and self.best[v] != -1:
                    d = self.slack(self.best[v])
                    if d < delta:
                        kind, delta, what = 2, d, self.best[v]
            for b in range(size):
                if self.parent[b] == -1 and label[b] == _OUTER and self.best[b] != -1 and self.base[b] != -1:
                    d = self.slack(self.best[b])
                    assert d % 2 == 0, "odd slack between outer vertices"
                    if d // 2 < delta:
                        kind, delta, what = 3, d // 2, self.best[b]
            for b in range(n, size):
                if self.base[b] != -1 and self.parent[b] == -1 and label[b] == _INNER and self.dual[b] < delta:
                    kind, delta, what = 4, self.dual[b], b
            for v in range(n):
                lab = label[top[v]]
                if lab == _OUTER:
                    self.dual[v] -= delta
                elif lab == _INNER:
                    self.dual[v] += delta
            for b in range(n, size):
                if self.base[b] != -1 and self.parent[b] == -1:
                    if label[b] == _OUTER:
                        self.dual[b] += delta
                    elif label[b] == _INNER:
                        self.dual[b] -= delta
            if kind == 1:  # a free vertex's dual reached zero: the matching is optimal
                return False
            if kind == 4:
                self.expand(what, False)
                continue
            self.allowed[what] = True
            i, j = self.ends[what]
            self.queue.append(i if label[top[i]] == _OUTER else j)

    def _end_of_stage(self) -> None:
        n = self.n
        for b in range(n, 2 * n):
            if self.parent[b] == -1 and self.base[b] != -1 and self.label[b] == _OUTER and self.dual[b] == 0:
                self.expand(b, True)


def max_weight_matching(n: int, edges: Sequence[tuple[int, int, int]]) -> list[int]:
    """A matching of maximum total weight of the vertices ``0 .. n-1`` over ``edges``
    ``(i, j, weight)`` (integers of any size; at most one edge per pair, ``i != j``):
    each vertex's partner, or -1.  O(V^3) steps on Python integers."""
    return _Matcher(n, edges).run()
