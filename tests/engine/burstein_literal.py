"""A literal enumerator of the FIDE Burstein System, 2026 text (C.04.4.2, in force since
1 February 2026), for small fields.

Deliberately simple and slow, written straight from the rule text
(../shared/rules/burstein-C040402.txt, with the readings of docs/burstein.md) without
looking at the engine, so that agreement between the two is evidence.  Every per-player
figure (score, Index, colour preference, PAB eligibility) is computed here from the
snapshot; only the model classes are shared, and the seeding rounds (1.6) are handed to
the Dutch engine, as the text hands them to the Dutch system.

After the seeding rounds: the PAB first (3.1: every eligible player in the order of
3.1.3-3.1.5, the first who leaves a complete pairing of the others, found by trying every
pairing); then each bracket from the top (1.2.2: the players who remained unpaired with
the next scoregroup), ranked by 1.8 (BSNs, 4.1).  Every pairing of the bracket is listed
-- each player paired or left to float, the floaters being the "opponents" of BSN-0
virtual players (4.2) -- and kept when it complies with [C1]-[C4] (C4 by trying every
pairing of those not yet paired); 3.2.1 takes the most pairs; [C6], [C7] and [C8] are
evaluated on each (C7 by listing every pairing of the following bracket) and the best is
taken, ties to the first in the order of 4.3 (each BSN's opponent compared in turn, the
larger BSN first, a virtual player last).  Colours by 5.2.
"""

from __future__ import annotations

from dataclasses import dataclass, replace
from decimal import Decimal

from pairing.engine import pair_round
from pairing.engine.model import (
    Board,
    ByeDecision,
    Colour,
    Explanation,
    NoLegalPairing,
    Pairing,
    Result,
    Snapshot,
    System,
    virtual_points,
)

W, B = Colour.WHITE, Colour.BLACK
ABSOLUTE, STRONG, MILD = 3, 2, 1


@dataclass(frozen=True)
class P:
    id: int
    tpn: int
    parity_tpn: int  # the TPN the colour rule 5.2.1 reads (as the Dutch 5.2.5)
    score: Decimal  # the score of the scoregroups: points plus this round's virtual points
    real: Decimal
    pref: Colour | None
    strength: int
    played: tuple[Colour, ...]
    games: int
    pab_ok: bool
    bh: Decimal
    sb: Decimal
    met: frozenset[int]


def players_of(s: Snapshot) -> dict[int, P]:
    pts = s.points
    real = {p.id: sum((pts.points(e.result) for e in p.history), Decimal(0)) for p in s.players}
    # 1.7.2 exception: a series of zero-point byes that reaches the current round counts as
    # draws in the score the player's over-the-board opponents read
    as_opponent = {}
    for p in s.players:
        series = 0
        for e in reversed(p.history):
            if e.result is not Result.ZERO_BYE:
                break
            series += 1
        as_opponent[p.id] = real[p.id] - series * pts.zero_bye + series * pts.draw
    taking_part = sorted((p for p in s.players
                          if p.id not in s.absent or any(e.paired or e.result is Result.PAIRING_BYE
                                                         for e in p.history)), key=lambda p: p.tpn)
    parity = {p.id: i for i, p in enumerate(taking_part, start=1)}
    out = {}
    for p in s.players:
        played = tuple(e.colour for e in p.history if e.played)
        cd = played.count(W) - played.count(B)
        pref, strength = None, 0
        if played:  # 1.5
            if cd > 1:
                pref, strength = B, ABSOLUTE
            elif cd < -1:
                pref, strength = W, ABSOLUTE
            elif len(played) >= 2 and played[-1] == played[-2]:  # the same colour twice: the other
                pref, strength = (B if played[-1] == W else W), ABSOLUTE
            elif cd == 1:
                pref, strength = B, STRONG
            elif cd == -1:
                pref, strength = W, STRONG
            else:
                pref, strength = (W if played[-1] == B else B), MILD
        bh = sb = Decimal(0)
        for e in p.history:
            earned = pts.points(e.result)
            if e.played:
                opp_score = as_opponent[e.opponent]
            else:  # 1.7.2: a game against the player themself
                opp_score = real[p.id]
            bh += opp_score
            sb += earned * opp_score
        out[p.id] = P(
            id=p.id, tpn=p.tpn, parity_tpn=parity.get(p.id, p.tpn),
            score=real[p.id] + virtual_points(s.acceleration, p.id, s.round_number), real=real[p.id],
            pref=pref, strength=strength, played=played, games=len(played),
            pab_ok=not any(e.result is Result.PAIRING_BYE or (not e.played and pts.points(e.result) >= pts.win)
                           for e in p.history),
            bh=bh, sb=sb,
            met=frozenset(e.opponent for e in p.history if e.played),
        )
    return out


def ranking(p: P):
    """1.8: Index (Buchholz, then Sonneborn-Berger), higher first; then TPN ascending."""
    return (-p.bh, -p.sb, p.tpn)


def colours(a: P, b: P, initial: Colour) -> tuple[int, int]:
    """5.2, (white id, black id)."""
    def give(x: P, colour: Colour) -> tuple[int, int]:
        y = b if x is a else a
        return (x.id, y.id) if colour == W else (y.id, x.id)

    if not a.played and not b.played:  # 5.2.1
        high = a if (a.score, -a.tpn) > (b.score, -b.tpn) else b
        return give(high, initial if high.parity_tpn % 2 else (B if initial == W else W))
    if a.pref != b.pref:  # 5.2.2 (no preference: the other's is granted)
        return give(a, a.pref) if a.pref is not None else give(b, b.pref)
    if a.strength != b.strength:  # 5.2.3
        return give(a if a.strength > b.strength else b, a.pref)
    for x, y in zip(reversed(a.played), reversed(b.played), strict=False):  # 5.2.4
        if x != y:
            return give(a, y)
    return give(a if ranking(a) < ranking(b) else b, a.pref)  # 5.2.5


class Literal:
    def __init__(self, s: Snapshot):
        self.s = s
        self.ps = players_of(s)
        self.forbidden = s.forbidden
        self._completes: dict[frozenset[int], bool] = {}
        self._following: dict[tuple, tuple] = {}

    def ok(self, x: int, y: int) -> bool:
        """[C1], the arbiter's forbidden pairs, [C3]."""
        a, b = self.ps[x], self.ps[y]
        if y in a.met or frozenset((x, y)) in self.forbidden:
            return False
        return not (a.strength == ABSOLUTE and b.strength == ABSOLUTE and a.pref == b.pref)

    def completes(self, group: frozenset[int]) -> bool:
        """[C4]: every player of ``group`` can be paired."""
        if not group:
            return True
        if group not in self._completes:
            first = min(group)
            self._completes[group] = any(self.ok(first, o) and self.completes(group - {first, o})
                                         for o in group if o != first)
        return self._completes[group]

    def pairings(self, bracket: list[int]):
        """Every pairing of the bracket: (pairs, floaters), with all numbers of floaters."""
        if not bracket:
            yield (), ()
            return
        first, rest = bracket[0], bracket[1:]
        for pairs, floaters in self.pairings(rest):
            yield pairs, (first,) + floaters
        for i, o in enumerate(rest):
            if self.ok(first, o):
                for pairs, floaters in self.pairings(rest[:i] + rest[i + 1:]):
                    yield ((first, o),) + pairs, floaters

    def bye(self, everyone: list[int]) -> int | None:
        if len(everyone) % 2 == 0:
            if not self.completes(frozenset(everyone)):
                raise NoLegalPairing("no complete pairing")
            return None
        ps = self.ps
        order = sorted((x for x in everyone if ps[x].pab_ok),  # 3.1.1
                       key=lambda x: (ps[x].score, -ps[x].games, ps[x].bh, ps[x].sb, -ps[x].tpn))  # 3.1.3-3.1.5
        for x in order:
            if self.completes(frozenset(everyone) - {x}):  # 3.1.2
                return x
        raise NoLegalPairing("no PAB assignee")

    def following(self, floaters: frozenset[int], nxt: tuple[int, ...], below: frozenset[int]):
        """[C7]: the best ([C5], [C6]) the following bracket reaches with [C1]-[C4]."""
        key = (floaters, nxt, below)
        if key not in self._following:
            self._following[key] = self._best_following(floaters, nxt, below)
        return self._following[key]

    def _best_following(self, floaters, nxt, below):
        best = None
        group = sorted(floaters | set(nxt))
        for pairs, out in self.pairings(group):
            if not self.completes(frozenset(out) | below):
                continue
            value = (len(pairs), tuple(-v for v in sorted((self.ps[x].score for x in out), reverse=True)))
            if best is None or value > best:
                best = value
        return best

    def order_key(self, bracket: list[int], pairs) -> tuple:
        """4.3: BSN 1's opponent's BSN, then BSN 2's..., a larger BSN first, 0 (virtual) last."""
        bsn = {x: k for k, x in enumerate(bracket, start=1)}
        opp = {x: 0 for x in bracket}
        for x, y in pairs:
            opp[x], opp[y] = bsn[y], bsn[x]
        return tuple(-opp[x] for x in bracket)

    def pair_bracket(self, bracket: list[int], nxt: tuple[int, ...], below: frozenset[int]):
        ps = self.ps
        valid = []
        for pairs, floaters in self.pairings(bracket):
            rest = frozenset(floaters) | frozenset(nxt) | below
            if self.completes(rest):  # [C4]
                valid.append((pairs, floaters))
        if not valid:
            raise NoLegalPairing("no candidate")
        most = max(len(p) for p, _ in valid)  # 3.2.1, [C5]
        best, best_key = None, None
        for pairs, floaters in valid:
            if len(pairs) != most:
                continue
            c6 = tuple(-v for v in sorted((ps[x].score for x in floaters), reverse=True))
            c7 = self.following(frozenset(floaters), nxt, below) if nxt else ()
            c8 = -sum(1 for x, y in pairs if ps[x].pref is not None and ps[x].pref == ps[y].pref)
            value = (c6, c7, c8)
            key = self.order_key(bracket, pairs)
            if best is None or value > best or (value == best and key < best_key):
                best, best_key, chosen = value, key, (pairs, floaters)
        return chosen

    def run(self) -> Pairing:
        s, ps = self.s, self.ps
        everyone = [p.id for p in s.players if p.id not in s.absent]
        bye = self.bye(everyone)
        todo = [x for x in everyone if x != bye]
        scores = sorted({ps[x].score for x in todo}, reverse=True)
        groups = {sc: [x for x in todo if ps[x].score == sc] for sc in scores}
        floaters: tuple[int, ...] = ()
        all_pairs = []
        for k, sc in enumerate(scores):
            bracket = sorted(list(floaters) + groups[sc], key=lambda x: ranking(ps[x]))
            nxt = tuple(groups[scores[k + 1]]) if k + 1 < len(scores) else ()
            below = frozenset(x for later in scores[k + 2:] for x in groups[later])
            pairs, floaters = self.pair_bracket(bracket, nxt, below)
            all_pairs.extend(pairs)
        if floaters:
            raise NoLegalPairing("players left")
        boards = []
        for n, (x, y) in enumerate(all_pairs, start=1):
            white, black = colours(ps[x], ps[y], s.initial_colour)
            boards.append(Board(number=n, white=white, black=black))
        return Pairing(round_number=s.round_number, boards=tuple(boards), bye=bye,
                       explanation=Explanation(bye=ByeDecision(player=bye)))


def literal_pair_round(snapshot: Snapshot) -> Pairing:
    if snapshot.round_number <= min(snapshot.total_rounds // 2, 4):  # 1.6
        return pair_round(replace(snapshot, system=System.DUTCH))
    return Literal(snapshot).run()


def candidates_in_order(n: int, pairs: int) -> list[str]:
    """4.3's order of every pairing of n players with the given number of pairs (the
    others face BSN-0 virtual players), written as the handbook's note writes them."""
    bracket = list(range(1, n + 1))
    found = []

    def all_pairings(rest):
        if not rest:
            yield ()
            return
        first, others = rest[0], rest[1:]
        yield from ((((first, 0),) + p) for p in all_pairings(others))
        for i, o in enumerate(others):
            yield from ((((first, o),) + p) for p in all_pairings(others[:i] + others[i + 1:]))

    for p in all_pairings(bracket):
        if sum(1 for _, o in p if o) != pairs:
            continue
        opp = dict.fromkeys(bracket, 0)
        for x, o in p:
            if o:
                opp[x], opp[o] = o, x
        found.append((tuple(-opp[x] for x in bracket), ", ".join(f"{x}-{o}" for x, o in p)))
    return [text for _, text in sorted(found)]


__all__ = ["candidates_in_order", "literal_pair_round", "players_of"]
