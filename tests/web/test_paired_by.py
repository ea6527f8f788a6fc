"""Issue 35: the rating report says which program and release paired each round (``### Paired
by`` lines, and 182 with the release), a round kept as the engine's, by hand, from the Berger
table, imported, or from before this was recorded; the import keeps what its file says, and the
free checker shows the lines."""

from __future__ import annotations

import contextlib
import io

import pytest

from pairing.engine.__main__ import main as engine_main
from pairing.engine.version import VERSION
from pairing.models import PairedBy, Round, Tournament
from pairing.services import interchange
from pairing.services.rounds import pair_next_round, publish
from tests.web.helpers import add_players, hand_changed_round, play_round

DUBOV = f"Dubov arbiter {VERSION} (FIDE Dubov system, C.04.4.1)"


def paired_by_lines(text: str) -> list[str]:
    return [line for line in text.splitlines() if line.startswith("### Paired by: ")]


def test_engine_rounds_name_the_program_and_release(tournament, players):
    play_round(tournament)
    play_round(tournament)
    assert list(Round.objects.filter(tournament=tournament).values_list("paired_by", "program")) == [
        (PairedBy.ENGINE, DUBOV), (PairedBy.ENGINE, DUBOV)]
    for text in (interchange.export_trf(tournament), interchange.export_trf(tournament, integrity=True)):
        assert paired_by_lines(text) == [f"### Paired by: {DUBOV}: rounds 1-2"]
        assert f"182 {DUBOV}" in text.splitlines()


def test_a_round_changed_by_hand_and_one_from_before_the_record_are_told_apart(tournament, players):
    play_round(tournament)
    play_round(tournament)
    hand_changed_round(tournament)
    play_round(tournament)
    # round 1 as paired before the program recorded it (a database from before the migration)
    Round.objects.filter(tournament=tournament, number=1).update(paired_by=PairedBy.UNKNOWN, program="")
    assert paired_by_lines(interchange.export_trf(tournament)) == [
        "### Paired by: not recorded (paired before Dubov arbiter recorded it): round 1",
        f"### Paired by: {DUBOV}: rounds 2, 4",
        f"### Paired by: hand, in Dubov arbiter {VERSION} (a manual-pairing session; differs from the engine's "
        "pairing): round 3",
    ]


def test_a_manual_session_that_keeps_the_engine_s_pairing_stays_the_engine_s(tournament, players):
    from pairing.services import manual

    rnd = pair_next_round(tournament)
    manual.start_session(rnd)
    manual.end_session(rnd)
    rnd.refresh_from_db()
    assert (rnd.paired_by, rnd.program) == (PairedBy.ENGINE, DUBOV)


def test_a_round_paired_by_hand_from_an_empty_draft_is_by_hand(tournament, players):
    from pairing.services import manual

    rnd = manual.pair_by_hand(tournament)
    assert (rnd.paired_by, rnd.program) == (PairedBy.HAND, f"Dubov arbiter {VERSION}")


def test_a_round_robin_names_the_berger_table(chief):
    t = Tournament.objects.create(slug="rr", name="RR", rounds=3, owner=chief, system="round-robin")
    add_players(t, 4)
    publish(pair_next_round(t))
    assert list(t.round_set.values_list("paired_by", "program")) == [
        (PairedBy.BERGER, f"Dubov arbiter {VERSION} (round robin, C.05 Annex 1)")]


def test_the_import_keeps_what_its_file_says_and_exports_it_again(chief, tournament, players):
    play_round(tournament)
    hand_changed_round(tournament)
    text = interchange.export_trf(tournament)
    again = Tournament.objects.create(slug="again", name="Again", rounds=5, owner=chief)
    report: list[str] = []
    interchange.import_trf(again, text, chief, confirmations=1, report=report)
    assert any("as the file's ### Paired by lines say, is kept with the round" in line for line in report)
    assert not any("Record 182 not taken" in line for line in report)
    assert list(again.round_set.values_list("paired_by", flat=True)) == [PairedBy.IMPORT, PairedBy.IMPORT]
    assert paired_by_lines(interchange.export_trf(again)) == paired_by_lines(text)


@pytest.mark.parametrize("record, line", [
    ("182 Swiss-Manager 14.0.0.5", "### Paired by: Swiss-Manager 14.0.0.5: rounds 1-2"),
    ("", "### Paired by: not known (imported from a TRF file that does not say): rounds 1-2"),
])
def test_a_file_without_the_lines_gives_its_182_or_says_it_is_not_known(chief, tournament, players, record, line):
    play_round(tournament)
    play_round(tournament)
    text = "\n".join(x for x in interchange.export_trf(tournament).splitlines()
                     if not x.startswith(("### Paired by", "182"))) + ("\n" + record if record else "") + "\n"
    other = Tournament.objects.create(slug="other", name="Other", rounds=5, owner=chief)
    interchange.import_trf(other, text, chief, confirmations=1)
    assert paired_by_lines(interchange.export_trf(other)) == [line]


def test_the_checker_shows_who_paired_the_rounds_after_its_own_name(tournament, players, tmp_path):
    play_round(tournament)
    play_round(tournament)
    path = tmp_path / "report.trf"
    path.write_text(interchange.export_trf(tournament))
    out = io.StringIO()
    with contextlib.redirect_stdout(out):
        assert engine_main(["--dubov", str(path), "-c"]) == 0
    lines = out.getvalue().splitlines()
    assert lines[0].startswith(f"checker: fide-pairings {VERSION} (")
    assert lines[1] == f"the file says: Paired by: {DUBOV}: rounds 1-2"
