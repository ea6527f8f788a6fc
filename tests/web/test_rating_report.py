"""Issue 32, the data defects of the rating report (TRF-2026 export and its re-import):
each test is named after the defect it pins down."""

from __future__ import annotations

import pytest

from pairing.engine.__main__ import main as engine_main
from pairing.models import Bye, IntegrityEvent, Player, Tournament
from pairing.services import interchange
from pairing.services.numbering import renumber
from pairing.services.players import add_players as add_players_service
from pairing.services.players import withdraw
from tests.web.helpers import add_players, hand_changed_round, play_round


def checked(tmp_path, text: str, capsys) -> tuple[int, str]:
    """The engine's checker (``-c``) on ``text``: exit status and what it printed."""
    path = tmp_path / "report.trf"
    path.write_text(text)
    capsys.readouterr()
    code = engine_main(["--dubov", str(path), "-c"])
    out = capsys.readouterr()
    return code, out.out + out.err


def records(text: str, *codes: str) -> list[str]:
    return [line for line in text.splitlines() if line[:3] in codes]


def reimported(owner, text: str, slug: str = "again") -> Tournament:
    t = Tournament.objects.create(slug=slug, name="Again", place="Bled", rounds=5, owner=owner)
    interchange.import_trf(t, text, owner, confirmations=1)
    return Tournament.objects.get(pk=t.pk)


@pytest.mark.django_db
@pytest.mark.parametrize("played", [5, 4])
def test_issue_32_7_a_withdrawal_comes_back_from_the_report_as_it_was(chief, tournament, played):
    """Withdrawn from round 4: the report read back says withdrawn from round 4, with no
    zero-point byes for the rounds 4-5 (finished tournament) or round 4 (round 5 to pair)."""
    add_players(tournament, 10)
    for _ in range(3):
        play_round(tournament)
    leaver = tournament.player_set.get(tpn=7)
    withdraw(leaver, 4)
    for _ in range(played - 3):
        play_round(tournament)

    again = reimported(chief, interchange.export_trf(tournament))

    back = again.player_set.get(name=leaver.name)
    assert back.withdrawn_from_round == 4
    assert not Bye.objects.filter(player=back).exists()
    assert records(interchange.export_trf(again), "001", "240") == records(interchange.export_trf(tournament), "001", "240")


@pytest.mark.django_db
def test_issue_32_1_the_report_re_pairs_itself_when_unrated_players_take_part(chief, tournament, tmp_path, capsys):
    """Two unrated players with provisional ratings (one of them high enough to be paired
    against the top half): the rating report carries the ratings the pairing used (an NRS
    record beside the empty FIDE rating), the checker re-pairs every round identically and
    the re-import finds no round that breaks the rules."""
    add_players(tournament, 9, start_rating=2300)
    Player.objects.create(tournament=tournament, name="Unrated, Uma", rating=2255, rating_provisional=True)
    Player.objects.create(tournament=tournament, name="Unrated, Ugo", rating=1400, rating_provisional=True)
    renumber(tournament)
    for _ in range(3):
        play_round(tournament, results={1: "1/2-1/2", 3: "0-1"})
    text = interchange.export_trf(tournament)

    uma = next(line for line in text.splitlines() if line.startswith("001") and "Unrated, Uma" in line)
    assert uma[48:52].strip() == ""  # no FIDE rating: the rating report says unrated
    code, out = checked(tmp_path, text, capsys)
    assert code == 0, out
    assert "all 3 rounds identical" in out

    again = reimported(chief, text)
    assert not IntegrityEvent.objects.filter(tournament=again).exists()
    back = again.player_set.get(name="Unrated, Uma")
    assert (back.rating, back.rating_provisional, back.fide_rating, back.national_rating) == (2255, True, None, None)
    assert records(interchange.export_trf(again), "001", "172", "FID") == records(text, "001", "172", "FID")


def _late_entry_before_round_4(t, rating: int = 2385):
    """12 players, two rounds played, then a late entry whose rating puts them at number 3
    (the numbers still follow the ratings: everyone from 3 down moves one place), then
    rounds 3-5."""
    add_players(t, 12, start_rating=2400)
    for _ in range(2):
        play_round(t)
    late = add_players_service(t, [{"name": "Late, Lena", "rating": rating}], how="late")[0]
    for _ in range(3):
        play_round(t)
    return Player.objects.get(pk=late.pk)


@pytest.mark.django_db
def test_issue_32_5_a_late_entry_renumbered_before_round_4_leaves_round_1_as_it_was_paired(
        chief, tournament, tmp_path, capsys):
    """Round 1 was paired before the late entry had a number; the report says when it
    entered (XXE), so the checker numbers round 1 without it and finds the colours as they
    were paired (before: 13 boards of round 1 with colours swapped, the TPN parity moved)."""
    late = _late_entry_before_round_4(tournament)
    assert (late.tpn, late.entered_round) == (3, 3)
    text = interchange.export_trf(tournament)
    assert "XXE   3    3" in text.splitlines()
    code, out = checked(tmp_path, text, capsys)
    assert code == 0, out
    assert "all 5 rounds identical" in out

    again = reimported(chief, text)
    assert again.player_set.get(name="Late, Lena").entered_round == 3
    assert not IntegrityEvent.objects.filter(tournament=again).exists()
    assert records(interchange.export_trf(again), "001", "XXE") == records(text, "001", "XXE")


@pytest.mark.django_db
def test_issue_32_5_a_hash_line_written_before_a_late_entry_says_which_numbers_it_uses(chief, tournament):
    """A round 1 changed by hand is an MPA event written with the numbers of then; after a
    late entry re-slotted at number 3 the report's copy says how they map to the file's."""
    add_players(tournament, 12, start_rating=2400)
    hand_changed_round(tournament)
    play_round(tournament)
    add_players_service(tournament, [{"name": "Late, Lena", "rating": 2385}], how="late")
    line = next(x for x in interchange.export_trf(tournament, integrity=True).splitlines() if x.startswith("### MPA"))
    assert line.endswith("(pairing numbers of then; in this file 3-12 are 4-13)"), line
