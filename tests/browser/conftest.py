"""Headless Debian chromium driven by Playwright (its own browsers cannot be downloaded here).

Skipped when /usr/bin/chromium is missing, unless REQUIRE_BROWSER=1 (CI), then it fails.
Screenshots go to artifacts/screenshots/ (CI keeps that folder as an artefact).
"""

from __future__ import annotations

import os
import re
from pathlib import Path

import pytest

# Playwright's sync API runs an event loop in this thread; the ORM calls in tests are fine.
os.environ["DJANGO_ALLOW_ASYNC_UNSAFE"] = "true"

CHROMIUM = "/usr/bin/chromium"


def _csp_safe_wait_for_function():
    """The pages' Content-Security-Policy (arbiter_site/csp.py) forbids eval, and Playwright
    evaluates a bare expression given to ``wait_for_function`` with eval while it polls
    (a function it does not).  Every test may keep writing bare expressions: they are
    given to Playwright as functions.  The tests run with the policy on, as in production."""
    from playwright.sync_api import Page

    original = Page.wait_for_function

    def wait_for_function(self, expression: str, *args, **kwargs):
        text = expression.strip()
        if not (text.startswith(("function", "async")) or re.match(r"^(\(.*?\)|\w+)\s*=>", text)):
            expression = f"() => ({text})"
        return original(self, expression, *args, **kwargs)

    Page.wait_for_function = wait_for_function


_csp_safe_wait_for_function()
SHOTS = Path(__file__).resolve().parents[2] / "artifacts" / "screenshots"
LAUNCH_ARGS = [
    "--no-sandbox", "--disable-gpu", "--disable-quic", "--no-first-run", "--disable-background-networking",
    "--disable-component-update", "--disable-sync",
]
PHONE = {"viewport": {"width": 390, "height": 844}, "device_scale_factor": 2, "is_mobile": True, "has_touch": True}


@pytest.fixture
def chromium():
    """A launched headless chromium; open contexts (fresh cookie jars) on it."""
    if not Path(CHROMIUM).exists():
        if os.environ.get("REQUIRE_BROWSER") == "1":
            pytest.fail(f"{CHROMIUM} is missing and REQUIRE_BROWSER=1")
        pytest.skip(f"{CHROMIUM} is missing")
    from playwright.sync_api import sync_playwright

    SHOTS.mkdir(parents=True, exist_ok=True)
    with sync_playwright() as pw:
        browser = pw.chromium.launch(executable_path=CHROMIUM, headless=True, args=LAUNCH_ARGS)
        try:
            yield browser
        finally:
            browser.close()
            # ORM calls made while Playwright runs may use their own connection
            # (greenlet context); close it so PostgreSQL can drop the test database.
            from django.db import connections

            connections.close_all()


@pytest.fixture
def browser_page(chromium):
    page = chromium.new_page(viewport={"width": 1200, "height": 900})
    page.set_default_timeout(15000)
    return page


def log_in(page, base_url: str, username: str, password: str) -> None:
    """Through the login form, as a person does; ends on the list of tournaments."""
    page.goto(f"{base_url}/accounts/login/")
    page.fill("#id_username", username)
    page.fill("#id_password", password)
    page.click("main button[type=submit]")
    page.wait_for_url(f"{base_url}/")
