"""The manual's screenshots, taken in the real browser from the demo tournament (issue 21).

Each run writes them to artifacts/screenshots/manual/ (CI keeps them); with
UPDATE_MANUAL_SCREENSHOTS=1 it also replaces the copies the manual shows, in
docs/manual/img/ (commit them).  The test fails when the manual shows a picture this test
does not take, or this test takes one the manual does not show, so the two stay one set.
"""

from __future__ import annotations

import os
import shutil

import pytest
from django.contrib.auth import get_user_model
from django.core.management import call_command
from django.test import Client

from pairing.manual import IMAGE_DIR, TITLES, images_in
from pairing.models import GameResult, Tournament

from .conftest import SHOTS

pytestmark = pytest.mark.browser

OUT = SHOTS / "manual"
VIEW = {"viewport": {"width": 1200, "height": 800}}


@pytest.fixture
def demo(db, settings):
    settings.DEBUG = True  # the demo command runs only on a development copy
    with open(os.devnull, "w") as quiet:
        call_command("demo", stdout=quiet)
    return Tournament.objects.get(slug="demo-open")


def _arbiter(chromium, live_server, **extra):
    client = Client()
    client.force_login(get_user_model().objects.get(username="arbiter"))
    context = chromium.new_context(**VIEW, **extra)
    context.add_cookies([{"name": "sessionid", "value": client.cookies["sessionid"].value, "url": live_server.url}])
    page = context.new_page()
    page.set_default_timeout(15000)
    return context, page


def _shot(target, name: str, taken: list[str], **options) -> None:
    OUT.mkdir(parents=True, exist_ok=True)
    target.screenshot(path=str(OUT / name), **options)
    taken.append(name)


def test_manual_screenshots_come_from_the_demo_tournament(live_server, chromium, demo):
    taken: list[str] = []
    url = f"{live_server.url}/t/{demo.slug}"
    context, page = _arbiter(chromium, live_server)

    for path, name in (
        ("settings/", "settings.png"), ("players/", "players.png"), ("", "overview.png"),
        ("round/4/", "results-entry.png"), ("standings/", "standings.png"), ("aro/", "aro-list.png"),
        ("aro/spread/", "aro-spread.png"),
        ("byes/grid/", "byes-grid.png"), ("fide-mode/", "fide-mode.png"), ("import-trf/", "trf-import.png"),
    ):
        page.goto(f"{url}/{path}")
        page.wait_for_selector("main h1")
        _shot(page, name, taken)

    # a full-point bye asks first (Level 3): the confirmation page
    page.goto(f"{url}/absences/?round=5")
    first = page.locator("select[name^=kind-]").first
    first.select_option("F")
    page.click("main form.card button[type=submit]")
    page.wait_for_selector("#confirm")
    _shot(page, "confirmation.png", taken)
    page.click("#cancel-button")

    # round 4 finished, round 5 drafted: the explanation of the pairing
    for game in demo.last_round().games():
        if not game.result:
            from pairing.services.results import record_result

            record_result(game, GameResult.DRAW, None)
    page.goto(f"{url}/")
    page.click("#pair-next")
    page.wait_for_selector(".explanation")
    box = page.locator(".explanation").bounding_box()  # its first screenful: the PAB, the top scoregroups
    _shot(page, "draft-explanation.png", taken, full_page=True,
          clip={"x": box["x"], "y": box["y"], "width": box["width"], "height": min(box["height"], 800)})

    # the Dutch demo's draft of round 5: a Dutch pairing explained bracket by bracket
    page.goto(f"{live_server.url}/t/demo-dutch/round/5/")
    page.wait_for_selector(".explanation .bracket")
    box = page.locator(".explanation").bounding_box()
    _shot(page, "draft-explanation-dutch.png", taken, full_page=True,
          clip={"x": box["x"], "y": box["y"], "width": box["width"], "height": min(box["height"], 900)})

    # the Burstein demo's draft of round 6: every bracket's players in BSN order with their Index
    page.goto(f"{live_server.url}/t/demo-burstein/round/6/")
    page.wait_for_selector(".explanation .bracket table.index")
    box = page.locator(".explanation").bounding_box()
    _shot(page, "draft-explanation-burstein.png", taken, full_page=True,
          clip={"x": box["x"], "y": box["y"], "width": box["width"], "height": min(box["height"], 1000)})
    context.close()

    # the same standings in Russian, as a visitor who chose it
    visitor = chromium.new_context(**VIEW, locale="ru-RU", extra_http_headers={"Accept-Language": "ru"})
    Tournament.objects.filter(pk=demo.pk).update(public=True)
    russian = visitor.new_page()
    russian.goto(f"{url}/standings/")
    assert russian.locator("html").get_attribute("lang") == "ru"
    _shot(russian, "standings-ru.png", taken)
    visitor.close()

    if os.environ.get("UPDATE_MANUAL_SCREENSHOTS") == "1":
        IMAGE_DIR.mkdir(parents=True, exist_ok=True)
        for name in taken:
            shutil.copyfile(OUT / name, IMAGE_DIR / name)
    shown = {name for slug in TITLES for name in images_in(slug)}
    assert shown == set(taken), "the manual's pictures and this test's screenshots differ"
    committed = {p.name for p in IMAGE_DIR.glob("*.png")}
    assert committed == set(taken), "run with UPDATE_MANUAL_SCREENSHOTS=1 and commit docs/manual/img/"
