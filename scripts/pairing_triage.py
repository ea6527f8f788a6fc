"""The triage of a round where another Dubov engine's pairing differs from ours, by the
rules' own measures and in their order (used by scripts/compare_pairings_cppdubov.py and
scripts/compare_pairings_py4swiss.py).

An absolute criterion broken first (C1 meeting again, the colour limits), then the PAB
(C2 eligibility, 2.1.3 lowest score, 2.1.4 most games, 2.1.5 lowest ranked), then bracket
by bracket from the top (2.2.2, 3.3: the first bracket whose pairs differ decides) the
number of upfloaters (C5), their scores (C6), the colour preferences granted (C7), the
maximum upfloaters (C8), the times those have been upfloated (C9) and the upfloaters of the
previous round (C10); same pairs with
other colours by the colour rule that decides them (5.2.1-5.2.5).  A kind that starts
with "OURS" is a round where ours measures worse: read by hand.
"""

from __future__ import annotations

import signal
import sys
from decimal import Decimal
from pathlib import Path

sys.path.insert(0, str(Path(__file__).resolve().parent.parent))

from pairing.engine import NoLegalPairing  # noqa: E402
from pairing.engine.dubov.colours import allocate  # noqa: E402
from pairing.engine.dubov.state import max_t, player_states  # noqa: E402
from pairing.engine.model import Colour, Result  # noqa: E402


def classify(ours, theirs, snapshot=None) -> str:
    """The kind of difference; with the round's ``snapshot``, a triage by the rules'
    measures (which pairing breaks an absolute rule, floats more or further, grants fewer
    colour preferences)."""
    if theirs == ours:
        return "identical"
    same_pairs = {frozenset(b) for b in theirs[0]} == {frozenset(b) for b in ours[0]} and theirs[1] == ours[1]
    if snapshot is None:
        if same_pairs:
            return "same pairs, other colours"
        return "PAB differs" if theirs[1] != ours[1] else "other pairs"
    states = player_states(snapshot)
    if same_pairs:
        unplayed = [b for b in theirs[0] if b not in ours[0] and not states[b[0]].games_played
                    and not states[b[1]].games_played]
        if unplayed and len(unplayed) == len(theirs[0] - ours[0]):
            return "colours of players yet to play (5.2.1: by pairing number parity; theirs by board)"
        rules = {allocate(states[w], states[b], snapshot.initial_colour)[2] for w, b in theirs[0] - ours[0]}
        if rules <= {"5.2.4", "5.2.5"}:
            return "same pairs, other colours where 5.2.4-5.2.5 decide (histories compared)"
        if unplayed and rules <= {"5.2.1", "5.2.4", "5.2.5"}:
            # both kinds in one round: boards of players yet to play (K1) and boards that
            # 5.2.4-5.2.5 decide (L2)
            return "same pairs, other colours: 5.2.1 by board (K1) and 5.2.4-5.2.5 (L2) in one round"
        return "same pairs, other colours: " + ", ".join(sorted(rules))
    ours_broken, theirs_broken = (breaks_absolute(snapshot, states, p[0]) for p in (ours, theirs))
    if theirs_broken and not ours_broken:
        return "theirs breaks an absolute rule (C1 meeting again or C3 colour)"
    if ours_broken and not theirs_broken:
        return "OURS breaks an absolute rule: read"
    if theirs[1] != ours[1]:
        if theirs[1] is not None and ours[1] is not None and not states[theirs[1]].pab_eligible:
            return f"PAB: theirs to a player not eligible (C2: {_why_not_eligible(snapshot, theirs[1])})"
        if (theirs[1] is not None and ours[1] is not None
                and states[theirs[1]].score == states[ours[1]].score
                and states[theirs[1]].games_played < states[ours[1]].games_played):
            return "PAB: theirs to the player with fewer games (2.1.4)"
        if theirs[1] is not None and ours[1] is not None and states[theirs[1]].score > states[ours[1]].score:
            return "PAB: theirs to a higher score (2.1.3)"
        if (theirs[1] is not None and ours[1] is not None
                and states[theirs[1]].score == states[ours[1]].score
                and states[theirs[1]].games_played == states[ours[1]].games_played
                and states[theirs[1]].tpn < states[ours[1]].tpn):
            return "PAB: theirs not to the lowest in the initial ranking (2.1.5)"
        # the PAB is decided first (1.8.2): a difference the checks above do not explain is read
        return "PAB differs otherwise: read"
    # Dubov judges each bracket on its own, from the top (2.2.2, 3.3): the first bracket
    # whose pairs differ decides; what follows from it in lower brackets does not count.
    a, b = top_down(states, *ours), top_down(states, *theirs)
    last_round = snapshot.round_number == snapshot.total_rounds
    for group in range(min(len(a["scores"]), len(b["scores"]))):
        if a["scores"][group] == b["scores"][group] and a["pairs"][group] == b["pairs"][group]:
            continue
        if a["scores"][group] != b["scores"][group]:  # one of them empties a bracket the other pairs
            better = a["scores"][group] < b["scores"][group]
            return "theirs worse on score differences (C6)" if better else "OURS worse on score differences (C6): read"
        for key, label in (("ups", "number of upfloaters (C5)"), ("floats", "score differences (C6)"),
                           ("colours", "colour preferences (C7)"), ("max", "maximum upfloaters (C8)"),
                           ("times", "upfloats of maximum upfloaters (C9)"),
                           ("previous", "upfloaters of the previous round (C10)")):
            if key in ("max", "times", "previous") and last_round:
                continue  # C8-C10: "unless it is the last round"
            if a[key][group] != b[key][group]:
                better = a[key][group] > b[key][group]
                if better and key in ("previous", "max", "times") and _forfeit_upfloats_only(
                        snapshot, states, theirs[0], ours[0], b["scores"][group], key):
                    return f"reading P1: theirs does not count a forfeited pairing as an upfloat ({label[label.index('(') + 1:-1]})"
                return f"theirs worse on {label}" if better else f"OURS worse on {label}: read"
        break
    return "first differing bracket equal on C5-C10: another choice there (4.2-4.4 orders, ARO); " + literal_says(
        snapshot, ours)


# wall-clock seconds the literal enumerator gets per round (--literal-seconds): on a machine
# shared by several runs a large bracket can need more than the default
LITERAL_SECONDS = 30


def literal_says(snapshot, ours) -> str:
    """Whether our pairing is the one the literal enumerator of the rules gives
    (tests/engine/literal.py: the text's orders tried step by step, by brute force; it is
    slow on large brackets, so it gets :data:`LITERAL_SECONDS`)."""
    from tests.engine.literal import literal_pair_round

    def stop(*_):
        raise TimeoutError

    previous = signal.signal(signal.SIGALRM, stop)
    signal.alarm(LITERAL_SECONDS)
    try:
        literal = literal_pair_round(snapshot)
    except TimeoutError:
        return "the literal enumerator did not finish"
    except NoLegalPairing:
        return "OURS differs from the literal enumerator (it finds no pairing): read"
    finally:
        signal.alarm(0)
        signal.signal(signal.SIGALRM, previous)
    if ({(b.white, b.black) for b in literal.boards}, literal.bye) == (set(ours[0]), ours[1]):
        return "ours is the literal enumerator's"
    return "OURS differs from the literal enumerator: read"


def top_down(states, boards, bye) -> dict[str, list]:
    """Per bracket, highest first (a pair belongs to the bracket of its higher score, so a
    bracket is its residents with their upfloaters): minus its number of upfloaters (C5), the
    scores of the lower players of its pairs (higher is better: C6), the number of its players who get their colour preference
    (C7), and minus the maximum upfloaters (C8), the times those have been upfloated (C9,
    as the engine counts it: their upfloats so far) and the upfloaters of the previous round
    (C10) among its upfloaters.  Compared bracket by bracket, in the criteria's order.  (C9
    was left out until 26 November 2026: a round decided by C9 was then judged on C10.)"""
    brackets: dict = {}
    for white, black in boards:
        w, b = states[white], states[black]
        entry = brackets.setdefault(max(w.score, b.score),
                                    {"lower": [], "granted": 0, "ups": 0, "max": 0, "times": 0, "previous": 0,
                                     "pairs": set()})
        entry["pairs"].add(frozenset((white, black)))
        entry["lower"].append(min(w.score, b.score))
        entry["granted"] += (w.preference.colour is Colour.WHITE) + (b.preference.colour is Colour.BLACK)
        if w.score != b.score:  # the lower one is an upfloater (C8-C10 count them; fewer is better)
            up = w if w.score < b.score else b
            entry["ups"] -= 1
            entry["max"] -= up.max_upfloater
            entry["times"] -= up.upfloats if up.max_upfloater else 0
            entry["previous"] -= up.upfloated_previous
    order = sorted(brackets, reverse=True)
    # C6 maximises the lowest score among the upfloaters, then the second lowest, ...
    return {"scores": order, "floats": [sorted(brackets[s]["lower"]) for s in order],
            "colours": [brackets[s]["granted"] for s in order], "ups": [brackets[s]["ups"] for s in order],
            "max": [brackets[s]["max"] for s in order], "times": [brackets[s]["times"] for s in order],
            "previous": [brackets[s]["previous"] for s in order], "pairs": [brackets[s]["pairs"] for s in order]}


def breaks_absolute(snapshot, states, boards) -> bool:
    """An absolute criterion broken: C1 (two players who have played each other over the
    board meet again) or the basic rules' colour limits (a colour difference beyond 2, the
    same colour three times in a row)."""
    met = {frozenset((p.id, e.opponent)) for p in snapshot.players for e in p.history
           if e.played and e.opponent is not None}
    for white, black in boards:
        if frozenset((white, black)) in met:
            return True
        for p, got in ((states[white], Colour.WHITE), (states[black], Colour.BLACK)):
            cols = p.colours + (got,)
            cd = p.colour_difference + (1 if got is Colour.WHITE else -1)
            if abs(cd) > 2 or (len(cols) >= 3 and cols[-1] is cols[-2] is cols[-3]):
                return True
    return False


def _forfeit_upfloats_only(snapshot, states, theirs, ours, bracket, key) -> bool:
    """Reading P1: theirs measures worse on C8 (``key`` "max": maximum upfloaters), C9
    ("times": the upfloats of those) or C10 ("previous": upfloated in the previous round) in
    ``bracket`` (the score of the first bracket where the two differ) only through pairings
    upwards whose game was not played (forfeited); the other engine counts played games only.
    For C8 and C10: every upfloater that theirs floats into the bracket, and ours does not,
    counts against the criterion only through such a pairing.  For C9: counting played
    games only, theirs is not worse than ours."""
    history = {p.id: p.history for p in snapshot.players}
    running = {pid: [Decimal(0)] for pid in history}
    for pid, entries in history.items():
        for e in entries:
            running[pid].append(running[pid][-1] + snapshot.points.points(e.result))

    def played_upfloats(pid):
        return [k for k, e in enumerate(history[pid])
                if e.played and running[e.opponent][k] > running[pid][k]]

    def counted(pid) -> bool:  # counted against the criterion as we read it
        return states[pid].upfloated_previous if key == "previous" else states[pid].max_upfloater

    def counted_by_played_games(pid) -> bool:
        ups = played_upfloats(pid)
        if key == "previous":
            return snapshot.round_number - 2 in ups
        return len(ups) >= max_t(snapshot.total_rounds)

    def upfloaters(boards):
        for white, black in boards:
            w, b = states[white], states[black]
            if w.score != b.score and max(w.score, b.score) == bracket:
                yield (w if w.score < b.score else b).id

    if key == "times":
        def c9_by_played_games(boards) -> int:
            limit = max_t(snapshot.total_rounds)
            return sum(n for n in (len(played_upfloats(pid)) for pid in upfloaters(boards)) if n >= limit)

        return c9_by_played_games(theirs) <= c9_by_played_games(ours)

    def floated(boards):
        return {pid for pid in upfloaters(boards) if counted(pid)}

    extra = floated(theirs) - floated(ours)
    return bool(extra) and not any(counted_by_played_games(pid) for pid in extra)


def _why_not_eligible(snapshot, pid: int) -> str:
    """What in the player's history makes them ineligible for the PAB (C2)."""
    history = next(p.history for p in snapshot.players if p.id == pid)
    found = {e.result for e in history}
    for result, words in ((Result.PAIRING_BYE, "had the PAB"), (Result.FORFEIT_WIN, "won by forfeit"),
                          (Result.FULL_BYE, "had a full-point bye")):
        if result in found:
            return words
    return "scored a win without playing"
