"""The ARO spread per scoregroup (pairing.reports.aro_chart), on hand-worked figures."""

from __future__ import annotations

from decimal import Decimal

import pytest

from pairing.engine.model import Colour, PointSystem, Result, RoundEntry
from pairing.reports.aro_chart import GroupSpread, RoundSpread, chart, running_figures, spread_by_scoregroup

W, B = Colour.WHITE, Colour.BLACK
D = Decimal


def test_running_figures_give_score_and_aro_after_each_round():
    """Four players, ratings 2000 1900 1800 1700.  R1: 1-3 1-0, 2-4 draw.  R2: 1-2 ½,
    3 forfeit win against 4.  After R1: 1 (1, ARO 1800), 2 (½, 1700), 3 (0, 2000),
    4 (½, 1900).  After R2: 1 (1½, (1800+1900)/2 = 1850), 2 (1, (1700+2000)/2 = 1850),
    3 (1, the forfeit adds no game: 2000), 4 (½, 1900)."""
    hist = {
        1: [RoundEntry(3, W, Result.WIN), RoundEntry(2, W, Result.DRAW)],
        2: [RoundEntry(4, W, Result.DRAW), RoundEntry(1, B, Result.DRAW)],
        3: [RoundEntry(1, B, Result.LOSS), RoundEntry(4, None, Result.FORFEIT_WIN)],
        4: [RoundEntry(2, B, Result.DRAW), RoundEntry(3, None, Result.FORFEIT_LOSS)],
    }
    ratings = {1: 2000, 2: 1900, 3: 1800, 4: 1700}
    assert running_figures(hist, ratings, PointSystem()) == [
        [(D(1), 1800), (D("0.5"), 1700), (D(0), 2000), (D("0.5"), 1900)],
        [(D("1.5"), 1850), (D(1), 1850), (D(1), 2000), (D("0.5"), 1900)],
    ]


def test_spread_per_scoregroup_is_lowest_to_highest_aro():
    """After round 2 the 1-point group holds AROs 1850 and 2000 (spread 150); a player
    without a game yet (ARO 0) is left out."""
    rounds = [
        [(D(1), 1800), (D("0.5"), 1700), (D(0), 2000), (D("0.5"), 1900), (D(0), 0)],
        [(D("1.5"), 1850), (D(1), 1850), (D(1), 2000), (D("0.5"), 1900), (D(0), 0)],
    ]
    assert spread_by_scoregroup(rounds) == [
        RoundSpread(1, (GroupSpread(D(1), 1, 1800, 1800), GroupSpread(D("0.5"), 2, 1700, 1900),
                        GroupSpread(D(0), 1, 2000, 2000))),
        RoundSpread(2, (GroupSpread(D("1.5"), 1, 1850, 1850), GroupSpread(D(1), 2, 1850, 2000),
                        GroupSpread(D("0.5"), 1, 1900, 1900))),
    ]
    assert spread_by_scoregroup(rounds)[1].groups[1].spread == 150


def test_the_chart_draws_one_bar_per_scoregroup_and_round_within_the_plot():
    """Values 1700..2000 map onto y 8 (top) .. 178 (bottom) of a 200-high chart."""
    spreads = [
        RoundSpread(1, (GroupSpread(D(1), 2, 1700, 2000),)),
        RoundSpread(2, (GroupSpread(D(2), 1, 1850, 1850), GroupSpread(D(1), 3, 1700, 1900))),
    ]
    c = chart(spreads)
    assert len(c.bars) == 3
    first = c.bars[0]
    assert (first.top, first.bottom) == (8, 178)
    assert first.label == "After round 1, scoregroup 1: 2 players, ARO 1700–2000 (spread 300)"
    assert c.bars[1].top == c.bars[1].bottom == 93  # one player: a dot at 1850
    assert c.ticks == ((8, 2000), (93, 1850), (178, 1700))
    assert [n for _, n in c.rounds] == [1, 2]
    assert c.bars[1].x < c.bars[2].x  # the higher scoregroup first


@pytest.mark.parametrize("spreads", [[], [RoundSpread(1, ())]])
def test_nothing_to_draw_is_no_chart(spreads):
    assert chart(spreads) is None
