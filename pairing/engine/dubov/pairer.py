"""The Dubov pairing procedure: :func:`pair_round`.

Article numbers are those of C.04.4.1 as applied from 1 July 2025; the text applied
from 1 February 2026 moved the criteria to Article 2 and the procedure to Article 3
(2025 "2.1 PAB" = 2026 "3.1", 2025 "2.2.x" = 2026 "3.2.x", 2025 "3.x criteria" = 2026
"2.x").  Reading decisions D1-D14 are in ``shared/docs/dubov-engine.md (the team's engine notes)``; the
further ones are in ``docs/interpretation.md``.

Outline (each step is local to one bracket; see the method docstrings for costs):

1. validate the snapshot, compute the player figures (``state.player_states``);
2. the PAB (2.1) if the number of players to pair is odd, completion checked by one
   maximum-matching test per candidate tried (C4);
3. brackets in descending score: the minimum number of upfloaters (2.2.1), the best
   set by C6 (containers, D12) then C7..C10 then 4.2 order (2.2.2), G1/G2 (2.2.3),
   shifts (2.2.4), S1 (2.2.5), T2 (2.2.6);
4. colours (Article 5), board order, and a final verification of the output.

Legality (D11) is one predicate, :meth:`_Round.legal`, stored as its complement: each
player's set of met opponents and forbidden partners, plus the absolute-preference
class.  No O(n^2) structure is ever built for the whole field.
"""

from __future__ import annotations

from collections.abc import Sequence
from decimal import Decimal

from ..matching import has_perfect_matching, maximum_matching
from ..model import (
    _PLAYED_CODES,
    Board,
    BracketTrace,
    ByeDecision,
    Colour,
    ColourDecision,
    EngineError,
    Explanation,
    NoLegalPairing,
    Pairing,
    PreferenceStrength,
    Snapshot,
)
from .brackets import BracketPairing
from .colours import allocate, ranks_higher, who
from .floaters import FloatersDown
from .islands import IslandOpponents
from .state import PlayerState, player_states, upfloat_limit
from .upfloaters import UpfloaterChoice, fmt


def pair_round(snapshot: Snapshot) -> Pairing:
    """Pair ``snapshot.round_number`` by the Dubov system (C.04.4.1).

    Raises :class:`InvalidSnapshot` for inconsistent input and :class:`NoLegalPairing`
    when the round cannot be paired (1.8.3: the arbiter decides).  Typical cost
    O(N * R + sum over brackets of |pool|), i.e. near-linear in the field size.
    """
    states = player_states(snapshot)  # validates (style 8)
    return _Round(snapshot, states).run()


class _Round(UpfloaterChoice, BracketPairing, IslandOpponents, FloatersDown):
    """One round being paired.  Players are local indices 0..n-1 (TPN order)."""

    def __init__(self, snapshot: Snapshot, states: dict[int, PlayerState]):
        self.snapshot = snapshot
        present = sorted(
            (st for pid, st in states.items() if pid not in snapshot.absent), key=lambda st: st.tpn
        )
        self.st: list[PlayerState] = present
        index = {st.id: i for i, st in enumerate(present)}
        self.index = index
        n = len(present)
        self.n = n
        rules = snapshot.dubov_rules
        self.rules = rules
        self.score = [st.score for st in present]
        self.tpn = [st.tpn for st in present]
        # the ARO every comparison uses: rounded (2025 1.6.1) or not (1997 1.2)
        self.aro = [st.aro_exact if rules.aro_unrounded else st.aro for st in present]
        self.rating = [st.rating for st in present]
        self.white_seeker = [st.preference.colour is Colour.WHITE for st in present]
        self.absc = [
            (1 if st.preference.colour is Colour.WHITE else 2)
            if st.preference.strength is PreferenceStrength.ABSOLUTE
            else 0
            for st in present
        ]
        blocked: list[set[int]] = [set() for _ in range(n)]
        by_id = {p.id: p for p in snapshot.players}
        self.name_key = [by_id[st.id].name.casefold() for st in present]  # 1997: "alphabetically"
        # the opponents of played games (C1), the entries unpacked and their codes tested:
        # RoundEntry.played is two Python calls (400,000 entries at 10,000 x 40)
        played = _PLAYED_CODES
        for i, st in enumerate(present):
            blocked[i].update(index[opponent] for opponent, _colour, result in by_id[st.id].history
                              if opponent in index and result._value_ in played)
        for pair in snapshot.forbidden:
            a, b = tuple(pair)
            if a in index and b in index:
                blocked[index[a]].add(index[b])
                blocked[index[b]].add(index[a])
        self.blocked = blocked
        self.last_round = snapshot.round_number == snapshot.total_rounds  # D9
        self.max_up = [st.max_upfloater for st in present]
        self.ups = [st.upfloats for st in present]
        self.up_prev = [st.upfloated_previous for st in present]
        self.order_name = "4.2"
        if rules.upfloaters_by_rating:
            self.order_name = "7.1-7.2 (rules of 1997: score, highest rating, lowest ARO)"
        if rules.upfloat_bars:
            # 1997 2.1 instead of C8-C10: the C8 figure counts the barred upfloaters (upfloated
            # in the previous round, or as often as the limit allows), C9 and C10 are off
            self.bar_limit = upfloat_limit(snapshot.total_rounds, rules)
            self.max_up = [st.max_upfloater or st.upfloated_previous for st in present]
            self.ups = [0] * n
            self.up_prev = [False] * n
        self._rejected: list[tuple[tuple[int, ...], str]] = []  # explanation of 2.2.2
        self.look_ahead = True  # C4 in every choice (scripts/dubov_1997_limits.py turns it off: the text's dead ends)

    # ------------------------------------------------------------ legality (D11)

    def legal(self, a: int, b: int) -> bool:
        """D11: not met in a played game, not forbidden, not the same absolute
        preference (C1, C3).  O(1)."""
        if a == b or b in self.blocked[a]:
            return False
        c = self.absc[a]
        return c == 0 or c != self.absc[b]

    def _order(self, vs: Sequence[int]) -> list[int]:
        """Greedy order for matchings: absolute-preference players first (the
        classes are the dense part of the complement)."""
        return sorted(range(len(vs)), key=lambda i: (self.absc[vs[i]] == 0, -len(self.blocked[vs[i]])))

    def complete(self, vs: Sequence[int]) -> bool:
        """C4: the players ``vs`` have a perfect matching of legal pairs.
        Greedy plus Edmonds augmentations: near O(|vs|) on a typical field,
        O(|vs|^3) worst case."""
        if len(vs) % 2:
            return False
        legal = self.legal
        return has_perfect_matching(len(vs), lambda a, b: legal(vs[a], vs[b]), self._order(vs))

    def completes(self, vs: Sequence[int]) -> bool:
        """C4 as a choice's look-ahead: :meth:`complete`; True when ``look_ahead`` is off
        (the 1997 procedure as the text makes it, each choice at once: it raises
        ``floaters.DeadEnd`` where C4 would have passed a choice over; measured by
        scripts/dubov_1997_limits.py, docs/dubov-1997.md reading 16)."""
        return not self.look_ahead or self.complete(vs)

    def unpaired_in_maximum(self, vs: Sequence[int]) -> list[int]:
        """Players a maximum matching of ``vs`` leaves unpaired (for NoLegalPairing)."""
        legal = self.legal
        mate = maximum_matching(len(vs), lambda a, b: legal(vs[a], vs[b]), self._order(vs))
        return [vs[i] for i in range(len(vs)) if mate[i] == -1]

    def upfloater_key(self, i: int) -> tuple:
        """1997 7.1-7.2 (b, c): "the player with the highest R ... the same R, the one with
        the lowest ARO"; then alphabetically and TPN (readings of docs/dubov-1997.md)."""
        return (-self.rating[i], self.aro[i], self.name_key[i], self.tpn[i])

    def name(self, i: int) -> str:
        return who(self.st[i])

    def names(self, vs: Sequence[int]) -> str:
        return ", ".join(self.name(i) for i in vs) if vs else "none"

    # ------------------------------------------------------------ driver

    def run(self) -> Pairing:
        snap = self.snapshot
        everyone = list(range(self.n))
        bye, bye_decision = self.choose_bye(everyone)
        remaining = [i for i in everyone if i != bye]
        pairs: list[tuple[int, int]] = []
        traces: list[BracketTrace] = []
        # scoregroups, descending
        groups: dict[Decimal, list[int]] = {}
        for i in remaining:
            groups.setdefault(self.score[i], []).append(i)  # TPN order within a group
        scores = sorted(groups, reverse=True)
        ranked = groups  # 4.2.2: a score's possible upfloaters by initial ranking (TPN)
        if self.rules.upfloaters_by_rating:  # 1997 7.1-7.2 b-c: highest rating, then lowest ARO
            ranked = {t: sorted(g, key=self.upfloater_key) for t, g in groups.items()}
        taken = [False] * self.n
        if self.rules.floaters_down:  # 1997 6.4 and 8: floaters moved down
            floated, traces = self.pair_groups_floating(groups, scores, ranked)
            pairs.extend(floated)
            scores = []
        for gi, s in enumerate(scores):
            residents = [i for i in groups[s] if not taken[i]]
            if not residents:
                continue
            pool = [i for t in scores[gi + 1 :] for i in ranked[t] if not taken[i]]
            islands: list[tuple[int, int]] = []
            island_notes: list[str] = []
            if self.rules.island_opponents:  # 1997 7.1: each island's own opponent first
                islands, island_notes = self.island_opponents(residents, pool)
                for pair in islands:
                    for i in pair:
                        taken[i] = True
                pairs.extend(islands)
            rest = [i for i in residents if not taken[i]]
            if not rest:
                traces.append(self.islands_trace(s, residents, islands, island_notes))
                continue
            if islands:
                pool = [i for i in pool if not taken[i]]
            got = self.choose_upfloaters(s, rest, pool)
            assert got is not None
            ups, up_reason, ev = got
            bracket = rest + list(ups)
            for i in bracket:
                taken[i] = True
            bpairs, trace = self.pair_bracket(s, rest, ups, up_reason, ev.u)
            pairs.extend(bpairs)
            if islands:
                trace = self.islands_trace(s, residents, islands, island_notes, trace)
            traces.append(trace)
        boards, colours = self.colours_and_boards(pairs)
        bye_id = self.st[bye].id if bye is not None else None
        pairing = Pairing(
            round_number=snap.round_number,
            boards=tuple(boards),
            bye=bye_id,
            explanation=Explanation(bye=bye_decision, brackets=tuple(traces), colours=tuple(colours)),
        )
        self.verify(pairing)
        return pairing

    # ------------------------------------------------------------ 2.1 PAB

    def choose_bye(self, everyone: list[int]) -> tuple[int | None, ByeDecision]:
        """2.1 (2026: 3.1): among C2-eligible players (D8), the first in the order
        lowest score, most played games, lowest initial ranking (largest TPN) whose
        removal leaves a complete pairing (C4).  One completion test per candidate
        tried, usually one."""
        if self.n % 2 == 0:
            if not self.complete(everyone):
                bad = self.unpaired_in_maximum(everyone)
                raise NoLegalPairing(
                    "No complete round-pairing exists (C1/C3/C4): players "
                    f"{self.names(bad)} cannot all be paired legally; the arbiter decides (1.8.3).",
                    tuple(self.st[i].id for i in bad),
                )
            return None, ByeDecision(player=None, reason="Even number of players to pair: no pairing-allocated bye.")
        eligible = [i for i in everyone if self.st[i].pab_eligible]
        if self.rules.bye_by_rating:
            eligible.sort(key=self._bye_key_1997(everyone))
        else:
            eligible.sort(key=lambda i: (self.score[i], -self.st[i].games_played, -self.tpn[i]))
        rejected: list[int] = []
        for c in eligible:
            rest = [i for i in everyone if i != c]
            if self.complete(rest):
                ids = tuple(self.st[i].id for i in eligible)
                reason = self._bye_reason(c, eligible, rejected)
                return c, ByeDecision(
                    player=self.st[c].id,
                    eligible=ids,
                    rejected_incomplete=tuple(self.st[i].id for i in rejected),
                    reason=reason,
                )
            rejected.append(c)
            if len(rejected) == 1:
                # one maximum matching of everyone: more than one player left over means
                # no choice of bye can complete the round (saves trying every candidate)
                left_over = self.unpaired_in_maximum(everyone)
                if len(left_over) > 1:
                    raise NoLegalPairing(
                        "No complete round-pairing exists whoever gets the bye (C1/C3/C4): players "
                        f"{self.names(left_over)} cannot all be paired legally; the arbiter decides (1.8.3).",
                        tuple(self.st[i].id for i in left_over),
                    )
        if not eligible:
            msg = "Odd number of players and nobody is eligible for the pairing-allocated bye (C2)"
            bad = everyone
        else:
            msg = (
                "Odd number of players and no bye-eligible player leaves a complete pairing of the "
                f"others (2.1.2 / C4); tried {self.names(eligible)}"
            )
            bad = self.unpaired_in_maximum(everyone)
        raise NoLegalPairing(msg + "; the arbiter decides (1.8.3).", tuple(self.st[i].id for i in bad))

    def _bye_key_1997(self, everyone: list[int]):
        """1997 4: "the player from the lowest score group who has the lowest R"; with the
        lowest R in both colour subgroups, the one due to the dominating colour (the
        colour more players of his scoregroup are due; none when equal), and among equal R
        the higher ARO; then the lowest in the initial ranking (reading).  Eligibility (C2)
        and completion (2.1.2) stay as in 2025 (readings of docs/dubov-1997.md)."""
        whites: dict[Decimal, int] = {}
        sizes: dict[Decimal, int] = {}
        for i in everyone:
            sizes[self.score[i]] = sizes.get(self.score[i], 0) + 1
            whites[self.score[i]] = whites.get(self.score[i], 0) + self.white_seeker[i]

        def off_dominant(i: int) -> int:
            w, n = whites[self.score[i]], sizes[self.score[i]]
            if 2 * w == n:
                return 0
            return int(self.white_seeker[i] != (2 * w > n))

        return lambda i: (self.score[i], self.rating[i], off_dominant(i), -self.aro[i], -self.tpn[i])

    def _bye_reason(self, c: int, eligible: list[int], rejected: list[int]) -> str:
        st = self.st[c]
        parts = [f"Pairing-allocated bye to {who(st)}"]
        ineligible = self.n - len(eligible)
        if ineligible:
            parts.append(f"{ineligible} player(s) not eligible (C2: earlier PAB, forfeit win or full-point bye)")
        if rejected:
            parts.append(f"{self.names(rejected)} rejected: the others could not all be paired (2.1.2 / C4)")
        others = [i for i in eligible if i != c and i not in rejected]
        if not others:
            parts.append("the only eligible player left")
        elif self.rules.bye_by_rating:
            nxt = others[0]
            if self.score[nxt] != self.score[c]:
                parts.append(f"lowest score {fmt(self.score[c])} (4; next {self.name(nxt)} has {fmt(self.score[nxt])})")
            elif self.rating[nxt] != self.rating[c]:
                parts.append(f"score {fmt(self.score[c])}, lowest rating {self.rating[c]} "
                             f"(4, rules of 1997; {self.name(nxt)} has {self.rating[nxt]})")
            else:
                parts.append(f"score {fmt(self.score[c])}, rating {self.rating[c]} as {self.name(nxt)}: the dominating "
                             "due colour, then the higher ARO, then the lower initial ranking (4, rules of 1997)")
        else:
            nxt = others[0]
            if self.score[nxt] != self.score[c]:
                parts.append(f"lowest score {fmt(self.score[c])} (2.1.3; next {self.name(nxt)} has {fmt(self.score[nxt])})")
            elif self.st[nxt].games_played != st.games_played:
                parts.append(
                    f"score {fmt(self.score[c])}, most games played {st.games_played} "
                    f"(2.1.4; {self.name(nxt)} played {self.st[nxt].games_played})"
                )
            else:
                parts.append(
                    f"score {fmt(self.score[c])}, {st.games_played} games played, lowest in the initial "
                    f"ranking (2.1.5: TPN {st.tpn}; next {self.name(nxt)})"
                )
        return "; ".join(parts) + "."

    # ------------------------------------------------------------ 2.2.1-2.2.2 upfloaters

    # ------------------------------------------------------------ 2.2.3-2.2.6

    # ------------------------------------------------------------ Article 5, boards

    def colours_and_boards(self, pairs: list[tuple[int, int]]) -> tuple[list[Board], list[ColourDecision]]:
        """Article 5 per pair, then board order (C.04.2 / General Handling Rules):
        higher-ranked player's score, sum of scores, higher-ranked player's TPN.
        O(P log P)."""
        init = self.snapshot.initial_colour
        rules = self.rules
        by_pair = rules.first_round_by_pair and self.snapshot.round_number == 1  # 1997 5
        keyed = []
        for a, b in pairs:
            sa, sb = self.st[a], self.st[b]
            high, low = (sa, sb) if ranks_higher(sa, sb) else (sb, sa)
            keyed.append(((-high.score, -(high.score + low.score), high.tpn), sa, sb))
        keyed.sort(key=lambda r: r[0])
        boards, decisions = [], []
        for k, (_, sa, sb) in enumerate(keyed, start=1):
            white, black, rule, reason = allocate(sa, sb, init, rules, k if by_pair else None)
            boards.append(Board(number=k, white=white, black=black))
            decisions.append(ColourDecision(white=white, black=black, rule=rule, reason=reason))
        return boards, decisions

    # ------------------------------------------------------------ verification

    def verify(self, pairing: Pairing) -> None:
        """Style 8: every present player exactly once, no rematch of a played game, no
        forbidden pair, no two equal absolute preferences, an eligible bye player.  O(N)."""
        seen: set[int] = set()
        for b in pairing.boards:
            for pid in (b.white, b.black):
                if pid in seen:
                    raise EngineError(f"internal error: player {pid} paired twice")
                seen.add(pid)
            if not self.legal(self.index[b.white], self.index[b.black]):
                raise EngineError(f"internal error: illegal pair {b.white}-{b.black}")
        if pairing.bye is not None:
            if pairing.bye in seen:
                raise EngineError(f"internal error: bye player {pairing.bye} also paired")
            if not self.st[self.index[pairing.bye]].pab_eligible:
                raise EngineError(f"internal error: bye player {pairing.bye} is not eligible (C2)")
            seen.add(pairing.bye)
        expected = {st.id for st in self.st}
        if seen != expected:
            missing = sorted(expected - seen)
            raise EngineError(f"internal error: players not paired: {missing}")
