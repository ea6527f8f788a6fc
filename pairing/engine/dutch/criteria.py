"""The Dutch criteria of one bracket as weight levels of a matching (C.04.3, 2026 text).

A bracket's candidate is judged by the absolute and completion criteria ([C1]-[C4]), the
PAB criterion [C5] and the quality criteria [C6]-[C21], in that priority.  Every one of
them is a sum over the pairs of the round (a pair's contribution depends on its two
players and on where they stand: moved-down player (MDP), resident, next scoregroup,
lower), so the best candidate is a maximum-weight matching whose weight packs the
criteria as levels, the first level most significant.  :class:`Levels` builds them for
one bracket over every player still to pair (the bracket, the next scoregroup and the
players below it, which only the completion levels and [C8] look at).

The levels, for a legal pair (x, y) with x ranked above y (1.2), "bracket pair" meaning
y is a resident (x then is an MDP or a resident: MDPs are only paired with residents):

* completion: 1 + (x is not a PAB candidate) + (y is not): a maximum matching that
  leaves at most one player, a PAB candidate, unpaired ([C1]-[C4]); a PAB candidate is
  eligible ([C2]) and scores no more than the lowest possible PAB score ([C5]);
* [C6] bracket pairs; [C7] bracket pairs of the MDPs of each score, highest first (the
  downfloaters' scores, in descending order, as low as possible);
* [C8] pairs of the next bracket (y in the next scoregroup), then those of this bracket's
  downfloaters of each score, highest first;
* [C9] when the PAB goes to this bracket's only downfloater: the played games of the
  players of the PAB score who are paired (so that the one left has played the most);
* [C10]-[C13] bracket pairs that keep the colour criterion;
* [C14]/[C16] paired residents who downfloated one / two rounds before; [C15]/[C17]
  bracket pairs other than an MDP with an opponent who upfloated one / two rounds before;
* [C18]-[C21] the same for the MDPs of each score, highest first.

Levels on which no pair can differ are dropped, so that the packed weight usually stays
within rustworkx's 128-bit integers (a wider one is matched with Python's integers:
:mod:`pairing.engine.weighted`).  Building is O(V^2) for V players still to pair.
"""

from __future__ import annotations

from collections.abc import Sequence
from decimal import Decimal

from ..weighted import MAX_BITS, Level, widths  # noqa: F401 - shared, named here too
from .colours import c10_violation, c11_violation, c12_violation, c13_violation
from .state import DutchPlayerState, Float

_COLOUR_LABEL = {
    "C10": "topscorer pairs ending beyond a colour difference of 2",
    "C11": "topscorer pairs giving one colour a third time in a row",
    "C12": "players not getting their colour preference",
    "C13": "players not getting their strong colour preference",
}


def _fmt(score) -> str:
    return format(score.normalize(), "f") if isinstance(score, Decimal) else str(score)


def describe(levels, values) -> list[str]:
    """The criteria a candidate reached, as an arbiter reads them: counts of what each
    level minimises (players without their preference, ...) or maximises (pairs ...)."""
    out = []
    c6 = next((v for lv, v in zip(levels, values, strict=True) if lv.name == "C6"), 0)
    c7 = {lv.sigma: v for lv, v in zip(levels, values, strict=True) if lv.name == "C7"}
    for lv, v in zip(levels, values, strict=True):
        if lv.name == "completion":
            continue
        if lv.against == "pairs":
            v = c6 - v
        elif lv.against == "mdps":
            v = c7.get(lv.sigma, 0) - v
        out.append(f"[{lv.name}] {lv.label or 'value'}: {v}")
    return out


class Levels:
    """The weight levels of one bracket.  Positions index ``vertices`` (global rank
    order): MDPs, residents, next scoregroup, lower players."""

    def __init__(self, states: Sequence[DutchPlayerState], vertices: Sequence[int], n_mdp: int, n_res: int,
                 n_next: int, bye_candidate: Sequence[bool], odd: bool, c9: bool, bye_score: Decimal | None,
                 rounds_played: int, relaxed: bool = False):
        """``vertices``: indices into ``states``.  ``relaxed``: the players below the next
        scoregroup are left out and any player may go down to them (see
        :meth:`pairing.engine.dutch.pairer._Round.pair_bracket`): the completion level is
        then 0 for every pair."""
        self.vertices = list(vertices)
        st = [states[v] if v >= 0 else None for v in vertices]
        self.st = st
        n = len(st)
        b_end = n_mdp + n_res
        n_end = b_end + n_next
        self.n_mdp, self.b_end, self.n_end = n_mdp, b_end, n_end
        is_m = [i < n_mdp for i in range(n)]
        is_r = [n_mdp <= i < b_end for i in range(n)]
        is_n = [b_end <= i < n_end for i in range(n)]
        score = [s.score if s else None for s in st]
        d1 = [bool(s) and s.float_1 is Float.DOWN for s in st]
        d2 = [bool(s) and s.float_2 is Float.DOWN for s in st]
        u1 = [bool(s) and s.float_1 is Float.UP for s in st]
        u2 = [bool(s) and s.float_2 is Float.UP for s in st]
        notcand = [0 if c else 1 for c in bye_candidate]
        levels: list[Level] = []

        if relaxed:
            levels.append(Level("completion", lambda i, j: 0, False))
        elif odd:
            levels.append(Level("completion", lambda i, j: 1 + notcand[i] + notcand[j], False))
        else:
            levels.append(Level("completion", lambda i, j: 1, False))
        levels.append(Level("C6", lambda i, j: 1 if is_r[j] else 0, True, label="pairs"))
        mdp_scores = sorted({score[i] for i in range(n_mdp)}, reverse=True)
        at_score: dict = {}
        for i in range(b_end):
            at_score[score[i]] = at_score.get(score[i], 0) + 1
        for sigma in mdp_scores:
            levels.append(Level("C7", lambda i, j, s=sigma: 1 if is_r[j] and is_m[i] and score[i] == s else 0, True,
                                at_score[sigma], f"MDPs scoring {_fmt(sigma)} paired", sigma=sigma))
        if n_next:
            levels.append(Level("C8", lambda i, j: 1 if is_n[j] else 0, False, min(n_next, (b_end + n_next) // 2),
                                "pairs in the next bracket"))
            for sigma in sorted({score[i] for i in range(b_end)}, reverse=True):
                levels.append(Level("C8", lambda i, j, s=sigma: 1 if is_n[j] and i < b_end and score[i] == s else 0,
                                    False, min(at_score[sigma], n_next),
                                    f"downfloaters scoring {_fmt(sigma)} paired in the next bracket", sigma=sigma))
        rank = [0] * n
        if c9 and bye_score is not None:
            at = [s is not None and s.score == bye_score for s in st]
            most = max((s.games_played for s, a in zip(st, at, strict=True) if a), default=0)
            rank = [most - s.games_played if a else 0 for s, a in zip(st, at, strict=True)]
            levels.append(Level("C9", lambda i, j: rank[i] + rank[j], False,
                                label="games played by the paired players of the PAB score, ranked"))
        for name, viol in (("C10", c10_violation), ("C11", c11_violation), ("C12", c12_violation),
                           ("C13", c13_violation)):
            levels.append(Level(name, lambda i, j, v=viol: 1 if is_r[j] and not v(st[i], st[j]) else 0, True,
                                label=_COLOUR_LABEL[name], against="pairs"))
        if rounds_played >= 1:
            levels.append(Level("C14", lambda i, j: (d1[j] + (is_r[i] and d1[i])) if is_r[j] else 0, True,
                                label="paired residents who downfloated the previous round"))
            levels.append(Level("C15", lambda i, j: 1 if is_r[j] and not (is_m[i] and u1[j]) else 0, True,
                                label="MDP opponents who upfloated the previous round", against="pairs"))
        if rounds_played >= 2:
            levels.append(Level("C16", lambda i, j: (d2[j] + (is_r[i] and d2[i])) if is_r[j] else 0, True,
                                label="paired residents who downfloated two rounds before"))
            levels.append(Level("C17", lambda i, j: 1 if is_r[j] and not (is_m[i] and u2[j]) else 0, True,
                                label="MDP opponents who upfloated two rounds before", against="pairs"))
        for name, flags, rounds_needed, up in (("C18", d1, 1, False), ("C19", u1, 1, True),
                                               ("C20", d2, 2, False), ("C21", u2, 2, True)):
            if rounds_played < rounds_needed:
                continue
            when = "the previous round" if rounds_needed == 1 else "two rounds before"
            for sigma in mdp_scores:
                if up:
                    levels.append(Level(name, lambda i, j, s=sigma, f=flags: 1 if is_r[j] and is_m[i]
                                        and score[i] == s and not f[j] else 0, True, at_score[sigma],
                                        f"opponents of MDPs scoring {_fmt(sigma)} who upfloated {when}", "mdps",
                                        sigma))
                else:
                    levels.append(Level(name, lambda i, j, s=sigma, f=flags: 1 if is_r[j] and is_m[i]
                                        and score[i] == s and f[i] else 0, True, at_score[sigma],
                                        f"paired MDPs scoring {_fmt(sigma)} who downfloated {when}", sigma=sigma))
        self.all_levels = levels
        self.is_m, self.is_r, self.is_n = is_m, is_r, is_n
        # players alike for every level share a signature: levels are computed once per
        # pair of signatures
        sig = []
        for i, s in enumerate(st):
            role = 0 if is_m[i] else 1 if is_r[i] else 2 if is_n[i] else 3
            if s is None:
                sig.append((role, notcand[i]))
            else:
                sig.append((role, notcand[i], rank[i], s.score, s.preference, s.strength, s.imbalance, s.repeated,
                            d1[i], d2[i], u1[i], u2[i], s.topscorer))
        ids: dict[tuple, int] = {}
        self.sig = [ids.setdefault(x, len(ids)) for x in sig]

    def evaluate(self, edges: Sequence[tuple[int, int]]) -> tuple[list[Level], dict[tuple[int, int], tuple[int, ...]]]:
        """The levels that can differ between matchings, and every legal edge's values."""
        sig = self.sig
        rep: dict[int, int] = {}
        for i, g in enumerate(sig):
            rep.setdefault(g, i)
        cache: dict[tuple[int, int], tuple[int, ...]] = {}
        raw = {}
        for i, j in edges:
            key = (sig[i], sig[j])
            v = cache.get(key)
            if v is None:
                a, b = rep[key[0]], rep[key[1]]
                v = cache[key] = tuple(lv.fn(a, b) for lv in self.all_levels)
            raw[(i, j)] = v
        distinct = set(cache.values())
        keep = []
        c6 = 1  # index of C6
        for k in range(len(self.all_levels)):
            if k <= c6:
                keep.append(k)
                continue
            vals = {(v[k], v[c6]) for v in distinct}
            # constant, or the C6 indicator times a constant: no matching differs on it
            # that does not already differ on C6
            if len({v for v, _ in vals}) <= 1:
                continue
            by_c6: dict[int, set[int]] = {}
            for v, b in vals:
                by_c6.setdefault(b, set()).add(v)
            if all(len(s) == 1 for s in by_c6.values()) and by_c6.get(0, {0}) == {0}:
                continue
            keep.append(k)
        levels = [self.all_levels[k] for k in keep]
        projected = {v: tuple(v[k] for k in keep) for v in distinct}
        values = {e: projected[v] for e, v in raw.items()}
        return levels, values
