"""Cases found by the cross-check, shrunk and worked by hand from the rule text.

No disagreement between the fast engine and the literal enumerator has been
found so far (see the report in the commit history).  The cases below are
rounds in which the cross-check reached a rare branch of the rules; each was
shrunk (players made absent, forbidden pairs dropped while the branch was still
reached), worked by hand in its docstring, and is checked against BOTH engines
so that a later change to either cannot silently lose it.

Snapshots are written in the compact form the cross-check prints on a
disagreement (``describe``): one line per player, ``id tpn rating`` then one
token per round: opponent id (0 for none), colour (``w``/``b``/``-``) and the
TRF-16 result code.
"""

from __future__ import annotations

import pytest

from pairing.engine import pair_round
from pairing.engine.model import Colour, Player, Result, RoundEntry, Snapshot

from .literal import literal_pairs


def parse(text: str, *, round_number: int, total_rounds: int, absent=(), forbidden=()) -> Snapshot:
    """Build a snapshot from ``describe``-style player lines."""
    players = []
    for line in text.strip().splitlines():
        pid, tpn, rating, *tokens = line.split()
        history = []
        for tok in tokens:
            opp, colour, result = int(tok[:-2]), tok[-2], tok[-1]
            history.append(
                RoundEntry(
                    opp or None,
                    {"w": Colour.WHITE, "b": Colour.BLACK, "-": None}[colour],
                    Result(result),
                )
            )
        players.append(Player(id=int(pid), tpn=int(tpn), rating=int(rating), history=tuple(history)))
    return Snapshot(
        players=tuple(players),
        round_number=round_number,
        total_rounds=total_rounds,
        absent=frozenset(absent),
        forbidden=frozenset(frozenset(p) for p in forbidden),
    )


def both(snapshot: Snapshot):
    """(pairs, bye) from each engine."""
    fast = pair_round(snapshot)
    return literal_pairs(snapshot), ([(b.white, b.black) for b in fast.boards], fast.bye)


D12_CASE = """
13  3 2613  67w= 0-Z 76bW 87b1 97w1
67  2 1500  13b= 87w- 62bW 0-F 80wW
76  5 1500  97b= 0-F 13wL 0-H 0-Z
62  1 1500  0-Z 0-F 67wL 80bW 0-F
97  4 1292  76w= 80bW 0-Z 0-Z 13b0
80  7 1500  87b1 97wL 0-U 62wL 67bL
87  6 1500  80w0 67b- 0-F 13w0 0-H
"""


def test_c6_container_with_the_higher_lowest_score_wins_d12():
    """Round 6 of 8, 97 absent (chaotic_snapshot(1661), shrunk).

    Scores: 13 and 67 3.5, 62 3, 76 and 80 2, 87 1.5.  13 and 67 have met, so
    the top bracket needs two upfloaters (C5, parity).  Legal 2-sets: {62, 76}
    pairs the bracket (13-62, 67-76) but leaves 80-87, who have met (C4);
    {62, 80} leaves 67 without a partner (met 62 and 80); {76, 80} works
    (13-80, 67-76, rest 62-87); {62, 87} works (13-62, 67-87: their game was a
    forfeit, D2; rest 76-80).  Containers {2, 2} and {3, 1.5}: C6 / D12
    maximise the lowest score, so {76, 80}.  (Highest-first would take {62, 87}.)
    Colours: 67 strong White v 76 mild Black, 80 mild White v 13 mild Black,
    62 mild White v 87 absolute Black: all 5.2.2.  Boards: 67-76 and 80-13 tie
    on 3.5 and on the sum 5.5; 67 (TPN 2) ranks above 13 (TPN 3)."""
    s = parse(D12_CASE, round_number=6, total_rounds=8, absent={97})
    expected = [(67, 76), (80, 13), (62, 87)]
    literal, fast = both(s)
    assert literal == (expected, None)
    assert fast == (expected, None)


C9_CASE = """
62  6 1758  81w0 0-Z 45b0 0-Z 72w0 25b1
97  5 1089  0-Z 0-Z 69w0 96b0 57w1 0-F
11 12 1037  72b1 51w1 81b1 57w1 99w1 0-Z
96 14 1500  0-U 45w0 25b1 97w1 69b0 51w1
63 13 2097  69w0 81w0 51b0 45b0 0-Z 93b0
81  4 1500  62b1 63b1 11w0 0-Z 93b1 72w1
57  7 1689  51w1 99w0 93w0 11b0 97b0 0-Z
93  2 2675  99b0 25b1 57b1 51b1 81w0 63w1
51  1 2207  57b0 11b0 63w1 93w0 45b0 96b0
25  3 1500  45w0 93w0 96w0 99w0 0-Z 62w0
72  8 1500  11w0 0-Z 99w0 69w0 62b1 81b0
45 11 1500  25b1 96b1 62w1 63w1 51w1 99w1
99 10 1301  93w1 57b1 72b1 25b1 11b0 45b0
69  9 2257  63b1 0-F 97b1 72b1 96w1 0-Z
"""


def test_c9_prefers_the_maximum_upfloater_with_fewer_upfloats():
    """Round 7 of 8 (MaxT = 3), six absent (chaotic_snapshot(328), shrunk).

    45 (6 points, absolute Black) alone: of the 4-pointers only 93 (absolute
    White) has not met 45, so {93} (C6), and 99-96 pair as residents.  Then 97
    (2 points, strong Black) alone: the candidates 51 and 72 have 1 point
    (C6 tie), both are absolute White (C7 tie: no one loses a preference), both
    are maximum upfloaters (C8 tie): 51 upfloated in rounds 2, 4, 5, 6 (against
    11 on 1, 93 on 2, 45 on 4, 96 on 3, while 51 had 0-1), i.e. 4 times; 72 in
    rounds 3, 4, 6 (99, 69, 81), 3 times (round 5 against 62 was level).  C9
    (D13) takes 72 although 51 comes first in 4.2 order (TPN 1).  Both
    upfloated in round 6 (C10 tie).  Last 51-25 (absolute White v absolute
    Black).  Colours all 5.2.2 (99 absolute White v 96 strong Black)."""
    s = parse(C9_CASE, round_number=7, total_rounds=8, absent={11, 57, 62, 63, 69, 81})
    expected = [(93, 45), (99, 96), (72, 97), (51, 25)]
    literal, fast = both(s)
    assert literal == (expected, None)
    assert fast == (expected, None)


@pytest.mark.parametrize("total_rounds, upfloater", [(8, 72), (7, 51)])
def test_c9_is_off_in_the_last_round(total_rounds, upfloater):
    """D9: declared with Rnds = 7, round 7 is the last; C8-C10 are off and
    the 4.2 order gives 97 the first candidate, 51."""
    s = parse(C9_CASE, round_number=7, total_rounds=total_rounds, absent={11, 57, 62, 63, 69, 81})
    literal, fast = both(s)
    assert literal == fast
    board = next(p for p in literal[0] if 97 in p)
    assert upfloater in board
