"""Real browser, issue 16: a game adjourned in round 3 stays open while round 4 is
paired, its 1-0 comes in round 5 with the Level-3 confirmation, and the final standings
and the TRF-2026 files show it."""

from __future__ import annotations

import pytest

from .conftest import SHOTS, log_in

pytestmark = pytest.mark.browser


def _keys(page, keys: list[str], total: int) -> None:
    page.locator("#board-1").focus()
    for n, key in enumerate(keys, start=1):
        page.keyboard.press(key)
        page.wait_for_function(f"document.querySelector('#progress').innerText.includes('{n} of {total}')")
        if n < len(keys):  # focus moves on to the next board by itself
            page.wait_for_function(f"document.activeElement && document.activeElement.id === 'board-{n + 1}'")


def _pair_and_publish(page) -> str:
    """Pair the next round from the overview and publish it; the draft page's text."""
    page.click("nav.tabs >> text=Overview")
    page.click("#pair-next")
    page.wait_for_selector("text=Why this pairing")
    draft = page.inner_text("body")
    page.click("#publish")
    page.wait_for_selector("#progress")
    return draft


def test_issue_16_an_adjourned_game_finished_two_rounds_later(live_server, browser_page):
    from django.contrib.auth import get_user_model

    from pairing.models import Game, GameResult, IntegrityEvent, Tournament
    from pairing.reports.standings import standings
    from pairing.services.rounds import pair_next_round, publish
    from tests.web.helpers import add_players, play_round, rating_file_comments

    user = get_user_model().objects.create_user(username="chief", password="browser-pass-1")
    t = Tournament.objects.create(slug="autumn", name="Autumn Rapid", rounds=5, owner=user)
    add_players(t, 6)
    play_round(t, user)
    play_round(t, user)
    publish(pair_next_round(t, user), user)
    page = browser_page
    log_in(page, live_server.url, "chief", "browser-pass-1")

    # round 3: board 1 adjourned (key ?), the others decided
    page.goto(f"{live_server.url}/t/autumn/round/3/")
    _keys(page, ["?", "1", "0"], 3)
    adjourned = Game.objects.get(round__tournament=t, round__number=3, board=1)
    assert adjourned.result == GameResult.ADJOURNED
    assert "adjourned" in page.inner_text("#board-1").lower()

    # round 4 is paired with it open: the notice names it
    draft = _pair_and_publish(page)
    assert "Paired with adjourned games still open, counted as draws: round 3 board 1" in draft
    _keys(page, ["1", "=", "0"], 3)
    _pair_and_publish(page)

    # round 5: the adjourned game ends 1-0; the pairings were made on a draw, so it asks
    page.goto(f"{live_server.url}/t/autumn/round/3/")
    page.locator("#board-1").focus()
    page.keyboard.press("1")
    page.keyboard.press("1")  # a finished board changes on a second press
    page.wait_for_selector("#board-1 .confirm-row button")
    page.click("#board-1 .confirm-row button")
    page.wait_for_selector("#confirm-button")
    assert "Level 3 warning" in page.inner_text("body")
    page.screenshot(path=str(SHOTS / "adjourned-confirm.png"), full_page=True)
    page.click("#confirm-button")
    page.wait_for_selector("#progress")
    adjourned.refresh_from_db()
    assert adjourned.result == GameResult.WHITE_WINS
    event = IntegrityEvent.objects.get(tournament=t, kind="result")
    assert event.line.startswith("Adjourned game finished @ Round 3: board 1")

    # the last round's results, then the final standings and files
    page.goto(f"{live_server.url}/t/autumn/round/5/")
    _keys(page, ["1", "1", "1"], 3)
    page.click("nav.tabs >> text=Standings")
    page.wait_for_selector("#standings")
    assert "Not final" not in page.inner_text("body")
    rows = {r.player.pk: r.points for r in standings(t)[1]}
    assert rows[adjourned.white_id] - rows[adjourned.black_id] >= 0
    report = page.request.get(f"{live_server.url}/t/autumn/export.trf").text()
    copy = page.request.get(f"{live_server.url}/t/autumn/export.trf?copy=1").text()
    white = next(line for line in report.splitlines()
                 if line.startswith("001") and int(line[4:8]) == adjourned.white.tpn)
    assert white[91 + 20:91 + 28].split()[-1] == "1"  # round 3: a win, no '?' any more
    assert "?" not in "".join(line[91:] for line in report.splitlines() if line.startswith("001"))
    assert [x for x in report.splitlines() if x.startswith("###")] == rating_file_comments(5)
    assert f"### {event.line}" in copy.splitlines()
    page.screenshot(path=str(SHOTS / "adjourned-final.png"), full_page=True)
