"""Real browser: the players page's small state glitches (issue 32, item 12)."""

from __future__ import annotations

import pytest
from django.test import Client

from pairing.models import RatingEntry

from .conftest import SHOTS

pytestmark = pytest.mark.browser


def _page(chromium, live_server, user):
    client = Client()
    client.force_login(user)
    context = chromium.new_context(viewport={"width": 1200, "height": 900})
    context.add_cookies([{"name": "sessionid", "value": client.cookies["sessionid"].value, "url": live_server.url}])
    page = context.new_page()
    page.set_default_timeout(15000)
    return context, page


RED = "rgb(179, 38, 30)"  # --bad


def test_issue32_item12_the_rating_box_is_red_only_with_words_beside_it(live_server, chromium, chief, tournament):
    """Unrated ticked with no rating: sent, the rating box turns red with the sentence
    saying what to type; unticking Unrated (the inline check) takes the sentence and the
    red away together, never leaving a red box without words."""
    context, page = _page(chromium, live_server, chief)
    page.goto(f"{live_server.url}/t/{tournament.slug}/players/")
    page.fill("#id_name", "New, Kid")
    page.check("#id_rating_provisional")
    page.wait_for_selector("#errors-rating .error")
    assert "type the provisional rating" in page.inner_text("#errors-rating")
    page.click("#player-form button[type=submit]")
    page.wait_for_selector("#errors-rating .error")
    colour = "getComputedStyle(document.querySelector('#id_rating')).borderTopColor"
    assert page.evaluate(colour) == RED
    page.screenshot(path=str(SHOTS / "unrated-without-rating.png"))
    page.uncheck("#id_rating_provisional")
    page.wait_for_function("!document.querySelector('#errors-rating .error')")
    assert page.evaluate(colour) != RED, "a red box with no words"
    context.close()


def test_issue32_item12_the_rating_panel_of_a_player_just_registered_goes_away(
    live_server, chromium, chief, tournament
):
    """Picked from the lists, registered (HTMX): the panel with that player's ratings
    does not stay above the empty form, and a reload does not fill the form again."""
    from tests.web.test_rating_lists import fide_xml, load, zipped

    load(zipped("x.xml", fide_xml()), "players_list_xml.zip")
    entry = RatingEntry.objects.get(fide_id="1503014")
    context, page = _page(chromium, live_server, chief)
    page.goto(f"{live_server.url}/t/{tournament.slug}/players/?pick={entry.pk}")
    assert page.locator("#found-ratings").is_visible()
    page.click("#player-form button[type=submit]")
    page.wait_for_selector("text=registered as number 1")
    assert not page.locator("#found-ratings").is_visible()
    assert page.input_value("#id_name") == ""
    assert "pick=" not in page.url
    page.screenshot(path=str(SHOTS / "registered-from-the-list.png"))
    page.reload()
    assert page.input_value("#id_name") == "" and not page.locator("#found-ratings").is_visible()
    context.close()
