"""Real browser: a round with no legal pairing made by hand in a manual-pairing session
(VCL4THP Q63–69): start, pair from the pool, give the PAB, end, see the comparison,
confirm, publish; the copy of the report carries the ### line and the engine's checker
reports the difference."""

from __future__ import annotations

import pytest

from pairing.services.numbering import renumber

from .conftest import SHOTS, log_in

pytestmark = pytest.mark.browser


def _scene():
    """Five players; 1 and 2 may meet nobody: both would need the one PAB, so round 1
    has no legal pairing."""
    from django.contrib.auth import get_user_model

    from pairing.models import ForbiddenPair, Player, Tournament

    user = get_user_model().objects.create_user(username="chief", password="browser-pass-1")
    t = Tournament.objects.create(slug="tight-open", name="Tight Open", rounds=3, owner=user)
    for i in range(5):
        Player.objects.create(tournament=t, name=f"Player {i + 1}", rating=2000 - 10 * i)
    renumber(t)
    p = list(t.player_set.order_by("tpn"))
    for a in (0, 1):
        for b in range(a + 1, 5):
            ForbiddenPair.objects.create(tournament=t, player_a=min(p[a], p[b], key=lambda x: x.pk),
                                         player_b=max(p[a], p[b], key=lambda x: x.pk))
    return t, p


def _confirm(page) -> None:
    page.wait_for_selector("#confirm")
    with page.expect_navigation():
        page.click("#confirm-button")


def test_vcl_q63_a_round_with_no_legal_pairing_is_paired_by_hand_in_a_session(live_server, browser_page, tmp_path):
    from pairing.engine.__main__ import main as cli
    from pairing.models import IntegrityEvent, Round

    t, p = _scene()
    page = browser_page
    log_in(page, live_server.url, "chief", "browser-pass-1")
    page.goto(f"{live_server.url}/t/tight-open/")
    with page.expect_navigation():
        page.click("#pair-next")
    assert "No legal pairing exists for round 1" in page.inner_text("main")
    with page.expect_navigation():
        page.click("#pair-by-hand")
    assert page.url.endswith("/t/tight-open/round/1/")
    assert page.locator("#pool li").count() == 5

    page.select_option("#pair-form select[name=a]", str(p[2].pk))
    page.select_option("#pair-form select[name=b]", str(p[3].pk))
    with page.expect_navigation():
        page.click("#pair-form button[type=submit]")
    page.select_option("#pair-form select[name=a]", str(p[0].pk))
    page.select_option("#pair-form select[name=b]", str(p[4].pk))
    with page.expect_navigation():
        page.click("#pair-form button[type=submit]")
    assert "are a forbidden pair" in page.inner_text("#confirm")  # Level 3 before it is kept
    page.screenshot(path=str(SHOTS / "manual-session-confirm.png"), full_page=True)
    _confirm(page)
    page.select_option("#pab-form select[name=player]", str(p[1].pk))
    with page.expect_navigation():
        page.click("#pab-form button[type=submit]")
    assert "Empty: every player to be paired has a board or the PAB." in page.inner_text("#manual-session")

    with page.expect_navigation():
        page.click("#end-session")
    comparison = page.inner_text("#confirm")
    assert "The engine's pairing: no legal pairing." in comparison
    assert "This round: 3-4 1-5 PAB 2." in comparison
    page.screenshot(path=str(SHOTS / "manual-session-end.png"), full_page=True)
    _confirm(page)
    with page.expect_navigation():
        page.click("#publish")
    assert not Round.objects.get(tournament=t, number=1).is_draft

    for board in (1, 2):
        row = page.locator(f"#board-{board}")
        with page.expect_response(lambda r: "/result/" in r.url):
            row.locator('button.rb[value="1-0"]').click()
    copy = page.request.get(f"{live_server.url}/t/tight-open/export.trf?copy=1").text()
    assert "### MPA @ Round 1: no legal pairing => 3-4 1-5 PAB 2" in copy.splitlines()
    assert IntegrityEvent.objects.get(tournament=t).kind == "mpa"
    path = tmp_path / "copy.trf"
    path.write_text(copy)
    assert cli(["--dubov", "-c", str(path)]) == 4  # the checker reports the difference


def test_vcl_q55_an_import_that_breaks_the_rules_is_confirmed_in_the_browser(live_server, browser_page):
    """The confirmation page sends the file's text back in a hidden field; the browser
    sends its line breaks as CR LF, and the confirmation still holds."""
    from django.contrib.auth import get_user_model

    from pairing.models import IntegrityEvent, Tournament
    from tests.web.test_import_check import _file_with_a_hand_made_round

    user = get_user_model().objects.create_user(username="chief", password="browser-pass-1")
    text = _file_with_a_hand_made_round(user)
    fresh = Tournament.objects.create(slug="continued", name="Continued", owner=user)
    page = browser_page
    log_in(page, live_server.url, "chief", "browser-pass-1")
    page.goto(f"{live_server.url}/t/continued/import-trf/")
    page.fill("#id_text", text)
    with page.expect_navigation():
        page.click("main form button[type=submit]")
    assert "Import rounds that break the pairing rules" in page.inner_text("#confirm")
    _confirm(page)
    assert page.url.endswith("/t/continued/")
    assert fresh.player_set.count() == 6
    assert IntegrityEvent.objects.get(tournament=fresh).kind == "import"
