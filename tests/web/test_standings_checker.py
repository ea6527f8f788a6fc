"""The engine's checker checks a file's standings too (VCL4THP Q21): it recomputes the
points and the ranks from the file's tie-break list (TRF-2026 202) with the app's own
tie-break code, and exits 4 on any difference."""

from __future__ import annotations

from pairing.engine.__main__ import main as cli
from pairing.models import GameResult, Tournament, bump_revision
from pairing.services import interchange
from tests.web.helpers import add_players, play_round


def _exported(owner) -> str:
    t = Tournament.objects.create(slug="checked", name="Checked", rounds=5, owner=owner, tiebreaks="BH-C1, SB, DE")
    add_players(t, 9)
    play_round(t)
    play_round(t, results={0: GameResult.DRAW, 2: GameResult.BLACK_WINS})
    play_round(t, results={1: GameResult.DRAW, 3: GameResult.DRAW})
    return interchange.export_trf(t)


def _edit(text: str, tpn: int, start: int, width: int, value: str) -> str:
    """Columns ``start``..``start+width-1`` (1-based) of player ``tpn``'s 001 line."""
    lines = text.splitlines()
    for i, line in enumerate(lines):
        if line.startswith("001") and int(line[4:8]) == tpn:
            lines[i] = line[: start - 1] + value.rjust(width) + line[start - 1 + width:]
    return "\n".join(lines) + "\n"


def _check(tmp_path, text, capsys) -> tuple[int, str]:
    path = tmp_path / "t.trf"
    path.write_text(text)
    code = cli(["--dubov", "-c", str(path)])
    return code, capsys.readouterr().out


def test_vcl_q21_the_export_carries_its_tie_break_list_and_the_checker_agrees_with_the_app(chief, tmp_path, capsys):
    text = _exported(chief)
    assert "202 BH/C1, SB, DE" in text.splitlines()
    code, out = _check(tmp_path, text, capsys)
    assert code == 0, out
    assert "standings" not in out and "all 3 rounds identical" in out


def test_vcl_q21_the_checker_reports_an_edited_rank(chief, tmp_path, capsys):
    text = _exported(chief)
    line = next(x for x in text.splitlines() if x.startswith("001    1"))
    rank = int(line[85:89])
    code, out = _check(tmp_path, _edit(text, 1, 86, 4, str(rank + 1)), capsys)
    assert code == 4
    assert f"player 1: rank {rank + 1} in the file, {rank} computed (BH/C1, SB, DE; C.07 2026 text)" in out
    assert "all 3 rounds identical" in out  # the pairings themselves are right


def test_vcl_q21_the_checker_reports_edited_points(chief, tmp_path, capsys):
    text = _exported(chief)
    code, out = _check(tmp_path, _edit(text, 2, 81, 4, "9.5"), capsys)
    assert code == 4 and "player 2: points 9.5 in the file" in out


def test_the_tie_break_list_survives_an_export_and_import(chief, chief_client):
    from django.urls import reverse

    text = _exported(chief)
    fresh = Tournament.objects.create(slug="again", name="Again", owner=chief)
    chief_client.post(reverse("pairing:trf_import", args=[fresh.slug]), {"text": text})
    fresh.refresh_from_db()
    assert fresh.tiebreaks == "BH-C1, SB, DE"


def _without(text: str, *codes: str) -> str:
    return "\n".join(x for x in text.splitlines() if x[:3] not in codes) + "\n"


def test_vcl_q21_without_a_tie_break_list_the_ranks_follow_the_points_and_the_output_says_why(
        chief, tmp_path, capsys):
    """A TRF-2026 file without 202 or 212: a rank of 99 no longer passes.  The ranks are
    checked against the points (more points, a better rank; equal points share their
    places in any order), the output says the tie-breaks were not checked and why, and
    the exit status is 4."""
    text = _without(_exported(chief), "202", "212")
    code, out = _check(tmp_path, text, capsys)
    assert code == 0, out
    assert ("standings: tie-breaks not checked: the file has no tie-break list (202, or 212 beyond PTS); the ranks "
            "were checked against the points only") in out
    code, out = _check(tmp_path, _edit(text, 1, 86, 4, "99"), capsys)
    assert code == 4
    assert "player 1: rank 99 in the file" in out and "computed (points only)" in out


def test_vcl_q21_a_file_with_212_but_no_202_is_ranked_by_212s_tie_breaks(chief, tmp_path, capsys):
    text = _without(_exported(chief), "202")
    assert "212 PTS, BH/C1, SB, DE" in text.splitlines()
    line = next(x for x in text.splitlines() if x.startswith("001    1"))
    rank = int(line[85:89])
    code, out = _check(tmp_path, _edit(text, 1, 86, 4, str(rank + 1)), capsys)
    assert code == 4 and f"player 1: rank {rank + 1} in the file, {rank} computed (BH/C1, SB, DE, from 212; C.07 2026 text)" in out
    assert "tie-breaks not checked" not in out


def test_vcl_q217_the_report_says_which_c07_text_ranked_it_and_the_import_and_the_checker_read_it_back(chief, tmp_path, capsys):
    """Issue 35: a 2026 tournament the arbiter set to the 2023 text exported the same 202/212
    as the default, so any other program re-ranked it under the 2026 text.  Now a ###
    line names the text (in the file for rating too), 202 names the rounds one elected
    to play as that text does (GE in 2023, REP in 2026), the checker ranks by the line and
    the import keeps the text."""
    t = Tournament.objects.create(slug="older", name="Older text", rounds=5, owner=chief, tiebreaks="BH-C1, REP, SB",
                                  tiebreak_rules=2023)
    add_players(t, 9)
    play_round(t)
    play_round(t, results={0: GameResult.DRAW, 2: GameResult.BLACK_WINS})
    text = interchange.export_trf(t)
    assert "### Tie-break regulations (C.07): 2023 text" in text.splitlines()
    assert "202 BH/C1, GE, SB" in text.splitlines()
    code, out = _check(tmp_path, text, capsys)
    assert code == 0, out
    fresh = Tournament.objects.create(slug="read-back", name="Read back", owner=chief)
    report: list[str] = []
    interchange.import_trf(fresh, text, report=report)
    fresh.refresh_from_db()
    assert fresh.tiebreak_rules == 2023 and fresh.tiebreaks == "BH-C1, GE, SB"
    assert "The tie-breaks follow the 2023 text of C.07, as the file's ### line says; the tournament keeps it." in report
    Tournament.objects.filter(pk=t.pk).update(tiebreak_rules=2026)
    bump_revision(t.pk)  # as the settings form's change does
    t.refresh_from_db()
    text = interchange.export_trf(t)
    assert "### Tie-break regulations (C.07): 2026 text" in text.splitlines()
    assert "202 BH/C1, REP, SB" in text.splitlines()  # the 2026 name, not GE
