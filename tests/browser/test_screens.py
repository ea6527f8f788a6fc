"""Real browser: phones and laptops (issue 21, rough edges 9 and 10)."""

from __future__ import annotations

import pytest
from django.test import Client

from pairing.models import Tournament
from tests.web.public_data import field

from .conftest import PHONE, SHOTS

pytestmark = pytest.mark.browser


@pytest.fixture
def big(tournament):
    field(tournament, 80)  # 40 boards a round; round 3 in play
    Tournament.objects.filter(pk=tournament.pk).update(public=True, tiebreaks="BH-C1, BH, SB, ARO, TPR, PS")
    return tournament


def _logged_in(chromium, live_server, user, **context):
    client = Client()
    client.force_login(user)
    browser = chromium.new_context(**context)
    browser.add_cookies([{"name": "sessionid", "value": client.cookies["sessionid"].value, "url": live_server.url}])
    return browser


def test_rough_edge_9_standings_on_a_phone_keep_names_on_one_line_in_view_with_a_hint(live_server, chromium, big):
    phone = chromium.new_context(**PHONE)
    page = phone.new_page()
    page.goto(f"{live_server.url}/t/{big.slug}/standings/")
    page.wait_for_selector("#standings")
    assert page.locator(".scroll-hint").is_visible(), "the table is cut with no hint"
    name = page.locator("#standings tbody tr:first-child td.name")
    rank = page.locator("#standings tbody tr:first-child td:first-child")
    assert name.bounding_box()["height"] <= rank.bounding_box()["height"] + 1  # one line, like the rank
    # scrolled sideways, the name column stays in view
    page.locator(".scroll").evaluate("e => e.scrollLeft = e.scrollWidth")
    box = name.bounding_box()
    assert box["x"] >= -1 and box["x"] < 60
    page.screenshot(path=str(SHOTS / "phone-standings-scrolled.png"))
    phone.close()


def test_rough_edge_9_results_on_a_phone_have_finger_sized_buttons_and_no_keyboard_help(
    live_server, chromium, big, chief
):
    phone = _logged_in(chromium, live_server, chief, **PHONE)
    page = phone.new_page()
    page.goto(f"{live_server.url}/t/{big.slug}/round/3/")
    page.wait_for_selector("#board-1")
    heights = page.locator("#board-1 .rb").evaluate_all("bs => bs.map(b => b.getBoundingClientRect().height)")
    assert heights and min(heights) >= 44, heights
    assert not page.locator(".keys").is_visible()
    phone.close()


def test_rough_edge_10_compact_tables_show_about_twice_the_boards(live_server, chromium, big, chief):
    laptop = _logged_in(chromium, live_server, chief, viewport={"width": 1366, "height": 900})
    page = laptop.new_page()

    def boards_in_view() -> int:
        return page.evaluate(
            "Array.from(document.querySelectorAll('#boards tr.board'))"
            ".filter(r => r.getBoundingClientRect().bottom <= window.innerHeight).length"
        )

    page.goto(f"{live_server.url}/t/{big.slug}/round/3/")
    page.wait_for_selector("#board-1")
    roomy = boards_in_view()
    page.click("#density-toggle")
    page.wait_for_selector("body.compact")
    compact = boards_in_view()
    page.screenshot(path=str(SHOTS / "compact-results.png"))
    print(f"boards in a 1366x900 window: roomy {roomy}, compact {compact}")
    assert compact >= 2 * roomy - 2 and compact >= 20, (roomy, compact)
    page.click("#density-toggle")
    page.wait_for_function("!document.body.classList.contains('compact')")
    laptop.close()
