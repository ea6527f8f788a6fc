"""The Dutch pairing procedure (C.04.3, in force from 1 February 2026): :func:`pair_round`.

1. Validate the snapshot and compute the player figures (:mod:`.state`).
2. The lowest possible score of the PAB assignee ([C5]; C.04.1 Art. 4 for who may get it,
   [C2]), when the number of players to pair is odd: the lowest score at which an
   eligible player leaves a complete pairing of the others (one cardinality matching per
   score tried).
3. Brackets from the top scoregroup down (1.9): residents plus the MDPs of the bracket
   above; the bracket's candidate by :mod:`.bracket` (criteria first, then the order of
   generation); its downfloaters are the next bracket's MDPs.  The player left after the
   last bracket gets the PAB (1.9.1).
4. Colours by 5.2 (:mod:`.colours`), board order by C.04.2 Art. 3.6, and a final check of
   the absolute criteria.
"""

from __future__ import annotations

from decimal import Decimal

from ..history import parity_tpns  # noqa: F401 - shared with Burstein 5.2.1, named here too
from ..matching import has_perfect_matching, maximum_matching
from ..model import (
    Board,
    BracketTrace,
    ByeDecision,
    ColourDecision,
    EngineError,
    Explanation,
    NoLegalPairing,
    Pairing,
    PreferenceStrength,
    Snapshot,
)
from .colours import allocate, ranks_higher, who
from .procedure import BracketProcedure
from .state import DutchPlayerState, dutch_states


def pair_round(snapshot: Snapshot) -> Pairing:
    """Pair ``snapshot.round_number`` by the Dutch system (C.04.3, 2026 text).

    Raises :class:`InvalidSnapshot` for inconsistent input and :class:`NoLegalPairing`
    when no pairing satisfies [C1]-[C4] (1.9.3: the arbiter decides)."""
    states = dutch_states(snapshot)
    return _Round(snapshot, states).run()


def fmt(score: Decimal) -> str:
    return format(score.normalize(), "f")


class _Round(BracketProcedure):
    """Players are indices 0..n-1 in the order of 1.2 (score, then TPN)."""

    def __init__(self, snapshot: Snapshot, states: dict[int, DutchPlayerState]):
        self.snapshot = snapshot
        present = [st for pid, st in states.items() if pid not in snapshot.absent]
        present.sort(key=lambda st: (-st.score, st.tpn))
        self.st = present
        self.n = len(present)
        index = {st.id: i for i, st in enumerate(present)}
        self.index = index
        blocked: list[set[int]] = [set() for _ in range(self.n)]
        by_id = {p.id: p for p in snapshot.players}
        for i, st in enumerate(present):
            for e in by_id[st.id].history:
                if e.played and e.opponent in index:
                    blocked[i].add(index[e.opponent])
        for pair in snapshot.forbidden:
            a, b = tuple(pair)
            if a in index and b in index:
                blocked[index[a]].add(index[b])
                blocked[index[b]].add(index[a])
        self.blocked = blocked
        # [C3]: the absolute preference of a non-topscorer, as a class (1 White, 2 Black)
        self.absc = [
            (1 if st.preference and st.preference.value == "w" else 2)
            if st.strength is PreferenceStrength.ABSOLUTE and not st.topscorer else 0
            for st in present
        ]

    # ------------------------------------------------------------ [C1]-[C3]

    def legal(self, a: int, b: int) -> bool:
        if a == b or b in self.blocked[a]:
            return False
        c = self.absc[a]
        return c == 0 or c != self.absc[b]

    def name(self, i: int) -> str:
        return who(self.st[i])

    def names(self, vs) -> str:
        return ", ".join(self.name(i) for i in vs) if vs else "none"

    # ------------------------------------------------------------ [C5]

    def _complete_with_bye(self, vs: list[int], candidates: set[int]) -> bool:
        """The players ``vs`` (odd) pair completely but one, who is in ``candidates``."""
        k = len(vs)
        cand = [v in candidates for v in vs]

        def ok(a: int, b: int) -> bool:
            if a == k:
                return cand[b]
            if b == k:
                return cand[a]
            return self.legal(vs[a], vs[b])

        return has_perfect_matching(k + 1, ok)

    def bye_score(self) -> tuple[Decimal | None, ByeDecision | None]:
        everyone = list(range(self.n))
        if self.n % 2 == 0:
            if not has_perfect_matching(self.n, self.legal):
                self._no_pairing(everyone, "No complete round-pairing exists ([C1]-[C4])")
            return None, None
        eligible = [i for i in everyone if self.st[i].pab_eligible]
        for sigma in sorted({self.st[i].score for i in eligible}):
            cands = {i for i in eligible if self.st[i].score <= sigma}
            if self._complete_with_bye(everyone, cands):
                return sigma, None
        if not eligible:
            self._no_pairing(everyone, "Odd number of players and nobody may receive the pairing-allocated bye ([C2])")
        self._no_pairing(everyone, "No complete round-pairing exists whoever gets the pairing-allocated bye ([C1]-[C4])")
        raise AssertionError  # pragma: no cover

    def _no_pairing(self, vs: list[int], msg: str) -> None:
        mate = maximum_matching(len(vs), lambda a, b: self.legal(vs[a], vs[b]))
        bad = [vs[i] for i in range(len(vs)) if mate[i] == -1]
        raise NoLegalPairing(
            f"{msg}: players {self.names(bad)} cannot all be paired legally; the arbiter decides (1.9.3).",
            tuple(self.st[i].id for i in bad),
        )

    # ------------------------------------------------------------ driver

    def run(self) -> Pairing:
        snap = self.snapshot
        s_star, _ = self.bye_score()
        self.s_star = s_star
        odd = self.n % 2 == 1
        self.cand = [self.st[i].pab_eligible and s_star is not None and self.st[i].score <= s_star
                     for i in range(self.n)]
        groups: dict[Decimal, list[int]] = {}
        for i in range(self.n):
            groups.setdefault(self.st[i].score, []).append(i)
        scores = sorted(groups, reverse=True)
        pairs: list[tuple[int, int]] = []
        traces: list[BracketTrace] = []
        mdps: list[int] = []
        for gi, s in enumerate(scores):
            residents = groups[s]
            nxt = groups[scores[gi + 1]] if gi + 1 < len(scores) else []
            lower = [i for t in scores[gi + 2:] for i in groups[t]]
            bpairs, down, trace = self.pair_bracket(s, mdps, residents, nxt, lower, odd)
            pairs.extend(bpairs)
            traces.append(trace)
            mdps = down
        if len(mdps) > (1 if odd else 0):  # pragma: no cover - completion keeps this from happening
            raise EngineError(f"internal error: players {self.names(mdps)} left unpaired")
        bye = mdps[0] if mdps else None
        boards, colours = self.colours_and_boards(pairs)
        bye_decision = self.bye_decision(bye)
        pairing = Pairing(
            round_number=snap.round_number,
            boards=tuple(boards),
            bye=self.st[bye].id if bye is not None else None,
            explanation=Explanation(bye=bye_decision, brackets=tuple(traces), colours=tuple(colours)),
        )
        self.verify(pairing)
        return pairing

    def bye_decision(self, bye: int | None) -> ByeDecision:
        if bye is None:
            return ByeDecision(player=None, reason="Even number of players to pair: no pairing-allocated bye.")
        eligible = tuple(self.st[i].id for i in range(self.n) if self.st[i].pab_eligible)
        st = self.st[bye]
        parts = [f"Pairing-allocated bye to {who(st)}"]
        barred = self.n - len(eligible)
        if barred:
            parts.append(f"{barred} player(s) may not receive it ([C2]: an earlier PAB, or a win's points scored "
                         "without playing)")
        parts.append(f"the lowest score that leaves a complete pairing of the others is {fmt(self.s_star)} ([C5])")
        parts.append("left over after the last bracket (1.9.1)")
        return ByeDecision(player=st.id, eligible=eligible, reason="; ".join(parts) + ".")

    def colours_and_boards(self, pairs: list[tuple[int, int]]) -> tuple[list[Board], list[ColourDecision]]:
        """5.2 per pair; boards by C.04.2 Art. 3.6: the higher player's score, the other's,
        the higher player's TPN."""
        init = self.snapshot.initial_colour
        parity = parity_tpns(self.snapshot)
        rows = []
        for a, b in pairs:
            sa, sb = self.st[a], self.st[b]
            high, low = (sa, sb) if ranks_higher(sa, sb) else (sb, sa)
            white, black, rule, reason = allocate(sa, sb, init, parity)
            rows.append(((-high.score, -low.score, high.tpn), white, black, rule, reason))
        rows.sort(key=lambda r: r[0])
        boards = [Board(number=k, white=w, black=b) for k, (_, w, b, _, _) in enumerate(rows, start=1)]
        decisions = [ColourDecision(white=w, black=b, rule=rule, reason=reason) for (_, w, b, rule, reason) in rows]
        return boards, decisions

    def verify(self, pairing: Pairing) -> None:
        seen: set[int] = set()
        for b in pairing.boards:
            for pid in (b.white, b.black):
                if pid in seen:
                    raise EngineError(f"internal error: player {pid} paired twice")
                seen.add(pid)
            if not self.legal(self.index[b.white], self.index[b.black]):
                raise EngineError(f"internal error: illegal pair {b.white}-{b.black}")
        if pairing.bye is not None:
            if pairing.bye in seen or not self.st[self.index[pairing.bye]].pab_eligible:
                raise EngineError(f"internal error: bye player {pairing.bye} is paired or not eligible ([C2])")
            seen.add(pairing.bye)
        if seen != {st.id for st in self.st}:
            raise EngineError("internal error: players left unpaired")
