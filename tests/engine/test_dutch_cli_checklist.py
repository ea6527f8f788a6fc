"""FIDE's checklist asks its engine questions per pairing system (VCL4THP Q19–Q32): the
Dutch system's checker and generator, ``python -m pairing.engine --dutch -c / -g``, answer
them as Dubov's do (docs/fide-checklist.md, "The Dutch system")."""

from __future__ import annotations

import re
import shlex
from pathlib import Path

from pairing.engine import System
from pairing.engine.__main__ import main
from pairing.engine.trf import parse_trf


def gen(capsys, tmp_path: Path, *argv: str, name: str = "g.trf") -> tuple[str, str]:
    path = tmp_path / name
    assert main(["--dutch", "-g", *argv, "-o", str(path)]) == 0
    return path.read_text(), capsys.readouterr().err


def check(capsys, tmp_path: Path, text: str) -> tuple[int, str]:
    path = tmp_path / "checked.trf"
    path.write_text(text)
    code = main(["--dutch", "-c", str(path)])
    return code, capsys.readouterr().out


def _edit_rank(text: str, tpn: int, rank: int) -> str:
    lines = text.splitlines()
    for i, line in enumerate(lines):
        if line.startswith("001") and int(line[4:8]) == tpn:
            lines[i] = line[:85] + str(rank).rjust(4) + line[89:]
    return "\n".join(lines) + "\n"


def test_vcl_q31_dutch_a_generated_file_follows_the_dutch_rules_and_its_tie_break_list(capsys, tmp_path):
    text, _ = gen(capsys, tmp_path, "--players", "14", "--rounds", "6", "--seed", "21", "--tiebreaks", "SB, DE, BH/C1")
    assert "192 FIDE_DUTCH" in text.splitlines() and "202 SB, DE, BH/C1" in text.splitlines()
    assert parse_trf(text).system() is System.DUTCH
    code, out = check(capsys, tmp_path, text)
    assert code == 0 and "all 6 rounds identical" in out and "standings" not in out


def test_vcl_q21_dutch_the_checker_reports_a_wrong_rank_and_a_round_paired_otherwise(capsys, tmp_path):
    text, _ = gen(capsys, tmp_path, "--fixed", "--players", "12", "--rounds", "5", "--seed", "4")
    line = next(x for x in text.splitlines() if x.startswith("001    1"))
    rank = int(line[85:89])
    code, out = check(capsys, tmp_path, _edit_rank(text, 1, rank + 1))
    assert code == 4
    assert f"player 1: rank {rank + 1} in the file, {rank} computed" in out
    # the same file read as Dubov's: its rounds are not all the Dubov engine's
    path = tmp_path / "as-dubov.trf"
    path.write_text(text)
    assert main(["--dubov", "-c", str(path)]) == 4


def test_vcl_q24_dutch_each_option_of_the_generator_reaches_the_file(capsys, tmp_path):
    base = ["--players", "20", "--rounds", "7", "--seed", "8", "--withdrawal-rate", "0", "--late-entry-rate", "0"]
    text, _ = gen(capsys, tmp_path, *base, "--acceleration", "none", "--half-bye-rate", "0.15", "--zero-bye-rate",
                  "0", "--full-bye-rate", "0", "--forfeit-rate", "0", "--odd-result-rate", "0", name="h.trf")
    codes = {e.result.value for p in parse_trf(text).players for e in p.history}
    assert "H" in codes and not codes & {"Z", "F", "+", "-"}
    text, _ = gen(capsys, tmp_path, *base, "--acceleration", "none", "--bye-rate", "0", "--forfeit-rate", "0.3",
                  "--double-forfeit-rate", "0", "--odd-result-rate", "0.3", name="odd.trf")
    codes = {e.result.value for p in parse_trf(text).players for e in p.history}
    assert {"+", "-"} <= codes
    text, _ = gen(capsys, tmp_path, *base, "--acceleration", "baku", name="baku.trf")
    assert "192 FIDE_DUTCH_BAKU" in text.splitlines() and any(x.startswith("250 ") for x in text.splitlines())
    code, out = check(capsys, tmp_path, text)
    assert code == 0, out
    ratings = [2400 - 37 * i for i in range(10)]
    text, _ = gen(capsys, tmp_path, "--ratings", ",".join(map(str, ratings)), "--rounds", "3", "--seed", "5",
                  "--late-entry-rate", "0", name="ratings.trf")
    assert sorted((p.rating for p in parse_trf(text).players), reverse=True) == ratings


def test_vcl_q25_q30_dutch_unset_options_are_drawn_and_the_printed_seed_repeats_the_file(capsys, tmp_path):
    first, err = gen(capsys, tmp_path, "--players", "10", "--rounds", "4", name="a.trf")
    second, _ = gen(capsys, tmp_path, "--players", "10", "--rounds", "4", name="b.trf")
    assert first != second
    seed = int(re.search(r"seed (\d+) \(drawn", err).group(1))
    command = next(line for line in first.splitlines() if line.startswith("### python -m pairing.engine"))
    words = shlex.split(command[4:])
    assert words[:4] == ["python", "-m", "pairing.engine", "--dutch"] and "--seed" in words
    assert words[words.index("--seed") + 1] == str(seed)
    again, _ = gen(capsys, tmp_path, *words[5:], name="again.trf")
    assert again == first
