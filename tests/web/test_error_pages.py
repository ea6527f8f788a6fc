"""Issue 39: friendly 400, 500 and 503 pages that tell the server's admin what to check,
and the Content-Security-Policy on every answer (arbiter_site/csp.py)."""

from __future__ import annotations

import re
from pathlib import Path

import pytest
from django.conf import settings
from django.db import OperationalError
from django.test import Client, override_settings
from django.urls import reverse

from arbiter_site import busy
from pairing.views import tournaments as tournament_views

TEMPLATES = Path(settings.BASE_DIR) / "templates"


@override_settings(DEBUG=False, ALLOWED_HOSTS=["chess.example.org"])
def test_an_address_the_site_is_not_set_up_for_gets_a_page_naming_site_url(db):
    response = Client(HTTP_HOST="192.168.1.20").get("/")
    page = response.content.decode()
    assert response.status_code == 400
    assert "Bad request (400)" in page and "SITE_URL" in page and "docker compose logs web" in page
    assert "<link rel=\"stylesheet\"" in page  # the site's look, not a bare line


@override_settings(DEBUG=False)
def test_a_server_error_gets_a_page_that_says_where_the_details_are(db, monkeypatch):
    def broken(*args, **kwargs):
        raise RuntimeError("a bug")

    # the health view, made to fail where it does not catch: a bug's 500
    monkeypatch.setattr(tournament_views, "JsonResponse", broken)
    response = Client(raise_request_exception=False).get(reverse("pairing:health"))
    page = response.content.decode()
    assert response.status_code == 500
    assert "Server error (500)" in page and "docker compose logs --tail 100 web" in page
    assert "docker compose ps" in page


def test_a_database_that_went_away_is_a_503_with_what_to_check(monkeypatch, rf):
    """PostgreSQL stopped or restarting: no usable connection is left."""
    monkeypatch.setattr(busy, "_connection_lost", lambda: True)
    response = busy.DatabaseBusyMiddleware(lambda r: None).process_exception(
        rf.get("/"), OperationalError("connection failed: Connection refused")
    )
    page = response.content.decode()
    assert response.status_code == 503 and response["Retry-After"] == "10"
    assert "The database is not answering (503)" in page and "docker compose ps db" in page


def test_a_missing_or_broken_connection_counts_as_gone_and_a_live_one_does_not():
    class Raw:
        closed, broken = False, False

    class Wrapper:
        connection = None

    wrapper = Wrapper()
    assert busy._connection_lost(wrapper) is True  # could not connect at all
    wrapper.connection = Raw()
    assert busy._connection_lost(wrapper) is False
    wrapper.connection.broken = True  # the server went away mid-request
    assert busy._connection_lost(wrapper) is True


def test_other_operational_errors_on_a_live_connection_stay_server_errors(monkeypatch, rf):
    monkeypatch.setattr(busy, "_connection_lost", lambda: False)
    middleware = busy.DatabaseBusyMiddleware(lambda r: None)
    assert middleware.process_exception(rf.get("/"), OperationalError("no such table: x")) is None


def test_the_error_pages_are_translated(monkeypatch, rf):
    from django.utils import translation

    monkeypatch.setattr(busy, "_connection_lost", lambda: True)
    with translation.override("ru"):
        response = busy.DatabaseBusyMiddleware(lambda r: None).process_exception(
            rf.get("/"), OperationalError("connection failed")
        )
    assert "База данных не отвечает (503)" in response.content.decode()


def test_every_answer_carries_the_content_security_policy(anon_client, chief_client, tournament):
    for client, path in ((anon_client, "/accounts/login/"), (chief_client, "/"),
                         (chief_client, f"/t/{tournament.slug}/players/")):
        policy = client.get(path)["Content-Security-Policy"]
        assert "script-src 'self'" in policy and "style-src 'self'" in policy
        assert "unsafe-inline" not in policy and "unsafe-eval" not in policy
        assert "frame-ancestors 'none'" in policy and "object-src 'none'" in policy


INLINE = [
    (re.compile(r"<script(?![^>]*\bsrc=)[^>]*>", re.I), "an inline <script>"),
    (re.compile(r"<style\b", re.I), "a <style> element"),
    (re.compile(r"\sstyle\s*=", re.I), "a style= attribute"),
    (re.compile(r"\son[a-z]+\s*=", re.I), "an on...= attribute"),
    (re.compile(r"javascript:", re.I), "a javascript: address"),
]


@pytest.mark.parametrize("template", sorted(p.relative_to(TEMPLATES).as_posix() for p in TEMPLATES.rglob("*.html")))
def test_no_template_has_an_inline_script_or_style(template):
    """What the policy would block in the browser (tests/browser/test_csp.py visits the
    pages; this reads every template, also those a crawl may not reach)."""
    text = (TEMPLATES / template).read_text()
    for pattern, what in INLINE:
        assert not pattern.search(text), f"{template}: {what}"
    if template != "base.html":
        return
    assert '"includeIndicatorStyles": false' in text  # htmx would add a <style> of its own
