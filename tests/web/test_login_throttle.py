"""Login throttling (django-axes, as configured in arbiter_site/settings.py): five wrong
passwords for one username from one address lock that pair out for 15 minutes, with a
message on the login page; a successful login clears the count."""

from __future__ import annotations

from datetime import timedelta

import pytest
from django.test import Client, override_settings
from django.urls import reverse

from tests.conftest import PASSWORD

pytestmark = pytest.mark.usefixtures("throttling")


@pytest.fixture
def throttling(settings):
    """The production throttle (the test settings switch it off for Client.login)."""
    settings.AXES_ENABLED = True


def login(client: Client, password: str, username: str = "chief"):
    return client.post(reverse("login"), {"username": username, "password": password})


def fail(client: Client, times: int, username: str = "chief") -> None:
    for _ in range(times):
        login(client, "wrong-password", username)


def test_the_production_limits_are_five_failures_and_fifteen_minutes():
    from django.conf import settings

    assert settings.AXES_FAILURE_LIMIT == 5
    assert settings.AXES_COOLOFF_TIME == timedelta(minutes=15)
    assert settings.AXES_LOCKOUT_PARAMETERS == [["username", "ip_address"]]
    assert settings.AXES_RESET_ON_SUCCESS is True


def test_four_failures_still_let_the_arbiter_in(anon_client, chief):
    fail(anon_client, 4)
    assert login(anon_client, PASSWORD)["Location"] == reverse("pairing:dashboard")


def test_after_five_failures_the_right_password_is_refused_with_a_message(anon_client, chief):
    fail(anon_client, 5)
    response = login(anon_client, PASSWORD)
    body = response.content.decode()
    assert response.status_code == 429
    assert "Too many failed logins" in body and "15 minutes" in body
    assert 'name="password"' in body  # the login page, not an error page
    assert anon_client.get(reverse("pairing:tournament_create")).status_code == 302  # not logged in


def test_the_fifth_failure_already_shows_the_lockout_message(anon_client, chief):
    fail(anon_client, 4)
    response = login(anon_client, "wrong-password")
    assert response.status_code == 429 and "Too many failed logins" in response.content.decode()


def test_a_successful_login_resets_the_count(anon_client, chief):
    fail(anon_client, 4)
    assert login(anon_client, PASSWORD).status_code == 302
    anon_client.post(reverse("logout"))
    fail(anon_client, 4)
    assert login(anon_client, PASSWORD).status_code == 302


def test_the_lock_is_per_username(anon_client, chief, deputy):
    fail(anon_client, 5, "chief")
    assert login(anon_client, PASSWORD, "deputy").status_code == 302


def test_the_lock_is_per_address(chief):
    fail(Client(REMOTE_ADDR="203.0.113.7"), 5)
    assert login(Client(REMOTE_ADDR="198.51.100.2"), PASSWORD).status_code == 302
    assert login(Client(REMOTE_ADDR="203.0.113.7"), PASSWORD).status_code == 429


def test_behind_a_trusted_proxy_the_clients_address_is_counted(settings, chief):
    """The proxy appends the address it saw; what the client put before it is ignored."""
    settings.TRUSTED_PROXIES = 1
    proxy = "10.0.0.2"
    attacker = Client(REMOTE_ADDR=proxy, HTTP_X_FORWARDED_FOR="198.51.100.9, 203.0.113.7")
    fail(attacker, 5)
    spoofing = Client(REMOTE_ADDR=proxy, HTTP_X_FORWARDED_FOR="192.0.2.1, 203.0.113.7")
    assert login(spoofing, PASSWORD).status_code == 429
    arbiter = Client(REMOTE_ADDR=proxy, HTTP_X_FORWARDED_FOR="198.51.100.2")
    assert login(arbiter, PASSWORD).status_code == 302


def test_without_a_trusted_proxy_x_forwarded_for_is_ignored(chief):
    fail(Client(REMOTE_ADDR="203.0.113.7", HTTP_X_FORWARDED_FOR="192.0.2.1"), 5)
    assert login(Client(REMOTE_ADDR="203.0.113.7", HTTP_X_FORWARDED_FOR="192.0.2.99"), PASSWORD).status_code == 429


def test_the_lock_ends_after_the_cool_off(anon_client, chief):
    fail(anon_client, 5)
    with override_settings(AXES_COOLOFF_TIME=timedelta(0)):
        assert login(anon_client, PASSWORD).status_code == 302


def test_a_wrong_password_below_the_limit_keeps_the_usual_message(anon_client, chief):
    response = login(anon_client, "wrong-password")
    assert response.status_code == 200
    assert "correct username and password" in response.content.decode()
    assert "Too many failed logins" not in response.content.decode()


# ------------------------------------------------------------------ audit finding 2


def test_audit_finding_2_forged_addresses_still_lock_the_username(settings, chief):
    """With DJANGO_TRUSTED_PROXIES=1 and the port reachable directly, every attempt with a
    new X-Forwarded-For was a new address: twenty wrong passwords never locked."""
    settings.TRUSTED_PROXIES = 1
    for n in range(25):
        login(Client(REMOTE_ADDR="203.0.113.7", HTTP_X_FORWARDED_FOR=f"198.51.100.{n}"), "wrong-password")
    fresh = Client(REMOTE_ADDR="203.0.113.7", HTTP_X_FORWARDED_FOR="192.0.2.200")
    response = login(fresh, PASSWORD)
    assert response.status_code == 429
    assert "25 from anywhere" in response.content.decode()


def test_audit_finding_2_twenty_four_failures_from_many_addresses_do_not_lock(settings, chief):
    settings.TRUSTED_PROXIES = 1
    for n in range(24):
        login(Client(REMOTE_ADDR="203.0.113.7", HTTP_X_FORWARDED_FOR=f"198.51.100.{n}"), "wrong-password")
    assert login(Client(REMOTE_ADDR="203.0.113.7", HTTP_X_FORWARDED_FOR="192.0.2.200"), PASSWORD).status_code == 302


def test_audit_finding_2_behind_a_proxy_counted_as_one_address_the_arbiters_own_browser_gets_in(settings, chief):
    """DJANGO_TRUSTED_PROXIES=0 behind a proxy: everyone has the proxy's address, and five
    wrong passwords from anyone locked the real arbiter out everywhere."""
    settings.TRUSTED_PROXIES = 0
    arbiter = Client(REMOTE_ADDR="10.0.0.2")
    assert login(arbiter, PASSWORD).status_code == 302  # an earlier day: this browser is known now
    arbiter.post(reverse("logout"))
    fail(Client(REMOTE_ADDR="10.0.0.2"), 5)  # someone else, through the same proxy
    assert login(Client(REMOTE_ADDR="10.0.0.2"), PASSWORD).status_code == 429  # a new browser waits
    assert login(arbiter, PASSWORD).status_code == 302


def test_audit_finding_2_the_trusted_browser_cookie_cannot_be_forged_or_borrowed(chief, deputy):
    fail(Client(REMOTE_ADDR="10.0.0.2"), 5)
    forged = Client(REMOTE_ADDR="10.0.0.2")
    forged.cookies["trusted_login"] = "chief"
    assert login(forged, PASSWORD).status_code == 429
    other = Client(REMOTE_ADDR="10.0.0.2")
    assert login(other, PASSWORD, "deputy").status_code == 302  # trusted for deputy, not for chief
    assert login(other, PASSWORD).status_code == 429


# ------------------------------------------------------------------ audit finding 3


@pytest.mark.parametrize("url", ["/accounts/login/", "/admin/login/"])
def test_audit_finding_3_an_over_long_username_is_refused_before_authentication(anon_client, db, url):
    """A 300-character username reached django-axes' attempt row (255 characters): a
    server error on PostgreSQL."""
    from axes.models import AccessAttempt, AccessFailureLog

    response = anon_client.post(url, {"username": "u" * 300, "password": "whatever-1"})
    assert response.status_code == 200
    assert "at most 150 characters" in response.content.decode()
    assert not AccessAttempt.objects.exists() and not AccessFailureLog.objects.exists()
