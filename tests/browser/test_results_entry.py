"""Real browser: the keyboard results entry under fast typing (issue 32, items 3 and 4).

Round 3 of an 80-player field (40 boards, no result yet) from tests/web/public_data.py.
"""

from __future__ import annotations

import pytest
from django.test import Client

from pairing.models import Round
from tests.web.public_data import field

from .conftest import SHOTS

pytestmark = pytest.mark.browser

# forty results, every key of the first row used, in an order that makes a shift visible
KEYS = ["1", "=", "0", "1", "0", "5", "+", "1", "-", "0"] * 4
VALUES = {"1": "1-0", "=": "1/2-1/2", "5": "1/2-1/2", "0": "0-1", "+": "+-", "-": "-+"}


@pytest.fixture
def forty_boards(tournament):
    field(tournament, 80)  # round 3 in play: 40 boards without a result
    return tournament


def _arbiter_page(chromium, live_server, user, **context):
    client = Client()
    client.force_login(user)
    browser = chromium.new_context(**context)
    browser.add_cookies([{"name": "sessionid", "value": client.cookies["sessionid"].value, "url": live_server.url}])
    page = browser.new_page()
    page.set_default_timeout(30000)
    return browser, page


def _wait_until_saved(page, goal: str, quiet_ms: int = 3000, limit_ms: int = 90000) -> None:
    """Until the progress line says ``goal``, or stops changing for ``quiet_ms`` (a
    dropped key never arrives: fail on the boards, not on a timeout)."""
    last, still, waited = None, 0, 0
    while waited < limit_ms:
        text = page.inner_text("#progress")
        if goal in text:
            return
        still = still + 250 if text == last else 0
        if still >= quiet_ms:
            return
        last = text
        page.wait_for_timeout(250)
        waited += 250


def test_issue32_item3_forty_results_typed_at_50ms_each_land_on_their_own_board(
    live_server, chromium, forty_boards, chief
):
    """Each key goes to the board that was focused when it was typed: the focus moves on
    at once, the saves are queued and sent in order, none is taken by the board before,
    none is dropped (checked in the database, not only on the page)."""
    browser, page = _arbiter_page(chromium, live_server, chief, viewport={"width": 1200, "height": 900})
    page.goto(f"{live_server.url}/t/{forty_boards.slug}/round/3/")
    page.locator("#board-1").focus()
    for key in KEYS:
        page.keyboard.press(key)
        page.wait_for_timeout(50)
    _wait_until_saved(page, "40 of 40")
    page.screenshot(path=str(SHOTS / "results-typed-fast.png"), full_page=True)
    rnd = Round.objects.get(tournament=forty_boards, number=3)
    stored = dict(rnd.game_set.values_list("board", "result"))
    expected = {board: VALUES[key] for board, key in enumerate(KEYS, start=1)}
    wrong = {b: (stored[b], expected[b]) for b in expected if stored[b] != expected[b]}
    assert not wrong, f"boards with another result than the one typed for them (stored, typed): {wrong}"
    assert page.inner_text("#key-hint") == ""
    browser.close()


def test_issue32_item3_a_key_typed_after_the_last_open_board_is_refused_with_a_sentence(
    live_server, chromium, forty_boards, chief
):
    """Two keys for the one board left: the first is saved there, the second changes
    nothing anywhere and the page says why (focus has left the list)."""
    rnd = Round.objects.get(tournament=forty_boards, number=3)
    rnd.game_set.exclude(board=40).update(result="1-0")
    browser, page = _arbiter_page(chromium, live_server, chief, viewport={"width": 1200, "height": 900})
    page.goto(f"{live_server.url}/t/{forty_boards.slug}/round/3/")
    page.locator("#board-40").focus()
    page.keyboard.press("0")
    page.keyboard.press("=")
    page.wait_for_function("document.querySelector('#progress').innerText.includes('40 of 40')")
    assert "focus its board first" in page.inner_text("#key-hint")
    page.wait_for_timeout(300)
    assert rnd.game_set.get(board=40).result == "0-1"
    assert set(rnd.game_set.exclude(board=40).values_list("result", flat=True)) == {"1-0"}
    browser.close()


def test_issue32_item3_a_key_on_a_board_still_being_saved_is_refused_at_that_board(
    live_server, chromium, forty_boards, chief
):
    """Back up to a board whose save has not come back yet and press another key: it is
    refused there in words (not taken as a second save, not passed to a neighbour)."""
    browser, page = _arbiter_page(chromium, live_server, chief, viewport={"width": 1200, "height": 900})
    page.goto(f"{live_server.url}/t/{forty_boards.slug}/round/3/")
    hold = []
    page.route("**/result/", lambda route: hold.append(route))  # the save waits in the network
    page.locator("#board-1").focus()
    page.keyboard.press("1")
    page.wait_for_function("document.activeElement.id === 'board-2'")
    page.keyboard.press("ArrowUp")
    page.keyboard.press("0")
    hint = page.locator("#board-1 .board-hint")
    assert "still being saved" in hint.inner_text()
    for _ in range(40):
        if hold:
            break
        page.wait_for_timeout(50)
    assert len(hold) == 1, "one save only: the refused key sent nothing"
    hold[0].continue_()
    page.wait_for_function("document.querySelector('#progress').innerText.includes('1 of 40')")
    page.wait_for_timeout(300)
    rnd = Round.objects.get(tournament=forty_boards, number=3)
    assert dict(rnd.game_set.exclude(result="").values_list("board", "result")) == {1: "1-0"}
    browser.close()


def test_issue32_item4_press_again_notice_shows_at_the_board_in_view(live_server, chromium, forty_boards, chief):
    """A finished board far down the list: the "press again to change" sentence appears
    beside that board, inside the window, not at the top of the page."""
    rnd = Round.objects.get(tournament=forty_boards, number=3)
    rnd.game_set.filter(board=35).update(result="1-0")
    browser, page = _arbiter_page(chromium, live_server, chief, viewport={"width": 1200, "height": 900})
    page.goto(f"{live_server.url}/t/{forty_boards.slug}/round/3/")
    page.locator("#board-35").focus()
    page.keyboard.press("0")
    notice = page.get_by_text("press 0 again to change it to 0-1")
    notice.wait_for()
    box, row = notice.bounding_box(), page.locator("#board-35").bounding_box()
    assert 0 <= box["y"] and box["y"] + box["height"] <= 900, f"the notice is off screen at y={box['y']}"
    assert row["y"] <= box["y"] <= row["y"] + row["height"], "the notice is not at board 35"
    page.screenshot(path=str(SHOTS / "press-again-at-the-board.png"))
    assert rnd.game_set.get(board=35).result == "1-0"
    browser.close()
