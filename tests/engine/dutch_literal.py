"""A literal enumerator of the FIDE (Dutch) System, 2026 text (C.04.3, in force since
1 February 2026), for small fields.

Deliberately simple and slow: written straight from the rule text
(../shared/rules/dutch-2026-C0403.txt; where the 2026 wording of 3.2-3.8 and 4.x is
missing, the 2017 articles it renumbers, with the documented 2026 changes), without
looking at the engine, so that agreement between the two is evidence.  Every per-player
figure (score, colour preference, floats, PAB eligibility) is computed here from the
snapshot; only the model classes are shared.

For each bracket from the top down (1.9) it lists the candidates in the order of 3.6/3.7
and 4.2-4.4 -- for each possible M1 (largest first), each valid set of MDPs for S1 (4.4),
each transposition of S2 (4.2), then the remainder's transpositions and resident
exchanges (4.3) -- evaluates every one on [C1]-[C21] by brute force and takes the best,
ties to the earliest (3.8).  The readings where the text leaves room are named in
docs/dutch.md (DL1-DL9):

DL1  [C4] completion: the players not yet paired (this bracket's downfloaters and every
    lower player) can all be paired under [C1]-[C3], one left over who may take the PAB.
DL2  [C5]: a candidate's value is the lowest score of a player who can still take the PAB
    in such a completion (scores as paired: with acceleration).
DL3  [C8]: the best (C5, C6, C7) the following bracket (the downfloaters and the next
    non-empty scoregroup) can reach, over its pairings that keep the completion.
DL4  [C9] applies to a candidate with one downfloater who is then the only player who can
    take the PAB at the [C5] score (the last bracket's one player left, or a downfloater
    over lower brackets that pair among themselves); unplayed games are the rounds in
    which that player did not play a game.
DL5  colour criteria [C10]-[C13] count what the pair's colours by 5.2 give; "strong" in
    [C13] is a strong preference only (1.7.2), not an absolute one.
DL6  float criteria count rounds of the tournament (1.4.2-1.4.3 on the round's pairing
    scores); a score-difference list is compared in descending order, padded with zeros
    to the number of MDPs; an MDP who downfloats again counts above every pair's
    difference in [C18]/[C20] (the annotated text's assumption, p.31).
DL7  MaxPairs (3.1.2, "see [C6]"): the most pairs the bracket can make (MDPs with residents
    only) among its pairings that keep [C4] and the best [C5] (both rank above [C6]); S1
    of a remainder or homogeneous bracket has MaxPairs players.
DL8  4.4.1 "valid" sets (a Limbo compliant with [C7]) are not filtered beforehand: every
    set of M1 MDPs is tried in the 4.4.2 order and [C7] ranks them, below [C4]/[C5] (a
    set that leaves the one PAB-eligible MDP in the Limbo can be the only completion).
DL9  5.2.5 reads the TPN among the players who have taken part in a pairing or are paired
    now (a player absent since round 1 holds no place): bbpPairings and Gacrux both do.
"""

from __future__ import annotations

import itertools
from collections.abc import Sequence
from dataclasses import dataclass
from decimal import Decimal
from functools import cache

from pairing.engine.model import (
    Board,
    ByeDecision,
    Colour,
    Explanation,
    NoLegalPairing,
    Pairing,
    Result,
    Snapshot,
    virtual_points,
)

W, B = Colour.WHITE, Colour.BLACK
FLOATS_ON = Decimal(10**6)  # the score difference of an MDP who downfloats again (DL6)
ABSOLUTE, STRONG, MILD = 3, 2, 1


@dataclass(frozen=True)
class P:
    """A player as the Dutch rules see them before this round."""

    id: int
    tpn: int
    parity_tpn: int  # the TPN 5.2.5 reads (DL9)
    score: Decimal  # pairing score: points plus virtual points of this round
    real: Decimal  # points
    pref: Colour | None
    strength: int  # 0 none, MILD, STRONG, ABSOLUTE
    cd: int
    played: tuple[Colour, ...]  # colours of the games played, in order
    topscorer: bool
    pab_ok: bool  # [C2]
    unplayed: int  # rounds without a game played
    floats: tuple[str, str]  # "D", "U" or "" in the previous round, and two rounds before
    met: frozenset[int]


def players_of(s: Snapshot) -> dict[int, P]:
    pts = s.points
    rounds_done = s.round_number - 1
    score_before = {p.id: [Decimal(0)] for p in s.players}
    for p in s.players:
        for e in p.history:
            score_before[p.id].append(score_before[p.id][-1] + pts.points(e.result))

    def pairing_score(pid: int, r: int) -> Decimal:  # before round r (1-based)
        return score_before[pid][r - 1] + virtual_points(s.acceleration, pid, r)

    max_score = pts.win * rounds_done
    # DL9: the TPN of 5.2.5 counts only players who have taken part in a pairing (paired,
    # or a PAB) or are to be paired now: one who has not yet appeared holds no place
    taking_part = sorted((p for p in s.players
                          if p.id not in s.absent or any(e.paired or e.result is Result.PAIRING_BYE
                                                         for e in p.history)), key=lambda p: p.tpn)
    effective = {p.id: i for i, p in enumerate(taking_part, start=1)}
    out = {}
    for p in s.players:
        played = tuple(e.colour for e in p.history if e.played and e.colour is not None)
        cd = sum(1 if c is W else -1 for c in played)
        pref, strength = None, 0
        if played:
            if cd > 1:  # 1.7.1
                pref, strength = B, ABSOLUTE
            elif cd < -1:
                pref, strength = W, ABSOLUTE
            elif len(played) >= 2 and played[-1] == played[-2]:
                pref, strength = played[-1].opposite, ABSOLUTE
            elif cd in (1, -1):
                pref, strength = (B if cd == 1 else W), STRONG
            else:
                pref, strength = played[-1].opposite, MILD
        floats = []
        for back in (1, 2):
            r = s.round_number - back
            f = ""
            if r >= 1 and r <= len(p.history):
                e = p.history[r - 1]
                if e.result is Result.PAIRING_BYE:
                    f = "D"
                elif not e.played:
                    f = "D" if pts.points(e.result) > pts.loss else ""
                else:
                    mine, theirs = pairing_score(p.id, r), pairing_score(e.opponent, r)
                    f = "D" if mine > theirs else "U" if mine < theirs else ""
            floats.append(f)
        # [C2] (Basic Rules 4): a PAB before, or a round scored as a win without playing
        pab_ok = not any(e.result is Result.PAIRING_BYE or (not e.played and pts.points(e.result) >= pts.win)
                         for e in p.history)
        out[p.id] = P(
            id=p.id, tpn=p.tpn, parity_tpn=effective.get(p.id, p.tpn), score=pairing_score(p.id, s.round_number), real=score_before[p.id][-1],
            pref=pref, strength=strength, cd=cd, played=played,
            topscorer=s.round_number == s.total_rounds and score_before[p.id][-1] * 2 > max_score,
            pab_ok=pab_ok, unplayed=sum(1 for e in p.history if not e.played), floats=(floats[0], floats[1]),
            met=frozenset(e.opponent for e in p.history if e.played),
        )
    return out


# ---------------------------------------------------------------- absolute criteria


def compatible(a: P, b: P, forbidden: frozenset[frozenset[int]]) -> bool:
    if b.id in a.met or frozenset((a.id, b.id)) in forbidden:  # [C1], forbidden pairs
        return False
    if a.strength == ABSOLUTE and b.strength == ABSOLUTE and a.pref == b.pref:  # [C3]
        return a.topscorer or b.topscorer
    return True


def colours(a: P, b: P, initial: Colour) -> tuple[int, int]:
    """5.2: (white, black) ids."""
    hi, lo = (a, b) if (a.score, -a.tpn) > (b.score, -b.tpn) else (b, a)
    if hi.pref and lo.pref and hi.pref != lo.pref:  # 5.2.1
        return (hi.id, lo.id) if hi.pref is W else (lo.id, hi.id)
    if hi.pref and not lo.pref:
        return (hi.id, lo.id) if hi.pref is W else (lo.id, hi.id)
    if lo.pref and not hi.pref:
        return (lo.id, hi.id) if lo.pref is W else (hi.id, lo.id)
    if hi.pref and lo.pref:  # the same colour wanted
        if hi.strength != lo.strength or (hi.strength == ABSOLUTE and abs(hi.cd) != abs(lo.cd)):  # 5.2.2
            if hi.strength == lo.strength:
                winner = hi if abs(hi.cd) > abs(lo.cd) else lo
            else:
                winner = hi if hi.strength > lo.strength else lo
            other = lo if winner is hi else hi
            return (winner.id, other.id) if winner.pref is W else (other.id, winner.id)
        # 5.2.3: the most recent round (unplayed rounds moved to the front) with different colours
        for x, y in zip(reversed(hi.played), reversed(lo.played), strict=False):
            if x != y:
                return (hi.id, lo.id) if x is B else (lo.id, hi.id)
        return (hi.id, lo.id) if hi.pref is W else (lo.id, hi.id)  # 5.2.4
    # no preference on either side: 5.2.3 cannot apply (no games); 5.2.5
    hi_colour = initial if hi.parity_tpn % 2 else initial.opposite
    return (hi.id, lo.id) if hi_colour is W else (lo.id, hi.id)


# ---------------------------------------------------------------- the enumerator


class Literal:
    def __init__(self, snapshot: Snapshot):
        self.s = snapshot
        self.ps = players_of(snapshot)
        self.present = [i for i in self.ps if i not in snapshot.absent]
        self.forbidden = snapshot.forbidden
        self.order = lambda ids: sorted(ids, key=lambda i: (-self.ps[i].score, self.ps[i].tpn))  # 1.2

    @cache  # noqa: B019
    def ok(self, a: int, b: int) -> bool:
        return compatible(self.ps[a], self.ps[b], self.forbidden)

    # ---- completion (DL1) and the PAB score (DL2)

    @cache  # noqa: B019 - one enumerator per round
    def pab_scores(self, ids: frozenset[int]) -> frozenset[Decimal] | None:
        """Scores of the players who can take the PAB in a pairing of all ``ids`` under
        [C1]-[C3] (empty set: a complete pairing with no PAB); None: none exists."""
        takers = self.pab_takers(ids)
        return None if takers is None else frozenset(self.ps[x].score for x in takers)

    @cache  # noqa: B019
    def pab_takers(self, ids: frozenset[int]) -> frozenset[int] | None:
        """The players who can take the PAB in such a pairing (empty: no PAB; None: none)."""
        if len(ids) % 2 == 0:
            return frozenset() if self._perfect(ids) else None
        found = frozenset(x for x in ids if self.ps[x].pab_ok and self._perfect(ids - {x}))
        return found or None

    @cache  # noqa: B019
    def _perfect(self, ids: frozenset[int]) -> bool:
        if not ids:
            return True
        first = min(ids)
        rest = ids - {first}
        return any(self.ok(first, o) and self._perfect(rest - {o}) for o in rest)

    # ---- candidates of a bracket, in the order of the text

    def max_pairs(self, mdps: tuple[int, ...], residents: tuple[int, ...], below: frozenset[int]) -> int:
        """DL7: the most pairs the bracket can make (MDPs with residents only) while the
        players left can still be completed ([C4]) with the lowest PAB score ([C5])."""
        return self.bracket_bounds(mdps, residents, below)[0]

    @cache  # noqa: B019
    def bracket_bounds(self, mdps: tuple[int, ...], residents: tuple[int, ...], below: frozenset[int]):
        """(MaxPairs, the best [C5] value any pairing of the bracket can reach)."""
        pool = list(mdps) + list(residents)
        mdpset = set(mdps)
        found: dict[int, Decimal] = {}  # pairs -> the best C5 value with that many

        def go(left: list[int], pairs: int, unpaired: tuple[int, ...]) -> None:
            if not left:
                pab = self.pab_scores(frozenset(unpaired) | below)
                if pab is not None:
                    c5 = min(pab) if pab else Decimal(-1)
                    found[pairs] = min(c5, found.get(pairs, c5))
                return
            a, rest = left[0], left[1:]
            go(rest, pairs, unpaired + (a,))
            for o in rest:
                if not (a in mdpset and o in mdpset) and self.ok(a, o):
                    go([x for x in rest if x != o], pairs + 1, unpaired)

        go(pool, 0, ())
        if not found:
            return 0, None
        best = min(found.values())
        return max(k for k, v in found.items() if v == best), best

    def homogeneous(self, players: Sequence[int], below: frozenset[int]):
        """Candidates of a homogeneous bracket or remainder: (pairs, unpaired), 3.6 order."""
        bsn = list(players)  # already in 1.2 order: BSN = index + 1
        n1 = self.max_pairs((), tuple(bsn), below)
        s1, s2 = bsn[:n1], bsn[n1:]
        for new_s1, new_s2 in [(s1, s2)] + list(self.exchanges(bsn, s1, s2)):
            for head in itertools.permutations(new_s2, n1):  # 4.2: by the first N1 BSNs
                yield tuple(zip(new_s1, head, strict=True)), tuple(x for x in new_s2 if x not in head)

    def exchanges(self, bsn: list[int], s1: list[int], s2: list[int]):
        """4.3: resident exchanges between the original S1 and S2, in their order."""
        pos = {p: i + 1 for i, p in enumerate(bsn)}
        keyed = []
        for k in range(1, min(len(s1), len(s2)) + 1):
            for out in itertools.combinations(s1, k):
                for into in itertools.combinations(s2, k):
                    o = sorted((pos[x] for x in out), reverse=True)
                    i = sorted(pos[x] for x in into)
                    key = (k, sum(i) - sum(o), [-x for x in o], i)
                    keyed.append((key, out, into))
        keyed.sort(key=lambda t: t[0])
        for _, out, into in keyed:
            new_s1 = self.order([x for x in s1 if x not in out] + list(into))
            new_s2 = self.order([x for x in s2 if x not in into] + list(out))
            yield new_s1, new_s2

    def heterogeneous(self, mdps: Sequence[int], residents: Sequence[int], below: frozenset[int]):
        """Candidates of a heterogeneous bracket, 3.7 order, every M1 from the largest."""
        top = min(len(mdps), len(residents), self.max_pairs(tuple(mdps), tuple(residents), below))
        for m1 in range(top, -1, -1):
            for s1 in self.mdp_sets(mdps, m1):
                limbo = tuple(x for x in mdps if x not in s1)
                for head in itertools.permutations(residents, m1):
                    rest = self.order([x for x in residents if x not in head])
                    limbo_below = below | frozenset(limbo)  # the remainder's players left: Limbo too
                    for pairs, unpaired in self.homogeneous(rest, limbo_below):
                        yield tuple(zip(s1, head, strict=True)) + pairs, limbo + unpaired

    def mdp_sets(self, mdps: Sequence[int], m1: int):
        """4.4: sets of M1 MDPs by their smallest differing BSN (combinations of a list in
        BSN order come in that order).  All of them (DL8): a set whose Limbo breaks [C7]
        loses on [C7] unless a higher criterion ([C4], [C5]) needs it."""
        return list(itertools.combinations(mdps, m1))

    # ---- evaluation

    def evaluate(self, pairs, unpaired, mdps, below: frozenset[int], last: bool, best=None):
        """The candidate's values on [C5]-[C21] in priority order, or None when it breaks
        [C1]-[C4] (or, a shortcut that changes no choice, when its [C5]-[C7] already lose
        to ``best``)."""
        ps = self.ps
        if not all(self.ok(a, b) for a, b in pairs):
            return None
        if last and len(unpaired) > 1:  # the last bracket leaves at most the PAB
            return None
        pab = self.pab_scores(frozenset(unpaired) | below)
        if pab is None:  # [C4]
            return None
        value: tuple = (min(pab) if pab else Decimal(-1), len(unpaired),
                        sorted((ps[x].score for x in unpaired), reverse=True))
        tied = best is not None  # while the values so far equal best's, a worse stage ends it

        def worse(stage: tuple) -> bool:
            nonlocal value, tied
            start = len(value)
            value += stage
            if tied:
                mine, theirs = value[start:], best[start:len(value)]
                if mine > theirs:
                    return True
                tied = mine == theirs
            return False

        if tied:
            head = best[:3]
            if value > head:
                return None
            tied = value == head
        c8 = self.next_bracket(frozenset(unpaired), below) if not last else ()
        c9 = 0  # DL4: one downfloater, the only player who can take the PAB at the [C5] score
        if len(unpaired) == 1:
            takers = self.pab_takers(frozenset(unpaired) | below)
            if {x for x in takers if ps[x].score == value[0]} == set(unpaired):
                c9 = ps[unpaired[0]].unplayed
        if worse((c8, c9)):
            return None
        colour = [0, 0, 0, 0]
        for a, b in pairs:
            for i, v in enumerate(self.colour_terms(a, b)):
                colour[i] += v
        if worse(tuple(colour)):
            return None
        mdpset = set(mdps)
        resident_down = [x for x in unpaired if x not in mdpset]
        c14 = sum(ps[x].floats[0] == "D" for x in resident_down)
        c16 = sum(ps[x].floats[1] == "D" for x in resident_down)
        mdp_pairs = [(m, r) if m in mdpset else (r, m) for m, r in pairs if m in mdpset or r in mdpset]
        limbo = [m for m in mdps if m in unpaired]
        c15 = sum(ps[r].floats[0] == "U" for m, r in mdp_pairs)
        c17 = sum(ps[r].floats[1] == "U" for m, r in mdp_pairs)
        if worse((c14, c15, c16, c17)):
            return None
        if not mdps:  # no MDP: [C18]-[C21] have nothing to count
            return (*value, [], [], [], [])

        def sds(back: int, of_mdp: bool):
            if of_mdp:  # [C18]/[C20]; an MDP floating on counts above every pair (ANN p.31)
                values = [ps[m].score - ps[r].score for m, r in mdp_pairs if ps[m].floats[back] == "D"]
                values += [FLOATS_ON for m in limbo if ps[m].floats[back] == "D"]
            else:  # [C19]/[C21]
                values = [ps[m].score - ps[r].score for m, r in mdp_pairs if ps[r].floats[back] == "U"]
            return pad(sorted(values, reverse=True), len(mdps))

        return (*value, sds(0, True), sds(0, False), sds(1, True), sds(1, False))

    @cache  # noqa: B019
    def colour_terms(self, a: int, b: int) -> tuple[int, int, int, int]:
        """What one pair adds to [C10]-[C13] with its colours by 5.2 (DL5)."""
        ps = self.ps
        w, blk = colours(ps[a], ps[b], self.s.initial_colour)
        c10 = c11 = c12 = c13 = 0
        for pid, got, other in ((w, W, blk), (blk, B, w)):
            p = ps[pid]
            top = p.topscorer or ps[other].topscorer
            cd = p.cd + (1 if got is W else -1)
            c10 += top and abs(cd) > 2
            c11 += top and len(p.played) >= 2 and p.played[-1] == p.played[-2] == got
            if p.pref is not None and p.pref != got:
                c12 += 1
                c13 += p.strength == STRONG
        return c10, c11, c12, c13

    @cache  # noqa: B019
    def next_bracket(self, down: frozenset[int], below: frozenset[int]):
        """DL3: the best (C5, C6, C7) of the following bracket."""
        if not below:
            return ()
        top = max(self.ps[x].score for x in below)
        group = frozenset(x for x in below if self.ps[x].score == top)
        rest = below - group
        pool = sorted(down | group)
        best = None

        def go(left: list[int], unpaired: list[int]) -> None:
            nonlocal best
            if not left:
                pab = self.pab_scores(frozenset(unpaired) | rest)
                if pab is None:
                    return
                value = (min(pab) if pab else Decimal(-1), len(unpaired),
                         sorted((self.ps[x].score for x in unpaired), reverse=True))
                best = value if best is None or value < best else best
                return
            a, others = left[0], left[1:]
            go(others, unpaired + [a])
            for o in others:
                if not (a in down and o in down) and self.ok(a, o):
                    go([x for x in others if x != o], unpaired)

        go(pool, [])
        return best or ()

    def pair(self) -> Pairing:
        if self.pab_scores(frozenset(self.present)) is None:
            raise NoLegalPairing("no pairing satisfies [C1]-[C3] for everyone present")
        left = frozenset(self.present)
        mdps: list[int] = []
        boards = []
        while left:
            top = max(self.ps[x].score for x in left)
            residents = self.order([x for x in left if self.ps[x].score == top])
            below = left - set(residents)
            last = not below
            cands = self.heterogeneous(mdps, residents, below) if mdps else self.homogeneous(residents, below)
            best = None
            max_pairs, best_c5 = self.bracket_bounds(tuple(mdps), tuple(residents), below)
            # nobody downfloats; or, in a homogeneous last bracket, only the PAB assignee
            # ([C7] and [C8] are then the same for every candidate)
            ideal_c6 = len(residents) - 2 * max_pairs if last and not mdps else 0
            for pairs, unpaired in cands:
                value = self.evaluate(pairs, unpaired, mdps, below, last, best[0] if best else None)
                if value is not None and (best is None or value < best[0]):
                    best = (value, pairs, unpaired)
                    if perfect(value, best_c5, ideal_c6):  # 3.4: accepted at once
                        break
            if best is None:  # pragma: no cover - the completion check above rules this out
                raise NoLegalPairing("a bracket has no candidate")
            _, pairs, unpaired = best
            boards.extend(pairs)
            mdps = self.order(unpaired)
            left = below
        bye = mdps[0] if mdps else None
        ps, initial = self.ps, self.s.initial_colour
        allocated = [colours(ps[a], ps[b], initial) for a, b in boards]
        allocated.sort(key=lambda wb: board_key(ps[wb[0]], ps[wb[1]]))
        return Pairing(
            round_number=self.s.round_number,
            boards=tuple(Board(i, w, b) for i, (w, b) in enumerate(allocated, start=1)),
            bye=bye,
            explanation=Explanation(bye=ByeDecision(player=bye)),
        )


def perfect(value: tuple, best_c5, ideal_c6: int) -> bool:
    """3.4, where it can be told without the other candidates: the lowest [C5] the
    bracket can reach, the fewest downfloaters in a case where [C7] and [C8] are then the
    same for every candidate, and nothing to count on [C9]-[C21]."""
    return value[0] == best_c5 and value[1] == ideal_c6 and not any(
        any(v) if isinstance(v, list) else v for v in value[4:])


def board_key(a: P, b: P):
    """C.04.2 3.6: the higher score of the pair's higher ranked player, the higher sum,
    the smaller TPN of the higher ranked player."""
    hi = a if (a.score, -a.tpn) > (b.score, -b.tpn) else b
    return (-hi.score, -(a.score + b.score), hi.tpn)


def pad(values: list[Decimal], n: int) -> list[Decimal]:
    return values + [Decimal(0)] * (n - len(values))


def literal_pair_round(snapshot: Snapshot) -> Pairing:
    """The Dutch pairing of ``snapshot``'s round by brute force (small fields only)."""
    return Literal(snapshot).pair()
