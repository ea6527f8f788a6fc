"""Koya (C.07 9.2) in round robins, and its Limit modifier (C.07 14.5): KS/L1 raises the
limit of half the maximum score by half a point, KS/L2 by one point, KS/L-1 lowers it by
half a point (VCL4THP Q104, "KS variants").  Hand-worked on two round robins: the
commission's Ex 16 (6 players, where every variant gives KS's values, as the exercise
says) and a 5-player one, where the Berger bye leaves each player 4 games in 5 rounds."""

from __future__ import annotations

from decimal import Decimal

import pytest

from pairing.tiebreaks import TieBreak, compute, parse_order
from tests.test_tiebreaks import ROUND_ROBIN, crosstable

D = Decimal
TB = TieBreak

# A beats B, D, E and loses to C; B beats C, E; C draws D, beats E; E beats D.
# Rounds: 1 A-B C-D (E out), 2 A-C B-E (D out), 3 A-D C-E (B out), 4 A-E B-D (C out),
# 5 B-C D-E (A out).  Scores A 3, B 2, C 2.5, D 1.5, E 1.
FIVE = crosstable(
    """
1 A 3.0 +W2 -W3 +W4 +W5 -BYE
2 B 2.0 -B1 +W5 -BYE -W4 +W3
3 C 2.5 =W4 +B1 +W5 -BYE -B2
4 D 1.5 =B3 -BYE -B1 +B2 -W5
5 E 1.0 -BYE -B2 -B3 -B1 +B4
""",
    round_robin=True,
)


def values(t, tb: TieBreak) -> list[Decimal]:
    got = compute(t, (tb,))
    return [got[pid][0] for pid in sorted(got)]


def test_vcl_q104_koya_in_an_odd_round_robin_counts_opponents_with_half_of_four_games():
    """Five players, five rounds, a Berger bye each: nobody can score more than 4, so the
    limit is 2 (not 2.5 over five rounds).  Opponents counted: A (3), B (2), C (2.5).
    A: 1 against B, 0 against C = 1; B: 0 + 1 (C) = 1; C: 1 (A) + 0 (B) = 1;
    D: 0 (A) + 1 (B) + ½ (C) = 1.5; E: 0."""
    assert values(FIVE, TB.KS) == [D(1), D(1), D(1), D("1.5"), D(0)]


def test_vcl_q104_ks_l1_raises_the_limit_by_half_a_point():
    """Limit 2.5: A and C count.  A 0 (lost to C); B 1 (beat C); C 1 (beat A);
    D ½ (drew C); E 0."""
    assert values(FIVE, TB.KS_L1) == [D(0), D(1), D(1), D("0.5"), D(0)]


def test_vcl_q104_ks_l2_raises_the_limit_by_one_point():
    """Limit 3: only A counts.  C beat A: 1; everyone else lost to A: 0."""
    assert values(FIVE, TB.KS_L2) == [D(0), D(0), D(1), D(0), D(0)]


def test_vcl_q104_ks_l_minus_1_lowers_the_limit_by_half_a_point():
    """Limit 1.5: A, B, C and D count (not E, 1 point).  A: 1 (B) + 0 (C) + 1 (D) = 2;
    B: 0 + 1 (C) + 0 (D) = 1; C: 1 (A) + 0 (B) + ½ (D) = 1.5; D: 0 + 1 (B) + ½ (C) = 1.5;
    E: 1 (beat D)."""
    assert values(FIVE, TB.KS_LM1) == [D(2), D(1), D("1.5"), D("1.5"), D(1)]


@pytest.mark.parametrize("tb", [TB.KS, TB.KS_L1, TB.KS_L2, TB.KS_LM1])
def test_vcl_q104_ex16_every_limit_keeps_koyas_values(tb):
    """Ex 16 (p. 31): scores 3.5, 3.5, 3.5, 1.5, 1.5, 1.5 of 5.  "Increasing the score
    limit by half a point at a time is useless" until it passes 3.5, and lowering it
    changes nothing until it reaches 1.5: limits 3, 3.5 and 2 keep KS's 2, ½, ½, 1, ½, 0."""
    assert values(ROUND_ROBIN, tb) == [D(2), D("0.5"), D("0.5"), D(1), D("0.5"), D(0)]


def test_vcl_q104_the_limit_variants_are_read_as_c07_and_trf_2026_write_them():
    """KS/L1, KS/L2 and KS/L-1 as C.07 names them; a raised limit also written with its
    sign (KS/L+1, as Swiss-Manager and Gacrux write it); the app's own spelling with a
    dash (KS-L-1)."""
    assert parse_order("KS/L1, KS/L2, KS/L-1") == (TB.KS_L1, TB.KS_L2, TB.KS_LM1)
    assert parse_order("KS/L+1 KS/L+2 KS-L-1 ks/l1") == (TB.KS_L1, TB.KS_L2, TB.KS_LM1, TB.KS_L1)
    assert TB.KS_LM1.description.endswith("the limit lowered by half a point (Limit modifier, KS/L-1)")
    with pytest.raises(ValueError, match="unknown tie-break 'KS/L3'"):
        parse_order("KS/L3")
