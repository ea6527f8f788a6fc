"""Issue 32, the data defects of the rating report (TRF-2026 export and its re-import):
each test is named after the defect it pins down."""

from __future__ import annotations

import pytest

from pairing.engine.__main__ import main as engine_main
from pairing.models import Bye, IntegrityEvent, Player, Tournament
from pairing.services import interchange
from pairing.services.numbering import renumber
from pairing.services.players import withdraw
from tests.web.helpers import add_players, play_round


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
