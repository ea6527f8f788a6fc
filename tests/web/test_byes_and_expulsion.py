"""Byes, withdrawals and expulsion as FIDE's checklist asks (VCL4THP Q170–179, Q197–198)."""

from __future__ import annotations

from django.urls import reverse

from pairing.engine.__main__ import main as cli
from pairing.models import Bye, ByeKind, Player
from pairing.reports.crosstable import crosstable
from pairing.reports.standings import standings
from pairing.services import interchange
from tests.web.helpers import confirm, confirmation_page, play_round, shown_byes


def byes_post(client, t, number, **kinds):
    return client.post(reverse("pairing:absences", args=[t.slug]),
                       {"round": number, "seen": shown_byes(t, number), **kinds})


def test_vcl_q174_a_second_half_point_bye_needs_level_3(chief_client, tournament, players):
    p = players[2]
    assert byes_post(chief_client, tournament, 2, **{f"kind-{p.pk}": ByeKind.HALF}).status_code == 302  # the first
    response = byes_post(chief_client, tournament, 4, **{f"kind-{p.pk}": ByeKind.HALF})
    assert confirmation_page(response)["level"] == 3
    assert f"{p.name} already has a half-point bye (round 2); this is number 2." in response.content.decode()
    assert not Bye.objects.filter(round_number=4).exists()
    confirm(chief_client, response)
    assert Bye.objects.filter(player=p, kind=ByeKind.HALF).count() == 2


def test_vcl_q175_q176_a_player_not_eligible_for_half_point_byes_gets_none(chief_client, tournament, players):
    p = players[1]
    Player.objects.filter(pk=p.pk).update(no_half_point_byes=True)
    page = chief_client.get(reverse("pairing:player_edit", args=[tournament.slug, p.pk])).content.decode()
    assert "not eligible for half-point byes" in page.lower()
    response = byes_post(chief_client, tournament, 1, **{f"kind-{p.pk}": ByeKind.HALF})
    page = chief_client.get(response.url).content.decode()
    assert f"{p.name} is not eligible for half-point byes" in page
    assert not Bye.objects.exists()


def test_vcl_q178_the_byes_page_says_full_point_byes_are_discouraged(chief_client, tournament, players):
    page = chief_client.get(reverse("pairing:absences", args=[tournament.slug])).content.decode()
    assert "FIDE&#x27;s rules discourage full-point byes" in page or "FIDE's rules discourage full-point byes" in page
    response = byes_post(chief_client, tournament, 1, **{f"kind-{players[0].pk}": ByeKind.FULL})
    assert "FIDE&#x27;s rules discourage full-point byes." in response.content.decode()


def test_vcl_q170_a_withdrawal_shows_in_the_standings(chief_client, tournament, players):
    play_round(tournament)
    chief_client.post(reverse("pairing:player_withdraw", args=[tournament.slug, players[3].pk]), {"from_round": 2})
    page = chief_client.get(reverse("pairing:standings", args=[tournament.slug])).content.decode()
    assert "withdrawn from round 2" in page


def test_vcl_q197_q198_an_expelled_player_is_flagged_and_left_out_of_the_standings(
    chief_client, tournament, players, tmp_path, capsys
):
    play_round(tournament)
    out = players[0]
    response = chief_client.post(reverse("pairing:player_withdraw", args=[tournament.slug, out.pk]),
                                 {"from_round": 2, "expelled": "on"}, follow=True)
    assert f"{out.name} expelled from round 2." in response.content.decode()
    out.refresh_from_db()
    assert out.expelled and out.withdrawn_from_round == 2
    play_round(tournament)
    rows = standings(tournament)[1]
    assert out.pk not in [r.player.pk for r in rows]
    assert sorted(r.rank for r in rows)[0] == 1 and len(rows) == len(players) - 1
    # the games still count for the opponents; the crosstable lists the player at the foot
    _, cross, _ = crosstable(tournament)
    assert cross[-1].standing.player == out and cross[-1].standing.rank == 0
    page = chief_client.get(reverse("pairing:crosstable", args=[tournament.slug])).content.decode()
    assert ">exp.</abbr>" in page
    # the file's ranks leave the player out, and the engine's checker agrees with them
    text = interchange.export_trf(tournament)
    line = next(x for x in text.splitlines() if x.startswith(f"001 {out.tpn:4d}"))
    assert line[85:89].strip() == ""
    path = tmp_path / "t.trf"
    path.write_text(text)
    assert cli(["--dubov", "-c", str(path)]) == 0, capsys.readouterr().out


def test_an_expulsion_needs_a_round(chief_client, tournament, players):
    response = chief_client.post(reverse("pairing:player_withdraw", args=[tournament.slug, players[0].pk]),
                                 {"from_round": "", "expelled": "on"}, follow=True)
    assert "An expelled player is withdrawn from a round" in response.content.decode()
    players[0].refresh_from_db()
    assert not players[0].expelled


def test_a_withdrawal_survives_an_export_and_an_import(chief, tournament, players):
    """Issue 16, found by a user: a withdrawal exported and imported back became a
    zero-point bye for one round, and the player was paired again afterwards."""
    from pairing.models import Tournament
    from pairing.services.players import withdraw

    play_round(tournament)
    play_round(tournament)
    withdraw(players[4], 3)
    text = interchange.export_trf(tournament)
    assert "240 Z   5" in text and "240 Z   3" in text
    fresh = Tournament.objects.create(slug="again", name="Again", owner=chief)
    interchange.import_trf(fresh, text)
    back = fresh.player_set.get(name=players[4].name)
    assert back.withdrawn_from_round == 3
    assert not Bye.objects.filter(player=back).exists()  # stored as the withdrawal, not as byes
    again = interchange.export_trf(fresh)
    assert [x for x in again.splitlines() if x.startswith("240")] == [x for x in text.splitlines() if x.startswith("240")]
    from pairing.services.rounds import pair_next_round

    rnd = pair_next_round(fresh)
    assert not rnd.game_set.filter(white=back).exists() and not rnd.game_set.filter(black=back).exists()
