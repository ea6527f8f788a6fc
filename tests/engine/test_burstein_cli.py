"""The Burstein system on the command line (``python -m pairing.engine --burstein``): the
generator writes FIDE's encoded type (192 FIDE_BURSTEIN, FIDE_BURSTEIN_BAKU; the
Tournament-Type Code Table, docs/burstein.md), the checker re-pairs every round as the
engine does, ``-p --explain`` shows each bracket's Index, and the checklist's engine
questions are answered as for the other systems (VCL4THP Q21, Q24, Q31)."""

from __future__ import annotations

from pathlib import Path

from pairing.engine import System
from pairing.engine.__main__ import main
from pairing.engine.trf import parse_trf


def gen(capsys, tmp_path: Path, *argv: str, name: str = "g.trf") -> str:
    path = tmp_path / name
    assert main(["--burstein", "-g", *argv, "-o", str(path)]) == 0
    capsys.readouterr()
    return path.read_text()


def test_vcl_q31_burstein_a_generated_file_follows_the_burstein_rules(capsys, tmp_path):
    """A generated event names the system (092, 192), and the checker finds every round
    the engine's: the seeding rounds (1.6: three of 7) by the Dutch rules, the others by
    Burstein's."""
    text = gen(capsys, tmp_path, "--players", "13", "--rounds", "7", "--seed", "21", "--acceleration", "none")
    lines = text.splitlines()
    assert "192 FIDE_BURSTEIN" in lines and "092 Individual: Swiss system (FIDE Burstein)" in lines
    assert parse_trf(text).system() is System.BURSTEIN
    path = tmp_path / "c.trf"
    path.write_text(text)
    assert main(["--burstein", "-c", str(path)]) == 0
    assert "all 7 rounds identical" in capsys.readouterr().out
    # read as Dutch: the seeding rounds agree, the later rounds need not
    assert main(["--dutch", "-c", str(path)]) in (0, 4)
    out = capsys.readouterr().out
    assert all(f"round {k}: identical" in out for k in (1, 2, 3))


def test_vcl_q24_burstein_baku_acceleration_is_written_and_checked(capsys, tmp_path):
    text = gen(capsys, tmp_path, "--players", "18", "--rounds", "8", "--seed", "3", "--acceleration", "baku")
    assert "192 FIDE_BURSTEIN_BAKU" in text.splitlines() and any(x.startswith("250 ") for x in text.splitlines())
    path = tmp_path / "b.trf"
    path.write_text(text)
    assert main(["--burstein", "-c", str(path)]) == 0, capsys.readouterr().out


def test_burstein_explain_shows_the_index_of_every_bracket_and_the_seeding_rounds_as_dutch(capsys, tmp_path):
    text = gen(capsys, tmp_path, "--players", "12", "--rounds", "6", "--seed", "9", "--acceleration", "none")
    path = tmp_path / "e.trf"
    path.write_text(text)
    assert main(["--burstein", str(path), "-p", "--round", "5", "--explain"]) == 0
    out = capsys.readouterr().out
    assert "Pairing-allocated bye (3.1)" in out
    assert "BSN order by the Index (1.8: Buchholz, Sonneborn-Berger, then TPN):" in out
    assert "Buchholz" in out and "outgoing floaters" in out
    assert main(["--burstein", str(path), "-p", "--round", "2", "--explain"]) == 0
    out = capsys.readouterr().out
    assert "Seeding round 2 of 3 (Burstein 1.6)" in out and "Pairing-allocated bye ([C2], [C5], 1.9.1)" in out


def test_burstein_a_file_naming_another_system_is_paired_as_asked_with_a_warning(capsys, tmp_path):
    text = gen(capsys, tmp_path, "--players", "10", "--rounds", "5", "--seed", "2", "--acceleration", "none")
    path = tmp_path / "w.trf"
    path.write_text(text.replace("192 FIDE_BURSTEIN", "192 FIDE_DUBOV"))
    assert main(["--burstein", str(path), "-p", "--round", "5"]) == 0
    assert "pairing it by the FIDE Burstein system (C.04.4.2) as asked" in capsys.readouterr().err
