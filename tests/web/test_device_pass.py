"""A way in for the real arbiter on a new device while someone guesses the password from
the same address (issue 33, finding 6): a one-time device pass from the administrator
(a command, an admin action) or, for a deputy, from the chief arbiter."""

from __future__ import annotations

import io
import re

import pytest
from django.contrib.auth import get_user_model
from django.core.management import call_command
from django.test import Client
from django.urls import reverse

from arbiter_site.accounts import device_pass_path
from tests.conftest import PASSWORD

HALL = "203.0.113.7"  # the hall's Wi-Fi: the attacker and the arbiter share the address


@pytest.fixture(autouse=True)
def throttling(settings):
    settings.AXES_ENABLED = True


def login(client: Client, password: str, username: str = "chief"):
    return client.post(reverse("login"), {"username": username, "password": password})


def locked(username: str = "chief") -> Client:
    """The attacker's browser, after enough wrong guesses to lock the name at the hall's address."""
    attacker = Client(REMOTE_ADDR=HALL)
    for _ in range(5):
        login(attacker, "wrong-password", username)
    return attacker


def use(client: Client, path: str):
    page = client.get(path)
    assert page.status_code == 200 and 'id="use-pass"' in page.content.decode()
    return client.post(path)


def test_the_real_arbiter_logs_in_on_a_new_device_with_a_pass_and_the_attacker_stays_locked(chief):
    attacker = locked()
    arbiter = Client(REMOTE_ADDR=HALL)  # a new device: no trusted-login cookie
    assert login(arbiter, PASSWORD).status_code == 429
    response = use(arbiter, device_pass_path(chief))
    assert response.status_code == 302 and response["Location"].startswith(reverse("login"))
    assert login(arbiter, PASSWORD)["Location"] == reverse("pairing:dashboard")
    # the attacker has no pass: still locked, even with the right password
    assert login(attacker, PASSWORD).status_code == 429


def test_the_locked_page_names_the_way_in(chief):
    body = login(locked(), PASSWORD).content.decode()
    assert 'id="device-pass-help"' in body and "one-time device pass" in body


def test_a_pass_works_once_and_a_link_preview_does_not_spend_it(chief):
    locked()
    path = device_pass_path(chief)
    first = Client(REMOTE_ADDR=HALL)
    first.get(path)  # a messenger's link preview: nothing spent
    assert use(first, path).status_code == 302
    second = Client(REMOTE_ADDR=HALL)
    assert second.get(path).status_code == 400
    assert second.post(path).status_code == 400
    assert login(second, PASSWORD).status_code == 429


def test_a_pass_for_one_name_does_not_open_another(chief, deputy):
    locked("deputy")
    client = Client(REMOTE_ADDR=HALL)
    use(client, device_pass_path(chief))
    assert login(client, PASSWORD, "deputy").status_code == 429


def test_a_forged_or_expired_pass_is_refused(chief, settings):
    client = Client(REMOTE_ADDR=HALL)
    page = client.get(device_pass_path(chief)[:-3] + "xx/")
    assert page.status_code == 400 and "not valid" in page.content.decode()


def test_the_administrators_command_prints_a_working_pass(chief):
    locked()
    out = io.StringIO()
    call_command("device_pass", "chief", "--site", "https://club.example", stdout=out)
    link = re.search(r"https://club\.example(/\S+)", out.getvalue()).group(1)
    client = Client(REMOTE_ADDR=HALL)
    use(client, link)
    assert login(client, PASSWORD).status_code == 302


def test_the_admins_users_page_makes_a_pass(chief):
    admin = get_user_model().objects.create_superuser("root", password=PASSWORD)
    staff = Client()
    staff.force_login(admin)
    response = staff.post(reverse("admin:auth_user_changelist"),
                          {"action": "make_device_pass", "_selected_action": [chief.pk]}, follow=True)
    assert re.search(r"Device pass for chief \(one hour, once\): http://testserver/accounts/device-pass/", response.content.decode())


def test_the_chief_arbiter_makes_a_pass_for_a_deputy_and_nobody_else(chief_client, deputy, tournament, stranger):
    url = reverse("pairing:deputies", args=[tournament.slug])
    page = chief_client.post(url, {"username": "deputy", "device_pass": "1"}, follow=True).content.decode()
    assert "A one-time device pass for deputy" in page and "/accounts/device-pass/" in page
    page = chief_client.post(url, {"username": "stranger", "device_pass": "1"}, follow=True).content.decode()
    assert "stranger is not a deputy of this tournament" in page
