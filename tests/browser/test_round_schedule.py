"""Issue 32, defect 2, in a real browser: the arbiter sets the round schedule while
creating the tournament (date pickers), a visitor sees it on the public home page, and a
date before the tournament's start is refused on the settings page."""

from __future__ import annotations

from pairing.models import ScheduledRound, Tournament
from tests.conftest import PASSWORD

from .conftest import SHOTS, log_in


def test_issue_32_2_the_schedule_set_at_creation_shows_on_the_public_home(live_server, browser_page, chief):
    page = browser_page
    log_in(page, live_server.url, chief.username, PASSWORD)
    page.goto(f"{live_server.url}/new/")
    page.fill("#id_name", "Winter Open")
    page.fill("#id_start_date", "2026-12-27")
    page.fill("#id_end_date", "2026-12-30")
    page.fill("#id_rounds", "5")
    page.check("#id_public")
    page.fill("#id_round_1_date", "2026-12-27")
    page.fill("#id_round_1_time", "15:00")
    page.fill("#id_round_2_date", "2026-12-28")
    page.fill("#id_round_2_time", "10:00")
    page.locator("#schedule").screenshot(path=str(SHOTS / "round-schedule-new.png"))
    page.click("form.form-grid button.primary")
    page.wait_for_url("**/players/")
    t = Tournament.objects.get(name="Winter Open")
    assert [(r.number, str(r.date), str(r.time)) for r in ScheduledRound.objects.filter(tournament=t)] == [
        (1, "2026-12-27", "15:00:00"), (2, "2026-12-28", "10:00:00")]

    page.goto(f"{live_server.url}/t/{t.slug}/settings/")
    page.fill("#id_round_3_date", "2026-12-26")
    page.click("form.form-grid button.primary")
    error = page.locator("#schedule .errors")
    assert "before the tournament starts (2026-12-27)" in error.inner_text()
    page.locator("#schedule").screenshot(path=str(SHOTS / "round-schedule-refused.png"))
    assert not ScheduledRound.objects.filter(tournament=t, number=3).exists()

    visitor = page.context.browser.new_page(viewport={"width": 1200, "height": 900})
    visitor.goto(f"{live_server.url}/t/{t.slug}/")
    schedule = visitor.locator("#schedule")
    assert "Round 2" in schedule.inner_text() and "10:00" in schedule.inner_text()
    visitor.screenshot(path=str(SHOTS / "round-schedule-public.png"), full_page=True)
    visitor.close()
