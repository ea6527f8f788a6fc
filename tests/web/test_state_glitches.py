"""Small state glitches an arbiter met (issue 32, item 12): what a page says must match
the state it shows."""

from __future__ import annotations

import html
import re

from django.urls import reverse

from pairing.models import GameResult, Player, Tournament
from pairing.services.rounds import pair_next_round
from tests.web.helpers import add_players, confirmation_page, play_round


def _text(response) -> str:
    page = re.sub(r"<(script|style)[^>]*>.*?</\1>", " ", response.content.decode(), flags=re.S)
    return html.unescape(re.sub(r"\s+", " ", re.sub(r"<[^>]+>", " ", page)))


def _round_url(t, number: int) -> str:
    return reverse("pairing:round", args=[t.slug, number])


def test_issue32_item12_a_round_with_an_adjourned_game_is_not_called_complete(chief_client, tournament):
    add_players(tournament, 6)
    rnd = play_round(tournament)
    rnd.game_set.filter(board=2).update(result=GameResult.ADJOURNED)
    text = _text(chief_client.get(_round_url(tournament, 1)))
    assert "3 of 3 results in — 1 adjourned game still to finish." in text
    assert "round complete" not in text
    # the row HTMX swaps in after a result carries the same progress line
    game = rnd.game_set.get(board=1)
    row = chief_client.post(reverse("pairing:game_result", args=[tournament.slug, 1, game.pk]),
                            {"result": "0-1", "expected": game.result}, HTTP_HX_REQUEST="true")
    assert "1 adjourned game still to finish." in _text(row) and "round complete" not in _text(row)


def test_issue32_item12_closed_and_earlier_rounds_show_no_keyboard_help_nor_pair_the_next_round(
    chief_client, tournament
):
    """FIDE mode (the default): after round 3, round 1 is closed; neither it nor round 2
    offers the keyboard help or "Pair the next round"; round 3, the last, offers both."""
    add_players(tournament, 6)
    for _ in range(3):
        play_round(tournament)
    first, second, last = (chief_client.get(_round_url(tournament, n)).content.decode() for n in (1, 2, 3))
    assert 'class="muted keys"' not in first and "Pair the next round" not in first
    assert 'class="muted keys"' in second and "Pair the next round" not in second  # results may still change
    assert 'class="muted keys"' in last and "Pair the next round" in last
    pair_next_round(tournament)  # a draft of round 4: the link has nothing to offer
    assert "Pair the next round" not in chief_client.get(_round_url(tournament, 3)).content.decode()


def test_issue32_item12_a_closed_round_keeps_the_keyboard_help_for_its_adjourned_game(chief_client, tournament):
    add_players(tournament, 6)
    rnd = play_round(tournament)
    rnd.game_set.filter(board=1).update(result=GameResult.ADJOURNED)
    play_round(tournament)
    play_round(tournament)
    assert 'class="muted keys"' in chief_client.get(_round_url(tournament, 1)).content.decode()


def test_issue32_item12_back_to_a_confirmation_page_shows_what_happened_and_the_way_back(chief_client, tournament):
    """A result that needs a confirmation (correcting round 1 once round 2 is
    published): the question's address opened again with GET (the browser's Back) is
    still 405, now with a page saying nothing was done and a link to the round."""
    add_players(tournament, 6)
    rnd = play_round(tournament)
    play_round(tournament)
    game = rnd.game_set.get(board=1)
    url = reverse("pairing:game_result", args=[tournament.slug, 1, game.pk])
    asked = chief_client.post(url, {"result": "0-1", "expected": game.result})
    confirmation_page(asked)
    back = chief_client.get(url)
    assert back.status_code == 405 and back["Allow"] == "POST"
    text = _text(back)
    assert "Nothing was done" in text
    assert f'href="{_round_url(tournament, 1)}"' in back.content.decode()
    game.refresh_from_db()
    assert game.result == "1-0"


def test_issue32_item12_every_form_only_address_opened_by_itself_links_to_where_its_act_starts(
    chief_client, tournament
):
    add_players(tournament, 4)
    player = tournament.player_set.first()
    slug = tournament.slug
    for name, args, back in [
        ("pair_next", [slug], reverse("pairing:tournament", args=[slug])),
        ("player_withdraw", [slug, player.pk], reverse("pairing:player_edit", args=[slug, player.pk])),
        ("fide_mode_leave", [slug], reverse("pairing:fide_mode", args=[slug])),
        ("round_publish", [slug, 1], _round_url(tournament, 1)),
    ]:
        response = chief_client.get(reverse(f"pairing:{name}", args=args))
        assert response.status_code == 405, name
        assert f'href="{back}"' in response.content.decode(), name


def test_issue32_item12_ticking_unrated_without_a_rating_says_what_to_type(chief_client, tournament):
    """The inline check (HTMX, validate=1) after ticking Unrated: the rating field says
    in words that the provisional rating is to be typed; the full form says the same."""
    url = reverse("pairing:players", args=[tournament.slug])
    fields = {"name": "New, Kid", "rating_provisional": "on"}
    checked = chief_client.post(url, {**fields, "validate": "1"}, HTTP_HX_REQUEST="true").content.decode()
    errors = re.search(r'id="errors-rating">(.*?)</div>', checked, re.S).group(1)
    assert "Unrated: type the provisional rating you give this player." in html.unescape(errors)
    sent = chief_client.post(url, fields)
    assert sent.status_code == 400 and "type the provisional rating" in sent.content.decode()
    assert not Player.objects.filter(tournament=tournament).exists()


def test_issue32_item12_no_check_the_ratings_banner_for_players_entered_after_the_list_was_loaded(
    chief_client, chief, db
):
    """The FIDE list is loaded, then a new tournament registers its players from it:
    no list is newer than the players, so no "check the ratings" banner; a list loaded
    afterwards brings it, and opening the check clears it."""
    from tests.web.test_rating_lists import fide_xml, load, zipped

    load(zipped("x.xml", fide_xml()), "players_list_xml.zip")
    t = Tournament.objects.create(slug="new-open", name="New Open", rounds=5, owner=chief)
    url = reverse("pairing:players", args=[t.slug])
    chief_client.post(url, {"name": "Carlsen, Magnus", "fide_id": "1503014", "federation": "NOR",
                            "fide_rating": "2833", "rating_source": "FIDE standard, Nov 2026", "list_rating": "2833"})
    assert t.player_set.count() == 1
    assert 'id="newer-lists"' not in chief_client.get(url).content.decode()
    load(zipped("x.xml", fide_xml(std_shift=1)), "players_list_xml.zip")  # the list loaded again
    assert 'id="newer-lists"' in chief_client.get(url).content.decode()
    chief_client.get(reverse("pairing:rating_check", args=[t.slug]))
    assert 'id="newer-lists"' not in chief_client.get(url).content.decode()


def test_issue32_item12_the_rating_panel_goes_with_the_form_it_filled(chief_client, tournament):
    """Registering a player picked from the lists (HTMX): the answer also empties the
    picked player's rating panel above the form and drops ?pick= from the address."""
    url = reverse("pairing:players", args=[tournament.slug])
    response = chief_client.post(url, {"name": "Typed, Tom", "rating": "1500"}, HTTP_HX_REQUEST="true")
    page = response.content.decode()
    assert '<section id="found-ratings" hx-swap-oob="true" hidden></section>' in page
    assert response["HX-Replace-Url"] == url
