"""Baku acceleration (FIDE C.04.5.1) in the engine: hand-worked cases from the text.

The text: GA is the first 2*ceil(N/4) players; the accelerated rounds are the first
half (rounded up) of the tournament; GA players carry 1 virtual point into the first
half (rounded up) of them and ½ into the rest; the pairing score (points + virtual
points) makes the scoregroups and orders them.  Our readings (docs/fide-mode.md):
an earlier upfloat compares the pairing scores of that round, and the board order
uses pairing scores; colours and ARO ignore virtual points.
"""

from __future__ import annotations

from dataclasses import replace
from decimal import Decimal
from pathlib import Path

import pytest

from pairing.engine import (
    Acceleration,
    InvalidSnapshot,
    baku_acceleration,
    group_a_size,
    pair_round,
    player_states,
)
from pairing.engine.__main__ import main
from pairing.engine.acceleration import accelerated_rounds, is_baku
from pairing.engine.trf import TrfError, acceleration_records, dump_trf, parse_trf

from .builders import snapshot


def test_group_a_is_the_first_half_rounded_up_to_even():
    """C.04.5.1 note: 161 players -> GA of 82 (2 * Q, Q = 161/4 rounded up)."""
    assert group_a_size(161) == 82
    assert group_a_size(160) == 80
    assert group_a_size(20) == 10
    assert group_a_size(21) == 12
    assert group_a_size(8) == 4


def test_nine_rounds_have_five_accelerated_three_with_a_full_point():
    """C.04.5.1 example: nine rounds -> five accelerated rounds, one virtual point in
    the first three and half a point in the next two."""
    assert accelerated_rounds(9) == (3, 5)
    assert accelerated_rounds(11) == (3, 6)
    assert accelerated_rounds(5) == (2, 3)
    ga = frozenset({1, 2})
    assert baku_acceleration(9, ga) == (
        Acceleration(Decimal(1), 1, 3, ga),
        Acceleration(Decimal("0.5"), 4, 5, ga),
    )
    assert is_baku(9, baku_acceleration(9, ga))
    assert not is_baku(9, baku_acceleration(7, ga))


EIGHT = {i: "" for i in range(1, 9)}
BAKU_5 = baku_acceleration(5, frozenset({1, 2, 3, 4}))


def test_vcl_q106_round_one_pairs_group_a_and_group_b_apart():
    """8 players, 5 rounds: GA = 1-4 start with one virtual point, so round 1 pairs
    1-3, 4-2 on the top boards and 5-7, 8-6 below (without acceleration: 1-5, 6-2,
    3-7, 8-4)."""
    plain = pair_round(snapshot(EIGHT, total_rounds=5))
    assert [(b.white, b.black) for b in plain.boards] == [(1, 5), (6, 2), (3, 7), (8, 4)]
    fast = pair_round(replace(snapshot(EIGHT, total_rounds=5), acceleration=BAKU_5))
    assert [(b.white, b.black) for b in fast.boards] == [(1, 3), (4, 2), (5, 7), (8, 6)]


ROUND_ONE = {1: "3w1", 3: "1b0", 4: "2w=", 2: "4b=", 5: "7w0", 7: "5b1", 8: "6w0", 6: "8b1"}


def test_vcl_q106_round_two_pairs_on_points_plus_virtual_points():
    """After 1-0 3, 4 = 2, 5 0-1 7, 8 0-1 6: pairing scores 1: 2, 2 and 4: 1½, 3: 1
    (0 + 1), 6 and 7: 1 (1 + 0), 5 and 8: 0.  Bracket 2 takes 2 up to 1 (2 and 4 have
    met); 4 is left in 1½ and takes 3 up; the GB winners 6 and 7 meet; 5 and 8 meet."""
    s = replace(snapshot(ROUND_ONE, total_rounds=5), acceleration=BAKU_5)
    st = player_states(s)
    assert (st[3].score, st[3].points, st[3].virtual_points) == (1, 0, 1)
    assert (st[7].score, st[7].points, st[7].virtual_points) == (1, 1, 0)
    p = pair_round(s)
    assert [(b.white, b.black) for b in p.boards] == [(2, 1), (3, 4), (6, 7), (8, 5)]
    assert [(br.score, br.residents, br.upfloaters) for br in p.explanation.brackets][:2] == [
        (2, (1,), (2,)),
        (Decimal("1.5"), (4,), (3,)),
    ]


def test_virtual_points_halve_then_end():
    """Round 3 of 5 carries ½ virtual point; round 4 none: the pairing score is the
    standings score again."""
    hist = {1: "3w1 2w1", 2: "4b= 1b0", 3: "1b0 4w0", 4: "2w= 3b1"}
    s3 = replace(snapshot(hist, total_rounds=5), acceleration=BAKU_5)
    assert player_states(s3)[1].score == Decimal("2.5")
    hist4 = {k: v + f" {o}{'w' if k < o else 'b'}=" for (k, v), o in zip(hist.items(), [4, 3, 2, 1], strict=True)}
    s4 = replace(snapshot(hist4, total_rounds=5), acceleration=BAKU_5)
    st = player_states(s4)
    assert st[1].score == st[1].points == Decimal("2.5")
    assert st[1].virtual_points == 0


def test_an_upfloat_compares_the_pairing_scores_of_its_round():
    """Round 2: GA player 3 (0 points + 1 virtual) met GB player 7 (1 point + 0):
    equal pairing scores, so nobody upfloated; without acceleration 3 did."""
    hist = {1: "3w1 2w1", 3: "1b0 7w1", 2: "4b= 1b0", 4: "2w= 8b=", 5: "7w0 6w1",
            7: "5b1 3b0", 6: "8b1 5b0", 8: "6w0 4w="}  # fmt: skip
    accelerated = player_states(replace(snapshot(hist, total_rounds=5), acceleration=BAKU_5))
    plain = player_states(snapshot(hist, total_rounds=5))
    assert accelerated[3].upfloats == 0
    assert plain[3].upfloats == 1


def test_acceleration_must_name_known_players_and_real_rounds():
    s = snapshot(EIGHT, total_rounds=5)
    with pytest.raises(InvalidSnapshot, match="unknown players"):
        pair_round(replace(s, acceleration=(Acceleration(Decimal(1), 1, 2, frozenset({9})),)))
    with pytest.raises(InvalidSnapshot, match="not a range"):
        pair_round(replace(s, acceleration=(Acceleration(Decimal(1), 3, 2, frozenset({1})),)))
    with pytest.raises(InvalidSnapshot, match="must be positive"):
        pair_round(replace(s, acceleration=(Acceleration(Decimal(0), 1, 2, frozenset({1})),)))


TRF_8 = """012 Accelerated
XXR 5
001    1      Player 1                          2490
001    2      Player 2                          2480
001    3      Player 3                          2470
001    4      Player 4                          2460
001    5      Player 5                          2450
001    6      Player 6                          2440
001    7      Player 7                          2430
001    8      Player 8                          2420
250       1.0   1   2    1    4
250       0.5   3   3    1    4
"""


def test_trf_250_records_are_read_written_and_paired():
    t = parse_trf(TRF_8)
    assert t.acceleration() == BAKU_5
    assert [line for line in dump_trf(t).splitlines() if line.startswith("250")] == acceleration_records(BAKU_5)
    assert parse_trf(dump_trf(t)).acceleration() == BAKU_5
    p = pair_round(t.snapshot())
    assert [(b.white, b.black) for b in p.boards] == [(1, 3), (4, 2), (5, 7), (8, 6)]


def test_a_player_set_with_gaps_is_written_as_one_record_per_range():
    a = Acceleration(Decimal(1), 1, 2, frozenset({1, 2, 3, 7, 8}))
    assert acceleration_records([a]) == ["250       1.0   1   2    1    3", "250       1.0   1   2    7    8"]


@pytest.mark.parametrize(
    "line, where, what",
    [
        ("250       0.0   1   2    1    4", "column 10", "virtual points"),
        ("250       1.0   x   2    1    4", "column 15", "first round"),
        ("250       1.0   3   2    1    4", "column 15", "comes after the last round"),
        ("250       1.0   1   2    5    4", "column 23", "comes after the last player id"),
        ("250  2.0  1.0   1   2    1    4", "column 5", "blank match points"),
    ],
)
def test_a_malformed_250_record_is_refused_with_its_column(line, where, what):
    text = TRF_8.replace("250       1.0   1   2    1    4", line)
    with pytest.raises(TrfError) as exc:
        parse_trf(text)
    assert f"line 11, {where}" in str(exc.value)
    assert what in str(exc.value)


def test_cli_pairs_and_checks_an_accelerated_file(tmp_path: Path, capsys):
    """Seed 5's 14 players: player 7 has a half-point bye in round 1, so N = 13 and group
    A is the first 2*ceil(13/4) = 8 of the players paired, the last being 9: players
    1-9 (reading 20), 1 virtual point in rounds 1-2 and 1/2 in rounds 3-4 of 7."""
    path = tmp_path / "baku.trf"
    assert main(["--dubov", "-g", "--fixed", "--players", "14", "--rounds", "7", "--seed", "5",
                 "--acceleration", "baku", "-o", str(path)]) == 0  # fmt: skip
    text = path.read_text()
    assert "0000 - H" in next(x for x in text.splitlines() if x.startswith("001    7"))
    assert "250       1.0   1   2    1    9" in text
    assert "250       0.5   3   4    1    9" in text
    assert "--acceleration baku" in text  # the ### line repeats the run
    capsys.readouterr()
    assert main(["--dubov", str(path), "-c"]) == 0, capsys.readouterr().out
    # the same file without its 250 records: its 192 still names Baku, so it is paired
    # with the acceleration the rules give (never as a plain Swiss), and the missing
    # records are a finding
    plain = tmp_path / "plain.trf"
    plain.write_text("\n".join(x for x in text.splitlines() if not x.startswith("250")) + "\n")
    assert main(["--dubov", str(plain), "-c"]) == 4
    out = capsys.readouterr().out
    assert "all 7 rounds identical" in out
    assert "names Baku acceleration but the file has no 250 record" in out
