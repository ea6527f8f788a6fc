"""The triage of a round where py4swiss's Burstein pairing differs from ours (used by
scripts/compare_pairings_py4swiss.py --system burstein).

py4swiss 0.3.1 reads three articles otherwise than we do, each visible in its source:

* ``C2-F``: its [C2] bars the PAB after a PAB or a forfeit win only, not after a
  full-point bye (Basic Rule 4 of 2026 bars it after any round scored as a win without
  playing; docs/burstein.md B4).  Its Dutch engine, which pairs the seeding rounds, reads
  [C2] the same way.
* ``B3``: its 1.7.2 exception (a run of zero-point byes read as draws by the opponents)
  applies only to a player all of whose rounds are zero-point byes, and in the Buchholz
  only (ours: the run that ends the history, in both methods; B3).
* The PAB: after the seeding rounds a differing PAB decides the round (1.9: it is
  assigned first) and is measured by 3.1 (3.1.3 lowest score, 3.1.4 most games, 3.1.5
  lowest ranking by the Index); its weight ranks the games played from the most (rank
  0) and the matching maximises it (the Dubov campaign's F1), so it can give the bye to
  a player with fewer games.
* ``C6``: its [C6] weight gives each score of the bracket a field of bits, the highest
  score the least significant (``State._get_score_bits``), so the matching pairs the
  lowest scores first and floats the highest ([C6] asks the outgoing floaters' scores,
  from the highest, to be as low as possible); its [C7] reads the scores of the floaters
  paired in the following bracket with the same fields.
* ``TPN``: when neither player has played (Burstein 5.2.1, Dutch 5.2.5) the parity of the
  higher player's TPN decides the colours; it takes the TPN as it stands, we number again
  the players taking part (a late entry still to come or an absent player who has never
  been paired takes no number: docs/burstein.md B14, docs/dutch.md DL9, as bbpPairings v6).

A differing round is paired again by our engine with every reading that can matter in
it switched on (the switches patch the engine in this process only; with ``C6`` the fast
path is off and the weighted matching pairs every bracket); when that gives py4swiss's
pairing (pairs, colours and PAB), the readings are dropped one by one while it still
does, and the ones left name the kind.  The seeding rounds (1.6) are paired by the Dutch system: py4swiss's Dutch engine
reads the 2017 text (ours the 2026 one, compared with bbpPairings in docs/validation.md),
so a seeding round no switch explains is counted as that.  After the seeding rounds both
pairings are first measured by the rules as we read them: an absolute criterion broken,
the PAB's order (3.1), then the first bracket from the top whose pairs differ, by [C5],
[C6], [C7] (the following bracket as each pairing paired it) and [C8], then the order of
4.3.  A kind that starts with "OURS" (ours worse on a measure) is read by hand; what the
readings leave is measured the same way against our pairing with the readings on.
"""

from __future__ import annotations

import contextlib
import sys
from dataclasses import replace
from decimal import Decimal
from pathlib import Path

sys.path.insert(0, str(Path(__file__).resolve().parent.parent))

from pairing.engine import NoLegalPairing, System, pair_round  # noqa: E402
from pairing.engine.burstein import pairer as burstein_pairer  # noqa: E402
from pairing.engine.burstein import state as burstein_state  # noqa: E402
from pairing.engine.burstein.colours import allocate, c8_violation  # noqa: E402
from pairing.engine.burstein.criteria import BursteinLevels  # noqa: E402
from pairing.engine.dutch import pairer as dutch_pairer  # noqa: E402
from pairing.engine.dutch import state as dutch_state  # noqa: E402
from pairing.engine.history import parity_tpns  # noqa: E402
from pairing.engine.model import Result  # noqa: E402
from pairing.engine.weighted import Level  # noqa: E402

SWITCHES = ("C2-F", "TPN", "C6", "B3")
NAMES = {
    "C2-F": "PAB after a full-point bye ([C2]; theirs does not bar it)",
    "B3": "Index: a run of zero-point byes read as draws only for a player with no other round, Buchholz only (1.7.2)",
    "C6": "[C6] reversed: the highest scores float first",
    "TPN": "colours of players yet to play by the TPN as it stands (5.2.1; ours: numbered among those taking part)",
}


def _pab_without_full_point_bye(history, points) -> bool:
    """py4swiss's [C2]: no PAB and no forfeit win so far (a full-point bye does not bar)."""
    return not any(e.result in (Result.PAIRING_BYE, Result.FORFEIT_WIN) for e in history)


def _their_index(snapshot, states):
    """py4swiss's Buchholz and Sonneborn-Berger: an unplayed round against oneself, the
    zero-point-bye exception only for a player whose every round is a zero-point bye (all
    of them draws), in the Buchholz only."""
    pts = snapshot.points
    real = {pid: st.points for pid, st in states.items()}
    seen = dict(real)
    for p in snapshot.players:
        if p.history and all(e.result is Result.ZERO_BYE for e in p.history):
            seen[p.id] = pts.draw * len(p.history)
    out = {}
    for p in snapshot.players:
        bh = sb = Decimal(0)
        for e in p.history:
            got = pts.points(e.result)
            bh += seen[e.opponent] if e.played else real[p.id]
            sb += got * (real[e.opponent] if e.played else real[p.id])
        out[p.id] = (bh, sb)
    return out


def _tpns_as_they_stand(snapshot) -> dict[int, int]:
    return {p.id: p.tpn for p in snapshot.players}


def _levels_lowest_first(self, states, vertices, nb, nn, relaxed):
    """py4swiss's [C6] and the score part of its [C7]: our levels of
    :class:`pairing.engine.burstein.criteria.BursteinLevels` with the scores taken from the
    lowest (its bit fields: the highest score least significant)."""
    self.vertices = list(vertices)
    st = [states[v] for v in vertices]
    self.st = st
    n = len(st)
    self.nb, self.nn = nb, nn
    score = [x.score for x in st]
    in_b = [i < nb for i in range(n)]
    in_n = [nb <= i < nb + nn for i in range(n)]
    b_scores = sorted({score[i] for i in range(nb)})
    count = {}
    for i in range(nb):
        count[score[i]] = count.get(score[i], 0) + 1
    levels = [Level("completion", (lambda i, j: 0) if relaxed else (lambda i, j: 1), False),
              Level("C5", lambda i, j: 1 if in_b[j] else 0, True, label="pairs")]
    for sigma in b_scores:
        levels.append(Level("C6", lambda i, j, s=sigma: ((score[i] == s) + (score[j] == s)) if in_b[j] else 0,
                            True, count[sigma], "", sigma=sigma))
    if nn:
        levels.append(Level("C7", lambda i, j: 1 if in_n[j] and (in_b[i] or in_n[i]) else 0, False,
                            (nb + nn) // 2, ""))
        for sigma in b_scores:
            levels.append(Level("C7", lambda i, j, s=sigma: 1 if in_b[i] and in_n[j] and score[i] == s else 0,
                                False, min(count[sigma], nn), "", sigma=sigma))
    levels.append(Level("C8", lambda i, j: 1 if in_b[j] and not c8_violation(st[i], st[j]) else 0, True,
                        label="", against="pairs"))
    self.all_levels = levels


@contextlib.contextmanager
def readings(on: tuple[str, ...]):
    """Our engine with py4swiss's readings ``on`` (in this process only)."""
    original = burstein_pairer.burstein_states
    saved = (burstein_state.pab_eligible, dutch_state.pab_eligible)
    parity = (burstein_pairer.parity_tpns, dutch_pairer.parity_tpns)
    levels_init, fast_min = BursteinLevels.__init__, burstein_pairer.FAST_MIN

    def states(snapshot):
        got = original(snapshot)
        if "B3" in on:
            index = _their_index(snapshot, got)
            got = {pid: replace(st, buchholz=index[pid][0], sonneborn_berger=index[pid][1]) for pid, st in got.items()}
        return got

    try:
        if "C2-F" in on:
            burstein_state.pab_eligible = dutch_state.pab_eligible = _pab_without_full_point_bye
        if "TPN" in on:
            burstein_pairer.parity_tpns = dutch_pairer.parity_tpns = _tpns_as_they_stand
        if "C6" in on:
            BursteinLevels.__init__ = _levels_lowest_first
            burstein_pairer.FAST_MIN = 10**9
        burstein_pairer.burstein_states = states
        yield
    finally:
        burstein_pairer.burstein_states = original
        burstein_state.pab_eligible, dutch_state.pab_eligible = saved
        burstein_pairer.parity_tpns, dutch_pairer.parity_tpns = parity
        BursteinLevels.__init__, burstein_pairer.FAST_MIN = levels_init, fast_min


def pairing_of(snapshot, on: tuple[str, ...] = ()):
    """(boards as (white, black), bye) by our engine with the readings ``on``; None when it
    finds no pairing."""
    with readings(on):
        try:
            p = pair_round(replace(snapshot, system=System.BURSTEIN))
        except NoLegalPairing:
            return None
    return {(b.white, b.black) for b in p.boards}, p.bye


def is_seeding(snapshot) -> bool:
    return snapshot.round_number <= burstein_state.seeding_rounds(snapshot.total_rounds)


def relevant(snapshot, seeding: bool) -> tuple[str, ...]:
    """The readings that can change this round's pairing."""
    pts = snapshot.points
    present = [p for p in snapshot.players if p.id not in snapshot.absent]
    odd = len(present) % 2 == 1
    on = []
    if odd and any(e.result is Result.FULL_BYE or (not e.played and e.result is not Result.PAIRING_BYE
                                                   and pts.points(e.result) >= pts.win)
                   for p in present for e in p.history):
        on.append("C2-F")
    if any(not any(e.played for e in p.history) for p in present) and parity_tpns(snapshot) != {
            p.id: p.tpn for p in snapshot.players if p.id in parity_tpns(snapshot)}:
        on.append("TPN")
    if seeding:
        return tuple(on)
    on.append("C6")
    if any(p.history and p.history[-1].result is Result.ZERO_BYE for p in snapshot.players):
        on.append("B3")
    return tuple(on)


def classify(ours, theirs, snapshot) -> str:
    """The kind of difference of py4swiss's pairing ``theirs`` from ``ours`` (each a set of
    (white, black) and the bye) on the round of ``snapshot``.  After the seeding rounds the
    two are first measured by the rules as we read them (a round where ours is worse is
    marked "OURS ... read"); the kind then names the readings that give theirs."""
    if theirs == ours:
        return "identical"
    seeding = is_seeding(snapshot)
    verdict = "" if seeding else measure(ours, theirs, snapshot, ())
    if "OURS" in verdict:
        kind, _, where = verdict.partition(" in bracket ")
        return f"{kind} | bracket {where}" if where else verdict
    if not seeding and theirs[1] != ours[1]:  # the PAB is assigned first (1.9, 3.1): it decides the round
        return _pab_kind(ours[1], theirs[1], snapshot)
    on = relevant(snapshot, seeding)
    if on and pairing_of(snapshot, on) == theirs:
        for switch in list(on):
            fewer = tuple(x for x in on if x != switch)
            if pairing_of(snapshot, fewer) == theirs:
                on = fewer
        kind = "; ".join(NAMES[x] for x in on)
        return f"seeding round: {kind}" if seeding else kind
    if seeding:
        return "seeding round: py4swiss's Dutch engine (the 2017 Dutch text)" + (
            f" | readings {', '.join(on)} not enough" if on else "")
    mine = pairing_of(snapshot, on) if on else ours
    rest = measure(mine, theirs, snapshot, on) if mine is not None else "OURS finds no pairing with the readings"
    if "OURS" in rest:
        # our engine with py4swiss's readings on measures worse than py4swiss: the readings
        # are not all of its behaviour (its [C7] is not "the best the following bracket can
        # do", which our engine keeps with [C6] reversed too).  The round is named by the
        # measure of our own engine against theirs (never worse: checked first).
        rest = verdict
    kind, _, where = rest.partition(" in bracket ")
    readings_on = ", ".join(on) or "none"
    return f"left by the readings: {kind} | readings {readings_on}" + (f"; bracket {where}" if where else "")


def measure(ours, theirs, snapshot, on: tuple[str, ...]) -> str:
    """Where ``theirs`` leaves ``ours`` by the rules' measures, with the readings ``on``: an
    absolute criterion, the PAB (3.1), else the first bracket from the top whose pairs
    differ, judged by [C5], [C6], [C7] (the following bracket as each pairing paired it)
    and [C8], then the order of 4.3."""
    with readings(on):
        states = burstein_pairer.burstein_states(snapshot)
    if _same_pairs(ours, theirs):
        parity = (_tpns_as_they_stand if "TPN" in on else parity_tpns)(snapshot)
        rules = {allocate(states[w], states[b], snapshot.initial_colour, parity)[2] for w, b in theirs[0] - ours[0]}
        return "same pairs, other colours: " + ", ".join(sorted(rules))
    if _breaks(snapshot, states, theirs[0]):
        return "theirs breaks an absolute criterion ([C1] or [C3])"
    if _breaks(snapshot, states, ours[0]):
        return "OURS breaks an absolute criterion: read"
    if theirs[1] != ours[1]:
        return _pab(ours[1], theirs[1], states)
    return _brackets(ours, theirs, snapshot, states, "C6" in on)


def _pab_kind(ours: int | None, theirs: int | None, snapshot) -> str:
    """Why py4swiss's PAB is another player's, measured by 3.1 with our figures; a
    difference in 3.1.5 (the Index) that its Index explains is named so."""
    states = burstein_state.burstein_states(snapshot)
    if ours is not None and theirs is not None and not states[theirs].pab_eligible:
        if _pab_without_full_point_bye(next(p.history for p in snapshot.players if p.id == theirs), None):
            return "PAB: " + NAMES["C2-F"]
    kind = _pab(ours, theirs, states)
    if "3.1.5" in kind:
        with readings(("B3",)):
            index = burstein_pairer.burstein_states(snapshot)
        if (index[theirs].buchholz, index[theirs].sonneborn_berger) != (states[theirs].buchholz,
                                                                       states[theirs].sonneborn_berger) or \
                (index[ours].buchholz, index[ours].sonneborn_berger) != (states[ours].buchholz,
                                                                         states[ours].sonneborn_berger):
            return "PAB: by 3.1.5, the lowest ranking by the Index as theirs reads it (" + NAMES["B3"] + ")"
    return kind


def _pab(ours: int | None, theirs: int | None, states) -> str:
    if ours is None or theirs is None:
        return "OURS and theirs disagree on whether there is a PAB: read"
    a, b = states[ours], states[theirs]
    if not b.pab_eligible:
        return "PAB: theirs to a player not eligible ([C2])"
    key = lambda st: (st.score, -st.games_played, st.buchholz, st.sonneborn_berger, -st.tpn)  # noqa: E731
    for name, x, y in (("3.1.3 lowest score", a.score, b.score), ("3.1.4 most games", -a.games_played,
                       -b.games_played), ("3.1.5 lowest ranking", key(a)[2:], key(b)[2:])):
        if x != y:
            return (f"PAB: theirs later in the order of 3.1 ({name})" if y > x
                    else f"PAB: theirs earlier in the order of 3.1 ({name}); ours leaves it by 3.1.2 or else: read")
    return "PAB differs otherwise: read"


def _brackets(ours, theirs, snapshot, states, lowest_first: bool) -> str:
    partner_of = []
    for pairing in (ours, theirs):
        partner = {}
        for w, b in pairing[0]:
            partner[w], partner[b] = b, w
        partner_of.append(partner)
    everyone = [p.id for p in snapshot.players if p.id not in snapshot.absent and p.id != ours[1]]
    scores = sorted({states[x].score for x in everyone}, reverse=True)
    groups = {sc: [x for x in everyone if states[x].score == sc] for sc in scores}
    incoming: list[tuple[int, ...]] = [(), ()]
    for k, sc in enumerate(scores):
        nxt = groups[scores[k + 1]] if k + 1 < len(scores) else []
        cut = [_cut(sorted([*incoming[i], *groups[sc]], key=lambda x: states[x].ranking_key), partner_of[i])
               for i in (0, 1)]
        if {frozenset(p) for p in cut[0][0]} == {frozenset(p) for p in cut[1][0]}:
            incoming = [cut[0][1], cut[1][1]]
            continue
        values = [_value(states, cut[i], nxt, partner_of[i], lowest_first) for i in (0, 1)]
        for name, a, b in zip(("[C5]", "[C6]", "[C7]", "[C8]"), values[0], values[1], strict=True):
            if a != b:
                who = "theirs" if b < a else "OURS"
                tail = "" if who == "theirs" else ": read"
                return f"{who} worse on {name}{tail} in bracket {sc.normalize():f}"
        order = [_order(cut[i][2], cut[i][0]) for i in (0, 1)]
        if order[1] > order[0]:
            return f"equal on [C5]-[C8], theirs later in the order of 4.3 in bracket {sc.normalize():f}"
        return f"equal on [C5]-[C8], OURS later in the order of 4.3: read in bracket {sc.normalize():f}"
    return "OURS and theirs differ below the last bracket: read"


def _cut(bracket, partner):
    members = set(bracket)
    pairs = tuple((x, partner[x]) for x in bracket if partner.get(x) in members and bracket.index(x)
                  < bracket.index(partner[x]))
    out = tuple(x for x in bracket if partner.get(x) not in members)
    return pairs, out, bracket


def _value(states, cut, nxt, partner, lowest_first: bool):
    pairs, out, _ = cut
    scores = sorted(states[x].score for x in out)
    c6 = tuple(scores) if lowest_first else tuple(-x for x in reversed(scores))
    following = set(out) | set(nxt)
    paired = {x for x in following if partner.get(x) in following}
    by_score = sorted(states[x].score for x in out if x in paired)
    c7 = (len(paired) // 2, tuple(-x for x in by_score) if lowest_first else tuple(reversed(by_score)))
    c8 = -sum(1 for x, y in pairs if c8_violation(states[x], states[y]))
    return len(pairs), c6, c7, c8


def _order(bracket, pairs) -> tuple:
    """4.3: BSN 1's opponent's BSN, then BSN 2's...; a larger BSN first, a floater (0) last."""
    bsn = {x: k for k, x in enumerate(bracket, start=1)}
    opp = dict.fromkeys(bracket, 0)
    for x, y in pairs:
        opp[x], opp[y] = bsn[y], bsn[x]
    return tuple(-opp[x] for x in bracket)


def _same_pairs(a, b) -> bool:
    return {frozenset(x) for x in a[0]} == {frozenset(x) for x in b[0]} and a[1] == b[1]


def _breaks(snapshot, states, boards) -> bool:
    by_id = {p.id: p for p in snapshot.players}
    for w, b in boards:
        if any(e.played and e.opponent == b for e in by_id[w].history):
            return True
        if states[w].absolute and states[b].absolute and states[w].preference is states[b].preference:
            return True
    return False


# ---------------------------------------------------------------- the table of docs/validation.md

_COUNTS = ("seeding rounds", "rounds", "identical", "seeding rounds identical", "tournaments")
# every kind "the readings give theirs" can be: the readings in SWITCHES order, joined
_KINDS_OF_READINGS = {}
for _mask in range(1, 1 << len(SWITCHES)):
    _on = [x for i, x in enumerate(SWITCHES) if _mask >> i & 1]
    _KINDS_OF_READINGS["; ".join(NAMES[x] for x in _on)] = set(_on)


def _readings_of(kind: str) -> set[str] | None:
    """The readings a kind of "readings give theirs" names, or None for another kind."""
    return _KINDS_OF_READINGS.get(kind)


GROUPS = (  # (row, which rounds, which kinds), in the order docs/validation.md lists them
    ("S1 TPN parity of players yet to play (5.2.1; reading B14)", "seeding",
     lambda k: _readings_of(k.removeprefix("seeding round: ")) == {"TPN"}),
    ("S2 py4swiss's Dutch engine, the 2017 text (expected)", "seeding",
     lambda k: k.startswith("seeding round: py4swiss's Dutch")),
    ("S3 its Dutch [C2]: a PAB after a full-point bye (expected; with S1 in some)", "seeding",
     lambda k: k.startswith("seeding round: ") and "C2-F" in (_readings_of(k.removeprefix("seeding round: ")) or ())),
    ("Y1 [C6] reversed (the highest scores float first)", "post", lambda k: _readings_of(k) == {"C6"}),
    ("Y1 with the readings below (B3, B14)", "post", lambda k: "C6" in (_readings_of(k) or ()) and k != NAMES["C6"]),
    ("the readings alone: its 1.7.2 exception (B3), the TPN parity (B14)", "post",
     lambda k: _readings_of(k) is not None and "C6" not in _readings_of(k)),
    ("Y2 PAB to a player with fewer games (3.1.4)", "post", lambda k: "theirs later in the order of 3.1 (3.1.4" in k),
    ("Y3 PAB after a full-point bye ([C2], expected)", "post", lambda k: k == "PAB: " + NAMES["C2-F"]),
    ("PAB by 3.1.5 with its Index (reading B3)", "post", lambda k: k.startswith("PAB: by 3.1.5")),
    ("Y4 equal on [C5]-[C8], not the first in the order of 4.3", "post",
     lambda k: "theirs later in the order of 4.3" in k),
    ("Y6 worse on [C8]", "post", lambda k: "theirs worse on [C8]" in k),
    ("Y7 worse on [C7]", "post", lambda k: "theirs worse on [C7]" in k),
    ("Y1 worse on [C6], with other behaviour in the same round", "post", lambda k: "theirs worse on [C6]" in k),
    ("Y5 py4swiss fails: at most one player left to pair", "post", lambda k: k == "py4swiss failed"),
    ("py4swiss found no pairing", "post", lambda k: k == "py4swiss found no pairing"),
)


def table(tally) -> str:
    """The campaign's figures as docs/validation.md shows them (Markdown); raises when a
    differing round falls in no row or in two."""
    seeding, seed_id = tally.get("seeding rounds", 0), tally.get("seeding rounds identical", 0)
    rounds, ident = tally.get("rounds", 0), tally.get("identical", 0)
    post, post_id = rounds - seeding, ident - seed_id
    kinds = {k: v for k, v in tally.items() if k not in _COUNTS and v}
    for k in kinds:
        rows = [name for name, _, match in GROUPS if match(k)] + (["OURS"] if "OURS" in k else [])
        if len(rows) != 1:
            raise ValueError(f"{k!r} falls in {rows or 'no row'}")

    def share(v, of):
        return f"{100 * v / of:.1f} %" if of else ""

    out = ["| | Rounds | Share |", "|---|---:|---:|",
           f"| Tournaments | {tally.get('tournaments', 0):,} | |", f"| Rounds compared | {rounds:,} | |",
           f"| Identical | {ident:,} | {share(ident, rounds)} |",
           f"| **Seeding rounds (1.6: paired by the Dutch system)** | {seeding:,} | {share(seeding, rounds)} |",
           f"| ... identical | {seed_id:,} | {share(seed_id, seeding)} |"]
    for part, of in (("seeding", seeding), ("post", post)):
        if part == "post":
            out += [f"| **Rounds after the seeding rounds** | {post:,} | {share(post, rounds)} |",
                    f"| ... identical | {post_id:,} | {share(post_id, post)} |"]
        for name, where, match in GROUPS:
            if where == part:
                v = sum(n for k, n in kinds.items() if match(k))
                out.append(f"| ... {name} | {v:,} | {share(v, of)} |")
    worse = sum(n for k, n in kinds.items() if "OURS" in k)
    out.append(f"| **Ours worse on any measure** | {worse:,} | {share(worse, post)} |")
    return "\n".join(out)
