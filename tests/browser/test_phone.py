"""Real browser at a phone's size, 390x844 (issue 32, item 8): the results row's "more"
buttons and the public standings."""

from __future__ import annotations

import pytest
from django.test import Client

from pairing.models import Round, Tournament
from tests.web.public_data import field

from .conftest import PHONE, SHOTS

pytestmark = pytest.mark.browser


@pytest.fixture
def big(tournament):
    field(tournament, 80)  # 40 boards a round; round 3 in play
    Tournament.objects.filter(pk=tournament.pk).update(public=True, tiebreaks="BH-C1, BH, SB, ARO, TPR, PS")
    return tournament


def _phone(chromium, live_server, user=None, locale="en-GB"):
    context = chromium.new_context(**PHONE, locale=locale)
    if user is not None:
        client = Client()
        client.force_login(user)
        context.add_cookies([{"name": "sessionid", "value": client.cookies["sessionid"].value, "url": live_server.url}])
    page = context.new_page()
    page.set_default_timeout(15000)
    return context, page


@pytest.mark.parametrize("locale", ["en-GB", "ru-RU"])
def test_issue32_item8_more_results_on_a_phone_show_whole_labels_on_finger_sized_buttons(
    live_server, chromium, big, chief, locale
):
    """Under "more" (½-0, adjourned ...): every label whole, every button finger-sized
    and on the screen, in English and in Russian (the longer labels)."""
    context, page = _phone(chromium, live_server, chief, locale)
    page.goto(f"{live_server.url}/t/{big.slug}/round/3/")
    page.click("#board-2 .more-results summary")
    buttons = page.locator("#board-2 .more-buttons .rb")
    buttons.first.wait_for()
    page.locator("#board-2").screenshot(path=str(SHOTS / f"phone-more-results-{locale[:2]}.png"))
    page.screenshot(path=str(SHOTS / f"phone-more-results-page-{locale[:2]}.png"))
    sizes = buttons.evaluate_all(
        "bs => bs.map(b => { const r = b.getBoundingClientRect();"
        " return {label: b.textContent.trim(), w: r.width, h: r.height, right: r.right,"
        " cut: b.scrollWidth > b.clientWidth + 1}; })"
    )
    assert len(sizes) == 7, sizes  # ½-0, 0-½, 0-0, three unrated, adjourned
    for s in sizes:
        assert not s["cut"], f"label cut: {s}"
        assert s["w"] >= 44 and s["h"] >= 44, f"not finger-sized: {s}"
        assert s["right"] <= 390, f"off the screen: {s}"
    page.click("#board-2 .more-buttons .rb[value=adj]")
    page.wait_for_function("document.querySelector('#board-2 .rb.on[value=adj]')")
    assert Round.objects.get(tournament=big, number=3).game_set.get(board=2).result == "adj"
    context.close()


def test_issue32_item8_public_standings_on_a_phone_show_the_points_without_a_swipe(live_server, chromium, big):
    """A visitor's phone: rank, name and points of every row in view as the page opens
    (the tie-breaks may be a swipe away, the points may not)."""
    from pairing.models import Player

    # a long name, as real ones are
    Player.objects.filter(tournament=big, tpn=1).update(name="Abdusattorov, Nodirbek", title="GM")
    context, page = _phone(chromium, live_server)
    page.goto(f"{live_server.url}/t/{big.slug}/standings/")
    page.wait_for_selector("#standings")
    page.screenshot(path=str(SHOTS / "phone-standings.png"))
    headers = page.locator("#standings thead th").all_inner_texts()
    points = headers.index("PTS" if "PTS" in headers else "Pts")
    cells = page.locator(f"#standings tbody tr td:nth-child({points + 1})")
    names = page.locator("#standings tbody tr td.name")
    for i in range(cells.count()):
        box, name = cells.nth(i).bounding_box(), names.nth(i).bounding_box()
        assert box["x"] + box["width"] <= 390, f"row {i + 1}: the points are off the screen ({box})"
        assert name["x"] + name["width"] <= box["x"] + 1, f"row {i + 1}: the name covers the points"
    assert "GM Abdusattorov, Nodirbek" in names.all_inner_texts()
    context.close()
