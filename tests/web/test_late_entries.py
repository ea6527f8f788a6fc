"""Issue 32, defect 6: a late entry's rounds missed before entry can hold a requested bye
of any kind (the tournament's rules decide what a late entry scores for them; C.04.2
2.4), with a Level-3 confirmation, in the rating report as the 001 entries of those
rounds.  Per persona: chief arbiter, deputy, another arbiter, anonymous."""

from __future__ import annotations

from decimal import Decimal

import pytest
from django.urls import reverse

from pairing.engine import trf
from pairing.engine.__main__ import main as engine_main
from pairing.models import Bye, ByeKind, IntegrityEvent, IntegrityKind, Player, Tournament
from pairing.reports.standings import standings
from pairing.services import interchange
from pairing.services.players import add_players as register
from tests.web.helpers import add_players, confirm, confirmation_page, play_round


@pytest.fixture
def late(tournament):
    """Ten players, two rounds played, then a late entry (rating 2370: number 4)."""
    add_players(tournament, 10)
    play_round(tournament)
    play_round(tournament)
    return register(tournament, [{"name": "Late, Lena", "rating": 2370}], how="late")[0]


def _url(t, p):
    return reverse("pairing:player_missed_rounds", args=[t.slug, p.pk])


def _points(t, p) -> Decimal:
    _, rows, _ = standings(Tournament.objects.get(pk=t.pk))
    return next(r.points for r in rows if r.player.pk == p.pk)


def test_issue_32_6_a_late_entrant_gets_half_point_byes_for_the_rounds_missed(chief_client, tournament, late,
                                                                              tmp_path, capsys):
    """Before: a late entrant could only score 0 for rounds 1-2.  Now the chief arbiter
    gives ½ for each, confirms, and the standings, the rating report (001: ``0000 - H``)
    and the next pairing count them; the report still re-pairs itself."""
    page = chief_client.get(reverse("pairing:player_edit", args=[tournament.slug, late.pk])).content.decode()
    assert "Rounds missed before entry (entered in round 3)" in page
    response = chief_client.post(_url(tournament, late), {"round_1": "H", "round_2": "H"})
    asked = confirmation_page(response)
    assert asked["level"] == 3
    assert not Bye.objects.filter(player=late).exists()  # nothing before the confirmation
    confirm(chief_client, response)
    assert set(Bye.objects.filter(player=late).values_list("round_number", "kind")) == {(1, "H"), (2, "H")}
    assert _points(tournament, late) == 1
    text = interchange.export_trf(tournament)
    line = next(x for x in text.splitlines() if x.startswith("001") and "Late, Lena" in x)
    assert line[91:99] == "0000 - H" and line[101:109] == "0000 - H" and line[80:84].strip() == "1.0"
    assert not IntegrityEvent.objects.filter(tournament=tournament).exists()  # before its first round: clean
    play_round(tournament)
    text = interchange.export_trf(tournament)
    assert trf.parse_trf(text).entry_rounds() == {4: 3}
    (tmp_path / "r.trf").write_text(text)
    capsys.readouterr()
    assert engine_main(["--dubov", str(tmp_path / "r.trf"), "-c"]) == 0, capsys.readouterr().out


def test_issue_32_6_a_zero_or_full_point_bye_too_and_a_full_point_one_is_recorded(chief_client, tournament, late):
    confirm(chief_client, chief_client.post(_url(tournament, late), {"round_1": "Z", "round_2": "F"}))
    assert dict(Bye.objects.filter(player=late).values_list("round_number", "kind")) == {1: "Z", 2: "F"}
    event = IntegrityEvent.objects.get(tournament=tournament)
    assert event.kind == IntegrityKind.FULL_BYE and event.line == "Late entry's missed rounds @ Round 2: 4 1Z 2F"


def test_issue_32_6_given_after_the_entrants_first_round_is_a_pairing_integrity_event(chief_client, tournament, late):
    """Round 3 was paired with the late entrant on 0: ½ for round 1 now changes a score that
    pairing used, so the report's copy says so."""
    play_round(tournament)
    response = chief_client.post(_url(tournament, late), {"round_1": "H"})
    assert "pairing-integrity event" in response.content.decode()
    confirm(chief_client, response)
    event = IntegrityEvent.objects.get(tournament=tournament)
    assert event.kind == IntegrityKind.MISSED_ROUND
    assert "### Late entry's missed rounds @ Round 3: 4 1H" in interchange.export_trf(tournament, integrity=True)


def test_issue_32_6_a_round_the_player_was_in_is_refused_and_nothing_is_written(chief_client, tournament, late):
    play_round(tournament)
    response = chief_client.post(_url(tournament, late), {"round_3": "H"}, follow=True)
    assert "only rounds 1 to 2 were missed" in response.content.decode()
    assert not Bye.objects.filter(player=late).exists()


def test_issue_32_6_a_player_there_from_round_1_has_no_missed_rounds(chief_client, tournament, late):
    first = Player.objects.get(tournament=tournament, tpn=1)
    page = chief_client.get(reverse("pairing:player_edit", args=[tournament.slug, first.pk])).content.decode()
    assert "Rounds missed before entry" not in page
    chief_client.post(_url(tournament, first), {"round_1": "H"}, follow=True)
    assert not Bye.objects.filter(player=first, round_number=1).exists()


def test_issue_32_6_a_deputy_gives_them_too(deputy_client, tournament, late):
    confirm(deputy_client, deputy_client.post(_url(tournament, late), {"round_2": "H"}))
    assert Bye.objects.get(player=late).kind == ByeKind.HALF


def test_issue_32_6_another_arbiter_and_a_visitor_change_nothing(stranger_client, anon_client, tournament, late):
    assert stranger_client.post(_url(tournament, late), {"round_1": "H"}).status_code == 404
    Tournament.objects.filter(pk=tournament.pk).update(public=True)
    assert stranger_client.post(_url(tournament, late), {"round_1": "H"}).status_code == 403
    response = anon_client.post(_url(tournament, late), {"round_1": "H"})
    assert response.status_code == 302 and response["Location"].startswith(reverse("login"))
    assert not Bye.objects.filter(player=late).exists()


def test_issue_32_6_the_missed_rounds_view_answers_405_to_get(chief_client, tournament, late):
    assert chief_client.get(_url(tournament, late)).status_code == 405
