"""Every page works without JavaScript (HTMX only speeds it up): with scripts turned
off the arbiter logs in, pairs and publishes a round, enters every result with the
buttons (plain form posts, the page reloads), and an anonymous visitor reads the
standings."""

from __future__ import annotations

import pytest

from pairing.services.numbering import renumber

from .conftest import SHOTS, log_in

pytestmark = pytest.mark.browser


def test_an_arbiter_runs_a_round_with_javascript_turned_off(live_server, chromium):
    from django.contrib.auth import get_user_model

    from pairing.models import Player, Round, RoundStatus, Tournament

    user = get_user_model().objects.create_user(username="nojs", password="no-script-pass-1")
    t = Tournament.objects.create(slug="no-script", name="No Script Open", rounds=5, owner=user, public=True)
    for name, rating in [("Ames, Al", 2200), ("Bell, Bo", 2150), ("Cole, Cy", 2100), ("Dunn, Di", 2050)]:
        Player.objects.create(tournament=t, name=name, rating=rating)
    renumber(t)
    base = live_server.url

    context = chromium.new_context(java_script_enabled=False, viewport={"width": 1200, "height": 900})
    page = context.new_page()
    page.set_default_timeout(15000)
    log_in(page, base, "nojs", "no-script-pass-1")

    page.goto(f"{base}/t/no-script/")
    page.click("#pair-next")
    page.wait_for_selector("text=Why this pairing")
    page.click("#publish")
    page.wait_for_selector("#progress")
    assert "0 of 2" in page.inner_text("#progress")

    for n, label in ((1, "1-0"), (2, "½-½")):
        with page.expect_navigation():  # a real form post and reload, not an HTMX swap
            page.click(f"#board-{n} button.rb:text-is('{label}')")
        page.wait_for_selector(f"#board-{n}.done")
    assert "round complete" in page.inner_text("#progress")
    page.screenshot(path=str(SHOTS / "no-javascript-results.png"), full_page=True)
    rnd = Round.objects.get(tournament=t, number=1)
    assert rnd.status == RoundStatus.COMPLETE
    assert list(rnd.game_set.order_by("board").values_list("result", flat=True)) == ["1-0", "1/2-1/2"]
    context.close()

    visitor = chromium.new_context(java_script_enabled=False)
    public = visitor.new_page()
    public.goto(f"{base}/t/no-script/standings/")
    assert public.locator("#standings tbody tr").count() == 4
    visitor.close()
