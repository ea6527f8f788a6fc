"""docker/healthcheck.py: exit 0 only when /health/ answers 200 "ok"; the request it sends."""

from __future__ import annotations

import json
import os
import socket
import subprocess
import sys
import threading
from http.server import BaseHTTPRequestHandler, ThreadingHTTPServer
from pathlib import Path

import pytest

SCRIPT = Path(__file__).resolve().parents[2] / "docker" / "healthcheck.py"


@pytest.fixture
def fake_site():
    """A stub /health/ whose answer the test sets; records the requests' headers."""
    state = {"status": 200, "body": {"status": "ok", "database": "ok"}, "seen": []}

    class Handler(BaseHTTPRequestHandler):
        def do_GET(self):  # noqa: N802 (http.server's name)
            state["seen"].append((self.path, dict(self.headers)))
            body = json.dumps(state["body"]).encode()
            self.send_response(state["status"])
            self.send_header("Content-Type", "application/json")
            self.send_header("Content-Length", str(len(body)))
            self.end_headers()
            self.wfile.write(body)

        def log_message(self, *args):
            pass

    server = ThreadingHTTPServer(("127.0.0.1", 0), Handler)
    thread = threading.Thread(target=server.serve_forever, daemon=True)
    thread.start()
    state["port"] = server.server_address[1]
    yield state
    server.shutdown()
    server.server_close()


def run(port: int, hosts: str = "chess.example.org, .example.net") -> subprocess.CompletedProcess:
    env = {**os.environ, "HEALTHCHECK_PORT": str(port), "DJANGO_ALLOWED_HOSTS": hosts}
    return subprocess.run([sys.executable, str(SCRIPT)], env=env, capture_output=True, text=True, timeout=30)


def test_healthy_site_passes_and_is_asked_as_the_proxy_would(fake_site):
    assert run(fake_site["port"]).returncode == 0
    path, headers = fake_site["seen"][-1]
    assert path == "/health/"
    assert headers["Host"] == "chess.example.org" and headers["X-Forwarded-Proto"] == "https"


def test_a_wildcard_domain_is_asked_by_its_own_name(fake_site):
    assert run(fake_site["port"], hosts=" .example.net").returncode == 0
    assert fake_site["seen"][-1][1]["Host"] == "example.net"


def test_database_failure_fails_the_check(fake_site):
    fake_site["status"], fake_site["body"] = 503, {"status": "error", "database": "error"}
    result = run(fake_site["port"])
    assert result.returncode == 1 and "HTTP 503" in result.stderr


def test_no_server_fails_the_check():
    with socket.socket() as s:
        s.bind(("127.0.0.1", 0))
        port = s.getsockname()[1]
    result = run(port)
    assert result.returncode == 1 and "no answer" in result.stderr
