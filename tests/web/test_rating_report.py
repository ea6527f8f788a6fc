"""Issue 32, the data defects of the rating report (TRF-2026 export and its re-import):
each test is named after the defect it pins down."""

from __future__ import annotations

import pytest

from pairing.models import Bye, Tournament
from pairing.services import interchange
from pairing.services.players import withdraw
from tests.web.helpers import add_players, play_round


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
