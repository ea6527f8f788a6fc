"""The command line's generator as FIDE's checklist asks for it (VCL4THP Q22–32)."""

from __future__ import annotations

import random
import re
import shlex
from pathlib import Path

from pairing.engine.__main__ import main
from pairing.engine.generator import GeneratorConfig, _setup
from pairing.engine.trf import parse_trf


def gen(capsys, tmp_path: Path, *argv: str, name: str = "g.trf") -> tuple[str, str]:
    path = tmp_path / name
    assert main(["--dubov", "-g", *argv, "-o", str(path)]) == 0
    return path.read_text(), capsys.readouterr().err


def test_vcl_q30_two_runs_without_a_seed_differ_and_the_printed_seed_repeats_either(capsys, tmp_path):
    first, err1 = gen(capsys, tmp_path, "--players", "10", "--rounds", "4", name="a.trf")
    second, err2 = gen(capsys, tmp_path, "--players", "10", "--rounds", "4", name="b.trf")
    seed1, seed2 = (int(re.search(r"seed (\d+) \(drawn", e).group(1)) for e in (err1, err2))
    assert seed1 != seed2 and first != second
    again, _ = gen(capsys, tmp_path, "--players", "10", "--rounds", "4", "--seed", str(seed1), name="c.trf")
    assert again == first


def test_vcl_q25_unset_options_take_random_values_within_the_documented_ranges(capsys, tmp_path):
    text, _ = gen(capsys, tmp_path, "--seed", "11")
    command = next(line for line in text.splitlines() if line.startswith("### python -m pairing.engine"))
    words = shlex.split(command[4:])
    values = {words[i][2:]: words[i + 1] for i in range(len(words) - 1) if words[i].startswith("--")}
    assert 8 <= int(values["players"]) <= 60 and 1 <= int(values["rounds"]) <= 11
    assert 0.10 <= float(values["draw-rate"]) <= 0.45 and 0 <= float(values["bye-rate"]) <= 0.06
    # the ### line is the command that repeats the file byte for byte
    again, _ = gen(capsys, tmp_path, *words[4:], name="again.trf")
    assert again == text
    # and another seed draws other values
    other, _ = gen(capsys, tmp_path, "--seed", "12", name="other.trf")
    assert next(x for x in other.splitlines() if x.startswith("###")) != command


def test_vcl_q25_fixed_keeps_the_fixed_defaults(capsys, tmp_path):
    text, _ = gen(capsys, tmp_path, "--fixed", "--players", "12", "--rounds", "5", "--seed", "3")
    assert "--draw-rate 0.3 --forfeit-rate 0.02 --bye-rate 0.03" in text
    assert "202 BH/C1, BH, SB" in text.splitlines()


def test_vcl_q27_ratings_are_given_per_player(capsys, tmp_path):
    ratings = [2400, 2390, 2100, 1999, 1850, 1500]
    text, _ = gen(capsys, tmp_path, "--ratings", ",".join(map(str, ratings)), "--rounds", "3", "--seed", "5",
                  "--late-entry-rate", "0")
    assert sorted((p.rating for p in parse_trf(text).players), reverse=True) == ratings


def test_vcl_q31_the_file_follows_the_pairing_rules_and_its_own_tie_break_list(capsys, tmp_path):
    text, _ = gen(capsys, tmp_path, "--players", "14", "--rounds", "6", "--seed", "21", "--tiebreaks", "SB, DE, BH/C1")
    assert "202 SB, DE, BH/C1" in text.splitlines()
    path = tmp_path / "g.trf"
    assert main(["--dubov", "-c", str(path)]) == 0  # pairings and ranks both check
    assert "standings" not in capsys.readouterr().out


def test_vcl_q32_results_follow_fides_rating_table(capsys):
    """400 points apart, White is expected to score 0.92 (B.02 8.1.2, the difference
    capped at 400): over 20,000 seeded games the mean is within 0.01 of it, and the draws
    stay within what the expectation allows (2 x 0.08)."""
    sim = _setup(GeneratorConfig(players=2, rounds=1, seed=1, draw_rate=0.3, results="fide", ratings=(2600, 2200)))
    sim.rng = random.Random(7)
    scores, draws = 0.0, 0
    for _ in range(20_000):
        rw, _rb = sim._fide_result(1, 2)
        scores += {"1": 1.0, "=": 0.5, "0": 0.0}[rw.value]
        draws += rw.value == "="
    assert abs(scores / 20_000 - 0.92) < 0.01
    assert abs(draws / 20_000 - 0.16) < 0.01
    # beyond 400 points the table is capped: 800 apart is still 0.92
    sim = _setup(GeneratorConfig(players=2, rounds=1, seed=1, results="fide", ratings=(2800, 2000)))
    sim.rng = random.Random(7)
    mean = sum({"1": 1.0, "=": 0.5, "0": 0.0}[sim._fide_result(1, 2)[0].value] for _ in range(20_000)) / 20_000
    assert abs(mean - 0.92) < 0.01
