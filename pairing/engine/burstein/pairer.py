"""The Burstein pairing procedure (C.04.4.2, in force from 1 February 2026): :func:`pair_round`.

1. A seeding round (1.6: the first min(R / 2 rounded down, 4) rounds) is paired by the
   Dutch system (:mod:`pairing.engine.dutch`), PAB, colours and boards included.
2. Otherwise: the player figures and the Index (:mod:`.state`); the pairing-allocated
   bye first (1.9, 3.1): an eligible player ([C2], C.04.1 Art. 4) who leaves a complete
   pairing of the others, with the lowest score, then the most games played, then the
   lowest ranking by 1.8 (one cardinality matching per player tried).
3. Brackets from the top scoregroup down: the incoming floaters with the residents,
   ranked by the Index (1.8, BSNs 4.1); the first best candidate of 3.2.2 by the fast
   path (:mod:`.fast`) when it proves it, else by the weighted matching
   (:mod:`.bracket`); its outgoing floaters go to the next bracket.
4. Colours by 5.2 (:mod:`.colours`), board order by C.04.2 Art. 3.6, and a final check of
   the absolute criteria.
"""

from __future__ import annotations

from dataclasses import replace
from decimal import Decimal

from ..history import parity_tpns
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
    Snapshot,
    System,
)
from .bracket import RELAX_BELOW, StandInFailed, solve_bracket
from .colours import allocate, ranks_higher_by_points, who
from .fast import FastBracket
from .state import BursteinPlayerState, burstein_states, is_seeding_round, seeding_rounds

FAST_MIN = 12  # brackets from this size try the fast path first


def pair_round(snapshot: Snapshot) -> Pairing:
    """Pair ``snapshot.round_number`` by the Burstein system (C.04.4.2, 2026 text).

    Raises :class:`InvalidSnapshot` for inconsistent input and :class:`NoLegalPairing`
    when no pairing satisfies [C1]-[C4] (the arbiter decides)."""
    if is_seeding_round(snapshot):
        from ..dutch import pair_round as dutch_pair_round

        pairing = dutch_pair_round(replace(snapshot, system=System.DUTCH))
        note = (f"Seeding round {snapshot.round_number} of {seeding_rounds(snapshot.total_rounds)} (Burstein 1.6): "
                "paired by the rules of the FIDE (Dutch) System.")
        bye = pairing.explanation.bye
        return replace(pairing, explanation=replace(
            pairing.explanation, paired_by=System.DUTCH, bye=replace(bye, reason=f"{note} {bye.reason}")))
    states = burstein_states(snapshot)
    return _Round(snapshot, states).run()


def fmt(score: Decimal) -> str:
    return format(score.normalize(), "f")


class _Round:
    """Players are indices 0..n-1: scoregroups from the top, each in the order of 1.8."""

    def __init__(self, snapshot: Snapshot, states: dict[int, BursteinPlayerState]):
        self.snapshot = snapshot
        present = [st for pid, st in states.items() if pid not in snapshot.absent]
        present.sort(key=lambda st: (-st.score, st.ranking_key))
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
        # [C3]: the absolute preference as a class (1 White, 2 Black)
        self.absc = [(1 if st.preference.value == "w" else 2) if st.absolute else 0 for st in present]

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

    def no_pairing(self, vs: list[int], msg: str) -> None:
        mate = maximum_matching(len(vs), lambda a, b: self.legal(vs[a], vs[b]))
        bad = [vs[i] for i in range(len(vs)) if mate[i] == -1]
        raise NoLegalPairing(
            f"{msg}: players {self.names(bad)} cannot all be paired legally; the arbiter decides.",
            tuple(self.st[i].id for i in bad),
        )

    # ------------------------------------------------------------ 3.1

    def assign_bye(self) -> tuple[int | None, ByeDecision]:
        everyone = list(range(self.n))
        if self.n % 2 == 0:
            if not has_perfect_matching(self.n, self.legal):
                self.no_pairing(everyone, "No complete round-pairing exists ([C1]-[C4])")
            return None, ByeDecision(player=None, reason="Even number of players to pair: no pairing-allocated bye.")
        st = self.st
        # 3.1.3 lowest score, 3.1.4 most games played, 3.1.5 lowest ranking by 1.8
        eligible = sorted((i for i in everyone if st[i].pab_eligible),
                          key=lambda i: (st[i].score, -st[i].games_played, tuple(-x for x in st[i].ranking_key[:2]),
                                         -st[i].tpn))
        if not eligible:
            self.no_pairing(everyone, "Odd number of players and nobody may receive the pairing-allocated bye ([C2])")
        rejected = []
        for i in eligible:
            rest = [v for v in everyone if v != i]
            if has_perfect_matching(len(rest), lambda a, b, rest=rest: self.legal(rest[a], rest[b])):
                return i, self._bye_decision(i, eligible, rejected)
            rejected.append(i)
        self.no_pairing(everyone, "No complete round-pairing exists whoever gets the pairing-allocated bye ([C1]-[C4])")
        raise AssertionError  # pragma: no cover

    def _bye_decision(self, bye: int, eligible: list[int], rejected: list[int]) -> ByeDecision:
        st = self.st[bye]
        parts = [f"Pairing-allocated bye to {who(st)}"]
        barred = self.n - len(eligible)
        if barred:
            parts.append(f"{barred} player(s) may not receive it (3.1.1, [C2]: an earlier PAB, or a win's points "
                         "scored without playing)")
        if rejected:
            parts.append(f"{self.names(rejected)} would leave no complete pairing of the others (3.1.2)")
        parts.append(f"score {fmt(st.score)} (3.1.3 lowest), {st.games_played} game(s) played (3.1.4 most), "
                     f"Index {fmt(st.buchholz)} / {fmt(st.sonneborn_berger)} (3.1.5 lowest ranking by 1.8)")
        return ByeDecision(player=st.id, eligible=tuple(self.st[i].id for i in eligible),
                           rejected_incomplete=tuple(self.st[i].id for i in rejected), reason="; ".join(parts) + ".")

    # ------------------------------------------------------------ driver

    def run(self) -> Pairing:
        snap = self.snapshot
        bye, bye_decision = self.assign_bye()
        groups: dict[Decimal, list[int]] = {}
        for i in range(self.n):
            if i != bye:
                groups.setdefault(self.st[i].score, []).append(i)
        scores = sorted(groups, reverse=True)
        pairs: list[tuple[int, int]] = []
        traces: list[BracketTrace] = []
        floaters: list[int] = []
        for gi, s in enumerate(scores):
            nxt = groups[scores[gi + 1]] if gi + 1 < len(scores) else []
            lower = [i for t in scores[gi + 2:] for i in groups[t]]
            bpairs, floaters, trace = self.pair_bracket(s, floaters, groups[s], nxt, lower)
            pairs.extend(bpairs)
            traces.append(trace)
        if floaters:  # pragma: no cover - completion keeps this from happening
            raise EngineError(f"internal error: players {self.names(floaters)} left unpaired")
        boards, colours = self.colours_and_boards(pairs)
        pairing = Pairing(
            round_number=snap.round_number,
            boards=tuple(boards),
            bye=self.st[bye].id if bye is not None else None,
            explanation=Explanation(bye=bye_decision, brackets=tuple(traces), colours=tuple(colours),
                                    paired_by=System.BURSTEIN),
        )
        self.verify(pairing)
        return pairing

    def pair_bracket(self, score: Decimal, incoming: list[int], residents: list[int], nxt: list[int],
                     lower: list[int]):
        """The bracket's first best candidate: (pairs as round indices, outgoing floaters,
        trace)."""
        st = self.st
        bracket = sorted(incoming + residents, key=lambda i: st[i].ranking_key)
        result = None
        if len(bracket) >= FAST_MIN:
            fast = FastBracket(self, bracket, set(incoming), nxt, lower)
            got = fast.run()
            if got is not None:
                pairs, floaters = got
                notes = ["The first candidate in the order of 4.3 reaches a bound no candidate can pass (by kinds of "
                         "players: colour preferences and their strength), so it is the first best (3.2.2).",
                         f"Reached: {fast.reached}."]
                result = (pairs, floaters, notes)
        if result is None:
            got = None
            if len(lower) > RELAX_BELOW:
                try:
                    got = solve_bracket(self, bracket, nxt, lower, True)
                except StandInFailed:
                    got = None
            if got is None:
                got = solve_bracket(self, bracket, nxt, lower, False)
            result = (got.pairs, got.floaters, got.notes)
        pairs, floaters, notes = result
        ids = [st[v].id for v in bracket]
        trace = BracketTrace(
            score=score,
            residents=tuple(st[i].id for i in sorted(residents, key=lambda i: st[i].ranking_key)),
            moved_down=tuple(st[i].id for i in sorted(incoming, key=lambda i: st[i].ranking_key)),
            s1=tuple(ids[a] for a, _ in pairs),
            t2=tuple(ids[b] for _, b in pairs),
            downfloaters=tuple(ids[p] for p in floaters),
            index=tuple((st[v].id, st[v].buchholz, st[v].sonneborn_berger) for v in bracket),
            notes=tuple(notes),
        )
        return [(bracket[a], bracket[b]) for a, b in pairs], [bracket[p] for p in floaters], trace

    # ------------------------------------------------------------ colours, boards, checks

    def colours_and_boards(self, pairs: list[tuple[int, int]]) -> tuple[list[Board], list[ColourDecision]]:
        """5.2 per pair; boards by C.04.2 Art. 3.6: the higher player's score, the sum of
        both, the higher player's TPN (higher: more points, then the smaller TPN)."""
        init = self.snapshot.initial_colour
        parity = parity_tpns(self.snapshot)
        rows = []
        for a, b in pairs:
            sa, sb = self.st[a], self.st[b]
            high, low = (sa, sb) if ranks_higher_by_points(sa, sb) else (sb, sa)
            white, black, rule, reason = allocate(sa, sb, init, parity)
            rows.append(((-high.score, -(high.score + low.score), high.tpn), white, black, rule, reason))
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
