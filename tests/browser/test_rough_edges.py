"""Real browser: rough edges a new user met (issue 21), as an arbiter meets them: a second
player of a registered name is asked about before saving (through the HTMX form), and the
web address shows as the name is typed."""

from __future__ import annotations

import pytest

from pairing.services.numbering import renumber

from .conftest import SHOTS, log_in

pytestmark = pytest.mark.browser


def test_a_namesake_is_confirmed_before_it_is_registered(live_server, browser_page):
    from django.contrib.auth import get_user_model

    from pairing.models import Player, Tournament

    user = get_user_model().objects.create_user(username="chief", password="browser-pass-1")
    t = Tournament.objects.create(slug="club-open", name="Club Open", rounds=5, owner=user)
    Player.objects.create(tournament=t, name="Novak, Ana", rating=2000)
    renumber(t)
    page = browser_page
    log_in(page, live_server.url, "chief", "browser-pass-1")
    page.goto(f"{live_server.url}/t/club-open/players/")

    page.fill("#id_name", "Novak, Ana")
    page.fill("#id_rating", "1650")
    page.click("#player-form button[type=submit]")
    page.wait_for_selector("#id_same_name")
    assert "Novak, Ana is already registered (number 1, rating 2000)" in page.inner_text("#player-form")
    page.screenshot(path=str(SHOTS / "namesake-question.png"), full_page=True)
    assert Player.objects.filter(tournament=t).count() == 1

    page.check("#id_same_name")
    page.click("#player-form button[type=submit]")
    page.wait_for_function("document.querySelectorAll('#player-table tbody tr').length === 2")
    assert list(Player.objects.filter(tournament=t).order_by("tpn").values_list("rating", flat=True)) == [2000, 1650]


def test_the_web_address_is_shown_as_the_name_is_typed(live_server, browser_page):
    """Issue 21, rough edge 11: the address field shows the address the name will give."""
    from django.contrib.auth import get_user_model

    get_user_model().objects.create_user(username="chief", password="browser-pass-1")
    page = browser_page
    log_in(page, live_server.url, "chief", "browser-pass-1")
    page.goto(f"{live_server.url}/new/")
    page.type("#id_name", "Zimski Turnir Žalec 2026")
    assert page.get_attribute("#id_slug", "placeholder") == "zimski-turnir-zalec-2026"


def test_the_help_link_opens_the_manual_at_the_pages_chapter(live_server, browser_page):
    """FIDE checklist Q12: the manual is reachable from inside the program."""
    page = browser_page
    page.goto(f"{live_server.url}/accounts/login/")
    page.click("#help-link")
    page.wait_for_url(f"{live_server.url}/help/start/")
    assert "Getting started: accounts and the arbiter team" in page.inner_text("#manual-text h1")
    page.click("text=Entering and correcting results")
    page.wait_for_url(f"{live_server.url}/help/results/")
    assert "press the new key" in page.inner_text("#manual-text")
    page.screenshot(path=str(SHOTS / "manual-results.png"), full_page=True)
