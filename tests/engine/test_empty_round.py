"""A round in which nobody played (issue 22).

When every player was absent, excused or given a bye in round k (all ``0000`` entries, as
the generator writes when its simulated arbiter excuses everyone), round k has been
played: the next round to pair is k + 1, with ``-p`` as with ``-p --round k+1``, and its
pairing is the one of the file cut there.  A round in which only some players have an
entry (byes written ahead) is still the round to pair.
"""

from __future__ import annotations

from pathlib import Path

import pytest

from pairing.engine import NoLegalPairing, pair_round
from pairing.engine.__main__ import main
from pairing.engine.generator import GeneratorConfig, generate
from pairing.engine.trf import dump_trf, from_generated, parse_trf

from .trf_samples import EMPTY_ROUND_7, EMPTY_ROUND_7_THEN_8

ROUND_8 = ["3", "5 4", "7 8", "1 0"]  # the independent check's example: 5-4, 7-8, PAB 1


def run(capsys: pytest.CaptureFixture[str], *argv: str) -> tuple[int, str, str]:
    code = main(list(argv))
    out, err = capsys.readouterr()
    return code, out, err


def write(tmp_path: Path, text: str, name: str = "t.trf") -> Path:
    path = tmp_path / name
    path.write_text(text)
    return path


def test_a_round_where_nobody_played_counts_as_played() -> None:
    """Round 7 has no game, every player has an entry in it: 7 rounds played, the
    default round is 8, with the XXZ absences (not round 7 again)."""
    t = parse_trf(EMPTY_ROUND_7)
    assert all(p.history[6].opponent is None for p in t.players)
    assert t.rounds_played() == 7
    snap = t.snapshot()
    assert snap.round_number == 8
    assert snap == t.snapshot(8)
    assert snap.absent == frozenset({2, 3, 6})


def test_the_cut_file_and_the_full_file_give_the_same_snapshot_of_round_8() -> None:
    """"The pairing must be the same as when the file is cut there": round 8 read from
    the full file (history of rounds 1-7, absences recorded in round 8) equals round 8
    read from the file that stops after round 7 (absences from XXZ)."""
    full = parse_trf(EMPTY_ROUND_7_THEN_8)
    assert full.rounds_played() == 8
    assert full.snapshot(8) == parse_trf(EMPTY_ROUND_7).snapshot()


@pytest.mark.parametrize("extra", [[], ["--round", "8"]], ids=["-p", "-p --round 8"])
def test_pair_after_an_empty_round_both_forms(tmp_path: Path, capsys, extra: list[str]) -> None:
    """Both forms of the command pair round 8: 5-4, 7-8, PAB 1 (was: ``-p`` re-paired
    round 7 with 0 boards, ``-p --round 8`` exit 3)."""
    code, out, err = run(capsys, "--dubov", str(write(tmp_path, EMPTY_ROUND_7)), "-p", *extra)
    assert (code, err) == (0, "")
    assert out.splitlines() == ROUND_8


def test_the_full_file_pairs_round_8_the_same_and_checks_identical(tmp_path: Path, capsys) -> None:
    path = write(tmp_path, EMPTY_ROUND_7_THEN_8)
    code, out, _ = run(capsys, "--dubov", str(path), "-p", "--round", "8")
    assert code == 0 and out.splitlines() == ROUND_8
    code, out, _ = run(capsys, "--dubov", "-c", str(path))
    assert code == 0
    assert "round 7: identical" in out and "round 8: identical" in out
    assert out.splitlines()[-1] == "all 8 rounds identical"
    code, _, err = run(capsys, "--dubov", str(path), "-p")  # nothing left to pair
    assert code == 3 and "round 9 is beyond the tournament's 8 rounds" in err


@pytest.mark.parametrize("seed", [357, 139])
def test_generated_files_cut_after_an_empty_round(tmp_path: Path, capsys, seed: int) -> None:
    """Generator files (8 players, 8 rounds, default rates) whose round 7 has no game:
    seed 357 (everyone absent or excused), seed 139 (only a PAB).  The file written after
    7 rounds is read as 7 rounds played; its default snapshot is the generator's own
    snapshot of round 8, and ``-p`` and ``-p --round 8`` give the engine's pairing of it
    (or both report that no legal pairing exists, exit 1)."""
    g = generate(GeneratorConfig(players=8, rounds=8, seed=seed), rounds_to_play=7)
    assert all(p.history[6].opponent is None for p in g.players), "the seed no longer gives an empty round 7"
    t = parse_trf(dump_trf(from_generated(g)))
    assert t.rounds_played() == 7
    assert t.snapshot() == g.snapshot(8)
    try:
        p = pair_round(g.snapshot(8))
        expected = (0, [str(len(p.boards) + (p.bye is not None))]
                    + [f"{b.white} {b.black}" for b in p.boards] + ([f"{p.bye} 0"] if p.bye else []))
    except NoLegalPairing:
        expected = (1, [])
    path = write(tmp_path, dump_trf(from_generated(g)))
    for extra in ([], ["--round", "8"]):
        code, out, _ = run(capsys, "--dubov", str(path), "-p", *extra)
        assert (code, out.splitlines()) == expected
