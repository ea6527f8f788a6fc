"""Login, logout and the createarbiter command."""

from __future__ import annotations

import pytest
from django.contrib.auth import get_user_model
from django.core.management import CommandError, call_command
from django.urls import reverse

from tests.conftest import PASSWORD


def test_the_login_page_uses_our_template(anon_client, db):
    response = anon_client.get(reverse("login"))
    assert response.status_code == 200
    assert "registration/login.html" in [t.name for t in response.templates]


def test_an_arbiter_logs_in_and_lands_on_the_dashboard(anon_client, chief):
    response = anon_client.post(reverse("login"), {"username": "chief", "password": PASSWORD})
    assert response.status_code == 302
    assert response["Location"] == reverse("pairing:dashboard")


def test_a_wrong_password_is_refused_with_a_message(anon_client, chief):
    response = anon_client.post(reverse("login"), {"username": "chief", "password": "nope"})
    assert response.status_code == 200
    assert "correct username and password" in response.content.decode()


def test_logout_is_a_post(chief_client):
    response = chief_client.post(reverse("logout"))
    assert response.status_code == 302
    assert chief_client.get(reverse("pairing:dashboard")).status_code == 302


def test_createarbiter_makes_a_user_who_can_log_in(anon_client, db):
    call_command("createarbiter", "ana", "s3cret-pass", "ana@example.org")
    user = get_user_model().objects.get(username="ana")
    assert user.email == "ana@example.org"
    assert anon_client.login(username="ana", password="s3cret-pass")


def test_createarbiter_refuses_a_duplicate(db):
    call_command("createarbiter", "ana", "s3cret-pass")
    with pytest.raises(CommandError, match="already exists"):
        call_command("createarbiter", "ana", "other-pass")
    assert get_user_model().objects.filter(username="ana").count() == 1


def test_createarbiter_refuses_a_short_password(db):
    with pytest.raises(CommandError, match="at least 8"):
        call_command("createarbiter", "ana", "short")
    assert not get_user_model().objects.exists()
