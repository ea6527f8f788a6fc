"""Baku acceleration's group A as the rules give it (VCL4THP Q31 and Q111): the
generator, the checker and the command line count N over the players paired in round
1 (docs/fide-mode.md reading 20), and GA is everyone ranked at or above the last of the
first 2*ceil(N/4) of them (reading 21).

The audit found the generator sizing GA over every registered player before round 1's
byes were drawn (162 of 300 generated Baku files disagreed with the app), the checker
taking the 250 records as given, and a file whose 192 names Baku but which has no 250
record paired as a plain Swiss.
"""

from __future__ import annotations

import math
from pathlib import Path

import pytest

from pairing.engine.__main__ import main
from pairing.engine.acceleration import baku_group_a
from pairing.engine.model import Result
from pairing.engine.trf import parse_trf

HEAD = """012 Eight players, Baku
042 2026/05/01
142 5
152 W
192 FIDE_DUBOV_BAKU
"""
# round 1 as paired with GA 1-5 (the same with 1-4): 1-4 1-0, 5-2 0-1, 7-6 0-1, 8 PAB, 3 a half-point bye
ROUND_1 = """001    1      Player 1                          2400                             1.0    1     4 w 1
001    2      Player 2                          2350                             1.0    2     5 b 1
001    3      Player 3                          2300                             0.5    5  0000 - H
001    4      Player 4                          2250                             0.0    6     1 b 0
001    5      Player 5                          2200                             0.0    7     2 w 0
001    6      Player 6                          2150                             1.0    3     7 b 1
001    7      Player 7                          2100                             0.0    8     6 w 0
001    8      Player 8                          2050                             1.0    4  0000 - U
"""
RULES_250 = "250       1.0   1   2    1    5\n250       0.5   3   3    1    5\n"
OLD_250 = "250       1.0   1   2    1    4\n250       0.5   3   3    1    4\n"


def run(capsys, *argv: str) -> tuple[int, str, str]:
    code = main(list(argv))
    out, err = capsys.readouterr()
    return code, out, err


def test_vcl_q31_q111_eight_players_with_three_on_a_round_one_bye_make_group_a_1_to_5():
    """Hand-worked: 8 players, 3 on a half-point bye in round 1.  N = 7 (3 is not
    paired), 2*ceil(7/4) = 4, the 4th of 1, 2, 4, 5, 6, 7, 8 is 5; GA is everyone
    ranked at or above 5: 1-5, player 3 included (counted out of N, not out of GA)."""
    ga = baku_group_a(list(range(1, 9)), {1, 2, 4, 5, 6, 7, 8})
    assert (ga.paired, ga.size, ga.last) == (7, 4, 5)
    assert ga.players == frozenset({1, 2, 3, 4, 5})
    t = parse_trf(HEAD + ROUND_1)
    assert t.group_a_by_the_rules() == ga


def _round_one_paired(t) -> list[int]:
    """The players paired in round 1, read from the file's round-1 entries (a game,
    a forfeit or the PAB), by starting rank: written here apart from the engine's code."""
    return sorted(p.id for p in t.players if p.history and (
        p.history[0].opponent is not None or p.history[0].result is Result.PAIRING_BYE))


def test_vcl_q31_generated_baku_files_give_group_a_from_the_players_paired_in_round_1(tmp_path: Path, capsys):
    """30 generated Baku tournaments with round-1 byes and late entries: every file's 250
    records name exactly the group reading 20 gives from the file's own round 1, and the
    checker finds every round and the acceleration as the rules give them."""
    with_bye = 0
    for seed in range(30):
        path = tmp_path / f"b{seed}.trf"
        code, _, _ = run(capsys, "--dubov", "-g", "--fixed", "--seed", str(seed), "--players", str(8 + seed % 9),
                         "--rounds", "5", "--acceleration", "baku", "--half-bye-rate", "0.12", "--zero-bye-rate", "0.04",
                         "--late-entry-rate", "0.1" if seed % 3 == 0 else "0", "-o", str(path))
        assert code == 0
        t = parse_trf(path.read_text())
        paired = _round_one_paired(t)
        with_bye += len(paired) < len(t.players)
        last = paired[2 * math.ceil(len(paired) / 4) - 1]
        ga = range(1, last + 1)
        assert [line for line in path.read_text().splitlines() if line.startswith("250")] == [
            f"250       1.0   1   2 {1:4d} {last:4d}", f"250       0.5   3   3 {1:4d} {last:4d}"], seed
        assert t.acceleration()[0].players == frozenset(ga)
        code, out, _ = run(capsys, "--dubov", str(path), "-c")
        assert code == 0 and "acceleration" not in out, out
    assert with_bye >= 10  # the case the audit found is well represented


def test_vcl_q31_the_checker_finds_250_records_that_are_not_the_group_the_rules_give(tmp_path: Path, capsys):
    """The file says GA 1-4 (sized over all 8 registered players, as the old generator
    did); the rules give 1-5.  A finding with its figures and both records, exit 4.  The
    rounds are re-paired with the file's records; the right records pass."""
    wrong = tmp_path / "wrong.trf"
    wrong.write_text(HEAD + ROUND_1 + OLD_250)
    code, out, _ = run(capsys, "--dubov", str(wrong), "-c")
    assert code == 4
    assert "acceleration: 1 difference" in out
    assert "group A: players 1-4 in the file's 250 records; the rules give 7 players paired in round 1 (not 3); " \
           "group A is the first 2*ceil(7/4) = 4 of them, the last being player 5, and every player ranked above " \
           "him: players 1-5, 1 virtual point in rounds 1-2, 1/2 in rounds 3-3" in out
    assert "  file:  250       1.0   1   2    1    4" in out and "  rules: 250       1.0   1   2    1    5" in out
    assert "round 1: identical" in out
    right = tmp_path / "right.trf"
    right.write_text(HEAD + ROUND_1 + RULES_250)
    code, out, _ = run(capsys, "--dubov", str(right), "-c")
    assert code == 0 and "acceleration" not in out, out


def test_vcl_q31_round_two_follows_the_rules_group_not_the_old_one(tmp_path: Path, capsys):
    """Round 2 of the file above (1 virtual point for GA).  With the rules' GA 1-5,
    player 5 (0 points) is on 1 with 4, 6 and 8: 1-2 on 2, 3 (1.5) takes the White
    seeker 4 from below, and 6-5, 8-7 follow.  With the old GA 1-4, 5 is on 0 beside 7
    and the pairing is 2-1, 4-3, 6-8, 7-5.  The file without 250 records but with 192
    FIDE_DUBOV_BAKU is paired as the rules give, and standard error says so."""
    derived = tmp_path / "derived.trf"
    derived.write_text(HEAD + ROUND_1)
    code, out, err = run(capsys, "--dubov", str(derived), "-p")
    assert code == 0 and out.split("\n")[1:5] == ["2 1", "4 3", "6 5", "8 7"]
    assert "names Baku acceleration but the file has no 250 record: paired with the acceleration the rules give " \
           "(C.04.5.1): group A players 1-5 (7 players paired in round 1" in err
    old = tmp_path / "old.trf"
    old.write_text(HEAD + ROUND_1 + OLD_250)
    code, out, _ = run(capsys, "--dubov", str(old), "-p")
    assert code == 0 and out.split("\n")[1:5] == ["2 1", "4 3", "6 8", "7 5"]


EIGHT = "".join(f"001 {i:4d}      Player {i:<28d}{2500 - 10 * i:4d}\n" for i in range(1, 9))


@pytest.mark.parametrize(("system", "coded", "accelerated", "plain"), [
    ("--dubov", "FIDE_DUBOV_BAKU", ["1 3", "4 2", "5 7", "8 6"], ["1 5", "6 2", "3 7", "8 4"]),
    ("--dutch", "FIDE_DUTCH_BAKU", ["1 3", "4 2", "5 7", "8 6"], ["1 5", "6 2", "3 7", "8 4"]),
])
def test_vcl_q106_a_file_whose_192_names_baku_without_250_records_is_never_paired_as_a_plain_swiss(
        tmp_path: Path, capsys, system, coded, accelerated, plain):
    """The audit's case: round 1 of 8 players, 192 FIDE_DUBOV_BAKU and no 250 record,
    was paired 1-5, 6-2, 3-7, 8-4 (plain), exit 0, silently.  Now the acceleration the
    rules give (GA 1-4: 1-3, 4-2, 5-7, 8-6), for the Dutch system too, and standard
    error names the group; the same players without the Baku code pair plainly."""
    path = tmp_path / "baku.trf"
    path.write_text(f"012 Eight\n142 5\n192 {coded}\n" + EIGHT)
    code, out, err = run(capsys, system, str(path), "-p")
    assert code == 0 and out.split("\n")[1:5] == accelerated, out
    assert "group A players 1-4 (8 players paired in round 1" in err
    path.write_text(f"012 Eight\n142 5\n192 {coded.removesuffix('_BAKU')}\n" + EIGHT)
    code, out, err = run(capsys, system, str(path), "-p")
    assert code == 0 and out.split("\n")[1:5] == plain and "Baku" not in err


def test_vcl_q106_the_checker_re_pairs_a_baku_file_without_250_records_with_the_rules_acceleration(
        tmp_path: Path, capsys):
    """The checker (-c) on a file whose 192 names Baku and which has no 250 record: a
    finding that names the acceleration the rules give (exit 4), and round 1 -- paired
    with group A 1-5 -- re-pairs identically with it, not as a plain Swiss."""
    path = tmp_path / "no250.trf"
    path.write_text(HEAD + ROUND_1)
    code, out, _ = run(capsys, "--dubov", str(path), "-c")
    assert code == 4
    assert "the encoded type (192) names Baku acceleration but the file has no 250 record; the rules give 7 players " \
           "paired in round 1" in out
    assert "players 1-5, 1 virtual point in rounds 1-2" in out
    assert "(the rounds below are re-paired with that acceleration)" in out
    assert "round 1: identical" in out
