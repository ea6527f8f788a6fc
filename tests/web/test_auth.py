"""Login, logout and the createarbiter command."""

from __future__ import annotations

import io

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
    # logged out: the root is the public front page (issue 37), not the arbiter's dashboard
    assert 'id="new-event"' not in chief_client.get(reverse("pairing:dashboard")).content.decode()
    assert chief_client.get(reverse("pairing:tournament_create")).status_code == 302


def _createarbiter(monkeypatch, *args, password: str, how: str = "env"):
    """Run the command as a script would: the password from the environment or stdin."""
    if how == "env":
        monkeypatch.setenv("DJANGO_ARBITER_PASSWORD", password)
        return call_command("createarbiter", *args)
    monkeypatch.delenv("DJANGO_ARBITER_PASSWORD", raising=False)
    monkeypatch.setattr("sys.stdin", io.StringIO(password + "\n"))
    return call_command("createarbiter", *args, "--password-stdin")


def test_createarbiter_makes_a_user_who_can_log_in(anon_client, db, monkeypatch):
    _createarbiter(monkeypatch, "ana", "ana@example.org", password="s3cret-pass-41")
    user = get_user_model().objects.get(username="ana")
    assert user.email == "ana@example.org"
    assert anon_client.login(username="ana", password="s3cret-pass-41")


def test_createarbiter_reads_the_password_from_stdin(anon_client, db, monkeypatch):
    _createarbiter(monkeypatch, "bor", password="knight-on-f5", how="stdin")
    assert anon_client.login(username="bor", password="knight-on-f5")


def test_createarbiter_refuses_a_duplicate(db, monkeypatch):
    _createarbiter(monkeypatch, "ana", password="s3cret-pass-41")
    with pytest.raises(CommandError, match="already exists"):
        _createarbiter(monkeypatch, "ana", password="other-pass-77")
    assert get_user_model().objects.filter(username="ana").count() == 1


@pytest.mark.parametrize(
    "password, why",
    [("short", "too short"), ("password", "too common"), ("12345678", "entirely numeric"), ("ana-kovac", "too similar")],
)
def test_audit_finding_5_createarbiter_applies_the_password_validators(db, monkeypatch, password, why):
    """'password' and '12345678' were accepted: the command only checked the length."""
    with pytest.raises(CommandError, match=why):
        _createarbiter(monkeypatch, "ana-kovac", password=password)
    assert not get_user_model().objects.exists()


def test_audit_finding_5_createarbiter_takes_no_password_on_the_command_line(db, monkeypatch):
    """A password in the arguments stays in the shell history and in ``ps``."""
    monkeypatch.delenv("DJANGO_ARBITER_PASSWORD", raising=False)
    with pytest.raises(CommandError):
        call_command("createarbiter", "ana", "ana@example.org", "s3cret-pass-41")
    monkeypatch.setattr("sys.stdin", io.StringIO(""))
    with pytest.raises(CommandError, match="No password"):
        call_command("createarbiter", "ana")
    assert not get_user_model().objects.exists()


def test_audit_finding_5_no_password_reset_is_offered(anon_client, db):
    """The site sends no mail: a reset form would promise an e-mail that never comes."""
    assert anon_client.get("/accounts/password_reset/").status_code == 404
    assert b"password_reset" not in anon_client.get(reverse("login")).content


def test_audit_finding_5_the_demo_refuses_to_run_in_production_mode(db, settings):
    settings.DEBUG = False
    with pytest.raises(CommandError, match="DJANGO_DEBUG=true"):
        call_command("demo")
    assert not get_user_model().objects.exists()


def test_audit_finding_5_debug_is_off_unless_asked_for(tmp_path):
    """Without DJANGO_DEBUG the settings are production settings: no secret key, no start."""
    import os
    import subprocess
    import sys

    env = {k: v for k, v in os.environ.items() if not k.startswith("DJANGO_")}
    env |= {"DJANGO_SETTINGS_MODULE": "arbiter_site.settings", "DATABASE_URL": f"sqlite:///{tmp_path / 'x.sqlite3'}"}
    code = "import django; django.setup(); from django.conf import settings; print(settings.DEBUG)"
    refused = subprocess.run([sys.executable, "-c", code], env=env, capture_output=True, text=True, cwd=os.getcwd())
    assert refused.returncode != 0 and "DJANGO_SECRET_KEY must be set" in refused.stderr
    env |= {"DJANGO_SECRET_KEY": "auth-test-" + "k" * 50, "DJANGO_ALLOWED_HOSTS": "chess.example.org"}
    started = subprocess.run([sys.executable, "-c", code], env=env, capture_output=True, text=True, cwd=os.getcwd())
    assert started.stdout.strip() == "False", started.stderr


def test_audit_finding_5_make_run_serves_on_the_loopback_address_only():
    from pathlib import Path

    makefile = (Path(__file__).resolve().parents[2] / "Makefile").read_text()
    run = makefile.split("\nrun:", 1)[1].split("\n\n", 1)[0]
    assert "scripts/run_dev.py 127.0.0.1:8000" in run and "0.0.0.0" not in run  # server + worker (issue 36)
    run_dev = (Path(__file__).resolve().parents[2] / "scripts" / "run_dev.py").read_text()
    assert '"runserver", address' in run_dev
