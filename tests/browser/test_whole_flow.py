"""Real browser, every step through the UI, as a club arbiter would do it:

log in with the login form, create a public tournament with the form, register players
one by one and from a pasted list, pair round 1, publish it, enter every result from
the keyboard, pair and play round 2, download the TRF export (which the engine's
checker re-pairs identically, round by round), then follow the public standings as an
anonymous visitor in a fresh browser (names and points).  Phone-sized screenshots of results entry and of the public
standings too.  Screenshots: artifacts/screenshots/flow-*.png.
"""

from __future__ import annotations

import re
import subprocess
import sys
from pathlib import Path

import pytest

from .conftest import PHONE, SHOTS

pytestmark = pytest.mark.browser

PASSWORD = "whole-flow-pass-7"
SINGLE = [("Kowalski, Anna", "2255"), ("Novak, Luka", "2190")]
PASTED = [("Berg, Ida", 2310), ("Costa, Rui", 2140), ("Dahl, Erik", 2075), ("Varga, Zsofia", 1990)]
KEYS = {"1": (1, 0), "=": (0.5, 0.5), "0": (0, 1)}


def shot(page, name: str) -> None:
    page.screenshot(path=str(SHOTS / f"flow-{name}.png"), full_page=True)


def points_text(value: float) -> str:
    return f"{value:g}"  # as the standings print them: 1, 0.5, 0


def test_whole_flow_through_the_ui_then_public_standings(live_server, chromium, tmp_path):
    from django.contrib.auth import get_user_model

    from pairing.models import Player, Round, RoundStatus, Tournament

    get_user_model().objects.create_user(username="clubarbiter", password=PASSWORD)
    base = live_server.url
    arbiter = chromium.new_context(viewport={"width": 1200, "height": 900})
    page = arbiter.new_page()
    page.set_default_timeout(15000)

    # 1. log in through the form: a visitor at / sees the public front page, whose
    # header links the login form
    page.goto(f"{base}/")
    page.click("header a[href$='/accounts/login/']")
    page.wait_for_url(re.compile(r"/accounts/login/"))
    page.fill("#id_username", "clubarbiter")
    page.fill("#id_password", PASSWORD)
    shot(page, "01-login")
    page.click("main button[type=submit]")
    page.wait_for_url(f"{base}/")

    # 2. a new tournament, public
    page.goto(f"{base}/new/")
    page.fill("#id_name", "Village Rapid 2026")
    page.fill("#id_slug", "village-rapid")
    page.fill("#id_place", "Kranj")
    page.fill("#id_rounds", "5")
    page.check("#id_public")
    shot(page, "02-new-tournament")
    page.click("form.card button[type=submit]")
    page.wait_for_url(f"{base}/t/village-rapid/players/")
    t = Tournament.objects.get(slug="village-rapid")
    assert t.public and t.rounds == 5 and t.owner.username == "clubarbiter"

    # 3. two players with the single-player form (HTMX swaps the list in place)
    for name, rating in SINGLE:
        page.fill("#id_name", name)
        page.fill("#id_rating", rating)
        page.click("#player-form button[type=submit]")
        page.wait_for_selector(f"#player-table >> text={name}")
    shot(page, "03-players-single")

    # 4. four more from a pasted list (semicolons: the names have commas)
    page.click("text=Add a list / CSV")
    page.wait_for_url(f"{base}/t/village-rapid/players/import/")
    page.fill("#id_text", "\n".join(f"{name}; {rating}" for name, rating in PASTED))
    shot(page, "04-players-pasted")
    page.click("form.card button[type=submit]")
    page.wait_for_url(f"{base}/t/village-rapid/players/")
    table = page.inner_text("#player-table")
    for name, _ in SINGLE + PASTED:
        assert name in table
    assert Player.objects.filter(tournament=t).count() == 6
    shot(page, "05-players")

    # 5. pair round 1: the draft with its reasons, then publish
    page.goto(f"{base}/t/village-rapid/")
    page.click("#pair-next")
    page.wait_for_selector("text=Why this pairing")
    shot(page, "06-pairing-preview")
    page.click("#publish")
    page.wait_for_selector("#progress")
    assert "0 of 3" in page.inner_text("#progress")
    shot(page, "07-published")

    # the same arbiter on a phone: results entry
    phone = chromium.new_context(**PHONE, storage_state=arbiter.storage_state())
    phone_page = phone.new_page()
    phone_page.goto(page.url)
    phone_page.wait_for_selector("#board-1")
    # a board is two short lines on a phone: names, then the six buttons in one row
    assert phone_page.locator("#board-1").bounding_box()["height"] < 120
    tops = {round(b.bounding_box()["y"]) for b in phone_page.locator("#board-1 .result-buttons button.rb").all()}
    assert len(tops) == 1
    assert phone_page.evaluate("document.documentElement.scrollWidth") <= 390
    phone_page.screenshot(path=str(SHOTS / "flow-phone-results-entry.png"), full_page=True)
    phone.close()

    # 6. every result from the keyboard; focus moves on by itself
    boards = []
    for n in (1, 2, 3):
        names = page.locator(f"#board-{n} td.name")
        boards.append((names.nth(0).inner_text().strip(), names.nth(1).inner_text().strip()))
    page.locator("#board-1").focus()
    for n, key in enumerate(KEYS, start=1):
        page.keyboard.press(key)
        page.wait_for_function(f"document.querySelector('#progress').innerText.includes('{n} of 3')")
        if n < 3:
            page.wait_for_function(f"document.activeElement && document.activeElement.id === 'board-{n + 1}'")
    assert "round complete" in page.inner_text("#progress")
    shot(page, "08-results")
    rnd = Round.objects.get(tournament=t, number=1)
    assert rnd.status == RoundStatus.COMPLETE
    assert list(rnd.game_set.order_by("board").values_list("result", flat=True)) == ["1-0", "1/2-1/2", "0-1"]

    expected: dict[str, float] = {}
    for (white, black), (w_pts, b_pts) in zip(boards, KEYS.values(), strict=True):
        expected[white] = w_pts
        expected[black] = b_pts
    assert sorted(expected) == sorted(name for name, _ in SINGLE + PASTED)

    # 7. pair again: round 2 from the tournament page, all draws by keyboard
    page.goto(f"{base}/t/village-rapid/")
    page.click("#pair-next")
    page.wait_for_selector("text=Why this pairing")
    page.click("#publish")
    page.wait_for_selector("#progress")
    assert "0 of 3" in page.inner_text("#progress")
    round2 = Round.objects.get(tournament=t, number=2)
    pairs2 = {frozenset((g.white.tpn, g.black.tpn)) for g in round2.game_set.select_related("white", "black")}
    assert len(pairs2) == 3
    page.locator("#board-1").focus()
    for n in (1, 2, 3):
        page.keyboard.press("=")
        page.wait_for_function(f"document.querySelector('#progress').innerText.includes('{n} of 3')")
        if n < 3:
            page.wait_for_function(f"document.activeElement && document.activeElement.id === 'board-{n + 1}'")
    assert "round complete" in page.inner_text("#progress")

    # 8. export TRF from the tournament page: the file holds both rounds, and the
    # engine's checker re-pairs each of them from the rounds before it identically
    page.goto(f"{base}/t/village-rapid/")
    with page.expect_download() as download_info:
        page.click("text=Export TRF-2026")
    trf = Path(download_info.value.path()).read_text(encoding="utf-8")
    from pairing.engine.trf import parse_trf

    exported = parse_trf(trf)
    assert exported.rounds_played() == 2 and len(exported.players) == 6
    by_id = {p.id: p for p in exported.players}
    assert {frozenset((p.id, p.history[1].opponent)) for p in by_id.values()} == pairs2
    trf_file = tmp_path / "village-rapid.trf"
    trf_file.write_text(trf, encoding="utf-8")
    root = Path(__file__).resolve().parents[2]
    check = subprocess.run(
        [sys.executable, "-m", "pairing.engine", "--dubov", str(trf_file), "-c"],
        cwd=root, capture_output=True, text=True, timeout=60,
    )
    assert check.returncode == 0, check.stdout + check.stderr
    arbiter.close()

    # 9. anyone, not logged in, in a fresh browser: the public standings
    visitor = chromium.new_context(viewport={"width": 1200, "height": 900})
    public = visitor.new_page()
    public.goto(f"{base}/t/village-rapid/standings/")
    assert "/accounts/login/" not in public.url
    public.wait_for_selector("#standings")
    assert "after round 2" in public.inner_text("h1")
    rows = public.locator("#standings tbody tr")
    assert rows.count() == 6
    seen = {}
    for i in range(rows.count()):
        row = rows.nth(i)
        seen[row.locator("td.name").inner_text().strip()] = row.locator("strong").inner_text().strip()
    assert seen == {name: points_text(pts + 0.5) for name, pts in expected.items()}  # round 2: all draws
    # a winner is ranked above a loser
    ranked = list(seen)
    assert ranked.index(boards[0][0]) < ranked.index(boards[0][1])
    shot(public, "09-public-standings")
    assert public.locator("#pair-next, #publish, .result-buttons").count() == 0
    visitor.close()

    # the visitor on a phone
    phone = chromium.new_context(**PHONE)
    phone_page = phone.new_page()
    phone_page.goto(f"{base}/t/village-rapid/standings/")
    phone_page.wait_for_selector("#standings")
    assert boards[0][0] in phone_page.inner_text("#standings")
    phone_page.screenshot(path=str(SHOTS / "flow-phone-public-standings.png"), full_page=True)
    phone.close()
