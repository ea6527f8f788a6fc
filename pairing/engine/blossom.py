"""The engines' maximum-weight matching: rustworkx, or pure Python where rustworkx is not
installed (private).

The engines ask one question of a weighted matching: the matching of largest total weight
(of largest cardinality first, when asked) over integer weights.  The app answers it with
rustworkx (compiled, fast); the checker's single-file program, which runs on any Python 3.11+
with nothing installed, answers it with :mod:`.exact_matching` (the primal-dual blossom
algorithm on Python's integers, which also takes the weights wider than rustworkx's 128 bits).

Both give a matching of the same total weight; where several matchings tie, the engines
never depend on which one comes back (they fix each choice by constraints and compare
totals).  ``tests/engine/test_blossom.py`` checks both: the same totals on random graphs and
the same pairings on generated tournaments of the three systems; ``benchmarks/bench_matching.py``
is the long run.

:func:`max_weight_matching` uses rustworkx when it can be imported, else the pure-Python
path; ``FIDE_PAIRINGS_MATCHING=python`` (or ``rustworkx``) in the environment, or :func:`use`,
chooses.
"""

from __future__ import annotations

import os
from collections.abc import Sequence

from .exact_matching import max_weight_matching as _exact

Edge = tuple[int, int, int]

_choice: str | None = None  # None: from the environment, else "python" / "rustworkx"


def backend() -> str:
    """``"rustworkx"`` or ``"python"``: the matching the engines use now."""
    global _choice
    if _choice is None:
        wanted = os.environ.get("FIDE_PAIRINGS_MATCHING", "").strip().lower()
        if wanted == "python":
            _choice = "python"
        else:
            try:
                import rustworkx  # noqa: F401
            except ImportError:
                if wanted == "rustworkx":
                    raise RuntimeError("FIDE_PAIRINGS_MATCHING=rustworkx but rustworkx cannot be imported") from None
                _choice = "python"
            else:
                _choice = "rustworkx"
    return _choice


def use(name: str | None) -> None:
    """Choose the matching (``"python"``, ``"rustworkx"``; None: from the environment again)."""
    global _choice
    if name not in (None, "python", "rustworkx"):
        raise ValueError(f"unknown matching {name!r}")
    _choice = name
    if name is not None:
        backend()


def describe() -> str:
    """The matching in use, for the program's version line: ``rustworkx 0.18.1`` or
    ``pure-Python matching``."""
    if backend() == "rustworkx":
        import rustworkx

        return f"rustworkx {getattr(rustworkx, '__version__', '')}".strip()
    return "pure-Python matching"


def max_weight_matching(n: int, edges: Sequence[Edge], max_cardinality: bool = False) -> list[int]:
    """``mate`` (vertex -> partner or -1) of a maximum-weight matching of the graph on
    vertices ``0 .. n-1`` with ``edges`` ``(a, b, weight)`` (integers; no loops, no parallel
    edges); with ``max_cardinality`` the heaviest among the largest matchings."""
    if backend() == "rustworkx":
        import rustworkx as rx

        g = rx.PyGraph()
        g.add_nodes_from(range(n))
        g.add_edges_from(list(edges))
        mate = [-1] * n
        for a, b in rx.max_weight_matching(g, max_cardinality=max_cardinality, weight_fn=int):
            mate[a], mate[b] = b, a
        return mate
    return python_matching(n, edges, max_cardinality)


def python_matching(n: int, edges: Sequence[Edge], max_cardinality: bool = False) -> list[int]:
    """:func:`max_weight_matching` in pure Python, whatever is installed.  Maximum
    cardinality first: every edge weighs ``bonus`` more, larger than any difference of two
    matchings' weights, so one more pair outweighs any weight (exact on Python's integers)."""
    if max_cardinality and edges:
        bonus = 1 + sum(abs(w) for _, _, w in edges)
        edges = [(a, b, w + bonus) for a, b, w in edges]
    return _exact(n, edges)
