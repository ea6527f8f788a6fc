"""Audit finding 1, reproduced against started servers on loopback.

The audit: three connections that send the headers of ``POST /accounts/login/`` with
``Content-Length: 100000`` and then only a few bytes held all three sync gunicorn
workers, and ``/health/`` stopped answering; an anonymous 1 GB POST was spooled to disk.

Here gunicorn is started as the image starts it (``docker/gunicorn.conf.py``, three
workers, production settings, a migrated SQLite database), and then, in front of it,
Debian's nginx with ``docker/nginx/nginx.conf`` changed only in its addresses and folders
(a self-signed certificate made with openssl).  Every attack is
bounded: a handful of connections, a few seconds, loopback only.

No nginx binary: the proxy tests are skipped, unless REQUIRE_NGINX=1 (CI), then they fail.
"""

from __future__ import annotations

import http.client
import os
import shutil
import socket
import ssl
import subprocess
import sys
import tempfile
import time
from pathlib import Path

import pytest

ROOT = Path(__file__).resolve().parents[2]
sys.path.insert(0, str(ROOT / "docker" / "nginx"))
from outside import configure  # noqa: E402  (the stack's nginx.conf, run outside Docker)

# timed through nginx and gunicorn: run alone, after the rest (make test)
pytestmark = pytest.mark.alone

VENV_BIN = Path(sys.executable).parent
HOST = "chess.example.org"
SECRET = "slow-client-test-" + "k" * 50


def _free_port() -> int:
    with socket.socket() as s:
        s.bind(("127.0.0.1", 0))
        return s.getsockname()[1]


def _wait_for(check, what: str, timeout: float = 60) -> None:
    deadline = time.monotonic() + timeout
    while time.monotonic() < deadline:
        if check():
            return
        time.sleep(0.2)
    raise AssertionError(f"{what} did not start within {timeout} s")


def _stop(process: subprocess.Popen) -> None:
    process.terminate()
    try:
        process.wait(timeout=15)
    except subprocess.TimeoutExpired:
        process.kill()
        process.wait()


@pytest.fixture(scope="module")
def gunicorn(tmp_path_factory):
    """Port of a gunicorn started with the image's configuration (3 threaded workers)."""
    folder = tmp_path_factory.mktemp("slow-clients")
    env = {
        "PATH": f"{VENV_BIN}{os.pathsep}{os.environ.get('PATH', '/usr/bin:/bin')}",
        "HOME": os.environ.get("HOME", "/tmp"),
        "LANG": "C.UTF-8",
        "DJANGO_DEBUG": "false",
        "DJANGO_SECRET_KEY": SECRET,
        "DJANGO_ALLOWED_HOSTS": HOST,
        "DJANGO_TRUSTED_PROXIES": "1",
        "DATABASE_URL": f"sqlite:///{folder / 'site.sqlite3'}",
        "DJANGO_STATIC_ROOT": str(folder / "static"),
    }
    for step in (["migrate", "--noinput"], ["collectstatic", "--noinput", "--verbosity", "0"]):
        done = subprocess.run([sys.executable, "manage.py", *step], cwd=ROOT, env=env, capture_output=True, text=True)
        assert done.returncode == 0, done.stderr
    port = _free_port()
    env.update(GUNICORN_BIND=f"127.0.0.1:{port}", WEB_CONCURRENCY="3")
    log = open(folder / "gunicorn.log", "w")  # noqa: SIM115 - closed below
    server = subprocess.Popen(
        [str(VENV_BIN / "gunicorn"), "-c", "docker/gunicorn.conf.py", "arbiter_site.wsgi:application"],
        cwd=ROOT, env=env, stdout=log, stderr=subprocess.STDOUT,
    )
    try:
        _wait_for(lambda: server.poll() is None and _health(port, timeout=1)[0] == 200, "gunicorn")
        yield port
    finally:
        _stop(server)
        log.close()


def _connect(port: int, tls: bool) -> socket.socket:
    sock = socket.create_connection(("127.0.0.1", port), timeout=5)
    if tls:
        context = ssl.create_default_context()
        context.check_hostname = False
        context.verify_mode = ssl.CERT_NONE
        sock = context.wrap_socket(sock, server_hostname=HOST)
    return sock


def _health(port: int, tls: bool = False, timeout: float = 3) -> tuple[int, float]:
    """(status, seconds) of GET /health/ on a new connection; status 0 when none came."""
    started = time.monotonic()
    if tls:
        context = ssl.create_default_context()
        context.check_hostname = False
        context.verify_mode = ssl.CERT_NONE
        conn = http.client.HTTPSConnection("127.0.0.1", port, timeout=timeout, context=context)
    else:
        conn = http.client.HTTPConnection("127.0.0.1", port, timeout=timeout)
    try:
        conn.request("GET", "/health/", headers={"Host": HOST, "X-Forwarded-Proto": "https"})
        response = conn.getresponse()
        response.read()
        return response.status, time.monotonic() - started
    except OSError:
        return 0, time.monotonic() - started
    finally:
        conn.close()


def _slow_post(port: int, length: int, tls: bool = False, sent: bytes = b"username=a") -> socket.socket:
    """The attack: the headers of a login POST announcing ``length`` bytes, then a few."""
    sock = _connect(port, tls)
    head = (
        f"POST /accounts/login/ HTTP/1.1\r\nHost: {HOST}\r\nX-Forwarded-Proto: https\r\n"
        f"Content-Type: application/x-www-form-urlencoded\r\nContent-Length: {length}\r\n\r\n"
    ).encode()
    sock.sendall(head + sent)
    return sock


def _answer(sock: socket.socket, timeout: float) -> bytes:
    """What the server sent back within ``timeout`` seconds (b'' if nothing)."""
    sock.settimeout(timeout)
    try:
        return sock.recv(65536)
    except (TimeoutError, ssl.SSLError, OSError):
        return b""


def _keeps_answering(port: int, tls: bool, seconds: float, trickle: list[socket.socket]) -> list[float]:
    """Ask /health/ once a second for ``seconds`` while the slow clients send a byte each."""
    times = []
    deadline = time.monotonic() + seconds
    while time.monotonic() < deadline:
        for sock in trickle:
            try:
                sock.sendall(b"x")
            except OSError:
                pass
        status, took = _health(port, tls)
        assert status == 200, f"/health/ did not answer while slow clients were connected ({took:.1f} s)"
        times.append(took)
        time.sleep(1)
    return times


def _close(socks: list[socket.socket]) -> None:
    for sock in socks:
        try:
            sock.close()
        except OSError:
            pass


# --- gunicorn alone ------------------------------------------------------------------


def test_audit_finding_1_the_audits_three_slow_logins_are_answered_413_at_once(gunicorn):
    """Content-Length 100000 is over the anonymous limit: refused from the headers."""
    socks = [_slow_post(gunicorn, 100_000) for _ in range(3)]
    try:
        for sock in socks:
            assert _answer(sock, timeout=5).startswith(b"HTTP/1.1 413")
        assert _health(gunicorn)[0] == 200
    finally:
        _close(socks)


def test_audit_finding_1_slow_bodies_under_the_limit_do_not_stop_health_on_gunicorn_alone(gunicorn):
    """Six slow clients (twice the audit's three) under the anonymous limit: each holds a
    thread of a threaded worker, and /health/ keeps answering."""
    socks = [_slow_post(gunicorn, 60_000) for _ in range(6)]
    try:
        times = _keeps_answering(gunicorn, tls=False, seconds=5, trickle=socks)
        print(f"/health/ slowest {max(times):.3f} s of {len(times)}")
        assert max(times) < 2, times
    finally:
        _close(socks)


def test_audit_finding_1_an_anonymous_gigabyte_upload_is_refused_before_it_is_sent(gunicorn):
    sock = _connect(gunicorn, tls=False)
    try:
        boundary = "b0undary"
        sock.sendall(
            (
                f"POST /accounts/login/ HTTP/1.1\r\nHost: {HOST}\r\nX-Forwarded-Proto: https\r\n"
                f"Content-Type: multipart/form-data; boundary={boundary}\r\nContent-Length: 1000000000\r\n\r\n"
                f"--{boundary}\r\nContent-Disposition: form-data; name=\"f\"; filename=\"a.bin\"\r\n\r\n"
            ).encode()
            + b"\0" * 1024 * 1024
        )
        assert _answer(sock, timeout=5).startswith(b"HTTP/1.1 413")
    finally:
        sock.close()
    assert _health(gunicorn)[0] == 200


# --- through the compose stack's nginx configuration -------------------------------------


def _start_nginx(folder: Path, app_port: int):
    """Debian's nginx running docker/nginx/nginx.conf in ``folder``, passing to the app on
    127.0.0.1:``app_port``: (process, https port, http port).  Only addresses and folders
    are changed; the https port is the one the redirect keeps, as start.sh writes it."""
    nginx = shutil.which("nginx") or ("/usr/sbin/nginx" if Path("/usr/sbin/nginx").exists() else None)
    if nginx is None:
        if os.environ.get("REQUIRE_NGINX") == "1":
            pytest.fail("nginx is not installed and REQUIRE_NGINX=1 (scripts/ensure-nginx.sh installs it)")
        pytest.skip("nginx is not installed (scripts/ensure-nginx.sh installs Debian's)")
    certs = folder / "certs"
    certs.mkdir()
    made = subprocess.run(
        ["openssl", "req", "-x509", "-newkey", "rsa:2048", "-nodes", "-days", "2", "-subj", f"/CN={HOST}",
         "-keyout", str(certs / "privkey.pem"), "-out", str(certs / "fullchain.pem")],
        capture_output=True, text=True,
    )
    assert made.returncode == 0, made.stderr
    https_port, http_port = _free_port(), _free_port()
    configure(folder, host="127.0.0.1", http_port=http_port, https_port=https_port, app=f"127.0.0.1:{app_port}",
              certs=certs)
    command = [nginx, "-p", str(folder), "-c", str(folder / "nginx.conf"), "-e", "stderr",
               "-g", f"daemon off; pid {folder / 'nginx.pid'};"]
    tested = subprocess.run([*command[:-2], "-t"], capture_output=True, text=True)
    assert tested.returncode == 0, tested.stderr
    server = subprocess.Popen(command, stdout=subprocess.DEVNULL, stderr=subprocess.PIPE, text=True)
    return server, https_port, http_port


@pytest.fixture
def proxy_folder():
    """nginx's folder under /tmp: its workers (another user when the tests run as root)
    must reach its temporary and cache folders."""
    folder = Path(tempfile.mkdtemp(prefix="dubov-proxy-test-"))
    yield folder
    shutil.rmtree(folder, ignore_errors=True)


@pytest.fixture(scope="module")
def proxy(gunicorn):
    """(https port, http port) of Debian's nginx running docker/nginx/nginx.conf."""
    folder = Path(tempfile.mkdtemp(prefix="dubov-proxy-test-"))
    server, https_port, http_port = _start_nginx(folder, gunicorn)
    try:
        _wait_for(lambda: server.poll() is None and _health(https_port, tls=True, timeout=1)[0] == 200, "nginx")
        yield https_port, http_port
    finally:
        _stop(server)
        shutil.rmtree(folder, ignore_errors=True)


def test_audit_finding_1_the_proxy_serves_the_app_over_tls_and_redirects_plain_http(proxy):
    https_port, http_port = proxy
    assert _health(https_port, tls=True)[0] == 200
    conn = http.client.HTTPConnection("127.0.0.1", http_port, timeout=3)
    conn.request("GET", "/standings/", headers={"Host": HOST})
    response = conn.getresponse()
    # the https port the browser must use is kept (HTTPS_PORT; the audit's redirect dropped it)
    assert response.status == 301 and response.getheader("Location") == f"https://{HOST}:{https_port}/standings/"
    conn.close()


def test_issue_39_nothing_at_the_app_s_address_gives_the_maintenance_page_for_any_method(proxy_folder):
    """While the web service restarts (or is down) nginx cannot connect: instead of its
    bare 502, a page that says the site is restarting, 503 with Retry-After, also for a
    form sent at that moment."""
    server, https_port, _ = _start_nginx(proxy_folder, _free_port())  # nothing listens there
    try:
        _wait_for(lambda: server.poll() is None and _health(https_port, tls=True, timeout=1)[0] == 503, "nginx")
        context = ssl.create_default_context()
        context.check_hostname = False
        context.verify_mode = ssl.CERT_NONE
        for method in ("GET", "POST"):
            conn = http.client.HTTPSConnection("127.0.0.1", https_port, timeout=5, context=context)
            conn.request(method, "/t/open/round/3/", body="result=1-0" if method == "POST" else None,
                         headers={"Host": HOST, "Content-Type": "application/x-www-form-urlencoded"})
            response = conn.getresponse()
            page = response.read().decode()
            conn.close()
            assert response.status == 503 and response.getheader("Retry-After") == "5", method
            assert "The site is restarting" in page and "Сайт перезапускается" in page
            assert "docker compose ps" in page
    finally:
        _stop(server)


def test_audit_finding_1_slow_clients_through_the_proxy_never_reach_gunicorn(proxy, gunicorn):
    """Forty slow clients (more than gunicorn's 3 workers x 8 threads) through nginx:
    nginx holds their bodies, /health/ keeps answering through nginx and directly."""
    https_port, _ = proxy
    socks = [_slow_post(https_port, 60_000, tls=True) for _ in range(40)]
    try:
        times = _keeps_answering(https_port, tls=True, seconds=5, trickle=socks)
        print(f"/health/ slowest {max(times):.3f} s of {len(times)}")
        assert max(times) < 2, times
        assert _health(gunicorn)[0] == 200
    finally:
        _close(socks)


def test_audit_finding_1_the_proxy_refuses_a_body_over_12_mb_from_its_headers(proxy):
    https_port, _ = proxy
    sock = _slow_post(https_port, 1_000_000_000, tls=True)
    try:
        assert _answer(sock, timeout=5).startswith(b"HTTP/1.1 413")
    finally:
        sock.close()


def test_audit_finding_1_a_login_through_the_proxy_works_end_to_end(proxy):
    """The CSRF check passes through nginx (Host with port, https) and the session cookie
    comes back Secure."""
    https_port, _ = proxy
    context = ssl.create_default_context()
    context.check_hostname = False
    context.verify_mode = ssl.CERT_NONE
    conn = http.client.HTTPSConnection("127.0.0.1", https_port, timeout=5, context=context)
    conn.request("GET", "/accounts/login/", headers={"Host": HOST})
    page = conn.getresponse()
    body = page.read().decode()
    assert page.status == 200
    cookie = page.getheader("Set-Cookie")
    assert "csrftoken=" in cookie and "Secure" in cookie
    token = body.split('name="csrfmiddlewaretoken" value="')[1].split('"')[0]
    csrf_cookie = cookie.split("csrftoken=")[1].split(";")[0]
    conn.request(
        "POST", "/accounts/login/", body=f"csrfmiddlewaretoken={token}&username=nobody&password=wrong",
        headers={"Host": HOST, "Content-Type": "application/x-www-form-urlencoded",
                 "Cookie": f"csrftoken={csrf_cookie}", "Referer": f"https://{HOST}/accounts/login/"},
    )
    answer = conn.getresponse()
    text = answer.read().decode()
    assert answer.status == 200 and "Please enter a correct username and password" in text
    conn.close()
