"""Pairing numbers of players equal on rating and title follow an order the tournament
announces (VCL4THP Q146, Q155): name, FIDE id, oldest or youngest first."""

from __future__ import annotations

import datetime

import pytest
from django.urls import reverse

from pairing.models import AuditEntry, IntegrityEvent, Player, Tournament
from pairing.services.numbering import renumber
from tests.web.helpers import add_players, confirm, confirmation_page, play_round, shown_version
from tests.web.test_tournament_setup import GOOD


def _equal_field(t):
    """Four players at 2000 without titles, and one at 2100 (always number 1)."""
    Player.objects.create(tournament=t, name="Top, Tim", rating=2100)
    rows = [("Adams, Ann", "4000", datetime.date(2001, 5, 1)), ("Brown, Bob", "1500", datetime.date(1960, 1, 1)),
            ("Clark, Cid", "", datetime.date(2010, 3, 3)), ("Dean, Dot", "2500", None)]
    for name, fide_id, born in rows:
        Player.objects.create(tournament=t, name=name, rating=2000, fide_id=fide_id, birth_date=born)


def order(t) -> list[str]:
    return [p.name.split(",")[0] for p in t.player_set.order_by("tpn")]


@pytest.mark.parametrize(("tie_order", "expected"), [
    ("name", ["Top", "Adams", "Brown", "Clark", "Dean"]),
    ("fide-id", ["Top", "Brown", "Dean", "Adams", "Clark"]),  # no FIDE id last
    ("oldest", ["Top", "Brown", "Adams", "Clark", "Dean"]),  # no birth date last
    ("youngest", ["Top", "Clark", "Adams", "Brown", "Dean"]),
])
def test_vcl_q146_equal_ratings_are_numbered_in_the_announced_order(chief_client, tournament, tie_order, expected):
    _equal_field(tournament)
    renumber(tournament)
    response = chief_client.post(reverse("pairing:settings", args=[tournament.slug]),
                                 {**GOOD, "slug": tournament.slug, "seen": shown_version(tournament), "rounds": "5",
                                  "tie_order": tie_order})
    assert response.status_code == 302
    tournament.refresh_from_db()
    assert tournament.tie_order == tie_order
    assert order(tournament) == expected  # renumbered at once, as the player list shows


def test_vcl_q155_the_order_is_locked_with_the_other_fixed_settings_in_fide_mode(chief_client, tournament):
    _equal_field(tournament)
    Tournament.objects.filter(pk=tournament.pk).update(tie_order="oldest")
    tournament.refresh_from_db()
    play_round(tournament)
    chief_client.post(reverse("pairing:settings", args=[tournament.slug]),
                      {**GOOD, "slug": tournament.slug, "seen": shown_version(tournament), "tie_order": "name"})
    tournament.refresh_from_db()
    assert tournament.tie_order == "oldest"
    # a late entry is numbered by the same order
    Player.objects.create(tournament=tournament, name="Aaron, Al", rating=2000, birth_date=datetime.date(1950, 1, 1))
    renumber(tournament)
    assert order(tournament)[:3] == ["Top", "Aaron", "Brown"]


# ---------------------------------------------------------------- exchange and regeneration (Q147-154)


def numbers_post(client, t, **data):
    return client.post(reverse("pairing:pairing_numbers", args=[t.slug]), data)


def test_vcl_q147_q150_the_chief_arbiter_exchanges_two_numbers_of_the_same_rating_after_level_3(
    chief_client, tournament
):
    """Adams (2) and Brown (3), both 2000: the exchange asks at Level 3, writes nothing
    before, then swaps them; the list then stays as it is (a later edit does not undo it)
    until it is regenerated."""
    _equal_field(tournament)
    renumber(tournament)
    response = numbers_post(chief_client, tournament, action="exchange", a="2", b="3")
    page = confirmation_page(response)
    assert page["level"] == 3
    assert "No 2 Adams, Ann and No 3 Brown, Bob exchange their pairing numbers." in response.content.decode()
    assert order(tournament) == ["Top", "Adams", "Brown", "Clark", "Dean"]
    response = confirm(chief_client, response)
    assert response.status_code == 302
    assert order(tournament) == ["Top", "Brown", "Adams", "Clark", "Dean"]
    assert Tournament.objects.get(pk=tournament.pk).numbers_by_hand
    assert AuditEntry.objects.filter(detail__startswith="Pairing numbers exchanged: Adams, Ann 2 => 3").exists()
    # a late registration is inserted where the rules place it; the exchanged pair keeps its order
    Player.objects.create(tournament=tournament, name="Able, Al", rating=2000)
    renumber(Tournament.objects.get(pk=tournament.pk))
    assert order(tournament) == ["Top", "Able", "Brown", "Adams", "Clark", "Dean"]


def test_vcl_q148_an_exchange_between_different_ratings_is_refused(chief_client, tournament):
    _equal_field(tournament)
    renumber(tournament)
    response = numbers_post(chief_client, tournament, action="exchange", a="1", b="2")
    assert response.status_code == 302
    follow = chief_client.get(response["Location"]).content.decode()
    assert "have different tournament ratings" in follow
    assert order(tournament) == ["Top", "Adams", "Brown", "Clark", "Dean"]


def test_vcl_q149_an_exchange_against_the_titles_says_so(chief_client, tournament):
    _equal_field(tournament)
    Player.objects.filter(name="Dean, Dot").update(title="FM")
    renumber(tournament)
    assert order(tournament)[1] == "Dean"
    response = numbers_post(chief_client, tournament, action="exchange", a="2", b="3")
    assert "Their titles differ" in response.content.decode()
    assert confirmation_page(response)["level"] == 3


def test_vcl_q151_no_exchange_or_regeneration_once_round_4_is_paired(chief_client, tournament):
    _equal_field(tournament)
    renumber(tournament)
    Tournament.objects.filter(pk=tournament.pk).update(ranking_frozen=True)
    for data in ({"action": "exchange", "a": "2", "b": "3"}, {"action": "regenerate"}):
        response = numbers_post(chief_client, tournament, **data)
        assert "Round 4 has been paired" in chief_client.get(response["Location"]).content.decode()
    assert order(tournament) == ["Top", "Adams", "Brown", "Clark", "Dean"]


def test_vcl_q153_q154_regenerating_moves_two_numbers_only_after_level_3(chief_client, tournament):
    """After an exchange, regenerating gives Adams and Brown their numbers back: two move,
    so it asks first; a regeneration that moves nothing asks nothing."""
    _equal_field(tournament)
    renumber(tournament)
    confirm(chief_client, numbers_post(chief_client, tournament, action="exchange", a="2", b="3"))
    response = numbers_post(chief_client, tournament, action="regenerate")
    assert "2 players get another pairing number: Brown, Bob 2 =&gt; 3, Adams, Ann 3 =&gt; 2." in response.content.decode()
    assert order(tournament)[1] == "Brown"
    confirm(chief_client, response)
    assert order(tournament) == ["Top", "Adams", "Brown", "Clark", "Dean"]
    assert not Tournament.objects.get(pk=tournament.pk).numbers_by_hand
    response = numbers_post(chief_client, tournament, action="regenerate")
    assert response.status_code == 302  # nothing moves: no question


def test_vcl_q154_a_rating_correction_after_round_1_that_moves_numbers_asks_first(chief_client, tournament):
    """Round 1 is paired with six players 2400 ... 2350.  Raising the last one to 2450
    moves every number: Level 3, nothing saved before; after it the list follows."""
    players = add_players(tournament, 6)
    play_round(tournament)
    last = tournament.player_set.order_by("-tpn").first()
    url = reverse("pairing:player_edit", args=[tournament.slug, last.pk])
    data = {"name": last.name, "rating": "2450", "title": "", "federation": "", "fide_id": "", "club": "",
            "sex": "", "seen": shown_version(last)}
    response = chief_client.post(url, data)
    page = confirmation_page(response)
    assert page["level"] == 3 and "This change gives 6 players another pairing number" in response.content.decode()
    assert Player.objects.get(pk=last.pk).rating != 2450
    confirm(chief_client, response)
    assert Player.objects.get(pk=last.pk).rating == 2450 and Player.objects.get(pk=last.pk).tpn == 1
    assert players


def test_vcl_q147_an_exchange_after_round_1_is_a_pairing_integrity_event(chief_client, tournament):
    players = add_players(tournament, 6)
    play_round(tournament)
    a, b = tournament.player_set.order_by("tpn")[2:4]
    Player.objects.filter(pk__in=[a.pk, b.pk]).update(rating=2300)
    confirm(chief_client, numbers_post(chief_client, tournament, action="exchange", a=str(a.tpn), b=str(b.tpn)))
    event = IntegrityEvent.objects.get(tournament=tournament)
    assert event.kind == "tpn" and event.line == f"Pairing numbers exchanged @ Round 1: {a.tpn} <=> {b.tpn}"
    assert players


@pytest.mark.parametrize("who", ["deputy_client", "stranger_client", "anon_client"])
def test_only_the_chief_arbiter_exchanges_numbers(request, tournament, who):
    _equal_field(tournament)
    renumber(tournament)
    client = request.getfixturevalue(who)
    response = numbers_post(client, tournament, action="exchange", a="2", b="3")
    assert response.status_code in (302, 403, 404)
    if who == "anon_client":
        assert "/accounts/login/" in response["Location"]
    else:
        assert response.status_code in (403, 404)
    assert order(tournament) == ["Top", "Adams", "Brown", "Clark", "Dean"]
