"""Real browser, a whole event paired with the FIDE Burstein system (issue 40), every step
through the UI: log in, create a 4-round tournament choosing the Burstein system (rounds 1-2
its seeding rounds, 1.6.2), register nine players from a pasted list (one unrated), pair
rounds 1 and 2 (each draft says it is a seeding round paired by the Dutch rules), pair
round 3 and read the Burstein explanation (every bracket's players in BSN order with their
Buchholz and Sonneborn-Berger), publish, enter every result from the keyboard; the rating
report says FIDE_BURSTEIN and ``python -m pairing.engine --burstein FILE -c`` checks it
clean; the public home and standings as a visitor; imported into a new tournament it comes
back Burstein with no round differing.  Screenshots: artifacts/screenshots/burstein-*.png.
"""

from __future__ import annotations

import re

import pytest

from .conftest import SHOTS, log_in
from .test_dutch_event import ROOT, _confirm, _export, _results_by_keyboard

pytestmark = pytest.mark.browser

PASSWORD = "burstein-event-pass-5"
PASTED = ("Carlsen, Magnus; 2833\nHorvat, Marko; 2215\nBerg, Ida; 2140\nNovak, Ana; 2010\nCosta, Rui; 1985\n"
          "Novak, Boris; 1890\nDahl, Erik; 1760\nKral, Petra; 1655\nVarga, Zsofia;\n")  # Varga unrated


def shot(page, name: str) -> None:
    page.screenshot(path=str(SHOTS / f"burstein-{name}.png"), full_page=True)


def _check(text: str, path) -> str:
    import subprocess
    import sys

    path.write_text(text, encoding="utf-8")
    run = subprocess.run([sys.executable, "-m", "pairing.engine", "--burstein", str(path), "-c"],
                         cwd=ROOT, capture_output=True, text=True, timeout=120)
    assert run.returncode == 0, run.stdout + run.stderr
    return run.stdout


def _pair(page, base: str) -> str:
    page.goto(f"{base}/t/burstein-weekend/")
    with page.expect_navigation():
        page.click("#pair-next")
    page.wait_for_selector(".explanation")
    return page.inner_text(".explanation")


def _publish_and_play(page) -> None:
    with page.expect_navigation():
        page.click("#publish")
    _results_by_keyboard(page, 4)


def test_a_whole_burstein_event_through_the_ui(live_server, browser_page, chromium, tmp_path):
    from django.contrib.auth import get_user_model

    from pairing import engine
    from pairing.models import IntegrityEvent, Player, Round, RoundStatus, Tournament
    from pairing.services.snapshot import build_snapshot

    get_user_model().objects.create_user(username="bursteinarbiter", password=PASSWORD)
    base = live_server.url
    page = browser_page
    log_in(page, base, "bursteinarbiter", PASSWORD)

    # 1. a new public tournament of 4 rounds, the FIDE Burstein system chosen
    page.goto(f"{base}/new/")
    page.fill("#id_name", "Burstein Weekend Open")
    page.fill("#id_slug", "burstein-weekend")
    page.fill("#id_rounds", "4")
    page.check("input[name=system][value=burstein]")
    page.check("#id_public")
    shot(page, "01-new-tournament")
    with page.expect_navigation():
        page.click("button[type=submit].primary")
    t = Tournament.objects.get(slug="burstein-weekend")
    assert t.system == "burstein" and t.public and t.rounds == 4

    # 2. nine players from a pasted list, one unrated
    page.goto(f"{base}/t/burstein-weekend/players/import/")
    page.fill("#id_text", PASTED)
    with page.expect_navigation():
        page.click("form.card button[type=submit]")
    assert Player.objects.filter(tournament=t).count() == 9
    assert Player.objects.get(tournament=t, name="Varga, Zsofia").rating_provisional

    # 3. rounds 1 and 2: seeding rounds, paired and explained by the Dutch rules
    page.goto(f"{base}/t/burstein-weekend/")
    assert "4 rounds, FIDE Burstein system" in page.inner_text("#system")
    for number in (1, 2):
        explanation = _pair(page, base)
        assert "Why this pairing (FIDE Burstein system)" in explanation
        assert f"Seeding round {number} of 2 (Burstein 1.6): paired by the rules of the FIDE Dutch system" in explanation
        assert "Downfloaters" in explanation and "Index, in BSN order" not in explanation
        if number == 1:
            shot(page, "02-seeding-round")
        _publish_and_play(page)

    # 4. round 3: the first round the Index pairs, explained bracket by bracket
    explanation = _pair(page, base)
    assert "Seeding round" not in explanation
    assert "Index, in BSN order (1.8)" in explanation and "Outgoing floaters" in explanation
    draft = Round.objects.get(tournament=t, number=3)
    states = engine.burstein_states(build_snapshot(t, 3))
    brackets = draft.explanation["brackets"]
    assert page.locator(".explanation .bracket").count() == len(brackets)
    for n, b in enumerate(brackets, start=1):
        rows = page.locator(f"#bracket-{n} table.index tbody tr")
        assert rows.count() == len(b["index"])
        for bsn, (pk, _, _) in enumerate(b["index"], start=1):
            cells = rows.nth(bsn - 1).locator("td")
            st = states[pk]
            assert cells.nth(0).inner_text() == str(bsn) and cells.nth(1).inner_text() == str(st.tpn)
            assert cells.nth(3).inner_text() == format(st.buchholz.normalize(), "f")
            assert cells.nth(4).inner_text() == format(st.sonneborn_berger.normalize(), "f")
    pab = draft.pab().player
    assert pab.name in page.inner_text("#bye-player")
    for g in draft.games():
        assert f"Board {g.board}: rule 5.2." in explanation
    assert not re.search(r"\b\d+ \(TPN \d+\)", explanation)
    box = page.locator(".explanation").bounding_box()
    page.screenshot(path=str(SHOTS / "burstein-03-draft-explanation.png"), full_page=True,
                    clip={"x": box["x"], "y": box["y"], "width": box["width"], "height": min(box["height"], 1100)})
    _publish_and_play(page)
    assert Round.objects.filter(tournament=t, status=RoundStatus.COMPLETE).count() == 3

    # 5. the rating report: FIDE_BURSTEIN, checked clean by the Burstein checker
    report = _export(page, base, "burstein-weekend")
    assert {"192 FIDE_BURSTEIN", "092 Individual: Swiss system (FIDE Burstein)"} <= set(report.splitlines())
    out = _check(report, tmp_path / "burstein-weekend.trf")
    assert all(f"round {n}: identical" in out for n in (1, 2, 3)), out

    # 6. the public home and standings as a visitor, in a fresh browser
    visitor = chromium.new_context(viewport={"width": 1200, "height": 900})
    public = visitor.new_page()
    public.goto(f"{base}/t/burstein-weekend/")
    assert "4 rounds, FIDE Burstein system" in public.inner_text("#system")
    assert "ARO" not in public.inner_text("body") and "Dubov" not in public.inner_text("main")
    public.goto(f"{base}/t/burstein-weekend/standings/")
    public.wait_for_selector("#standings")
    assert "after round 3" in public.inner_text("h1") and public.locator("#standings tbody tr").count() == 9
    shot(public, "04-public-standings")
    visitor.close()

    # 7. the report imported into a new tournament (created for Dubov): it becomes Burstein,
    # its rounds re-paired by the Burstein engine (the seeding rounds by the Dutch rules)
    page.goto(f"{base}/new/")
    page.fill("#id_name", "Burstein Weekend Continued")
    page.fill("#id_slug", "burstein-continued")
    with page.expect_navigation():
        page.click("button[type=submit].primary")
    page.goto(f"{base}/t/burstein-continued/import-trf/")
    page.fill("#id_text", report)
    with page.expect_navigation():
        page.click("main form button[type=submit]")
    question = page.inner_text("#confirm")
    assert "makes it the FIDE Burstein system" in question
    assert "Rounds with other opponents than the rules give" not in question
    shot(page, "05-reimport-question")
    _confirm(page)
    copy = Tournament.objects.get(slug="burstein-continued")
    assert copy.system == "burstein" and copy.rounds_published() == 3 and copy.player_set.count() == 9
    assert not IntegrityEvent.objects.filter(tournament=copy).exists()
