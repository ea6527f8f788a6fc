"""The ARO spread per scoregroup (pairing.reports.aro_chart), on hand-worked figures and
against a reference written straight from the definitions on random histories."""

from __future__ import annotations

import math
from decimal import Decimal
from fractions import Fraction

import pytest
from hypothesis import given, settings
from hypothesis import strategies as st

from pairing.engine.model import PointSystem, Result
from pairing.reports.aro_chart import (
    ARO_BITS,
    GroupSpread,
    RoundSpread,
    chart,
    figure,
    running_figures,
    score_units,
    spread_by_scoregroup,
)

D = Decimal


def test_running_figures_give_score_and_aro_after_each_round():
    """Four players, ratings 2000 1900 1800 1700.  R1: 1-3 1-0, 2-4 draw.  R2: 1-2 ½,
    3 forfeit win against 4.  After R1: 1 (1, ARO 1800), 2 (½, 1700), 3 (0, 2000),
    4 (½, 1900).  After R2: 1 (1½, (1800+1900)/2 = 1850), 2 (1, (1700+2000)/2 = 1850),
    3 (1, the forfeit adds no game: 2000), 4 (½, 1900).  By position: 0 is player 1."""
    opponents = [[2, 1], [3, 0], [0, 3], [1, 2]]
    codes = [["1", "="], ["=", "="], ["0", "+"], ["=", "-"]]
    figures, places = running_figures(opponents, codes, [2000, 1900, 1800, 1700], PointSystem())
    assert places == 1
    assert [[figure(v, places) for v in row] for row in zip(*figures, strict=True)] == [
        [(D(1), 1800), (D("0.5"), 1700), (D(0), 2000), (D("0.5"), 1900)],
        [(D("1.5"), 1850), (D(1), 1850), (D(1), 2000), (D("0.5"), 1900)],
    ]


def test_the_aro_is_rounded_half_up_and_a_bye_adds_points_only():
    """A meets 1801 and 1800 (mean 1800.5: 1801), then has the PAB; B meets 1801 only."""
    opponents = [[1, 2, -1], [0, -1, -1], [-1, 0, -1]]
    codes = [["1", "1", "U"], ["0", "Z", "H"], ["F", "0", "Z"]]
    figures, places = running_figures(opponents, codes, [2000, 1801, 1800], PointSystem())
    assert [figure(v, places) for v in figures[0]] == [(D(1), 1801), (D(2), 1801), (D(3), 1801)]
    assert [figure(v, places) for v in figures[1]] == [(D(0), 2000), (D(0), 2000), (D("0.5"), 2000)]
    assert [figure(v, places) for v in figures[2]] == [(D(1), 0), (D(1), 2000), (D(1), 2000)]


def test_points_are_counted_in_the_fewest_decimal_places():
    assert score_units(PointSystem())[0] == 1
    three = PointSystem(win=D(3), draw=D(1), forfeit_win=D(3), pairing_bye=D(3), full_bye=D(3), half_bye=D(1))
    assert score_units(three) == (0, {"1": 3, "W": 3, "=": 1, "D": 1, "?": 1, "0": 0, "L": 0, "+": 3, "-": 0,
                                      "U": 3, "F": 3, "H": 1, "Z": 0})
    assert score_units(PointSystem(draw=D("0.50"), half_bye=D("0.25")))[0] == 2


def packed(score: str, aro: int) -> int:
    """A figure as running_figures makes it, in tenths of a point."""
    return (int(D(score) * 10) << ARO_BITS) + aro


def test_spread_per_scoregroup_is_lowest_to_highest_aro():
    """After round 2 the 1-point group holds AROs 1850 and 2000 (spread 150); a player
    without a game yet (ARO 0) is left out."""
    rounds = [
        [("1", 1800), ("0.5", 1700), ("0", 2000), ("0.5", 1900), ("0", 0)],
        [("1.5", 1850), ("1", 1850), ("1", 2000), ("0.5", 1900), ("0", 0)],
    ]
    figures = [[packed(*f) for f in row] for row in zip(*rounds, strict=True)]  # by player
    assert spread_by_scoregroup(figures, 1) == [
        RoundSpread(1, (GroupSpread(D(1), 1, 1800, 1800), GroupSpread(D("0.5"), 2, 1700, 1900),
                        GroupSpread(D(0), 1, 2000, 2000))),
        RoundSpread(2, (GroupSpread(D("1.5"), 1, 1850, 1850), GroupSpread(D(1), 2, 1850, 2000),
                        GroupSpread(D("0.5"), 1, 1900, 1900))),
    ]
    assert spread_by_scoregroup(figures, 1)[1].groups[1].spread == 150
    assert spread_by_scoregroup([], 1) == [] and spread_by_scoregroup([[], []], 1) == []


# ---------------------------------------------------------------- against a reference

PLAYED = ["1", "=", "0", "W", "D", "L", "?"]
FORFEITS = ["+", "-"]
BYES = ["U", "F", "H", "Z"]
POINT_SYSTEMS = [
    PointSystem(),
    PointSystem(win=D(3), draw=D(1), forfeit_win=D(3), pairing_bye=D(3), full_bye=D(3), half_bye=D(1)),
    PointSystem(win=D(2), draw=D(1), forfeit_win=D(2), pairing_bye=D(1), full_bye=D(2), half_bye=D(1)),
    PointSystem(pairing_bye=D("0.5"), half_bye=D("0.5")),
    PointSystem(win=D("1.0"), draw=D("0.50"), loss=D("0.0"), half_bye=D("0.25")),
]


def reference_spread(opponents, codes, ratings, points) -> list[RoundSpread]:
    """Written straight from the definitions: each player's score in Decimals and his
    ARO as a Fraction rounded half up, grouped per round in a dict."""
    players, rounds = len(opponents), len(opponents[0]) if opponents else 0
    score = [D(0)] * players
    rated = [[] for _ in range(players)]
    out = []
    for k in range(rounds):
        groups: dict[D, list[int]] = {}
        for i in range(players):
            code, opponent = codes[i][k], opponents[i][k]
            score[i] += points.points(Result(code))
            if Result(code).is_played:
                rated[i].append(ratings[opponent])
            if rated[i]:
                mean = Fraction(sum(rated[i]), len(rated[i]))
                aro = math.floor(mean + Fraction(1, 2))
                if aro:
                    groups.setdefault(score[i], []).append(aro)
        out.append(RoundSpread(k + 1, tuple(GroupSpread(s, len(a), min(a), max(a))
                                          for s, a in sorted(groups.items(), reverse=True))))
    return out


@st.composite
def histories(draw):
    """Random columns: per round, some players paired (a game or a forfeit, both sides'
    codes as each side's own), the others a bye of some kind or nothing (Z); ratings
    with unrated players (0) among them."""
    players = draw(st.integers(0, 12))
    rounds = draw(st.integers(0, 6))
    ratings = draw(st.lists(st.sampled_from([0, 1000, 1001, 1500, 1999, 2000, 2001, 2850]) | st.integers(0, 3000),
                            min_size=players, max_size=players))
    opponents = [[-1] * rounds for _ in range(players)]
    codes = [["Z"] * rounds for _ in range(players)]
    for k in range(rounds):
        order = draw(st.permutations(range(players)))
        pairs = draw(st.integers(0, players // 2))
        for a, b in zip(order[: 2 * pairs : 2], order[1 : 2 * pairs : 2], strict=True):
            ours = draw(st.sampled_from(PLAYED + FORFEITS))
            theirs = draw(st.sampled_from(PLAYED if ours in PLAYED else FORFEITS))
            opponents[a][k], opponents[b][k] = b, a
            codes[a][k], codes[b][k] = ours, theirs
        for i in order[2 * pairs:]:
            codes[i][k] = draw(st.sampled_from(BYES))
    return opponents, codes, ratings


@settings(max_examples=300, deadline=None)
@given(histories(), st.sampled_from(POINT_SYSTEMS))
def test_the_spread_is_what_the_definitions_give(columns, points):
    opponents, codes, ratings = columns
    assert spread_by_scoregroup(*running_figures(opponents, codes, ratings, points)) == reference_spread(
        opponents, codes, ratings, points)


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
