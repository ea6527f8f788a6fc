"""The compose stack's nginx in front of the app (docker/nginx/nginx.conf, as
tests/hosting/test_slow_clients.py runs it: Debian's nginx, gunicorn as the image starts
it, the demo tournament): a crowd's reloads of a public page are answered by nginx's
micro-cache, and a signed-in arbiter's pages never go into it nor come out of it.

No nginx binary: skipped, unless REQUIRE_NGINX=1 (CI), then it fails.
"""

from __future__ import annotations

import os
import re
import sys
import time
from pathlib import Path

import pytest

ROOT = Path(__file__).resolve().parents[2]
sys.path.insert(0, str(ROOT / "benchmarks"))

from load_site import arguments  # noqa: E402
from load_stack import DEMO_PASSWORD, DEMO_SLUG, DEMO_USER, Session, Site, nginx_binary  # noqa: E402

# timed through nginx and gunicorn: run alone, after the rest (make test)
pytestmark = pytest.mark.alone


@pytest.fixture(scope="module")
def site():
    if nginx_binary() is None:
        if os.environ.get("REQUIRE_NGINX") == "1":
            pytest.fail("nginx is not installed and REQUIRE_NGINX=1 (scripts/ensure-nginx.sh installs it)")
        pytest.skip("nginx is not installed (scripts/ensure-nginx.sh installs Debian's)")
    running = Site(arguments(["--db", "sqlite", "--proxy", "yes", "--workers", "2"]))
    try:
        running.prepare()
        running.start()
        yield running
    finally:
        running.stop()


ROUND = f"/t/{DEMO_SLUG}/round/4/"
RESULTS_ENTRY = 'name="expected"'


def test_a_crowd_reloading_a_public_page_is_answered_by_the_proxy(site):
    visitor = Session(site)
    path = f"/t/{DEMO_SLUG}/standings/"
    first = visitor.send("GET", path)
    assert first[0] == 200 and "public" in first[1]["cache-control"]
    again = [visitor.send("GET", path) for _ in range(5)]
    assert all(status == 200 for status, _, _ in again)
    assert "HIT" in {headers["x-proxy-cache"] for _, headers, _ in again}
    assert {text for _, _, text in again} == {first[2]}
    # a browser's revalidation: nginx answers 304 from its copy too
    status, headers, _ = visitor.send("GET", path, extra={"If-None-Match": first[1]["etag"]})
    assert status == 304


def test_a_signed_in_arbiters_page_never_goes_through_the_proxys_cache(site):
    visitor, arbiter = Session(site), Session(site)
    arbiter.login(DEMO_USER, DEMO_PASSWORD)
    public = visitor.send("GET", ROUND)
    assert public[0] == 200 and RESULTS_ENTRY not in public[2]
    assert visitor.send("GET", ROUND)[1]["x-proxy-cache"] == "HIT"  # in nginx's cache now
    for _ in range(3):
        status, headers, text = arbiter.send("GET", ROUND)
        assert status == 200 and RESULTS_ENTRY in text  # his own page, with the results entry
        assert headers["x-proxy-cache"] == "BYPASS" and "private" in headers["cache-control"]
    # and what he saw was not stored for anyone: visitors still get the public page
    time.sleep(1.1)  # past the micro-cache's second: nginx asks the app again
    for _ in range(3):
        status, headers, text = visitor.send("GET", ROUND)
        assert status == 200 and RESULTS_ENTRY not in text and "Log out" not in text


def test_a_result_shows_through_the_proxy_within_two_seconds(site):
    """s-maxage=1, and nginx counts a copy's life in whole seconds: a page stored at
    12:00:00.9 is answered from the copy until 12:00:02.0 at the latest."""
    visitor, arbiter = Session(site), Session(site)
    arbiter.login(DEMO_USER, DEMO_PASSWORD)
    status, _, page = arbiter.send("GET", ROUND)
    form = re.search(r'id="board-(\d+)".*?action="(/t/[^"]+/result/)".*?name="expected" value="([^"]*)"', page, re.S)
    board, action, shown = form.groups()
    new = "0-1" if shown != "0-1" else "1-0"
    visitor.send("GET", ROUND)
    status, _, row = arbiter.send("POST", action, {"result": new, "expected": shown}, {"HX-Request": "true"})
    assert status == 200 and 'class="error"' not in row
    time.sleep(2.1)
    status, _, text = visitor.send("GET", ROUND)
    cell = text.split(f'id="board-{board}"', 1)[1].split("</tr>", 1)[0]
    assert status == 200 and new in cell


def test_the_proxy_keeps_anonymous_gets_only_and_each_variant_apart(site):
    """A post always reaches the app; a visitor whose table density (a cookie) differs
    gets his own variant, not the copy nginx holds (the app's Vary: Cookie); a visitor
    with a message waiting for him passes by the cache, as he passes by the app's."""
    visitor = Session(site)
    path = f"/t/{DEMO_SLUG}/standings/"
    visitor.send("GET", path)
    assert visitor.send("GET", path)[1]["x-proxy-cache"] == "HIT"
    for _ in range(2):
        status, headers, _ = visitor.send("POST", "/display/density/", {"compact": "1", "next": path})
        assert status == 302 and headers.get("x-proxy-cache", "") != "HIT" and "density=compact" in headers["set-cookie"]
    assert visitor.cookies["density"] == "compact"
    status, headers, text = visitor.send("GET", path)
    assert status == 200 and 'class="compact"' in text and headers["x-proxy-cache"] != "HIT"
    roomy = Session(site).send("GET", path)
    assert roomy[0] == 200 and 'class="compact"' not in roomy[2]
    waiting = Session(site)
    waiting.cookies["messages"] = "x"
    status, headers, text = waiting.send("GET", path)
    assert status == 200 and headers["x-proxy-cache"] == "BYPASS" and headers["x-cache"] == "private"
