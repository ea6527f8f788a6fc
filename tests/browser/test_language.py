"""Real browser: the language picker (issue 21), with and without JavaScript."""

from __future__ import annotations

import pytest

from pairing.models import Tournament

from .conftest import SHOTS

pytestmark = pytest.mark.browser


@pytest.fixture
def public(tournament, players):
    Tournament.objects.filter(pk=tournament.pk).update(public=True)
    return tournament


def test_the_picker_switches_to_russian_at_once_and_the_choice_stays(live_server, chromium, public):
    page = chromium.new_context(viewport={"width": 1200, "height": 800}).new_page()
    page.goto(f"{live_server.url}/t/{public.slug}/standings/")
    assert page.locator("html").get_attribute("lang") == "en"
    page.select_option("#language-choice", "ru")  # JavaScript sends the form on change
    page.wait_for_function("document.documentElement.lang === 'ru'")
    assert page.url.endswith(f"/t/{public.slug}/standings/")  # back on the same page
    assert page.locator("h1").inner_text().startswith("Таблица")
    page.goto(f"{live_server.url}/t/{public.slug}/crosstable/")  # the choice is kept
    assert page.locator("html").get_attribute("lang") == "ru"
    page.screenshot(path=str(SHOTS / "language-ru-crosstable.png"))


def test_without_javascript_the_picker_has_a_button(live_server, chromium, public):
    page = chromium.new_context(java_script_enabled=False).new_page()
    page.goto(f"{live_server.url}/t/{public.slug}/standings/")
    page.select_option("#language-choice", "ru")
    assert page.locator("html").get_attribute("lang") == "en"  # nothing happens by itself
    page.click("#language-picker button[type=submit]")
    page.wait_for_load_state()
    assert page.locator("html").get_attribute("lang") == "ru"
    assert page.locator("#language-picker button").inner_text() == "Сменить язык"
