"""The Content-Security-Policy (arbiter_site/csp.py) in a real browser: Chromium visits
every kind of page, as the chief arbiter and as a visitor, and reports any script or
style the policy blocked (an inline ``<script>``, an ``on…=`` or ``style=`` attribute,
htmx's own indicator style).

Every page: the crawl follows every same-site link from the list of tournaments, the
tournament's pages and the public pages, one page per kind of address (numbers in the
path count as one kind), and the login, password and admin pages.
"""

from __future__ import annotations

import re
from urllib.parse import urljoin, urlsplit

import pytest
from django.test import Client

from pairing.models import Tournament
from tests.web.public_data import field

# Collected in the page itself: the browser's own event for every blocked script or style.
RECORD_VIOLATIONS = """
window.__csp = [];
document.addEventListener("securitypolicyviolation", (e) => {
  window.__csp.push(`${e.violatedDirective} blocked ${e.blockedURI || "inline"} (${e.sourceFile}:${e.lineNumber})`);
});
"""
SKIP = re.compile(r"(logout|export|download|\.trf$|\.csv$|\.pdf$|\.xlsx?$|\.zip$|\.pyz$|\.whl$|/static/|/i18n/)")


def _kind(path: str) -> str:
    return re.sub(r"\d+", "N", path)


def _crawl(page, base: str, starts: list[str], limit: int = 90) -> dict[str, list[str]]:
    """{path: violations} for every kind of page reachable from ``starts``."""
    seen_kinds: set[str] = set()
    queue = list(starts)
    found: dict[str, list[str]] = {}
    console: list[str] = []
    page.on("console", lambda m: console.append(m.text) if "Content Security Policy" in m.text else None)
    while queue and len(found) < limit:
        path = queue.pop(0)
        if _kind(path) in seen_kinds:
            continue
        seen_kinds.add(_kind(path))
        console.clear()
        response = page.goto(base + path)
        assert response is not None and response.status < 500, f"{path}: {response and response.status}"
        assert "script-src 'self'" in (response.headers.get("content-security-policy") or ""), path
        page.wait_for_load_state("load")
        found[path] = page.evaluate("window.__csp") + list(console)
        for href in page.eval_on_selector_all("a[href]", "els => els.map(e => e.getAttribute('href'))"):
            target = urlsplit(urljoin(base + path, href))
            if target.netloc == urlsplit(base).netloc and not SKIP.search(target.path):
                queue.append(target.path)
    return found


@pytest.fixture
def event(tournament):
    field(tournament, 12)
    Tournament.objects.filter(pk=tournament.pk).update(public=True)
    return tournament


def test_issue_39_no_page_breaks_the_content_security_policy(live_server, chromium, event, chief, deputy):
    client = Client()
    client.force_login(chief)
    arbiter = chromium.new_context(viewport={"width": 1200, "height": 900})
    arbiter.add_init_script(RECORD_VIOLATIONS)
    arbiter.add_cookies([{"name": "sessionid", "value": client.cookies["sessionid"].value, "url": live_server.url}])
    t = f"/t/{event.slug}/"
    as_chief = _crawl(arbiter.new_page(), live_server.url,
                      ["/", t, f"{t}players/", f"{t}round/3/", f"{t}absences/", "/accounts/password_change/", "/help/"])
    arbiter.close()

    visitor = chromium.new_context(viewport={"width": 390, "height": 844})
    visitor.add_init_script(RECORD_VIOLATIONS)
    as_visitor = _crawl(visitor.new_page(), live_server.url,
                        [f"{t}standings/", f"{t}crosstable/", f"{t}round/2/", "/accounts/login/", "/admin/login/"])
    visitor.close()

    visited = {**as_chief, **as_visitor}
    blocked = {path: v for path, v in visited.items() if v}
    assert not blocked, blocked
    # the crawl really went through the site: the arbiter's pages and the public ones
    kinds = {_kind(p) for p in visited}
    assert {"/", "/t/spring-open/players/", "/t/spring-open/round/N/", "/t/spring-open/standings/",
            "/accounts/login/", "/admin/login/"} <= kinds
    assert len(visited) >= 25, sorted(visited)


def test_the_policy_blocks_an_inline_script_in_this_browser(live_server, chromium, event):
    """The check above can fail: a page with an inline script, under the same header,
    is reported by the same means."""
    context = chromium.new_context()
    context.add_init_script(RECORD_VIOLATIONS)
    page = context.new_page()
    page.goto(f"{live_server.url}/t/{event.slug}/standings/")
    page.evaluate("""() => { const s = document.createElement('div');
        s.innerHTML = '<img src="x" onerror="window.ran = 1">'; document.body.append(s); }""")
    page.wait_for_timeout(300)
    assert page.evaluate("window.ran") is None
    assert any("script-src" in v for v in page.evaluate("window.__csp"))
    context.close()
