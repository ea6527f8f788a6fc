"""Requested byes and withdrawals per round."""

from __future__ import annotations

import pytest
from django.urls import reverse

from pairing.models import Bye, ByeKind, IntegrityEvent, Player
from pairing.services import rounds
from tests.web.helpers import confirm, confirmation_page, play_round, shown_byes


def absences_url(t):
    return reverse("pairing:absences", args=[t.slug])


def test_a_half_point_bye_keeps_the_player_out_of_the_pairing(chief_client, chief, tournament, players):
    chief_client.post(absences_url(tournament), {"round": 1, "seen": shown_byes(tournament, 1), f"kind-{players[0].pk}": ByeKind.HALF})
    assert Bye.objects.get().kind == ByeKind.HALF
    rnd = rounds.pair_next_round(tournament, chief)
    paired = {pk for g in rnd.game_set.all() for pk in (g.white_id, g.black_id)} | {rnd.pab().player_id}
    assert players[0].pk not in paired


def test_a_bye_for_a_later_round_can_be_set_in_advance(chief_client, tournament, players):
    chief_client.post(absences_url(tournament), {"round": 3, "seen": shown_byes(tournament, 3), f"kind-{players[0].pk}": ByeKind.ZERO})
    assert Bye.objects.get().round_number == 3


def test_clearing_a_bye_puts_the_player_back(chief_client, tournament, players):
    chief_client.post(absences_url(tournament), {"round": 1, "seen": shown_byes(tournament, 1), f"kind-{players[0].pk}": ByeKind.HALF})
    chief_client.post(absences_url(tournament), {"round": 1, "seen": shown_byes(tournament, 1), f"kind-{players[0].pk}": ""})
    assert not Bye.objects.exists()


def test_an_unknown_bye_kind_writes_nothing(chief_client, tournament, players):
    response = chief_client.post(
        absences_url(tournament),
        {"round": 1, "seen": shown_byes(tournament, 1), f"kind-{players[0].pk}": ByeKind.HALF, f"kind-{players[1].pk}": "U"},
        follow=True,
    )
    assert "unknown choice" in response.content.decode()
    assert not Bye.objects.exists()


def test_byes_for_a_published_round_are_refused(chief_client, chief, tournament, players):
    play_round(tournament, chief)
    response = chief_client.post(absences_url(tournament), {"round": 1, "seen": shown_byes(tournament, 1), f"kind-{players[0].pk}": "H"}, follow=True)
    assert "Byes can be set for rounds 2 to 5" in response.content.decode()
    assert not Bye.objects.filter(kind=ByeKind.HALF).exists()


def test_a_withdrawn_player_is_not_paired(chief_client, chief, tournament, players):
    chief_client.post(reverse("pairing:player_withdraw", args=[tournament.slug, players[3].pk]), {"from_round": 1})
    assert Player.objects.get(pk=players[3].pk).withdrawn_from_round == 1
    rnd = rounds.pair_next_round(tournament, chief)
    assert not rnd.game_set.filter(white=players[3]).exists()
    assert not rnd.game_set.filter(black=players[3]).exists()


def test_a_withdrawn_player_can_return(chief_client, tournament, players):
    url = reverse("pairing:player_withdraw", args=[tournament.slug, players[3].pk])
    chief_client.post(url, {"from_round": 2})
    chief_client.post(url, {"from_round": ""})
    assert Player.objects.get(pk=players[3].pk).withdrawn_from_round is None


def test_a_withdrawal_cannot_start_in_a_paired_round(chief_client, chief, tournament, players):
    play_round(tournament, chief)
    response = chief_client.post(
        reverse("pairing:player_withdraw", args=[tournament.slug, players[3].pk]), {"from_round": 1}, follow=True
    )
    assert "already paired" in response.content.decode()
    assert Player.objects.get(pk=players[3].pk).withdrawn_from_round is None


def test_a_bad_withdrawal_round_is_refused(chief_client, tournament, players):
    response = chief_client.post(
        reverse("pairing:player_withdraw", args=[tournament.slug, players[3].pk]), {"from_round": "x"}, follow=True
    )
    assert "round number" in response.content.decode()
    assert Player.objects.get(pk=players[3].pk).withdrawn_from_round is None


@pytest.mark.parametrize("from_round", ["6", "99", "99999999999999999999"])
def test_a_withdrawal_after_the_last_round_is_refused(chief_client, tournament, players, from_round):
    """The tournament has 5 rounds: a withdrawal from round 6 (or a number no
    database column holds, once a server error) is refused and nothing changes."""
    response = chief_client.post(
        reverse("pairing:player_withdraw", args=[tournament.slug, players[3].pk]), {"from_round": from_round}, follow=True
    )
    text = response.content.decode()
    assert "there is no round" in text or "1 to 5" in text
    assert Player.objects.get(pk=players[3].pk).withdrawn_from_round is None


def test_a_full_point_bye_is_a_pairing_integrity_event_confirmed_at_level_3(chief_client, tournament, players):
    """Issue 15: a point without a game, outside the pairing, is confirmed and recorded."""
    response = chief_client.post(
        absences_url(tournament), {"round": 1, "seen": shown_byes(tournament, 1), f"kind-{players[0].pk}": ByeKind.FULL}
    )
    assert confirmation_page(response)["level"] == 3
    assert "a full-point bye scores 1 without a game" in response.content.decode()
    assert not Bye.objects.exists()
    confirm(chief_client, response)
    assert Bye.objects.get().kind == ByeKind.FULL
    assert IntegrityEvent.objects.get().line == f"Full-point bye @ Round 1: {players[0].tpn}"


def test_a_garbled_list_of_byes_seen_is_not_a_server_error(chief_client, tournament, players):
    """The page sends back the byes it showed ("pk:kind,..."); a tampered or garbled
    value ('²' is a digit to str.isdigit() but not to int()) is ignored, not a 500."""
    response = chief_client.post(
        absences_url(tournament), {"round": 1, f"kind-{players[0].pk}": ByeKind.HALF, "seen": "²:H,x:Z,"}
    )
    assert response.status_code in (200, 302)
    assert Bye.objects.get().kind == ByeKind.HALF


@pytest.mark.parametrize("garbled", ["abc", "1.5", "²"])
def test_byes_for_an_unreadable_round_are_refused_not_saved_for_the_next_one(chief_client, tournament, players, garbled):
    response = chief_client.post(
        absences_url(tournament), {"round": garbled, f"kind-{players[0].pk}": ByeKind.HALF}, follow=True
    )
    assert "Byes can be set for rounds 1 to 5" in response.content.decode()
    assert not Bye.objects.exists()


def test_a_garbled_round_in_the_address_sends_back_to_the_next_rounds_byes(chief_client, tournament, players):
    response = chief_client.get(absences_url(tournament) + "?round=x")
    assert response.status_code == 302
    assert chief_client.get(absences_url(tournament)).status_code == 200


def grid_url(t):
    return reverse("pairing:byes_grid", args=[t.slug])


def grid_seen(t) -> dict:
    return {f"seen-{n}": shown_byes(t, n) for n in range(1, t.rounds + 1)}


def test_rough_edge_7_byes_of_several_rounds_are_set_in_one_grid(chief_client, tournament, players):
    """Issue 21, rough edge 7: byes were entered one round at a time."""
    page = chief_client.get(grid_url(tournament)).content.decode()
    assert page.count('<select name="kind-') == 10 * 5 and f'name="kind-{players[0].pk}-3"' in page
    response = chief_client.post(grid_url(tournament), {
        **grid_seen(tournament),
        f"kind-{players[0].pk}-2": ByeKind.HALF, f"kind-{players[0].pk}-3": ByeKind.ZERO,
        f"kind-{players[1].pk}-5": ByeKind.FULL, f"kind-{players[2].pk}-1": "",
    })
    assert "Byes of rounds 2, 3, 5" in response.content.decode()  # Level 3 first: a full-point bye
    assert "Round 5: " in response.content.decode()
    response = chief_client.get(confirm(chief_client, response).url)
    assert "3 changes saved." in response.content.decode()
    assert sorted(Bye.objects.values_list("player_id", "round_number", "kind")) == sorted([
        (players[0].pk, 2, "H"), (players[0].pk, 3, "Z"), (players[1].pk, 5, "F"),
    ])


def test_rough_edge_7_a_clash_in_one_round_saves_nothing_in_any(chief_client, deputy_client, tournament, players):
    seen = grid_seen(tournament)  # the chief's page, opened before the deputy's change
    deputy_client.post(absences_url(tournament), {"round": 4, "seen": "", f"kind-{players[3].pk}": ByeKind.HALF})
    response = chief_client.post(grid_url(tournament), {
        **seen, f"kind-{players[0].pk}-2": ByeKind.HALF, f"kind-{players[3].pk}-4": ByeKind.ZERO,
    }, follow=True)
    assert "another arbiter changed the bye" in response.content.decode()
    assert list(Bye.objects.values_list("player_id", "round_number", "kind")) == [(players[3].pk, 4, "H")]


def test_rough_edge_7_the_grid_without_seen_and_for_played_rounds(chief_client, chief, tournament, players):
    response = chief_client.post(grid_url(tournament), {f"kind-{players[0].pk}-2": ByeKind.HALF}, follow=True)
    assert "did not say which byes it showed" in response.content.decode() and not Bye.objects.exists()
    play_round(tournament, chief)
    page = chief_client.get(grid_url(tournament)).content.decode()
    assert f'name="kind-{players[0].pk}-1"' not in page and f'name="kind-{players[0].pk}-2"' in page


def test_vcl_q174_the_grid_asks_at_level_3_with_every_warning_of_every_round(chief_client, tournament, players):
    """One grid, three rounds with warnings: a full-point bye in round 2, and player 1's
    half-point byes in rounds 3 and 5 (his second and third).  The Level-3 page lists all
    of them, each under its round (once it showed only the first round's, and the one
    confirmation let the later rounds' warnings in unseen); nothing is saved before it."""
    first, second = players[0], players[1]
    response = chief_client.post(grid_url(tournament), {
        **grid_seen(tournament),
        f"kind-{second.pk}-2": ByeKind.FULL,
        f"kind-{first.pk}-3": ByeKind.HALF, f"kind-{first.pk}-4": ByeKind.ZERO, f"kind-{first.pk}-5": ByeKind.HALF,
        f"kind-{players[2].pk}-1": ByeKind.HALF,
    })
    page = response.content.decode().replace("&#x27;", "'")
    assert confirmation_page(response)["level"] == 3
    assert "Byes of rounds 1, 2, 3, 4, 5" in page
    assert f"Round 2: {second.name}: a full-point bye scores 1 without a game." in page
    assert f"Round 5: {first.name} already has a half-point bye (round 3); this is number 2." in page
    assert not Bye.objects.exists()  # nothing before the answer
    response = chief_client.get(confirm(chief_client, response).url)
    assert "5 changes saved." in response.content.decode()
    assert sorted(Bye.objects.values_list("player_id", "round_number", "kind")) == sorted([
        (second.pk, 2, "F"), (first.pk, 3, "H"), (first.pk, 4, "Z"), (first.pk, 5, "H"), (players[2].pk, 1, "H"),
    ])


def test_vcl_q174_a_second_half_point_bye_set_in_the_grid_after_the_single_round_page_asks(
        chief_client, tournament, players):
    """Player 1's first half-point bye set on the round page; the grid's second one, in a
    later round, is asked about with the round of the first."""
    first = players[0]
    chief_client.post(absences_url(tournament), {"round": 2, "seen": "", f"kind-{first.pk}": ByeKind.HALF})
    response = chief_client.post(grid_url(tournament), {**grid_seen(tournament), f"kind-{first.pk}-4": ByeKind.HALF})
    page = response.content.decode()
    assert f"Round 4: {first.name} already has a half-point bye (round 2); this is number 2." in page
    assert Bye.objects.filter(player=first).count() == 1
