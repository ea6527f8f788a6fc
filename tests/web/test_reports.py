"""Standings and the ARO list."""

from __future__ import annotations

from django.urls import reverse

from pairing.models import GameResult
from pairing.services.rounds import publish
from tests.web.helpers import play_round


def test_standings_rank_by_points_with_tiebreak_columns(chief_client, chief, tournament, players):
    play_round(tournament, chief, {0: GameResult.BLACK_WINS})
    response = chief_client.get(reverse("pairing:standings", args=[tournament.slug]))
    body = response.content.decode()
    assert "Standings" in body and "after round 1" in body
    assert "<th>BH-C1</th>" in body and "Buchholz" in body
    rows = response.context["rows"]
    assert [r.points for r in rows].count(1) == 5
    assert rows[0].points == 1


def test_standings_count_only_complete_rounds(chief_client, chief, tournament, players):
    play_round(tournament, chief)
    from pairing.services import rounds

    rnd = rounds.pair_next_round(tournament, chief)
    publish(rnd, chief)
    response = chief_client.get(reverse("pairing:standings", args=[tournament.slug]))
    assert response.context["rounds"] == 1


def test_the_aro_list_shows_white_and_black_seekers_per_scoregroup(chief_client, chief, tournament, players):
    play_round(tournament, chief)
    body = chief_client.get(reverse("pairing:aro", args=[tournament.slug])).content.decode()
    assert "ARO list for round 2" in body
    assert "Scoregroup 1" in body and "Scoregroup 0" in body
    assert "White seekers" in body and "Black seekers" in body


def test_the_aro_list_during_a_round_shows_the_figures_it_was_paired_with(chief_client, chief, tournament, players):
    play_round(tournament, chief)
    from pairing.services import rounds

    rnd = rounds.pair_next_round(tournament, chief)
    publish(rnd, chief)
    body = chief_client.get(reverse("pairing:aro", args=[tournament.slug])).content.decode()
    assert "ARO list for round 2" in body


def test_the_crosstable_names_opponents_by_line_colour_and_result(chief_client, chief, tournament, players):
    from pairing.models import Player

    Player.objects.create(tournament=tournament, name="Odd, One", rating=1000)
    play_round(tournament, chief, {0: GameResult.DRAW})
    response = chief_client.get(reverse("pairing:crosstable", args=[tournament.slug]))
    rows = response.context["rows"]
    line = {r.standing.player.pk: r.number for r in rows}
    cells = {r.standing.player.name: r.cells[0] for r in rows}
    assert cells["Odd, One"] == "bye"
    g = tournament.round_set.get(number=1).games().first()
    assert cells[g.white.name] == f"{line[g.black_id]}w½"
    assert cells[g.black.name] == f"{line[g.white_id]}b½"


def test_standings_download_as_csv(chief_client, chief, tournament, players):
    play_round(tournament, chief)
    response = chief_client.get(reverse("pairing:standings_csv", args=[tournament.slug]))
    lines = response.content.decode().splitlines()
    assert lines[0] == "Rk,No,Title,Name,Rtg,Fed,Pts,BH-C1,BH,SB"
    assert len(lines) == 11


def test_pairings_by_name_list_everyone_alphabetically(chief_client, chief, tournament, players):
    from pairing.models import Player

    Player.objects.create(tournament=tournament, name="Aardvark, Odd", rating=1000)
    rnd = play_round(tournament, chief)
    response = chief_client.get(rnd.get_absolute_url() + "?by=name")
    rows = response.context["by_name"]
    assert len(rows) == 11
    assert rows[0]["player"].name == "Aardvark, Odd" and rows[0]["result"] == "bye"


def test_a_round_in_play_refreshes_itself_for_visitors(anon_client, chief, tournament, players):
    from pairing.models import Tournament
    from pairing.services import rounds

    Tournament.objects.filter(pk=tournament.pk).update(public=True)
    rnd = rounds.pair_next_round(tournament, chief)
    publish(rnd, chief)
    body = anon_client.get(rnd.get_absolute_url()).content.decode()
    assert 'hx-trigger="every 30s"' in body and "Refresh now" in body
