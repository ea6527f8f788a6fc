"""Real browser, a whole event paired with the FIDE Dutch system (issue 34), every step
through the UI: log in, create the tournament choosing the Dutch system, register players
from the FIDE rating list by typing and the rest from a pasted list (one unrated), pair
round 1 and read the Dutch explanation, publish, enter the results from the keyboard;
download the rating report, which ``python -m pairing.engine --dutch FILE -c`` checks
clean; change round 2 by hand in a manual-pairing session (the comparison with the Dutch
engine asked, the change recorded), play round 3; the public standings as a visitor; the
final report says FIDE_DUTCH, and its check names the hand-made round only; imported
into a new tournament it comes back Dutch, its rounds checked by the Dutch engine.
Screenshots: artifacts/screenshots/dutch-*.png.
"""

from __future__ import annotations

import io

import pytest

from . import event_steps as steps
from .conftest import SHOTS
from .test_ratings_and_round_robin import _register_by_typing

pytestmark = pytest.mark.browser

PASSWORD = "dutch-event-pass-3"
LISTED = [  # (FIDE id, name, federation, sex, title, standard, rapid, blitz, born, flag)
    ("1503014", "Carlsen, Magnus", "NOR", "M", "GM", 2833, 2820, 2880, 1990, ""),
    ("14100010", "Ćirić, Dragoljub", "SRB", "M", "IM", 2290, "", "", 1935, "i"),
    ("5000001", "Novak, Ana", "SLO", "F", "WFM", 2010, 2050, "", 1999, "w"),
    ("5000002", "Novak, Boris", "SLO", "M", "", 1890, "", "", 1980, ""),
    ("5000003", "Horvat, Marko", "SLO", "M", "FM", 2215, "", "", 1994, ""),
]
TYPED = [("carlsen", "Carlsen, Magnus"), ("ciric", "Ćirić, Dragoljub"), ("5000001", "Novak, Ana"),
         ("novak boris", "Novak, Boris"), ("horvat", "Horvat, Marko")]
PASTED = "Berg, Ida; 2140\nCosta, Rui; 1985\nDahl, Erik; 1760\nVarga, Zsofia;\n"  # Varga unrated


def shot(page, name: str) -> None:
    page.screenshot(path=str(SHOTS / f"dutch-{name}.png"), full_page=True)


def _fide_list() -> None:
    from pairing.services.rating_lists import load_list
    from tests.web.test_rating_lists import fide_xml, zipped

    load_list(io.BytesIO(zipped("players_list_xml_foa.xml", fide_xml(LISTED))), "players_list_xml.zip", kind="fide")


def test_a_whole_dutch_event_through_the_ui(live_server, browser_page, chromium, tmp_path):
    from pairing.models import IntegrityEvent, Player, Round, RoundStatus, Tournament

    _fide_list()
    base = live_server.url
    page = browser_page

    # 1. a new public tournament, the FIDE Dutch system chosen
    t = steps.an_arbiter_opens_an_event(page, base, "dutcharbiter", PASSWORD, "dutch", "Dutch Weekend Open",
                                        "dutch-weekend", shot=lambda: shot(page, "01-new-tournament"))

    # 2. five players from the FIDE list by typing, four from a pasted list (one unrated)
    page.goto(f"{base}/t/dutch-weekend/players/")
    for query, name in TYPED:
        _register_by_typing(page, query, name)
    page.click("text=Add a list / CSV")
    page.wait_for_url(f"{base}/t/dutch-weekend/players/import/")
    steps.paste_players(page, PASTED)
    assert Player.objects.filter(tournament=t).count() == 9
    assert Player.objects.get(tournament=t, name="Varga, Zsofia").rating_provisional
    assert Player.objects.get(tournament=t, fide_id="1503014").tpn == 1
    shot(page, "02-players")

    # 3. round 1: the draft explained in the Dutch terms, then published
    page.goto(f"{base}/t/dutch-weekend/")
    assert "4 rounds, FIDE Dutch system" in page.inner_text("#system")
    steps.pair_next(page, base, "dutch-weekend")
    explanation = page.inner_text(".explanation")
    assert "Why this pairing (FIDE Dutch system)" in explanation
    assert page.locator(".explanation .bracket").count() >= 1
    draft = Round.objects.get(tournament=t, number=1)
    pab = draft.pab().player
    assert pab.name in page.inner_text("#bye-player")  # nine players: a PAB
    assert "Residents" in explanation and "Downfloaters" in explanation and "Best candidate reached" in explanation
    for g in draft.games():
        assert f"Board {g.board}: rule 5.2." in explanation
    box = page.locator(".explanation").bounding_box()
    page.screenshot(path=str(SHOTS / "dutch-03-draft-explanation.png"), full_page=True,
                    clip={"x": box["x"], "y": box["y"], "width": box["width"], "height": min(box["height"], 1000)})
    steps.publish_and_play(page, 4)
    shot(page, "04-round-1-results")

    # the rating report after round 1 checks clean with the Dutch checker
    report = steps.export(page, base, "dutch-weekend")
    assert "192 FIDE_DUTCH" in report.splitlines()
    checked = steps.check(report, tmp_path / "after-round-1.trf", "dutch")
    assert checked.returncode == 0 and "round 1: identical" in checked.stdout, checked.stdout + checked.stderr

    # 4. round 2 changed by hand in a manual-pairing session: board 1's colours swapped
    steps.pair_next(page, base, "dutch-weekend")
    with page.expect_navigation():
        page.click("#start-session")
    board = Round.objects.get(tournament=t, number=2).games().first()
    white, black = board.white, board.black
    page.select_option("#swap-form select[name=a]", str(white.pk))
    page.select_option("#swap-form select[name=b]", str(black.pk))
    with page.expect_navigation():
        page.click("#swap-form button[type=submit]")
    if page.locator("#confirm").count():  # the swap breaks a colour rule: Level 3 first
        steps.confirm(page)
    swapped = Round.objects.get(tournament=t, number=2).games().first()
    assert (swapped.white_id, swapped.black_id) == (black.pk, white.pk)
    with page.expect_navigation():
        page.click("#end-session")
    comparison = page.inner_text("#confirm")
    assert f"The engine's pairing: {white.tpn}-{black.tpn}" in comparison
    assert f"This round: {black.tpn}-{white.tpn}" in comparison
    shot(page, "05-session-comparison")
    steps.confirm(page)
    steps.publish_and_play(page, 4)
    assert IntegrityEvent.objects.get(tournament=t).kind == "mpa"

    # 5. round 3 as the engine pairs it
    steps.pair_next(page, base, "dutch-weekend")
    steps.publish_and_play(page, 4)
    assert Round.objects.filter(tournament=t, status=RoundStatus.COMPLETE).count() == 3

    # 6. the public standings as a visitor, in a fresh browser
    from pairing.reports.standings import standings

    _, rows, _ = standings(t)
    visitor = chromium.new_context(viewport={"width": 1200, "height": 900})
    public = visitor.new_page()
    public.goto(f"{base}/t/dutch-weekend/standings/")
    public.wait_for_selector("#standings")
    assert "after round 3" in public.inner_text("h1")
    lines = public.locator("#standings tbody tr")
    assert lines.count() == 9
    seen = {lines.nth(i).locator("td.name").inner_text().strip(): lines.nth(i).locator("strong").inner_text().strip()
            for i in range(lines.count())}
    assert seen == {r.player.name: r.points_text for r in rows}
    shot(public, "06-public-standings")
    home = public.goto(f"{base}/t/dutch-weekend/")
    assert home.ok and "4 rounds, FIDE Dutch system" in public.inner_text("#system")
    assert "ARO" not in public.inner_text("body")
    visitor.close()

    # 7. the rating report: FIDE_DUTCH; the checker names the hand-made round 2 only
    report = steps.export(page, base, "dutch-weekend")
    assert {"192 FIDE_DUTCH", "092 Individual: Swiss system (FIDE Dutch)"} <= set(report.splitlines())
    checked = steps.check(report, tmp_path / "dutch-weekend.trf", "dutch")
    assert checked.returncode == 4, checked.stdout + checked.stderr
    assert "round 1: identical" in checked.stdout and "round 3: identical" in checked.stdout
    assert "round 2: 1 difference" in checked.stdout and "standings:" not in checked.stdout

    # 8. the report imported into a new tournament (created for Dubov): it becomes Dutch,
    # its rounds re-paired by the Dutch engine; the hand-made round 2 is asked about
    steps.new_tournament(page, base, "Dutch Weekend Continued", "dutch-continued")
    question = steps.import_report(page, base, "dutch-continued", report)
    assert "makes it the FIDE Dutch system" in question and "Round 2:" in question and "Round 3:" not in question
    shot(page, "07-reimport-question")
    steps.confirm(page)
    copy = Tournament.objects.get(slug="dutch-continued")
    assert copy.system == "dutch" and copy.rounds_published() == 3 and copy.player_set.count() == 9
    assert [e.round_number for e in IntegrityEvent.objects.filter(tournament=copy)] == [2]
    again = steps.check(steps.export(page, base, "dutch-continued"), tmp_path / "continued.trf", "dutch")
    assert "round 1: identical" in again.stdout and "round 3: identical" in again.stdout
