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

from . import event_steps as steps
from .conftest import SHOTS

pytestmark = pytest.mark.browser

PASSWORD = "burstein-event-pass-5"
PASTED = ("Carlsen, Magnus; 2833\nHorvat, Marko; 2215\nBerg, Ida; 2140\nNovak, Ana; 2010\nCosta, Rui; 1985\n"
          "Novak, Boris; 1890\nDahl, Erik; 1760\nKral, Petra; 1655\nVarga, Zsofia;\n")  # Varga unrated


def shot(page, name: str) -> None:
    page.screenshot(path=str(SHOTS / f"burstein-{name}.png"), full_page=True)


def _pair(page, base: str) -> str:
    steps.pair_next(page, base, "burstein-weekend")
    page.wait_for_selector(".explanation")
    return page.inner_text(".explanation")


def test_a_whole_burstein_event_through_the_ui(live_server, browser_page, chromium, tmp_path):
    from pairing import engine
    from pairing.models import IntegrityEvent, Player, Round, RoundStatus, Tournament
    from pairing.services.snapshot import build_snapshot

    base = live_server.url
    page = browser_page

    # 1. a new public tournament of 4 rounds, the FIDE Burstein system chosen
    t = steps.an_arbiter_opens_an_event(page, base, "bursteinarbiter", PASSWORD, "burstein", "Burstein Weekend Open",
                                        "burstein-weekend", shot=lambda: shot(page, "01-new-tournament"))

    # 2. nine players from a pasted list, one unrated
    page.goto(f"{base}/t/burstein-weekend/players/import/")
    steps.paste_players(page, PASTED)
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
        steps.publish_and_play(page, 4)

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
    steps.publish_and_play(page, 4)
    assert Round.objects.filter(tournament=t, status=RoundStatus.COMPLETE).count() == 3

    # 5. the rating report: FIDE_BURSTEIN, checked clean by the Burstein checker
    report = steps.export(page, base, "burstein-weekend")
    assert {"192 FIDE_BURSTEIN", "092 Individual: Swiss system (FIDE Burstein)"} <= set(report.splitlines())
    checked = steps.check(report, tmp_path / "burstein-weekend.trf", "burstein")
    assert checked.returncode == 0, checked.stdout + checked.stderr
    out = checked.stdout
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
    steps.new_tournament(page, base, "Burstein Weekend Continued", "burstein-continued")
    question = steps.import_report(page, base, "burstein-continued", report)
    assert "makes it the FIDE Burstein system" in question
    assert "Rounds with other opponents than the rules give" not in question
    shot(page, "05-reimport-question")
    steps.confirm(page)
    copy = Tournament.objects.get(slug="burstein-continued")
    assert copy.system == "burstein" and copy.rounds_published() == 3 and copy.player_set.count() == 9
    assert not IntegrityEvent.objects.filter(tournament=copy).exists()
