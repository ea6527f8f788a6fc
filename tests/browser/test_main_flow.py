"""Real browser: log in, pair the next round, enter results by keyboard, see standings.

Runs headless Debian chromium (Playwright's own browsers cannot be downloaded here).
Skipped when /usr/bin/chromium is missing, unless REQUIRE_BROWSER=1 (CI), then it fails.
"""

from __future__ import annotations

import os
from pathlib import Path

import pytest

# Playwright's sync API runs an event loop in this thread; the ORM calls below are fine.
os.environ["DJANGO_ALLOW_ASYNC_UNSAFE"] = "true"

CHROMIUM = "/usr/bin/chromium"
SHOTS = Path(__file__).resolve().parents[2] / "artifacts" / "screenshots"

pytestmark = pytest.mark.browser


@pytest.fixture
def browser_page():
    if not Path(CHROMIUM).exists():
        if os.environ.get("REQUIRE_BROWSER") == "1":
            pytest.fail(f"{CHROMIUM} is missing and REQUIRE_BROWSER=1")
        pytest.skip(f"{CHROMIUM} is missing")
    from playwright.sync_api import sync_playwright

    SHOTS.mkdir(parents=True, exist_ok=True)
    with sync_playwright() as pw:
        browser = pw.chromium.launch(
            executable_path=CHROMIUM,
            headless=True,
            args=["--no-sandbox", "--disable-gpu", "--disable-background-networking",
                  "--disable-component-update", "--disable-sync"],
        )
        page = browser.new_page(viewport={"width": 1200, "height": 900})
        page.set_default_timeout(15000)
        try:
            yield page
        finally:
            browser.close()
            # ORM calls made while Playwright runs may use their own connection
            # (greenlet context); close it so PostgreSQL can drop the test database.
            from django.db import connections

            connections.close_all()


def test_arbiter_pairs_a_round_and_enters_results_by_keyboard(live_server, browser_page):
    from django.contrib.auth import get_user_model

    from pairing.models import Player, Round, RoundStatus, Tournament

    user = get_user_model().objects.create_user(username="chief", password="browser-pass-1")
    t = Tournament.objects.create(slug="club-open", name="Club Open", rounds=5, owner=user)
    for i, (name, rating) in enumerate(
        [("Alpha, Ann", 2310), ("Bravo, Ben", 2250), ("Charlie, Cid", 2190), ("Delta, Dora", 2105),
         ("Echo, Eve", 2040), ("Foxtrot, Fay", 1985), ("Golf, Gus", 1920), ("Hotel, Hal", 1850)]
    ):
        Player.objects.create(tournament=t, name=name, rating=rating, fide_id=str(100 + i))
    t.renumber()
    page = browser_page

    page.goto(f"{live_server.url}/accounts/login/")
    page.fill("#id_username", "chief")
    page.fill("#id_password", "browser-pass-1")
    page.click("button[type=submit]")
    page.wait_for_url(f"{live_server.url}/")
    page.click("text=Club Open")

    page.click("#pair-next")
    page.wait_for_selector("text=Why this pairing")
    page.screenshot(path=str(SHOTS / "1-preview.png"), full_page=True)
    page.click("#publish")
    page.wait_for_selector("#progress")
    assert "0 of 4" in page.inner_text("#progress")

    page.locator("#board-1").focus()
    for n, key in enumerate(["1", "=", "0", "1"], start=1):
        page.keyboard.press(key)
        page.wait_for_function(f"document.querySelector('#progress').innerText.includes('{n} of 4')")
        # focus moves on to the next board by itself
        if n < 4:
            page.wait_for_function(f"document.activeElement && document.activeElement.id === 'board-{n + 1}'")
    page.screenshot(path=str(SHOTS / "2-results.png"), full_page=True)
    assert "round complete" in page.inner_text("#progress")
    rnd = Round.objects.get(tournament=t, number=1)
    assert rnd.status == RoundStatus.COMPLETE
    assert list(rnd.game_set.order_by("board").values_list("result", flat=True)) == ["1-0", "1/2-1/2", "0-1", "1-0"]

    page.click("nav.tabs >> text=Standings")
    page.wait_for_selector("#standings")
    text = page.inner_text("#standings")
    assert "Alpha, Ann" in text and "after round 1" in page.inner_text("h1")
    page.screenshot(path=str(SHOTS / "3-standings.png"), full_page=True)
