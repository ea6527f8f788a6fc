"""Issue 37: the entries' mail goes through Django's mail framework: the confirmation when an
entry is sent, the answer when it is approved or refused; written to the console in the
development set-up, sent by SMTP when DJANGO_EMAIL_HOST names a server, not sent in
production without one; never required (a mail server down loses no entry)."""

from __future__ import annotations

import json
import logging
import os
import socket
import socketserver
import subprocess
import sys
import threading
from pathlib import Path

import pytest
from django.core import mail
from django.urls import reverse

from pairing.models import Entry, Player
from pairing.services import entries
from tests.web.event_helpers import entry_post, fide_list, two_sections

ROOT = Path(__file__).resolve().parents[2]


@pytest.fixture
def weekend(chief, deputy):
    fide_list()
    return two_sections(chief, deputy)


def mail_settings(**env: str) -> dict:
    """arbiter_site.settings imported in a fresh interpreter with ``env``."""
    clean = {k: v for k, v in os.environ.items() if not k.startswith(("DJANGO_", "DATABASE_URL"))}
    clean |= {"DJANGO_SECRET_KEY": "mail-test-" + "k7" * 30, "DJANGO_ALLOWED_HOSTS": "chess.example.org"} | env
    names = ["EMAIL_BACKEND", "EMAIL_HOST", "EMAIL_PORT", "EMAIL_HOST_USER", "EMAIL_USE_TLS", "DEFAULT_FROM_EMAIL"]
    code = f"import json; from arbiter_site import settings as s; print(json.dumps({{k: getattr(s, k, None) for k in {names}}}))"
    done = subprocess.run([sys.executable, "-c", code], cwd=ROOT, env=clean, capture_output=True, text=True)
    assert done.returncode == 0, done.stderr
    return json.loads(done.stdout.strip().splitlines()[-1])


def test_mail_is_written_to_the_console_in_development_sent_by_smtp_when_configured_and_off_otherwise():
    assert mail_settings(DJANGO_DEBUG="true")["EMAIL_BACKEND"] == "django.core.mail.backends.console.EmailBackend"
    assert mail_settings(DJANGO_DEBUG="false")["EMAIL_BACKEND"] == "django.core.mail.backends.dummy.EmailBackend"
    smtp = mail_settings(DJANGO_DEBUG="false", DJANGO_EMAIL_HOST="smtp.example.org", DJANGO_EMAIL_PORT="2525",
                         DJANGO_EMAIL_USER="club", DJANGO_EMAIL_TLS="false", DJANGO_EMAIL_FROM="arbiter@example.org")
    assert smtp == {"EMAIL_BACKEND": "django.core.mail.backends.smtp.EmailBackend", "EMAIL_HOST": "smtp.example.org",
                    "EMAIL_PORT": 2525, "EMAIL_HOST_USER": "club", "EMAIL_USE_TLS": False,
                    "DEFAULT_FROM_EMAIL": "arbiter@example.org"}


def test_the_entrant_gets_the_confirmation_then_the_approval_with_the_private_link(anon_client, deputy_client,
                                                                                  weekend):
    e, open_, rr = weekend
    entry_post(anon_client, e, "Novak Ana", "5000001", open_.slug, email="ana@example.org")
    entry = Entry.objects.get()
    link = f"http://testserver{reverse('pairing:entry_status', args=[e.slug, entry.token])}"
    sent = mail.outbox[0]
    assert (sent.subject, sent.to) == ("Your entry to Club Weekend", ["ana@example.org"])
    assert "Weekend Open (Club Weekend): Waiting for approval" in sent.body and link in sent.body
    deputy_client.post(reverse("pairing:event_entries", args=[e.slug]), {"action": "approve", "entry": [entry.pk]})
    answer = mail.outbox[1]
    assert (answer.subject, answer.to) == ("Your entry to Club Weekend is approved", ["ana@example.org"])
    assert "Approved: registered" in answer.body and link in answer.body
    assert len(mail.outbox) == 2


def test_a_refusal_mail_gives_the_arbiters_reason(anon_client, chief_client, weekend):
    e, open_, rr = weekend
    entry_post(anon_client, e, "Kovac Luka", "5000002", open_.slug, email="luka@example.org")
    entry = Entry.objects.get()
    chief_client.post(reverse("pairing:event_entries", args=[e.slug]),
                      {"action": "refuse", "entry": [entry.pk], "note": "Juniors only in this section"})
    answer = mail.outbox[-1]
    assert answer.to == ["luka@example.org"] and "Refused" in answer.body
    assert "The arbiters' reason: Juniors only in this section" in answer.body


def test_in_development_the_mail_is_written_to_the_console(anon_client, weekend, settings, capsys):
    e, open_, rr = weekend
    settings.EMAIL_BACKEND = "django.core.mail.backends.console.EmailBackend"
    assert entry_post(anon_client, e, "Zupan Jan", "5000004", open_.slug, email="jan@example.org").status_code == 302
    out = capsys.readouterr().out
    assert "Subject: Your entry to Club Weekend" in out and "To: jan@example.org" in out


class _SMTP(socketserver.StreamRequestHandler):
    """Just enough SMTP to take one message: what a mail server sees."""

    def handle(self):
        self.wfile.write(b"220 test ESMTP\r\n")
        data, in_data = [], False
        for raw in self.rfile:
            line = raw.decode("utf-8", "replace").rstrip("\r\n")
            if in_data:
                if line == ".":
                    in_data = False
                    self.server.messages.append("\n".join(data))
                    self.wfile.write(b"250 queued\r\n")
                else:
                    data.append(line)
                continue
            verb = line[:4].upper()
            if verb == "EHLO":
                self.wfile.write(b"250 test\r\n")
            elif verb == "DATA":
                in_data = True
                self.wfile.write(b"354 go on\r\n")
            elif verb == "QUIT":
                self.wfile.write(b"221 bye\r\n")
                return
            else:  # HELO, MAIL, RCPT, RSET, NOOP
                self.server.envelope.append(line)
                self.wfile.write(b"250 ok\r\n")


def test_with_a_mail_server_configured_the_mail_is_sent_by_smtp(anon_client, weekend, settings):
    server = socketserver.ThreadingTCPServer(("127.0.0.1", 0), _SMTP)
    server.messages, server.envelope = [], []
    threading.Thread(target=server.serve_forever, daemon=True).start()
    try:
        settings.EMAIL_BACKEND = "django.core.mail.backends.smtp.EmailBackend"
        settings.EMAIL_HOST, settings.EMAIL_PORT = server.server_address
        settings.EMAIL_USE_TLS, settings.EMAIL_TIMEOUT = False, 5
        settings.DEFAULT_FROM_EMAIL = "arbiter@club.example.org"
        e, open_, rr = weekend
        assert entry_post(anon_client, e, "Novak Ana", "5000001", open_.slug, email="ana@example.org").status_code == 302
    finally:
        server.shutdown()
        server.server_close()
    assert [line.upper() for line in server.envelope] == ["MAIL FROM:<ARBITER@CLUB.EXAMPLE.ORG>", "RCPT TO:<ANA@EXAMPLE.ORG>"]
    (message,) = server.messages
    assert "Subject: Your entry to Club Weekend" in message and Entry.objects.get().token in message


def _closed_port() -> int:
    with socket.socket() as s:
        s.bind(("127.0.0.1", 0))
        return s.getsockname()[1]


def test_a_mail_server_down_loses_no_entry_and_no_approval(anon_client, chief, weekend, settings, caplog):
    settings.EMAIL_BACKEND = "django.core.mail.backends.smtp.EmailBackend"
    settings.EMAIL_HOST, settings.EMAIL_PORT, settings.EMAIL_TIMEOUT = "127.0.0.1", _closed_port(), 2
    settings.EMAIL_USE_TLS = False
    e, open_, rr = weekend
    with caplog.at_level(logging.WARNING, logger="pairing.services.entries"):
        r = entry_post(anon_client, e, "Novak Ana", "5000001", open_.slug)
        assert r.status_code == 302
        entry = Entry.objects.get()
        assert anon_client.get(r["Location"]).status_code == 200  # the private link tells everything
        entries.approve([entry], chief)
    assert Entry.objects.get().state == "approved" and Player.objects.get(tournament=open_).name == "Novak, Ana"
    assert sum("mail not sent" in m for m in caplog.messages) == 2
