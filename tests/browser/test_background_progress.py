"""Real browser and real worker (issue 36): a staff account uploads FIDE's list and
follows the progress bar to the end; an arbiter checks a tournament with JavaScript
switched off and the page refreshes itself until the findings are there."""

from __future__ import annotations

import time

import pytest

from tests.web.worker_process import import_generated, log_of, running_worker

from .conftest import SHOTS, log_in

pytestmark = pytest.mark.browser

PLAYERS = 120_000


def test_issue_36_a_staff_account_uploads_fides_list_and_follows_the_progress_bar(live_server, browser_page,
                                                                                    tmp_path):
    import sys
    from pathlib import Path

    from django.contrib.auth import get_user_model

    from pairing.models import Job, RatingList

    sys.path.insert(0, str(Path(__file__).resolve().parents[2] / "benchmarks"))
    from bench_rating_list import write_list

    get_user_model().objects.create_user(username="admin", password="browser-pass-1", is_staff=True)
    zipped = tmp_path / "players_list_xml.zip"
    write_list(zipped, PLAYERS)
    page = browser_page
    with running_worker(tmp_path):
        log_in(page, live_server.url, "admin", "browser-pass-1")
        page.goto(f"{live_server.url}/ratings/")
        page.check("input[name=kind][value=fide]")
        page.fill("#id_month", "2026-11")
        page.set_input_files("#id_file", str(zipped))
        page.click("#rating-list-upload button[type=submit]")
        page.wait_for_url("**/jobs/*/")
        seen: list[tuple[str, str]] = []
        deadline = time.monotonic() + 240
        shot = False
        while time.monotonic() < deadline:
            value = page.get_attribute("#job-bar", "value") or ""
            step = page.text_content("#job-step") or ""
            if not seen or seen[-1] != (value, step):
                seen.append((value, step))
            if "players loaded" in step and not shot:
                page.screenshot(path=str(SHOTS / "background-1-progress.png"), full_page=True)
                shot = True
            if page.locator("#rating-result").count():
                break
            page.wait_for_timeout(200)
        else:
            pytest.fail(f"no result after 240 s: {seen[-3:]}\n{log_of(tmp_path)}")
        page.screenshot(path=str(SHOTS / "background-2-done.png"), full_page=True)
        assert "done" in page.text_content("#job-status")
        assert f"Loaded FIDE (Nov 2026) from the file players_list_xml.zip: {PLAYERS:,} players." in page.text_content(
            "#loaded-message")
    assert shot, seen
    loading = [int(v) for v, step in seen if v and "players loaded" in step]
    assert len(loading) >= 2 and loading == sorted(loading)  # the bar moved forward while the page watched
    assert RatingList.objects.active().get(name="FIDE").players == PLAYERS
    assert Job.objects.get().status == "done"


def test_issue_36_without_javascript_the_check_page_refreshes_itself_until_the_findings(live_server, chromium,
                                                                                        tmp_path):
    from django.contrib.auth import get_user_model

    from pairing.models import Tournament

    user = get_user_model().objects.create_user(username="chief", password="browser-pass-1")
    t = Tournament.objects.create(slug="nojs-open", name="No-JS Open", rounds=7, owner=user)
    import_generated(t, 40, 7)
    context = chromium.new_context(java_script_enabled=False, viewport={"width": 1200, "height": 900})
    page = context.new_page()
    page.set_default_timeout(15000)
    with running_worker(tmp_path):
        log_in(page, live_server.url, "chief", "browser-pass-1")
        page.goto(f"{live_server.url}/t/nojs-open/fide-mode/")
        page.click("#check-tournament-button")
        page.wait_for_url("**/jobs/*/")
        page.wait_for_selector("#check-findings", timeout=90000)  # reached by the page's own refreshes
    page.screenshot(path=str(SHOTS / "background-3-check-without-js.png"), full_page=True)
    assert "Every one of the 7 rounds is paired as the engine pairs it" in page.text_content("#check-findings")
    context.close()
