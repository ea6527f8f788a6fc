"""FIDE C.07 (2023) tie-breaks against the commission's worked examples.

Source: ../shared/reference/fide-tiebreak-exercises-2023.txt (from the repository root) (M. Held, "Exercises in
tie-breaking", rev. 2403220900).  "p. N" below is the ``=== page N`` marker of that file,
"Ex N" the exercise number.  The crosstables are transcribed in the file's own notation
(``+B10`` win with Black against 10, ``=BYE`` half-point bye, ``+BYE`` pairing-allocated
bye, ``+F9``/``-F12`` forfeit won/lost, ``--`` absent / withdrawn) and every transcription
is checked for reciprocity and against the printed score.
"""

from __future__ import annotations

import random
import re
from decimal import Decimal

import pytest
from hypothesis import given, settings
from hypothesis import strategies as st

from pairing.engine.model import Colour, Player, PointSystem, Result, RoundEntry
from pairing.tiebreak_data import dp_for_percent, expected_hundredths
from pairing.tiebreaks import (
    StandingRow,
    TBPlayer,
    TBTournament,
    TieBreak,
    TieBreakError,
    compute,
    parse_order,
    standings,
)

D = Decimal
TB = TieBreak

# ---------------------------------------------------------------- notation

_TOKEN = re.compile(r"^(?:(?P<bye>[+=-])BYE|--|(?P<res>[+=-])(?P<how>[WBF])(?P<opp>\d+))$")
_PLAYED = {"+": Result.WIN, "=": Result.DRAW, "-": Result.LOSS}
_BYES = {"+": Result.PAIRING_BYE, "=": Result.HALF_BYE, "-": Result.ZERO_BYE}


def entry(token: str, round_robin: bool = False) -> RoundEntry:
    m = _TOKEN.match(token)
    assert m, f"bad token {token!r}"
    if token == "--":
        return RoundEntry(None, None, Result.ZERO_BYE)
    if m["bye"]:
        return RoundEntry(None, None, _BYES[m["bye"]])
    opponent = int(m["opp"])
    if m["how"] == "F":
        return RoundEntry(opponent, None, Result.FORFEIT_WIN if m["res"] == "+" else Result.FORFEIT_LOSS)
    colour = Colour.WHITE if m["how"] == "W" else Colour.BLACK
    return RoundEntry(opponent, colour, _PLAYED[m["res"]])


_ROW = re.compile(r"^(?P<id>\d+) (?P<name>.+?) (?:(?P<elo>\d{4}) )?(?P<score>\d+[.,]\d) (?P<rounds>.*)$")


def crosstable(text: str, points: PointSystem | None = None, round_robin: bool = False) -> TBTournament:
    """Rows ``# NAME [ELO] SCORE r1 r2 ...`` as printed in the exercises file."""
    players, printed = [], {}
    for line in text.strip().splitlines():
        m = _ROW.match(line.strip())
        assert m, line
        history = tuple(entry(tok) for tok in m["rounds"].split())
        pid = int(m["id"])
        players.append(TBPlayer(pid, int(m["elo"] or 0), history, tpn=pid))
        printed[pid] = D(m["score"].replace(",", "."))
    t = TBTournament(tuple(players), len(players[0].history), points or PointSystem(), round_robin)
    ps = t.points
    for p in players:  # the transcription adds up to the printed score
        assert sum((ps.points(e.result) for e in p.history), D(0)) == printed[p.id], p.id
    return t


def table(text: str, columns: str) -> dict[tuple[TieBreak, int], Decimal | int]:
    """Expected values: rows ``id v1 v2 ...``; ``columns`` names the tie-break of each value."""
    tbs = parse_order(columns)
    result = {}
    for line in text.strip().splitlines():
        pid, *values = line.split()
        assert len(values) == len(tbs), line
        for tb, value in zip(tbs, values, strict=True):
            result[tb, int(pid)] = D(value) if "." in value else int(value)
    return result


def value(t: TBTournament, tb: TieBreak, pid: int):
    return compute(t, (tb,))[pid][0]


# ---------------------------------------------------------------- p. 5, section 2.1: the Swiss tournament

SWISS = crosstable("""
2 Bruno 2150 4.0 +B10 +W7 =B1 +W16 =B3
1 Alyx 2200 3.5 +W9 =B13 =W2 +B15 =W4
3 Charline 2100 3.5 =W11 +B6 +W8 =B4 =W2
4 David 2050 3.5 +B12 =BYE +W13 =W3 =B1
16 Stephan 1450 3.5 =W8 +B11 +W7 -B2 +W15
6 Franck 1950 3.0 -B14 -W3 +BYE +W10 +B8
5 Helene 2000 2.5 -W13 -B15 +W11 =B7 +W10
8 Irina 1850 2.5 =B16 +W14 -B3 +W13 -W6
11 Maria 1700 2.5 =B3 -W16 -B5 +F9 +W7
12 Nick (W) 1650 2.0 -W4 +BYE +F14 -- --
14 Paul 1550 2.0 +W6 -B8 -F12 -- +B13
15 Reine 1500 2.0 -B7 +W5 +B10 -W1 -B16
7 Genevieve 1900 1.5 +W15 -B2 -B16 =W5 -B11
9 Jessica 1800 1.5 -B1 -W10 =BYE -F11 +BYE
13 Opal 1600 1.5 +B5 =W1 -B4 -B8 -W14
10 Lais 1750 1.0 -W2 +B9 -W15 -B6 -B5
""")

# p. 32 summary table (BH, BH-C1, FB, SB, SB-C1), with AOB to two decimals from Ex 9
# (p. 22; the p. 32 summary prints it to one decimal, consistently).
SUMMARY_P32 = table(
    """
2  13.0 12.0 13.60 13.5  9.50 8.50
3  15.5 13.0 13.40 15.0 10.50 9.25
4  15.0 11.5 13.38 15.5  9.75 8.00
1  12.5 11.0 12.60 13.5  8.00 7.25
16 12.5 11.0 13.30 13.5  7.25 5.75
6  12.0 11.0 13.25 12.0  6.50 5.50
8  13.5 12.0 13.00 12.5  5.25 3.75
11 13.5 12.0 12.75 12.5  5.75 4.25
5   8.5  7.5 13.40 10.0  4.25 3.25
15 12.0 11.0 12.20 12.0  3.50 2.50
12 11.5  9.5 15.00 11.5  4.00 4.00
14 11.0  9.0 13.17 10.5  4.50 3.00
7  14.5 12.5 11.90 13.5  3.25 1.25
13 14.0 12.0 12.10 13.5  4.25 4.25
9   9.0  7.5 12.75  9.5  2.25 2.25
10 13.0 11.5 10.90 12.5  1.50 0.00
""",
    "BH BH-C1 AOB FB SB SB-C1",
)

# p. 41 summary table (ARO, TPR, APRO, PTP, APPO), ARO Cut-1 from Ex 18 (p. 34-35).
SUMMARY_P41 = table(
    """
2  1880 2120 1856 2216 1852 1988
3  1940 2089 1904 2112 1934 2000
4  1888 2081 1772 2168 1784 1983
1  1820 1969 1789 2029 1769 1900
16 1820 1969 1805 2013 1799 1900
6  1813 1813 1846 1810 1836 1900
11 1863 1776 1840 1763 1836 2000
8  1730 1730 1915 1715 1924 1800
5  1690 1690 1719 1689 1676 1738
12 2050 1250 2081 1250 2168    0
15 1860 1788 1776 1768 1767 1963
14 1800 1925 1775 1942 1756 1900
9  1975 1175 1805  950 1802 2200
13 1930 1781 1879 1744 1909 2025
7  1760 1611 1869 1531 1890 1838
10 1880 1640 1717 1575 1687 1975
""",
    "ARO TPR APRO PTP APPO ARO-C1",
)

# p. 51 summary table (Ex 27-33).
SUMMARY_P51 = table(
    """
2  3 3 3 1 5 13.0 12.0
4  2 2 2 1 4 11.5 10.5
1  2 2 2 1 5 11.0 10.0
3  2 2 2 1 5 11.0 10.5
16 3 3 2 1 5 10.5 10.0
6  3 2 2 1 5  6.0  6.0
8  2 2 2 0 5  8.5  8.0
11 2 1 2 0 5  5.5  5.0
5  2 2 2 0 5  5.0  5.0
12 2 0 0 0 3  7.0  7.0
15 2 2 3 1 5  7.0  7.0
14 2 2 2 1 3  6.0  5.0
13 1 1 3 1 5  7.0  6.0
7  1 1 3 0 5  6.0  5.0
9  1 0 1 0 3  2.5  2.5
10 1 1 3 1 5  4.0  4.0
""",
    "WIN WON BPG BWG GE PS PS-C1",
)

SWISS_EXPECTED = {**SUMMARY_P32, **SUMMARY_P41, **SUMMARY_P51}
SWISS_ORDER = tuple(dict.fromkeys(tb for tb, _ in SWISS_EXPECTED))
SWISS_VALUES = compute(SWISS, SWISS_ORDER)


@pytest.mark.parametrize(
    ("tb", "pid"),
    sorted(SWISS_EXPECTED, key=lambda k: (k[0].value, k[1])),
    ids=lambda x: getattr(x, "value", x),
)
def test_swiss_summary_tables(tb, pid):
    """Every value of the summary tables on p. 32, 41 and 51, plus AOB (Ex 9) and ARO-C1 (Ex 18)."""
    assert SWISS_VALUES[pid][SWISS_ORDER.index(tb)] == SWISS_EXPECTED[tb, pid]


# The individual exercises, each number as printed in the worked solution.
EXERCISE_NUMBERS = [
    ("Ex 1", TB.BH, 2, "13.0"),
    ("Ex 2", TB.BH, 1, "12.5"),
    ("Ex 2", TB.BH, 3, "15.5"),
    ("Ex 3", TB.BH, 5, "8.5"),
    ("Ex 3", TB.BH, 8, "13.5"),
    ("Ex 3", TB.BH, 11, "13.5"),
    ("Ex 4", TB.BH, 1, "12.5"),
    ("Ex 4", TB.BH, 3, "15.5"),
    ("Ex 4", TB.BH, 16, "12.5"),
    ("Ex 4", TB.BH, 4, "15.0"),
    ("Ex 5", TB.BH_C1, 5, "7.5"),
    ("Ex 5", TB.BH_C1, 8, "12.0"),
    ("Ex 5", TB.BH_C1, 11, "12.0"),
    ("Ex 6", TB.BH_C1, 7, "12.5"),
    ("Ex 6", TB.BH_C1, 9, "7.5"),
    ("Ex 6", TB.BH_C1, 13, "12.0"),
    ("Ex 7", TB.BH_C1, 1, "11.0"),
    ("Ex 7", TB.BH_C1, 3, "13.0"),
    ("Ex 7", TB.BH_C1, 4, "11.5"),
    ("Ex 7", TB.BH_C1, 16, "11.0"),
    ("Ex 8", TB.BH_C1, 12, "9.5"),
    ("Ex 8", TB.BH_C1, 14, "9.0"),
    ("Ex 8", TB.BH_C1, 15, "11.0"),
    ("Ex 11", TB.SB, 1, "8.00"),
    ("Ex 11", TB.SB, 3, "10.50"),
    ("Ex 11", TB.SB, 16, "7.25"),
    ("Ex 11", TB.SB, 4, "9.75"),
    ("Ex 17", TB.ARO, 4, "1888"),
    ("Ex 19", TB.TPR, 2, "2120"),
    ("Ex 19", TB.TPR, 6, "1813"),
    ("Ex 19", TB.TPR, 12, "1250"),
    ("Ex 21", TB.APRO, 3, "1904"),
    ("Ex 21", TB.APRO, 4, "1772"),
    ("Ex 21", TB.APRO, 1, "1789"),
    ("Ex 21", TB.APRO, 16, "1805"),
    ("Ex 22", TB.PTP, 3, "2112"),
]


@pytest.mark.parametrize(("source", "tb", "pid", "expected"), EXERCISE_NUMBERS)
def test_worked_exercise(source, tb, pid, expected):
    """The numbers worked out step by step in Ex 1-8, 11, 17, 19, 21, 22."""
    got = value(SWISS, tb, pid)
    assert got == (D(expected) if "." in expected else int(expected))


# Ex 9 (p. 21): adjusted scores for the opponents (column AS-O): only the withdrawn
# Nick (#12) changes, 2.0 -> 3.0 (two trailing absences counted as draws, 16.3.2).
# Ex 12 (p. 27) prints the same column as "AS".  Checked through the SB of his only
# over-the-board opponent, David: 1 x 3.0 in round 1.
def test_withdrawn_nick_counts_three_points_for_his_opponents():
    """Ex 4 / Ex 9: Nick 2.0 points, 0+1+1+½+½ = 3.0 as an opponent (16.2.5, 16.3.2)."""
    nick_for_david = value(SWISS, TB.BH, 4) - (D("3.5") + D("1.5") + D("3.5") + D("3.5"))
    assert nick_for_david == D("3.0")


def test_ex9_ranking_by_buchholz_p24():
    """p. 24 'Final Rankings', BH and BH-C1 rows (ties kept in pairing-number order)."""
    bh = [row.id for row in standings(SWISS, (TB.BH,))]
    assert bh == [2, 3, 4, 1, 16, 6, 8, 11, 5, 15, 12, 14, 7, 13, 9, 10]
    c1 = [row.id for row in standings(SWISS, (TB.BH_C1,))]
    assert c1 == [2, 3, 4, 1, 16, 6, 8, 11, 5, 15, 12, 14, 7, 13, 9, 10]


def test_ex9_ranking_by_aob_p24_differs_from_its_own_values():
    """p. 24 'Final Rankings', AOB row: 2 4 3 16 1 6 5 8 11 12 14 15 9 13 7 10.

    INCONSISTENT in the file: Ex 9 (p. 22) gives Charline (#3) AOB 13.40 and David (#4)
    13.375 -> 13.38, so #3 ranks above #4; the p. 24 row swaps them.  We follow the
    values (all other positions of the row agree).
    """
    aob = [row.id for row in standings(SWISS, (TB.AOB,))]
    assert aob == [2, 3, 4, 16, 1, 6, 5, 8, 11, 12, 14, 15, 9, 13, 7, 10]


def test_ex21_apro_ranking():
    """Ex 21 (p. 39): the 3.5-point group by APRO is #3, #16, #1, #4."""
    rows = [r.id for r in standings(SWISS, (TB.APRO,)) if r.points == D("3.5")]
    assert rows == [3, 16, 1, 4]


def test_ex20_tpr_uses_the_score_over_the_board():
    """Ex 20 (p. 38): TPR for every player.

    The file's "p" column is INCONSISTENT for players with unplayed rounds: it prints the
    face score divided by the games played (David 0.88, Franck 0.75, Maria 0.63, Nick
    2.00, Jessica 0.75) while its dp and TPR columns use the over-the-board score
    (3.0/4 -> .75 -> 193, 2.0/4 -> 0, 1.5/4 = .375 -> .38 -> -87, 0 -> -800).  The dp
    and TPR columns follow section 5's rule that unplayed games are ignored, score
    included; we reproduce those.
    """
    expected = {2: 2120, 3: 2089, 4: 2081, 1: 1969, 16: 1969, 6: 1813, 11: 1776, 8: 1730, 5: 1690,
                14: 1925, 15: 1788, 12: 1250, 13: 1781, 7: 1611, 9: 1175, 10: 1640}  # fmt: skip
    got = compute(SWISS, (TB.TPR,))
    assert {pid: v[0] for pid, v in got.items()} == expected


def test_ex22_expected_scores_of_the_ptp_iterations():
    """Ex 22 (p. 39-40): Charline's expected score at 2089, 2170, 2130, 2112 (B.02 8.1.2, no cap)."""
    opponents = [1700, 1950, 1850, 2050, 2150]
    for rating, pa in [(2089, 337), (2170, 379), (2130, 359), (2112, 350)]:
        assert sum(expected_hundredths(rating - r) for r in opponents) == pa
    assert sum(expected_hundredths(2111 - r) for r in opponents) < 350  # 2112 is the smallest


def test_tpr_box_expected_scores_p36():
    """'What is the meaning of TPR?' box (p. 36): dp per rating difference, 670 capped to 400."""
    assert [expected_hundredths(d) for d in (370, 220, -80, 400, 20)] == [90, 78, 39, 92, 53]
    assert expected_hundredths(240) == 80  # "TPR-ARO = 240, hence Pd = 0.80"


def test_dp_table_p37_both_halves():
    """B.02 8.1.1 table as reproduced on p. 37, spot checks of both halves."""
    printed = {100: 800, 99: 677, 83: 273, 75: 193, 67: 125, 51: 7, 50: 0, 49: -7, 38: -87,
               30: -149, 20: -240, 17: -273, 1: -677, 0: -800}  # fmt: skip
    assert {p: dp_for_percent(p) for p in printed} == printed


# ---------------------------------------------------------------- Ex 10: Fore Buchholz


def test_ex10_fore_buchholz_counts_last_round_games_as_draws():
    """Ex 10 (p. 22-23): the last round's games become draws; Jessica's last-round PAB and
    Nick's absence stay as they are.  Values as in the FB column of the p. 23 table."""
    expected = {2: "13.5", 3: "15.0", 4: "15.5", 1: "13.5", 16: "13.5", 8: "12.5", 6: "12.0", 15: "12.0",
                5: "10.0", 11: "12.5", 12: "11.5", 14: "10.5", 7: "13.5", 9: "9.5", 13: "13.5", 10: "12.5"}  # fmt: skip
    got = compute(SWISS, (TB.FB,))
    assert {pid: v[0] for pid, v in got.items()} == {pid: D(v) for pid, v in expected.items()}


# ---------------------------------------------------------------- Ex 13: why each SB-C1 cut


@pytest.mark.parametrize(
    ("pid", "sb_c1", "why"),
    [
        (2, "8.50", "the least significant opponent #10 (1.0) is cut"),
        (4, "8.00", "the HPB gives 1.75 > 1.50 of the least significant #13: the HPB is cut"),
        (6, "5.50", "#10 (least significant, a win: 1.0) is cut, not the smaller 0 against #14"),
        (14, "3.00", "VURs give 0, least significant #13 gives 1.50: the larger, #13, is cut"),
        (12, "4.00", "a zero from a scheduled absence is cut; PAB and forfeit win are not VURs"),
        (9, "2.25", "forfeit loss 0 vs #10 also 0: either, the sum is the same"),
    ],
)
def test_ex13_sb_cut1_choice(pid, sb_c1, why):
    """Ex 13 (p. 28-29): the choice of the value to discard, player by player."""
    assert value(SWISS, TB.SB_C1, pid) == D(sb_c1), why


# ---------------------------------------------------------------- direct encounter, Swiss


def test_ex23_35_group_direct_encounter_cannot_separate():
    """Ex 23 (p. 42): 3.5 points, A-D ½, C-D ½, the rest missing: Stephan (or anyone)
    could still overtake David, so no tie is broken."""
    got = compute(SWISS, (TB.DE,))
    assert [got[pid][0] for pid in (1, 3, 4, 16)] == [0, 0, 0, 0]


def test_ex24_other_groups_direct_encounter_cannot_separate():
    """Ex 24 (p. 42): Helene beat Maria but Irina met neither; 2.0 and 1.5 groups met not
    at all over the board (Nick-Paul was a forfeit).  The exercise says "rank all
    3.5-points players" but its table (E I M) is the 2.5-point group: a typo."""
    got = compute(SWISS, (TB.DE,))
    assert all(got[pid][0] == 0 for pid in (5, 8, 11, 12, 14, 15, 7, 9, 13))


SWISS_9 = crosstable("""
3 Charline 6,5 =W11 +B6 +W8 =B4 -W2 +B16 =W1 +W14 +B10
1 Alyx 6,0 +W9 =B13 =W2 +B15 =W4 =B6 =B3 =W16 +B8
2 Bruno 6,0 +B10 +W7 =B1 +W16 +B3 =W4 -W6 =B15 =W5
4 David 6,0 +B12 =BYE +W13 =W3 =B1 =B2 =W16 =B6 +W15
6 Franck 6,0 -B14 -W3 +BYE +W10 +B8 =W1 +B2 =W4 +B16
7 Genevieve 4,5 +W15 -B2 -B16 =W5 -B11 -B10 +W13 +W9 +B14
8 Irina 4,5 =B16 +W14 -B3 +W13 -W6 =B11 =W15 +B5 -W1
16 Stephan 4,5 =W8 +B11 +W7 -B2 +W15 -W3 =B4 =B1 -W6
5 Helene 4,0 -W13 -B15 +W11 =B7 +W10 -B14 +B9 -W8 =B2
10 Lais 4,0 -W2 +B9 -W15 -B6 -B5 +W7 +B12 +W11 -W3
14 Paul 4,0 +W6 -B8 -F12 -- +B13 +W5 +W11 -B3 -W7
15 Reine 4,0 -B7 +W5 +B10 -W1 -B16 +W12 =B8 =W2 -B4
11 Maria 3,5 =B3 -W16 -B5 +F9 +W7 =W8 -B14 -B10 =W13
9 Jessica 3,0 -B1 -W10 =BYE -F11 +BYE +B13 -W5 -B7 =W12
12 Nick 3,0 -W4 +BYE +F14 -- -- -B15 -W10 =B13 =B9
13 Opal 2,5 +B5 =W1 -B4 -B8 -W14 -W9 -B7 =W12 =B11
""")


def test_ex25_direct_encounter_nine_rounds():
    """Ex 25 (p. 43, a 9-round continuation in which round 5 Charline-Bruno is 0-1).

    6 points: everybody met everybody: Franck 2, Alyx 1.5, David 1.5, Bruno 1 -> Franck
    first, Alyx and David (a draw between them) share second, Bruno last.  4.5 points:
    Irina could still reach Stephan -> no break.  4 points and 3 points: no break.

    The file's 4-point mini-table shows Helene 1 - Paul 0, but its crosstable has round 6
    Paul +W5 / Helene -B14 (Paul won): INCONSISTENT; either way nobody is certain to be
    first, so the answer (no tie broken) is the same.
    """
    got = {pid: v[0] for pid, v in compute(SWISS_9, (TB.DE,)).items()}
    assert (got[6], got[1], got[4], got[2]) == (3, 1, 1, 0)
    assert all(got[pid] == 0 for pid in (7, 8, 16, 5, 10, 14, 15, 9, 12, 3, 11, 13))
    ranks = {row.id: row.rank for row in standings(SWISS_9, (TB.DE,))}
    assert (ranks[3], ranks[6], ranks[1], ranks[4], ranks[2]) == (1, 2, 3, 3, 5)


def test_de_intro_example_first_places_certain_despite_a_missing_game():
    """p. 42 introduction: Alyx beat all, Bruno beat all but Alyx, Charline-David not
    played: Alyx first, Bruno second whatever the missing game, Charline and David tied.

    The four are given 3 points each through games against outsiders (rounds 1-5).
    """
    t = crosstable("""
1 Alyx 1000 3.0 +W2 +W3 +W4 -B5 -B13
2 Bruno 1000 3.0 -B1 +W4 +B3 +W6 -B14
3 Charline 1000 3.0 +W7 -B1 -W2 +W8 +W9
4 David 1000 3.0 +W10 -W2 -B1 +W11 +W12
5 X5 1000 1.0 -- -- -- +W1 --
6 X6 1000 0.0 -- -- -- -B2 --
7 X7 1000 0.0 -B3 -- -- -- --
8 X8 1000 0.0 -- -- -- -B3 --
9 X9 1000 0.0 -- -- -- -- -B3
10 X10 1000 0.0 -B4 -- -- -- --
11 X11 1000 0.0 -- -- -- -B4 --
12 X12 1000 0.0 -- -- -- -- -B4
13 X13 1000 1.0 -- -- -- -- +W1
14 X14 1000 1.0 -- -- -- -- +W2
""")
    got = compute(t, (TB.DE,))
    assert [got[pid][0] for pid in (1, 2, 3, 4)] == [3, 2, 0, 0]


# ---------------------------------------------------------------- p. 6, section 2.2: the round robin

# Swiss-format table of p. 6; round 4 Franck-Helene was a forfeit (the round-robin format
# above it shows "+"/"-"), written here as such.
ROUND_ROBIN = crosstable(
    """
1 Alyx 2200 3.5 =W5 +W2 +B3 -W4 +B6
2 Bruno 2150 3.5 +W6 -B1 +W5 =W3 +B4
3 Charline 2100 3.5 +W4 +B6 -W1 =B2 +W5
4 David 2050 1.5 -B3 -B5 =W6 +B1 -W2
5 Franck 1950 1.5 =B1 +W4 -B2 -F6 -B3
6 Helene 2000 1.5 -B2 -W3 =B4 +F5 -W1
""",
    round_robin=True,
)

RR_EXPECTED = table(
    """
1 9.25 9.25 2.0
2 6.25 4.75 0.5
3 6.25 4.75 0.5
4 4.25 4.25 1.0
5 3.25 3.25 0.5
6 2.25 1.50 0.0
""",
    "SB SB-C1 KS",
)


@pytest.mark.parametrize(
    ("tb", "pid"), sorted(RR_EXPECTED, key=lambda k: (k[0].value, k[1])), ids=lambda x: getattr(x, "value", x)
)
def test_round_robin_sb_and_koya(tb, pid):
    """Ex 14 (SB), Ex 15 (SB-C1: ties on the lowest score cut the lowest contribution),
    Ex 16 (Koya, opponents with at least 2.5 of 5), p. 30-31."""
    assert value(ROUND_ROBIN, tb, pid) == RR_EXPECTED[tb, pid]


def test_ex26_round_robin_direct_encounter_counts_the_forfeit():
    """Ex 26 (p. 44): 3.5 points: Alyx first, Bruno and Charline drew -> tied.  1.5 points:
    Helene 1.5 (the forfeit win counts in a round robin, 15.2), Franck 1, David ½."""
    got = {pid: v[0] for pid, v in compute(ROUND_ROBIN, (TB.DE,)).items()}
    assert (got[1], got[2], got[3]) == (2, 0, 0)
    assert (got[6], got[5], got[4]) == (2, 1, 0)


def test_swiss_direct_encounter_ignores_forfeits():
    """Ex 23 intro (p. 41, [6.1.1]): in a Swiss event forfeits are left out of DE, so the
    same table as a Swiss leaves Helene-Franck unplayed and the 1.5 group unbroken."""
    swiss = TBTournament(ROUND_ROBIN.players, ROUND_ROBIN.rounds, ROUND_ROBIN.points, round_robin=False)
    got = {pid: v[0] for pid, v in compute(swiss, (TB.DE,)).items()}
    assert (got[6], got[5], got[4]) == (0, 0, 0)


# ---------------------------------------------------------------- unplayed rounds, one rule per test


def mini(rows: str, points: PointSystem | None = None) -> TBTournament:
    return crosstable(rows, points)


def test_pairing_allocated_bye_is_a_win_against_a_dummy_with_the_own_score():
    """16.2.1 / 16.4, Ex 9 and Ex 12: Franck's round-3 PAB contributes his own 3.0 to his
    BH and 1 x 3.0 to his SB; for his opponents it counts at face value (Ex 3)."""
    assert value(SWISS, TB.BH, 6) == D("2.0") + D("3.5") + D("3.0") + D("1.0") + D("2.5")
    assert value(SWISS, TB.SB, 6) == D("3.0") + D("1.0") + D("2.5")
    assert value(SWISS, TB.BH, 8) == D("3.5") + D("3.5") + D("3.0") + D("2.0") + D("1.5")  # Irina met Franck
    # available to play: not cut first, counted by WIN and GE, not by WON
    assert value(SWISS, TB.BH_C1, 6) == D("11.0")  # the lowest value, #10's 1.0, is cut
    assert (value(SWISS, TB.GE, 6), value(SWISS, TB.WIN, 6), value(SWISS, TB.WON, 6)) == (5, 3, 2)


def test_forfeit_win_is_a_win_against_a_dummy_and_not_a_game():
    """16.2.2 / 16.4, Ex 3 and Ex 5: Maria's round-4 forfeit win (+F9) counts as a win
    against a 2.5-point dummy (her own score), is not cut first, and is left out of the
    rating-based tie-breaks (Ex 17: ARO over four games, 1862.5 -> 1863)."""
    assert value(SWISS, TB.BH, 11) == D("3.5") + D("3.5") + D("2.5") + D("2.5") + D("1.5")
    assert value(SWISS, TB.SB, 11) == D("1.75") + D("2.5") + D("1.5")
    assert value(SWISS, TB.BH_C1, 11) == D("12.0")
    assert value(SWISS, TB.ARO, 11) == 1863
    assert (value(SWISS, TB.WIN, 11), value(SWISS, TB.WON, 11)) == (2, 1)


def test_forfeit_loss_is_cut_first_and_counts_at_face_value_for_opponents():
    """16.2.4 / 16.5: Paul's round-3 forfeit loss is a dummy at his own 2.0, cut first by
    BH-C1 (Ex 8: 9.0).  A forfeit loss is never turned into a draw for the opponents, even
    in the last round: below A (1 point) loses round 2 by forfeit and B, who met A, counts
    A's face 1.0 (not 1.5)."""
    assert value(SWISS, TB.BH_C1, 14) == D("9.0")
    assert value(SWISS, TB.GE, 14) == 3
    t = mini("""
1 A 1000 1.0 +W2 -F3
2 B 1000 0.0 -B1 --
3 C 1000 1.0 -- +F1
""")
    assert value(t, TB.BH, 2) == D("1.0") + D("0.0")  # A at face value + own absence dummy
    assert value(t, TB.BH, 1) == D("0.5") + D("1.0")  # B withdrawn: ½ as an opponent; own dummy
    assert value(t, TB.BH_C1, 1) == D("0.5")  # the forfeit loss (1.0) is cut, not B's 0.5
    assert value(t, TB.SB, 1) == D("0.5")  # 1 x 0.5 + 0 x 1.0
    assert value(t, TB.BH, 3) == D("2.0")  # C met nobody: two dummies at his own 1.0


def test_withdrawn_opponent_counts_draws_for_the_rounds_after_withdrawal():
    """16.2.5 / 16.3.2, Ex 4 and Ex 9: Nick withdrew after round 3; his two absences count
    as draws for his opponents, 0+1+1+½+½ = 3.0: David's BH 15.0 and SB 9.75 (Ex 11).
    His own Buchholz uses his real 2.0 for his four unplayed rounds (Ex 8, Ex 9: 11.5)."""
    assert value(SWISS, TB.BH, 4) == D("3.0") + D("3.5") + D("1.5") + D("3.5") + D("3.5")
    assert value(SWISS, TB.SB, 4) == D("9.75")
    assert value(SWISS, TB.BH, 12) == D("3.5") + 4 * D("2.0")


def test_half_point_bye_followed_by_play_counts_at_face_value_and_is_cut_first():
    """16.2.3 / 16.5, Ex 2, 4, 7, 13: David's round-2 HPB: for his opponents at face value
    (Alyx's BH 12.5 uses David's 3.5); for himself a draw against a 3.5 dummy, and it is
    the value BH-C1 cuts (11.5, although cutting #13's 1.5 would give 12.5); SB-C1 cuts it
    too because its contribution 1.75 exceeds the least significant 1.50."""
    assert value(SWISS, TB.BH, 1) == D("4.0") + D("3.5") + D("2.0") + D("1.5") + D("1.5")
    assert value(SWISS, TB.BH_C1, 4) == D("11.5")
    assert value(SWISS, TB.SB_C1, 4) == D("8.00")


def test_zero_point_bye_followed_by_play_counts_at_face_value():
    """16.2.3, Ex 3: Paul's round-4 absence (ZPB) is followed by a played round, so Irina
    (#8), who met Paul, counts his face 2.0; for Paul it is a dummy at his own 2.0."""
    assert value(SWISS, TB.BH, 8) == D("13.5")
    assert value(SWISS, TB.BH, 14) == D("3.0") + D("2.5") + D("2.0") + D("2.0") + D("1.5")


def test_zero_point_bye_in_the_last_completed_round_counts_as_a_draw_until_the_player_returns():
    """16.2.5: standings after round 2, A absent in round 2: B counts A as 1 + ½ = 1.5.
    After round 3, A played again: the absence is at face value, A counts 2.0."""
    after_2 = mini("""
1 A 1000 1.0 +W2 --
2 B 1000 0.5 -B1 =W3
3 C 1000 0.5 -- =B2
""")
    assert value(after_2, TB.BH, 2) == D("1.5") + D("0.5")
    after_3 = mini("""
1 A 1000 2.0 +W2 -- +W3
2 B 1000 0.5 -B1 =W3 --
3 C 1000 0.5 -- =B2 -B1
""")
    assert value(after_3, TB.BH, 2) == D("2.0") + D("0.5") + D("0.5")  # A, C, own dummy


def test_late_entry_rounds_are_zero_point_byes_followed_by_play():
    """Late entry (TRF ``Z`` before arrival), 16.2.3: voluntarily unplayed, so for the
    player a dummy at the own score that Cut-1 removes first and GE does not count; for
    the opponents at face value since the player was available afterwards."""
    t = mini("""
1 Late 1000 1.0 -- -- +W2
2 B 1000 0.5 =W3 -B3 -B1
3 C 1000 1.5 =B2 +W2 --
""")
    assert value(t, TB.BH, 1) == D("1.0") + D("1.0") + D("0.5")
    assert value(t, TB.BH_C1, 1) == D("1.0") + D("0.5")  # a late-entry dummy is cut, not B's 0.5
    assert value(t, TB.GE, 1) == 1
    # B: C twice (C's trailing absence: 1.5 + ½ = 2.0) and Late at face value 1.0
    assert value(t, TB.BH, 2) == D("2.0") + D("2.0") + D("1.0")


def test_a_last_round_absence_counts_as_a_draw_in_3_1_0_and_a_full_point_bye_at_face_value():
    """16.2.5 with the tournament's point system (3-1-0): B's trailing absence counts 1
    (a 3-1-0 draw) for A.  A's last-round full-point bye (3) counts like the PAB it stands
    for (docs/tiebreaks.md): at face value, 6, for B.  SB multiplies by the points
    scored: 3 x 1 + 3 x 6."""
    ps = PointSystem(
        win=D(3), draw=D(1), loss=D(0), forfeit_win=D(3), pairing_bye=D(3), full_bye=D(3), half_bye=D(1)
    )
    t = TBTournament(
        (
            TBPlayer(
                1, 1000, (RoundEntry(2, Colour.WHITE, Result.WIN), RoundEntry(None, None, Result.FULL_BYE))
            ),
            TBPlayer(
                2, 1000, (RoundEntry(1, Colour.BLACK, Result.LOSS), RoundEntry(None, None, Result.ZERO_BYE))
            ),
        ),
        2,
        ps,
    )
    assert value(t, TB.BH, 2) == D(6)  # A as an opponent at face value; own dummy 0
    assert value(t, TB.BH, 1) == D(7)  # B as an opponent: 0 + 1; own dummy 6
    assert value(t, TB.SB, 1) == D(21)
    assert value(t, TB.WIN, 1) == 2  # the 3-point bye scores as a win (7.1)


# ---------------------------------------------------------------- modifiers beyond Cut-1 (our reading)


def test_cut2_and_median_without_unplayed_rounds():
    """14: Bruno's contributions 1.0 1.5 3.5 3.5 3.5: Cut-2 10.5, Median-1 8.5, Median-2 3.5."""
    got = compute(SWISS, (TB.BH, TB.BH_C2, TB.BH_M1, TB.BH_M2))[2]
    assert got == (D("13.0"), D("10.5"), D("8.5"), D("3.5"))


def test_cut2_and_median_cut_voluntarily_unplayed_rounds_first_at_the_bottom_only():
    """16.5 read for Cut-2/Median: Jessica (3.5, 1.0 and three dummies at 1.5, two of them
    VURs): Cut-2 removes both VURs (6.0); Median-1 removes one VUR and the top 3.5 (4.0)."""
    got = compute(SWISS, (TB.BH, TB.BH_C1, TB.BH_C2, TB.BH_M1))[9]
    assert got == (D("9.0"), D("7.5"), D("6.0"), D("4.0"))


def test_ps_cut_removes_the_first_rounds():
    """Ex 33 note: the least significant progressive score is the first round's."""
    got = compute(SWISS, (TB.PS, TB.PS_C1, TB.PS_C2))[2]  # 1.0 2.0 2.5 3.5 4.0
    assert got == (D("13.0"), D("12.0"), D("10.0"))


# ---------------------------------------------------------------- tie ordering


def test_standings_sort_by_points_then_tiebreak_and_share_ranks_when_fully_tied():
    """Ex 4 (p. 15): 3.5 points by BH: #3 (15.5), #4 (15.0), #1 and #16 (12.5) still tied,
    sharing 4th place (C.07 2.1 / arbiter convention 1, 2, 2, 4)."""
    rows = standings(SWISS, (TB.BH,))
    assert rows[0] == StandingRow(1, 2, D("4.0"), (D("13.0"),), undefined=(False,))
    assert [(r.rank, r.id) for r in rows[1:5]] == [(2, 3), (3, 4), (4, 1), (4, 16)]
    assert rows[5].rank == 6


def test_second_tiebreak_only_separates_players_tied_on_the_first():
    """4.2: BH then SB: #1 and #16 (BH 12.5) are split by SB 8.00 vs 7.25; SB then BH
    gives SB's order (Ex 11: #3, #4, #1, #16) and BH is never needed in that group."""
    bh_sb = [r.id for r in standings(SWISS, (TB.BH, TB.SB)) if r.points == D("3.5")]
    assert bh_sb == [3, 4, 1, 16]
    rows = standings(SWISS, (TB.BH, TB.SB))
    assert len({r.rank for r in rows if r.points == D("3.5")}) == 4
    sb_bh = [r.id for r in standings(SWISS, (TB.SB, TB.BH)) if r.points == D("2.5")]
    assert sb_bh == [11, 8, 5]  # SB 5.75, 5.25, 4.25 although BH has #8 = #11 > #5


def test_tied_players_in_tpn_order_but_same_rank():
    """p. 24: players tied on everything are listed by pairing number, with one rank."""
    rows = standings(SWISS, (TB.BH_C1,))
    tied = [r for r in rows if r.points == D("2.5") and r.tiebreaks == (D("12.0"),)]
    assert [(r.id, r.rank) for r in tied] == [(8, 7), (11, 7)]


def test_direct_encounter_only_among_players_tied_on_the_earlier_tiebreaks():
    """C.07 6 with 4.2: DE after BH only meets players equal on points and BH; listed
    first it works on the whole score group (Ex 25: Franck, then Alyx/David, Bruno)."""
    first = compute(SWISS_9, (TB.DE, TB.BH))
    after = compute(SWISS_9, (TB.BH, TB.DE))
    assert [first[pid][0] for pid in (6, 1, 4, 2)] == [3, 1, 1, 0]
    six = {pid: after[pid][0] for pid in (6, 1, 4, 2)}  # BH 6 points: all different
    assert len(set(six.values())) == 4
    assert all(after[pid][1] == 0 for pid in (6, 1, 4, 2))


def test_direct_encounter_may_appear_twice():
    """Exercise file p. 41: DE can be listed more than once (DE, BH, DE)."""
    got = compute(SWISS_9, (TB.DE, TB.BH, TB.DE))
    assert got[6][0] == 3 and got[6][2] == 0


# ---------------------------------------------------------------- API


def test_parse_order_accepts_the_usual_spellings():
    assert parse_order("BH-C1, BH, SB") == (TB.BH_C1, TB.BH, TB.SB)
    assert parse_order("bh-c1;sb  aroc1 AROC ARO-C1 BH_M1") == (
        TB.BH_C1, TB.SB, TB.ARO_C1, TB.ARO_C1, TB.ARO_C1, TB.BH_M1)  # fmt: skip
    assert parse_order("  ") == ()


def test_parse_order_names_the_unknown_code():
    with pytest.raises(ValueError, match=r"unknown tie-break 'BUCH' \(item 2 .*known codes: BH, BH-C1"):
        parse_order("BH, BUCH, SB")


def test_labels_and_descriptions():
    assert TB.BH_C1.label == "BH-C1"
    assert "Cut-1" in TB.BH_C1.description and "Buchholz" in TB.BH_C1.description
    assert "Median-1" in TB.BH_M1.description
    assert all(tb.description for tb in TB)


@pytest.mark.parametrize(
    ("history_b", "message"),
    [
        ((RoundEntry(9, Colour.BLACK, Result.LOSS),), "unknown opponent 9"),
        ((RoundEntry(1, Colour.BLACK, Result.WIN),), "does not match"),
        ((), "0 rounds of history, expected 1"),
        ((RoundEntry(None, None, Result.LOSS),), "needs an opponent"),
    ],
)
def test_inconsistent_histories_are_rejected(history_b, message):
    t = TBTournament(
        (TBPlayer(1, 1000, (RoundEntry(2, Colour.WHITE, Result.WIN),)), TBPlayer(2, 1000, history_b)), 1
    )
    with pytest.raises(TieBreakError, match=message):
        compute(t, (TB.BH,))


@pytest.mark.parametrize(
    ("players", "message"),
    [
        (((1, RoundEntry(1, Colour.WHITE, Result.WIN)), (2, RoundEntry(None, None, Result.PAIRING_BYE))),
         "player 1, round 1: paired with themself"),
        (((1, RoundEntry(2, Colour.WHITE, Result.PAIRING_BYE)), (2, RoundEntry(None, None, Result.ZERO_BYE))),
         r"player 1, round 1: a bye \(U\) has an opponent"),
        (((1, RoundEntry(None, None, Result.ZERO_BYE)), (1, RoundEntry(None, None, Result.ZERO_BYE))),
         "player id 1 appears twice"),
    ],
)
def test_every_inconsistency_is_named(players, message):
    t = TBTournament(tuple(TBPlayer(pid, 1000, (entry,)) for pid, entry in players), 1)
    with pytest.raises(TieBreakError, match=message):
        compute(t, (TB.BH,))


def test_tournament_from_engine_players():
    """The engine's Player (id, tpn, rating, history) converts directly."""
    engine_players = [Player(p.id, p.tpn, p.rating, history=p.history) for p in SWISS.players]
    t = TBTournament.from_players(engine_players)
    assert t.rounds == 5 and compute(t, (TB.BH,)) == compute(SWISS, (TB.BH,))
    with pytest.raises(TieBreakError, match="different lengths"):
        TBTournament.from_players([engine_players[0], Player(99, 99, 1000)])


def test_no_games_gives_zero_for_averages():
    """Ex 18 (p. 35): Nick's ARO Cut-1 has nothing left: undefined, printed as 0."""
    assert value(SWISS, TB.ARO_C1, 12) == 0
    t = mini("""
1 A 1000 1.0 +BYE
""")
    assert compute(t, (TB.ARO, TB.TPR, TB.APRO, TB.PTP, TB.AOB))[1] == (0, 0, 0, 0, D(0))


# ---------------------------------------------------------------- scale


def random_tournament(n: int, rounds: int, seed: int = 1) -> TBTournament:
    """A consistent random Swiss-like history: random pairings, PABs, requested byes,
    forfeits (also double), withdrawals and late entries."""
    rng = random.Random(seed)
    histories: dict[int, list[RoundEntry]] = {pid: [] for pid in range(1, n + 1)}
    leaves = {pid: rng.randrange(1, rounds + 1) for pid in rng.sample(list(histories), max(1, n // 20))}
    arrives = {pid: rng.randrange(0, rounds) for pid in rng.sample(list(histories), max(1, n // 20))}
    for rnd in range(rounds):
        ids = list(histories)
        rng.shuffle(ids)
        away = {pid for pid in ids if leaves.get(pid, rounds + 1) <= rnd or arrives.get(pid, 0) > rnd}
        away |= set(ids[: max(1, n // 50)])
        present = [pid for pid in ids if pid not in away]
        for pid in away:
            histories[pid].append(RoundEntry(None, None, rng.choice([Result.HALF_BYE, Result.ZERO_BYE])))
        if len(present) % 2:
            histories[present.pop()].append(RoundEntry(None, None, Result.PAIRING_BYE))
        for a, b in zip(present[::2], present[1::2], strict=True):
            ra, rb = rng.choice(
                [
                    (Result.WIN, Result.LOSS),
                    (Result.DRAW, Result.DRAW),
                    (Result.LOSS, Result.WIN),
                    (Result.WIN, Result.LOSS),
                    (Result.DRAW_UNRATED, Result.DRAW_UNRATED),
                    (Result.FORFEIT_WIN, Result.FORFEIT_LOSS),
                    (Result.FORFEIT_LOSS, Result.FORFEIT_LOSS),
                ]
            )
            histories[a].append(RoundEntry(b, Colour.WHITE, ra))
            histories[b].append(RoundEntry(a, Colour.BLACK, rb))
    players = tuple(
        TBPlayer(pid, 1400 + rng.randrange(1400), tuple(h), tpn=pid) for pid, h in histories.items()
    )
    return TBTournament(players, rounds)


# ---------------------------------------------------------------- a literal second implementation

_LIT_GAMES = {
    Result.WIN,
    Result.DRAW,
    Result.LOSS,
    Result.WIN_UNRATED,
    Result.DRAW_UNRATED,
    Result.LOSS_UNRATED,
}


def literal(t: TBTournament) -> dict[str, dict[int, object]]:
    """BH, BH-C1, SB, SB-C1, ARO, GE, WIN, WON straight from the rules, round by round,
    without any precomputation (quadratic; for cross-checking only)."""
    ps = t.points
    by_id = {p.id: p for p in t.players}

    def score(p):
        return sum((ps.points(e.result) for e in p.history), D(0))

    def available(e):
        return e.result in _LIT_GAMES or e.result in (Result.PAIRING_BYE, Result.FORFEIT_WIN)

    def score_for_opponents(p):  # 16.3
        total = D(0)
        for r, e in enumerate(p.history):
            later = p.history[r + 1 :]
            requested = e.result in (Result.HALF_BYE, Result.FULL_BYE, Result.ZERO_BYE)
            if requested and not any(available(x) for x in later):
                total += ps.draw  # 16.2.5 -> 16.3.2
            else:
                total += ps.points(e.result)
        return total

    def contributions(p):  # (value, points, vur) per round, 16.4
        out = []
        for e in p.history:
            if e.result in _LIT_GAMES:
                out.append((score_for_opponents(by_id[e.opponent]), ps.points(e.result), False))
            else:
                out.append((score(p), ps.points(e.result), not available(e)))
        return out

    def cut1(rows):
        if not rows:
            return D(0)
        total = sum(c for _, c, _ in rows)
        lowest = min(v for v, _, _ in rows)
        lsv = min(c for v, c, _ in rows if v == lowest)
        vur = [c for _, c, u in rows if u]
        return total - (max(min(vur), lsv) if vur else lsv)

    out: dict[str, dict[int, object]] = {
        k: {} for k in ("BH", "BH-C1", "SB", "SB-C1", "ARO", "GE", "WIN", "WON")
    }
    for p in t.players:
        rows = contributions(p)
        out["BH"][p.id] = sum((v for v, _, _ in rows), D(0))
        out["BH-C1"][p.id] = cut1([(v, v, u) for v, _, u in rows])
        out["SB"][p.id] = sum((v * x for v, x, _ in rows), D(0))
        out["SB-C1"][p.id] = cut1([(v, v * x, u) for v, x, u in rows])
        ratings = [by_id[e.opponent].rating for e in p.history if e.result in _LIT_GAMES]
        out["ARO"][p.id] = (
            int((D(sum(ratings)) / len(ratings)).quantize(D(1), "ROUND_HALF_UP")) if ratings else 0
        )
        out["GE"][p.id] = sum(1 for e in p.history if available(e))
        out["WIN"][p.id] = sum(1 for e in p.history if ps.points(e.result) == ps.win)
        out["WON"][p.id] = sum(1 for e in p.history if e.result in (Result.WIN, Result.WIN_UNRATED))
    return out


_POINT_SYSTEMS = (
    None,  # the tournament's own: 1, ½, 0
    PointSystem(D(3), D(1), D(0), D(3), D(0), D(3), D(3), D(1), D(0)),
    # hundredths, a forfeit loss below zero, a PAB below a win: scores in units of 0.01
    PointSystem(D("1.00"), D("0.50"), D("0.00"), D("1.00"), D("-0.25"), D("0.75"), D("1.00"), D("0.50"), D("0.00")),
)


@settings(max_examples=60, deadline=None)
@given(
    seed=st.integers(0, 10**9),
    n=st.integers(4, 40),
    rounds=st.integers(1, 9),
    points=st.sampled_from(_POINT_SYSTEMS),
)
def test_matches_the_literal_implementation_on_generated_tournaments(seed, n, rounds, points):
    """Cross-check (style 11): the O(N·R) module, which counts in whole units of a
    point, against the rule-by-rule version in Decimals."""
    t = random_tournament(n, rounds, seed)
    if points is not None:
        t = TBTournament(t.players, t.rounds, points)
    expected = literal(t)
    names = tuple(expected)
    got = compute(t, parse_order(" ".join(names)))
    for k, name in enumerate(names):
        assert {pid: v[k] for pid, v in got.items()} == expected[name], name


def test_rtng_ranks_the_higher_rating_first_and_tpn_the_lower_number_first():
    """Three players who drew all their games (a round robin of 3, one round each sits
    out): equal on points.  RTNG puts the 2100 player first; TPN puts number 1 first
    whatever the rating (C.07: TPN is ranked ascending)."""
    bye = RoundEntry(None, None, Result.ZERO_BYE)
    h = {
        1: (bye, RoundEntry(2, Colour.WHITE, Result.DRAW), RoundEntry(3, Colour.BLACK, Result.DRAW)),
        2: (RoundEntry(3, Colour.WHITE, Result.DRAW), RoundEntry(1, Colour.BLACK, Result.DRAW), bye),
        3: (RoundEntry(2, Colour.BLACK, Result.DRAW), bye, RoundEntry(1, Colour.WHITE, Result.DRAW)),
    }
    ratings = {1: 1900, 2: 2100, 3: 2000}
    t = TBTournament(tuple(TBPlayer(i, ratings[i], h[i], i) for i in (1, 2, 3)), 3, round_robin=True)
    by_rating = standings(t, parse_order("RTNG"))
    assert [(r.rank, r.id) for r in by_rating] == [(1, 2), (2, 3), (3, 1)]
    assert [r.tiebreaks[0] for r in by_rating] == [2100, 2000, 1900]
    by_number = standings(t, parse_order("TPN, RTNG"))
    assert [(r.rank, r.id) for r in by_number] == [(1, 1), (2, 2), (3, 3)]
    assert [r.tiebreaks[0] for r in by_number] == [1, 2, 3]


@settings(max_examples=60, deadline=None)
@given(seed=st.integers(0, 10_000), players=st.integers(2, 30), rounds=st.integers(1, 6), data=st.data())
def test_any_history_changed_on_one_side_only_is_refused_and_the_untouched_one_is_read(seed, players, rounds, data):
    """The histories are checked against each other a round at a time: every entry
    changed on one player's line only -- another opponent, none, a result the
    opponent's line does not mirror, a bye with an opponent -- is refused with the
    problem named, and the tournament as generated is read."""
    from pairing.engine.generator import GeneratorConfig, generate_fast

    gen = generate_fast(GeneratorConfig(players=players, rounds=rounds, seed=seed), rounds)
    t = TBTournament.from_players(gen.players, gen.points)
    compute(t, (TB.BH, TB.SB))  # untouched: read
    k = data.draw(st.integers(0, len(t.players) - 1))
    r = data.draw(st.integers(0, rounds - 1))
    p = t.players[k]
    e = p.history[r]
    others = [q.id for q in t.players if q.id not in (p.id, e.opponent)]
    changes = [RoundEntry(p.id, e.colour or Colour.WHITE, Result.WIN)]  # paired with themself
    if e.opponent is None:
        changes.append(RoundEntry(t.players[k - 1].id, Colour.WHITE, e.result))  # a bye with an opponent
        if others:
            changes.append(RoundEntry(others[0], Colour.WHITE, Result.WIN))  # a game nobody else has
    else:
        changes.append(RoundEntry(None, None, e.result))  # a game against nobody
        changes.append(RoundEntry(None, None, Result.PAIRING_BYE))  # a bye its opponent does not know
        if others:
            changes.append(RoundEntry(data.draw(st.sampled_from(others)), e.colour, e.result))
        back = next(q for q in t.players if q.id == e.opponent).history[r].result
        unmirrored = [x for x in (Result.WIN, Result.DRAW, Result.LOSS, Result.FORFEIT_WIN, Result.FORFEIT_LOSS,
                                  Result.WIN_UNRATED, Result.LOSS_UNRATED) if back not in x.opponent_results]
        changes.append(RoundEntry(e.opponent, e.colour, data.draw(st.sampled_from(unmirrored))))
    change = data.draw(st.sampled_from(changes))
    history = p.history[:r] + (change,) + p.history[r + 1:]
    broken = TBTournament(t.players[:k] + (TBPlayer(p.id, p.rating, history, p.tpn),) + t.players[k + 1:],
                          t.rounds, t.points)
    with pytest.raises(TieBreakError, match=rf"player \d+|round {r + 1}"):
        compute(broken, (TB.BH,))


def test_scores_are_written_with_the_point_systems_decimals():
    """The figures are counted in whole units of a point and written back as the point
    system writes its own: with 1.0, 0.5, 0.0 (as the tournament's settings store them)
    every score has one decimal, a Sonneborn-Berger (a product) two, a player without a
    point 0.0 -- not 0 beside 13.0; with 3, 1, 0 whole numbers, still Decimals."""
    stored = PointSystem(*(D(x) for x in ("1.0", "0.5", "0.0", "1.0", "0.0", "1.0", "1.0", "0.5", "0.0")))
    t = TBTournament(SWISS.players, SWISS.rounds, stored)
    rows = standings(t, (TB.BH, TB.SB, TB.KS, TB.PS, TB.STD, TB.WON))
    assert {str(r.points) for r in rows} >= {"4.0", "3.5", "1.0"}
    assert "0.0" in {str(r.tiebreaks[2]) for r in rows}  # a Koya without a point against the top half
    assert all(re.fullmatch(r"-?\d+\.\d", str(r.points)) for r in rows)
    for r in rows:
        bh, sb, ks, ps, std, won = r.tiebreaks
        assert all(re.fullmatch(r"\d+\.\d", str(v)) for v in (bh, ks, ps, std)), r
        assert re.fullmatch(r"\d+\.\d\d", str(sb)) and type(won) is int, r
    first = rows[0]
    assert (first.points, first.tiebreaks[0], first.tiebreaks[1]) == (D(4), D(13), compute(SWISS, (TB.SB,))[first.id][0])
    football = PointSystem(D(3), D(1), D(0), D(3), D(0), D(3), D(3), D(1), D(0))
    rows = standings(TBTournament(SWISS.players, SWISS.rounds, football), (TB.BH, TB.SB))
    assert all(type(v) is Decimal and v == v.to_integral_value() for r in rows for v in (r.points, *r.tiebreaks))
    assert rows[0].points == 11  # three wins at 3, two draws at 1
