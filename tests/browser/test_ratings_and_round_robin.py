"""Real browser: registering players from a FIDE rating list by typing (issue 18), and a
six-player double round robin played to the end (issue 20)."""

from __future__ import annotations

import io

import pytest

from .conftest import SHOTS, log_in

pytestmark = pytest.mark.browser


def _fide_list():
    from pairing.services.rating_lists import load_list
    from tests.web.test_rating_lists import fide_xml, zipped

    players = [
        ("1503014", "Carlsen, Magnus", "NOR", "M", "GM", 2833, 2820, 2880, 1990, ""),
        ("14100010", "Ćirić, Dragoljub", "SRB", "M", "IM", 2290, "", "", 1935, "i"),
        ("24116068", "Rapidov, Ivan", "SLO", "M", "", "", 1900, 1950, 2001, ""),
        ("5000001", "Novak, Ana", "SLO", "F", "WFM", 2010, 2050, "", 1999, "w"),
        ("5000002", "Novak, Boris", "SLO", "M", "", 1890, "", "", 1980, ""),
    ]
    return load_list(io.BytesIO(zipped("players_list_xml_foa.xml", fide_xml(players))), "players_list_xml.zip",
                     kind="fide")


def _register_by_typing(page, query: str, expected: str) -> None:
    from playwright.sync_api import TimeoutError as PlaywrightTimeout

    page.fill("#lookup-q", query)
    row = page.locator("#lookup-results tr", has_text=expected)
    try:
        row.wait_for(timeout=6000)
    except PlaywrightTimeout:
        # the live search's request can be answered 503 while SQLite is busy with the
        # parallel test run (htmx then swaps nothing): type the query again, as a person would
        page.fill("#lookup-q", "")
        page.fill("#lookup-q", query)
        row.wait_for()
    row.get_by_role("link", name="Use", exact=True).click()
    page.wait_for_url("**/players/?pick=*")
    page.wait_for_selector("#found-ratings")
    assert page.input_value("#id_name") == expected
    page.click("#player-form button[type=submit]")  # htmx swaps in the list and an empty form
    page.locator("#player-table td", has_text=expected).wait_for()


def test_issue_18_three_players_by_name_and_one_by_fide_id(live_server, browser_page):
    from django.contrib.auth import get_user_model

    from pairing.models import Player, Tournament

    user = get_user_model().objects.create_user(username="chief", password="browser-pass-1")
    Tournament.objects.create(slug="list-open", name="List Open", rounds=5, owner=user,
                              start_date="2026-11-20")
    _fide_list()
    page = browser_page
    log_in(page, live_server.url, "chief", "browser-pass-1")
    page.goto(f"{live_server.url}/t/list-open/players/")
    _register_by_typing(page, "magnus carl", "Carlsen, Magnus")
    _register_by_typing(page, "ciric", "Ćirić, Dragoljub")
    # no standard rating: the rapid one comes next in a standard event's order
    _register_by_typing(page, "rapidov", "Rapidov, Ivan")
    _register_by_typing(page, "5000001", "Novak, Ana")
    page.screenshot(path=str(SHOTS / "ratings-lookup.png"), full_page=True)
    got = {p.name: (p.rating, p.fide_rating, p.fide_id, p.title, p.federation, p.birth_year, p.rating_source)
           for p in Player.objects.all()}
    assert got == {
        "Carlsen, Magnus": (2833, 2833, "1503014", "GM", "NOR", 1990, f"FIDE standard, {_month()}"),
        "Ćirić, Dragoljub": (2290, 2290, "14100010", "IM", "SRB", 1935, f"FIDE standard, {_month()}"),
        "Rapidov, Ivan": (1900, 1900, "24116068", "", "SLO", 2001, f"FIDE rapid, {_month()}"),
        "Novak, Ana": (2010, 2010, "5000001", "WFM", "SLO", 1999, f"FIDE standard, {_month()}"),
    }
    assert [p.name for p in Player.objects.order_by("tpn")][0] == "Carlsen, Magnus"


def _month() -> str:
    import datetime

    return datetime.date.today().strftime("%b %Y")


def test_issue_20_a_six_player_double_round_robin_to_the_end(live_server, browser_page):
    from django.contrib.auth import get_user_model

    from pairing.models import Player, Round, Tournament
    from pairing.services.numbering import renumber

    user = get_user_model().objects.create_user(username="chief", password="browser-pass-1")
    page = browser_page
    log_in(page, live_server.url, "chief", "browser-pass-1")
    page.goto(f"{live_server.url}/new/")
    page.fill("#id_name", "Club Double")
    page.check("input[name=system][value=round-robin]")
    page.check("input[name=rr_cycles][value='2']")
    page.fill("#id_tiebreaks", "DE, SB, WIN")
    with page.expect_navigation():
        page.click("button[type=submit].primary")
    t = Tournament.objects.get(name="Club Double")
    assert t.owner == user and t.round_robin and t.rr_cycles == 2
    for i in range(6):
        Player.objects.create(tournament=t, name=f"Player {i + 1}", rating=2200 - 20 * i)
    renumber(t)
    page.goto(f"{live_server.url}/t/{t.slug}/berger/")
    with page.expect_navigation():
        page.click("button[value=lot]")
    assert "Berger numbers drawn by lot." in page.inner_text("main")
    for number in range(1, 11):
        page.goto(f"{live_server.url}/t/{t.slug}/")
        with page.expect_navigation():
            page.click("#pair-next")
        assert f"Round {number} of the Berger table for 6 players" in page.inner_text("#berger-round")
        with page.expect_navigation():
            page.click("#publish")
        page.wait_for_selector("#progress")
        page.wait_for_load_state("networkidle")
        page.locator("#board-1").focus()
        for n, key in enumerate(["1", "=", "0"], start=1):
            page.keyboard.press(key)
            page.wait_for_function(f"document.querySelector('#progress').innerText.includes('{n} of 3')")
            if n < 3:  # focus moves on to the next board by itself
                page.wait_for_function(f"document.activeElement && document.activeElement.id === 'board-{n + 1}'")
    assert Round.objects.filter(tournament=t).count() == 10
    page.goto(f"{live_server.url}/t/{t.slug}/crosstable/")
    page.wait_for_selector("#square-crosstable")
    page.screenshot(path=str(SHOTS / "round-robin-crosstable.png"), full_page=True)
    cells = page.locator("#square-crosstable td.cell").all_inner_texts()
    assert cells.count("X") == 6
    assert all(len(c.split()) == 2 for c in cells if c != "X")  # two games against everyone
    page.goto(f"{live_server.url}/t/{t.slug}/")
    assert "All 10 rounds have been paired." in page.inner_text("main")
