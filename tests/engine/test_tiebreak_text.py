"""The C.07 text a file's standings follow (the tie-break part of issue 35's audit):
TRF-2026 has no record for it, and the 2026 text ranks otherwise (it caps the dummy
opponent's score), so a ``###`` line carries it -- written by the generator (and the
app's export), read by the checker -- and without one the start date (042) decides."""

from __future__ import annotations

from pathlib import Path

from pairing.engine.__main__ import main

LINE = "### Tie-break regulations (C.07): {year} text"


def generated(tmp_path: Path, capsys) -> str:
    """Seed 1: 12 players, 5 rounds, byes; BH then SB.  Players 8 and 6 (3 points each)
    are 3rd and 4th under the 2026 text and the other way round under the 2023 text."""
    path = tmp_path / "g.trf"
    assert main(["--dubov", "-g", "--fixed", "--seed", "1", "--players", "12", "--rounds", "5", "--bye-rate", "0.1",
                 "--tiebreaks", "BH, SB", "-o", str(path)]) == 0
    capsys.readouterr()
    return path.read_text()


def check(tmp_path: Path, capsys, text: str) -> tuple[int, str]:
    path = tmp_path / "c.trf"
    path.write_text(text)
    code = main(["--dubov", str(path), "-c"])
    return code, capsys.readouterr().out


def test_vcl_q21_q31_the_generator_names_the_c07_text_and_the_checker_ranks_by_it(tmp_path: Path, capsys):
    text = generated(tmp_path, capsys)
    assert LINE.format(year=2026) in text.splitlines()
    code, out = check(tmp_path, capsys, text)
    assert code == 0, out
    code, out = check(tmp_path, capsys, text.replace(LINE.format(year=2026), LINE.format(year=2023)))
    assert code == 4
    assert "player 8: rank 3 in the file, 4 computed (BH, SB; C.07 2023 text)" in out
    assert "player 6: rank 4 in the file, 3 computed (BH, SB; C.07 2023 text)" in out


def test_vcl_q21_without_the_c07_line_the_start_date_decides(tmp_path: Path, capsys):
    text = generated(tmp_path, capsys).replace(LINE.format(year=2026) + "\n", "")
    code, out = check(tmp_path, capsys, text)
    assert code == 0, out  # no date: the 2026 text
    code, out = check(tmp_path, capsys, "042 2025/05/01\n" + text)
    assert code == 4 and "computed (BH, SB; C.07 2023 text by the start date)" in out
