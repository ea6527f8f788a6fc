"""Request bodies refused from their declared size, before anything reads them
(audit finding 1: an anonymous 1 GB POST to the login page was spooled to disk and
answered 200)."""

from __future__ import annotations

import pytest
from django.conf import settings
from django.urls import reverse

from pairing.models import Player


class UnreadableBody:
    """A request body that fails the test if anything reads it."""

    def read(self, *args, **kwargs):
        raise AssertionError("the body was read")

    readline = read

    def __iter__(self):
        raise AssertionError("the body was read")


def _post(client, path: str, length: int | str, **extra):
    return client.generic(
        "POST", path, b"", content_type="application/x-www-form-urlencoded",
        CONTENT_LENGTH=str(length), **{"wsgi.input": UnreadableBody()}, **extra,
    )


@pytest.mark.django_db
def test_audit_finding_1_an_anonymous_gigabyte_post_to_the_login_page_is_refused_unread(anon_client):
    response = _post(anon_client, "/accounts/login/", 1_000_000_000)
    assert response.status_code == 413
    text = response.content.decode()
    assert "954 MB" in text and "64 KB" in text and "without logging in" in text


@pytest.mark.django_db
@pytest.mark.parametrize("path", ["/accounts/login/", "/admin/login/", "/t/nowhere/players/"])
def test_audit_finding_1_an_anonymous_body_over_64_kb_is_refused_unread(anon_client, path):
    assert _post(anon_client, path, 64 * 1024 + 1).status_code == 413


@pytest.mark.django_db
def test_audit_finding_1_an_anonymous_login_of_normal_size_still_works(anon_client, chief):
    from tests.conftest import PASSWORD

    anon_client.get("/accounts/login/")
    response = anon_client.post("/accounts/login/", {"username": "chief", "password": PASSWORD})
    assert response.status_code == 302


def test_audit_finding_1_a_logged_in_arbiter_may_send_a_big_player_list(chief_client, tournament):
    """A 1 MB pasted list (about 20,000 lines) is over the anonymous limit and reaches the view."""
    lines = "\n".join(f"Player{i:05d}, Name; 1{i % 900 + 100}" for i in range(20_000))
    assert len(lines) > 64 * 1024
    response = chief_client.post(reverse("pairing:players_import", args=[tournament.slug]), {"text": lines})
    assert response.status_code != 413


def test_audit_finding_1_any_body_over_12_mb_is_refused_unread_even_logged_in(chief_client, tournament):
    response = _post(chief_client, reverse("pairing:trf_import", args=[tournament.slug]), 12 * 1024 * 1024 + 1)
    assert response.status_code == 413
    assert "12 MB" in response.content.decode() and "Nothing was saved" in response.content.decode()
    assert not Player.objects.filter(tournament=tournament).exists()


@pytest.mark.django_db
@pytest.mark.parametrize("length", ["abc", "-5", "1e9", "²"])
def test_audit_finding_1_a_content_length_that_is_not_a_number_is_a_400(anon_client, length):
    assert _post(anon_client, "/accounts/login/", length).status_code == 400


def test_the_size_check_runs_after_authentication_and_before_the_csrf_check_reads_the_body():
    order = settings.MIDDLEWARE
    limit = order.index("arbiter_site.request_limits.RequestSizeLimitMiddleware")
    assert order.index("django.contrib.auth.middleware.AuthenticationMiddleware") < limit
    # CsrfViewMiddleware reads request.POST in process_view, which runs after every
    # middleware's request phase, whatever its place in the list.
    assert settings.MAX_ANONYMOUS_REQUEST_BYTES == 64 * 1024
