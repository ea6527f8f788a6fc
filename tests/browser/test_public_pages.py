"""The public pages in a real browser: a phone does not scroll the whole page
sideways, the Print button appears with JavaScript, and printing hides the controls."""

from __future__ import annotations

import pytest

from pairing.models import Tournament
from tests.web.public_data import field

from .conftest import PHONE, SHOTS


@pytest.fixture
def public(tournament):
    field(tournament, 20)
    Tournament.objects.filter(pk=tournament.pk).update(public=True, tiebreaks="BH-C1, BH, SB, ARO, TPR, PS")
    return tournament


@pytest.mark.parametrize("path", ["standings/", "crosstable/", "aro/", "aro/spread/", "player/1/", "round/3/"])
def test_on_a_phone_wide_tables_scroll_inside_the_page(live_server, chromium, public, path):
    phone = chromium.new_context(**PHONE)
    page = phone.new_page()
    page.goto(f"{live_server.url}/t/{public.slug}/{path}")
    if path == "aro/spread/":
        page.click("#aro-spread summary")  # the figures under the chart, folded: opened as a reader would
    page.wait_for_selector("table")
    width = page.evaluate("document.documentElement.scrollWidth")
    assert width <= 390, f"{path}: the page is {width} px wide on a 390 px screen"
    name = path.strip("/").replace("/", "-")
    page.screenshot(path=str(SHOTS / f"public-phone-{name}.png"), full_page=True)
    phone.close()


def test_printing_the_standings_hides_navigation_and_buttons(live_server, browser_page, public):
    page = browser_page
    page.goto(f"{live_server.url}/t/{public.slug}/standings/")
    button = page.locator("[data-print]")
    assert button.is_visible()  # app.js shows it
    page.emulate_media(media="print")
    assert not button.is_visible()
    assert not page.locator("nav.tabs").is_visible()
    assert page.locator("#standings thead").evaluate("e => getComputedStyle(e).display") == "table-header-group"
    assert page.locator("body").evaluate("e => getComputedStyle(e).backgroundColor") == "rgb(255, 255, 255)"
    # the printout says which tournament it is (the tabs with its name are hidden)
    title = page.locator(".print-title")
    assert title.is_visible() and title.inner_text().startswith(public.name)
    page.emulate_media(media="screen")
    assert not title.is_visible()


def test_an_arbiter_prints_the_pairing_list_with_the_results_entered(live_server, chromium, public, chief):
    from django.test import Client

    client = Client()
    client.force_login(chief)
    context = chromium.new_context(viewport={"width": 1200, "height": 900})
    context.add_cookies([{"name": "sessionid", "value": client.cookies["sessionid"].value, "url": live_server.url}])
    page = context.new_page()
    page.goto(f"{live_server.url}/t/{public.slug}/round/2/")
    page.emulate_media(media="print")
    board = page.locator("#board-1")
    assert board.locator(".current").is_visible() and board.locator(".current").inner_text() == "1-0"
    assert not board.locator(".result-buttons").is_visible()
    # a complete round: no "Pair the next round" link, no by name / by board switch on paper
    assert "round complete" in page.inner_text("#progress")
    assert not page.locator("text=Pair the next round").is_visible()
    assert not page.locator("text=Pairings by name").is_visible()
    assert page.locator(".print-title").inner_text().startswith(public.name)
    context.close()
