"""The site under load for ``load_site.py``: a fresh database, gunicorn as the container
starts it, and the compose stack's nginx in front; plus the HTTP client the simulated
visitors use.  Standard library only (and psycopg for the PostgreSQL database)."""

from __future__ import annotations

import argparse
import html
import http.client
import ipaddress
import os
import re
import shutil
import signal
import socket
import ssl
import subprocess
import sys
import tempfile
import time
from dataclasses import dataclass, field
from pathlib import Path
from urllib.parse import urlencode

ROOT = Path(__file__).resolve().parents[1]
sys.path.insert(0, str(ROOT / "docker" / "nginx"))
from outside import configure  # noqa: E402  (the stack's nginx.conf, run outside Docker)

DEMO_SLUG, DEMO_USER, DEMO_PASSWORD = "demo-open", "arbiter", "dubov-demo"
BIG_SLUG = "load-open"


# ---------------------------------------------------------------- bounds


def loopback_only(host: str) -> str:
    """The host, if every address it names is a loopback one; else SystemExit."""
    try:
        infos = socket.getaddrinfo(host, None)
    except socket.gaierror as exc:
        raise SystemExit(f"load_site: cannot resolve {host!r}: {exc}") from exc
    addresses = {info[4][0] for info in infos}
    if not addresses or not all(ipaddress.ip_address(a.split("%")[0]).is_loopback for a in addresses):
        raise SystemExit(f"load_site: refusing {host!r} ({', '.join(sorted(addresses))}): loopback addresses only")
    return host


def bounded(value: float, upper: float, name: str) -> float:
    if value <= 0:
        raise SystemExit(f"load_site: {name} must be positive")
    if value > upper:
        raise SystemExit(f"load_site: {name} {value:g} is above the cap of {upper:g}")
    return value


def free_port(host: str) -> int:
    with socket.socket(socket.AF_INET6 if ":" in host else socket.AF_INET) as s:
        s.bind((host, 0))
        return s.getsockname()[1]


def nginx_binary() -> str | None:
    return shutil.which("nginx") or ("/usr/sbin/nginx" if Path("/usr/sbin/nginx").exists() else None)


def _stop(process: subprocess.Popen | None) -> None:
    if process and process.poll() is None:
        process.send_signal(signal.SIGTERM)
        try:
            process.wait(timeout=15)
        except subprocess.TimeoutExpired:
            process.kill()
            process.wait()


# ---------------------------------------------------------------- the site under test


@dataclass
class Site:
    """Database, gunicorn (``docker/gunicorn.conf.py``: threaded workers, as the image
    starts it) bound to loopback, and with ``args.proxy`` the compose stack's
    ``docker/nginx/nginx.conf`` (Debian's nginx, only its addresses, certificate and cache
    folder changed, as tests/hosting/test_slow_clients.py runs it) in front, over TLS."""

    args: argparse.Namespace
    workdir: Path = field(default_factory=lambda: Path(tempfile.mkdtemp(prefix="dubov-load-")))
    pg_name: str | None = None
    server: subprocess.Popen | None = None
    proxy: subprocess.Popen | None = None
    port: int = 0  # where the clients connect: nginx's TLS port, or gunicorn's
    app_port: int = 0
    database_url: str = ""

    @property
    def app(self) -> Path:
        """The checkout whose site runs (``--app``; this one by default)."""
        return Path(getattr(self.args, "app", None) or ROOT).resolve()

    @property
    def log_file(self) -> Path:
        return self.workdir / "gunicorn.log"

    @property
    def access_log(self) -> Path:
        """gunicorn's access log of the run: each request's time inside the app."""
        return self.workdir / "app-access.log"

    def _access_log_args(self) -> str:
        # method|path|status|milliseconds in the app|HX-Request|who|query: what load_site's
        # app_times() reads (GUNICORN_CMD_ARGS overrides the configuration file)
        fields = "%(m)s|%(U)s|%(s)s|%(M)s|%({hx-request}i)s|%({x-load-role}i)s|%(q)s"
        return f"--access-logfile {self.access_log} --access-logformat '{fields}'"

    def app_times(self, start: int = 0) -> tuple[int, dict[str, list[float]]]:
        """(where the log ends, milliseconds per kind of request) of the requests gunicorn
        answered from byte ``start`` of its access log on: the app's own time, without the
        proxy's or the clients' (a crowd of client threads waits for Python's lock too)."""
        if not self.access_log.exists():
            return start, {}
        with self.access_log.open("rb") as log:
            log.seek(start)
            data = log.read()
        times: dict[str, list[float]] = {}
        for line in data.decode("utf-8", "replace").splitlines():
            parts = line.split("|", 6)
            if len(parts) < 7 or not parts[3].isdigit():
                continue
            method, path, _, ms, htmx, role, _ = parts
            kind = request_kind(self.slug, method, path, htmx == "true")
            if role == "arbiter" and method == "GET":
                kind = f"arbiter's {kind}"
            times.setdefault(kind, []).append(float(ms))
        return start + len(data), times

    @property
    def tls(self) -> bool:
        return self.proxy is not None

    def server_errors(self) -> dict[str, int]:
        """The server's logged exceptions, by their last line (e.g. "database is locked")."""
        counts: dict[str, int] = {}
        if self.log_file.exists():
            for line in self.log_file.read_text(errors="replace").splitlines():
                if re.match(r"^[\w.]+(Error|Exception|Timeout)\b.*:", line) or "WORKER TIMEOUT" in line:
                    key = re.sub(r"\(pid:\d+\)", "", line.split("] ", 1)[-1]).strip()[:120]
                    counts[key] = counts.get(key, 0) + 1
        return counts

    @property
    def slug(self) -> str:
        return getattr(self.args, "slug", None) or (BIG_SLUG if self.args.players else DEMO_SLUG)

    @property
    def login(self) -> tuple[str, str]:
        """The arbiter's account (the demo's, or --user/--password with --reuse-db)."""
        return (getattr(self.args, "user", None) or DEMO_USER, getattr(self.args, "password", None) or DEMO_PASSWORD)

    def env(self) -> dict[str, str]:
        env = {k: v for k, v in os.environ.items() if not k.startswith(("DJANGO_", "DATABASE_", "GUNICORN_"))}
        env.update(
            DJANGO_DEBUG="false",
            DJANGO_SECRET_KEY="load-test-only-" + "x" * 40,
            DJANGO_ALLOWED_HOSTS=self.args.host,
            DJANGO_STATIC_ROOT=str(self.workdir / "static"),
            DJANGO_LOG_LEVEL="WARNING",
            DATABASE_URL=self.database_url,
            WEB_CONCURRENCY=str(self.args.workers),
        )
        if self.proxy_wanted:
            env["DJANGO_TRUSTED_PROXIES"] = "1"  # as in docker-compose.yml
        if self.args.sqlite_immediate:
            # A variant of the settings, for comparison: SQLite write transactions take
            # the write lock at BEGIN, so they queue (busy timeout) instead of failing.
            (self.workdir / "load_settings.py").write_text(
                "from arbiter_site.settings import *  # noqa\n"
                "DATABASES['default'].setdefault('OPTIONS', {})['transaction_mode'] = 'IMMEDIATE'\n"
            )
            env["PYTHONPATH"] = os.pathsep.join(filter(None, [str(self.workdir), env.get("PYTHONPATH")]))
            env["DJANGO_SETTINGS_MODULE"] = "load_settings"
        for item in self.args.env or []:
            name, _, value = item.partition("=")
            env[name] = value
        return env

    @property
    def proxy_wanted(self) -> bool:
        return self.args.proxy == "yes" or (self.args.proxy == "auto" and nginx_binary() is not None)

    def create_database(self) -> None:
        if self.args.reuse_db:  # a database prepared earlier: neither built nor dropped here
            self.database_url = f"{self.args.pg_admin.rsplit('/', 1)[0]}/{self.args.reuse_db}"
            return
        if self.args.db == "sqlite":
            self.database_url = f"sqlite:///{self.workdir / 'load.sqlite3'}"
            return
        import psycopg

        self.pg_name = getattr(self.args, "db_name", None) or f"dubov_load_{os.getpid()}"
        with psycopg.connect(self.args.pg_admin, autocommit=True, connect_timeout=5) as admin:
            admin.execute(f'DROP DATABASE IF EXISTS "{self.pg_name}" WITH (FORCE)')
            admin.execute(f'CREATE DATABASE "{self.pg_name}"')
        base = self.args.pg_admin.rsplit("/", 1)[0]
        self.database_url = f"{base}/{self.pg_name}"

    def manage(self, *argv: str, **extra_env: str) -> str:
        done = subprocess.run(
            [sys.executable, "manage.py", *argv], cwd=self.app, env=self.env() | extra_env, capture_output=True, text=True
        )
        if done.returncode:
            raise SystemExit(f"load_site: manage.py {argv[0]} failed:\n{done.stderr[-2000:]}")
        return done.stdout

    def prepare(self) -> None:
        self.create_database()
        self.manage("migrate", "--noinput")
        self.manage("collectstatic", "--noinput", "--verbosity", "0")
        if self.args.reuse_db:
            return
        self.manage("demo", DJANGO_DEBUG="true")  # the demo runs on development copies only
        if self.args.players:
            done = subprocess.run(
                [sys.executable, str(ROOT / "benchmarks" / "big_field.py"), "--players", str(self.args.players),
                 "--played", str(self.args.played), "--pending", str(self.args.pending),
                 "--slug", BIG_SLUG, "--owner", DEMO_USER, "--app", str(self.app)],
                cwd=self.app, env=self.env(), capture_output=True, text=True,
            )
            if done.returncode:
                raise SystemExit(f"load_site: building the tournament failed:\n{done.stderr[-3000:]}")
            print(done.stdout.strip(), flush=True)

    def start(self) -> None:
        self.app_port = free_port(self.args.host)
        bind = f"[{self.args.host}]:{self.app_port}" if ":" in self.args.host else f"{self.args.host}:{self.app_port}"
        gunicorn = Path(sys.executable).parent / "gunicorn"
        self._log = self.log_file.open("w")
        self.server = subprocess.Popen(
            [str(gunicorn), "-c", "docker/gunicorn.conf.py", "arbiter_site.wsgi:application",
             "--log-level", "warning"],
            cwd=self.app, env=self.env() | {"GUNICORN_BIND": bind, "GUNICORN_CMD_ARGS": self._access_log_args()}, stdout=subprocess.DEVNULL, stderr=self._log,
        )
        self.port = self.app_port
        self._wait_for_health("gunicorn", lambda: self.server.poll() is None, self.log_file)
        if self.proxy_wanted:
            self._start_proxy()

    def _start_proxy(self) -> None:
        nginx = nginx_binary()
        if nginx is None:
            raise SystemExit("load_site: --proxy yes but no nginx (scripts/ensure-nginx.sh installs Debian's)")
        folder = self.workdir / "proxy"
        certs = folder / "certs"
        certs.mkdir(parents=True)
        # nginx's workers run as another user when started as root: they must reach the
        # cache and temporary folders (made by nginx under this one)
        for path in (self.workdir, folder):
            path.chmod(0o755)
        made = subprocess.run(
            ["openssl", "req", "-x509", "-newkey", "rsa:2048", "-nodes", "-days", "2", "-subj", f"/CN={self.args.host}",
             "-keyout", str(certs / "privkey.pem"), "-out", str(certs / "fullchain.pem")],
            capture_output=True, text=True,
        )
        if made.returncode:
            raise SystemExit(f"load_site: openssl failed: {made.stderr}")
        https_port, http_port = free_port(self.args.host), free_port(self.args.host)
        host = f"[{self.args.host}]" if ":" in self.args.host else self.args.host
        # the stack's own nginx.conf, only its addresses and folders changed (its own cache
        # and temporary folders: another nginx on this machine has its own)
        configure(folder, host=self.args.host, http_port=http_port, https_port=https_port,
                  app=f"{host}:{self.app_port}", certs=certs, access_log=folder / "access.log")
        command = [nginx, "-p", str(folder), "-c", str(folder / "nginx.conf"), "-e", "stderr",
                   "-g", f"daemon off; pid {folder / 'nginx.pid'};"]
        tested = subprocess.run([*command[:-2], "-t"], capture_output=True, text=True)
        if tested.returncode:
            raise SystemExit(f"load_site: nginx refuses the configuration:\n{tested.stderr}")
        self._proxy_log = (folder / "error.log").open("w")
        self.proxy = subprocess.Popen(command, stdout=subprocess.DEVNULL, stderr=self._proxy_log)
        self.port = https_port
        self._wait_for_health("nginx", lambda: self.proxy.poll() is None, folder / "error.log")

    def _wait_for_health(self, what: str, alive, log: Path) -> None:
        deadline = time.monotonic() + 30
        while time.monotonic() < deadline:
            if not alive():
                raise SystemExit(f"load_site: {what} exited:\n{log.read_text()[-2000:]}")
            try:
                status, _, _ = Session(self).send("GET", "/health/")
                if status == 200:
                    return
            except OSError:
                pass
            time.sleep(0.2)
        raise SystemExit(f"load_site: {what} did not answer /health/ within 30 s")

    def stop(self) -> None:
        _stop(self.proxy)
        _stop(self.server)
        if self.server:
            self._log.close()
        if self.pg_name and not self.args.keep:
            import psycopg

            with psycopg.connect(self.args.pg_admin, autocommit=True, connect_timeout=5) as admin:
                admin.execute(f'DROP DATABASE IF EXISTS "{self.pg_name}" WITH (FORCE)')
        if self.args.keep:
            print(f"kept: {self.workdir} {self.pg_name or ''}")
        else:
            shutil.rmtree(self.workdir, ignore_errors=True)


def request_kind(slug: str, method: str, path: str, htmx: bool) -> str:
    """The kind of a request as the load test's tallies name it."""
    if method == "POST":
        for end, kind in (("/result/", "result"), ("/pair/", "pair"), ("/publish/", "publish"),
                          ("/accounts/login/", "login")):
            if path.endswith(end):
                return kind
        return "other post"
    if htmx and path.startswith(f"/t/{slug}/"):
        return "poll"
    if path == f"/t/{slug}/":
        return "home"
    if path.startswith(f"/t/{slug}/standings/"):
        return "standings"
    if path.startswith(f"/t/{slug}/round/"):
        return "round"
    return "other"


# ---------------------------------------------------------------- HTTP

_TLS = ssl.create_default_context()
_TLS.check_hostname = False
_TLS.verify_mode = ssl.CERT_NONE  # the proxy's certificate is made up for the run


class Session:
    """One visitor: cookies, a keep-alive connection (from its own loopback address when
    ``source`` is given, so the proxy's per-address limit counts visitors, not the one
    machine running them), and the ETags it has seen, sent back as a browser does."""

    def __init__(self, site: Site, source: str | None = None, role: str = ""):
        self.site = site
        self.source = source
        self.role = role  # sent as X-Load-Role ("arbiter"): the app's access log tells them apart
        self.cookies: dict[str, str] = {}
        self.etags: dict[str, str] = {}
        self.conn = self._connect()

    def _connect(self):
        host, port = self.site.args.host, self.site.port
        source = (self.source, 0) if self.source else None
        if self.site.tls:
            return http.client.HTTPSConnection(host, port, timeout=130, context=_TLS, source_address=source)
        return http.client.HTTPConnection(host, port, timeout=130, source_address=source)

    def headers(self) -> dict[str, str]:
        host, port = self.site.args.host, self.site.port
        netloc = f"[{host}]:{port}" if ":" in host else f"{host}:{port}"
        # gunicorn alone: the site is told it sits behind a TLS proxy, as nginx tells it
        return {"Host": netloc} if self.site.tls else {"Host": netloc, "X-Forwarded-Proto": "https"}

    def send(self, method: str, path: str, form: dict | None = None, extra: dict | None = None,
             conditional: bool = False):
        """(status, headers, text).  ``conditional``: If-None-Match with the ETag last seen
        for this path (a browser's reload, or htmx's request through the browser cache)."""
        headers = self.headers() | dict(extra or {})
        if self.role:
            headers["X-Load-Role"] = self.role
        if self.cookies:
            headers["Cookie"] = "; ".join(f"{k}={v}" for k, v in self.cookies.items())
        if conditional and path in self.etags:
            headers["If-None-Match"] = self.etags[path]
        body = None
        if form is not None:
            body = urlencode(form)
            headers["Content-Type"] = "application/x-www-form-urlencoded"
            headers["Origin"] = f"https://{self.headers()['Host']}"
            headers["X-CSRFToken"] = self.cookies.get("csrftoken", "")
        for attempt in (1, 2):
            try:
                self.conn.request(method, path, body=body, headers=headers)
                response = self.conn.getresponse()
                data = response.read().decode("utf-8", "replace")
                break
            except (http.client.RemoteDisconnected, BrokenPipeError, ConnectionResetError):
                # a keep-alive connection the server closed while idle: a browser opens a
                # new one and sends the GET again
                self.conn.close()
                self.conn = self._connect()
                if method != "GET" or attempt == 2:
                    raise
            except (OSError, http.client.HTTPException):
                self.conn.close()
                self.conn = self._connect()
                raise
        got = {k.lower(): v for k, v in response.getheaders()}
        for cookie in response.headers.get_all("Set-Cookie") or []:
            name, _, rest = cookie.partition("=")
            self.cookies[name.strip()] = rest.split(";", 1)[0]
        if "etag" in got and response.status in (200, 204, 286):
            self.etags[path] = got["etag"]
        return response.status, got, data

    def login(self, username: str, password: str) -> None:
        status, _, page = self.send("GET", "/accounts/login/")
        token = re.search(r'name="csrfmiddlewaretoken" value="([^"]+)"', page)
        if status != 200 or not token:
            raise SystemExit(f"load_site: no login form (HTTP {status})")
        status, got, _ = self.send(
            "POST", "/accounts/login/",
            {"csrfmiddlewaretoken": token.group(1), "username": username, "password": password, "next": "/"},
        )
        if status != 302 or "sessionid" not in self.cookies:
            raise SystemExit(f"load_site: login as {username!r} failed (HTTP {status})")

    def submit(self, page: str, action: str, extra: dict | None = None):
        """POST the form of ``page`` whose action is ``action``, with its hidden fields."""
        form = re.search(r'<form\b[^>]*action="' + re.escape(action) + r'"[^>]*>(.*?)</form>', page, re.S)
        fields = {}
        if form:
            for tag in re.findall(r"<input\b[^>]*>", form.group(1)):
                name = re.search(r'name="([^"]+)"', tag)
                value = re.search(r'value="([^"]*)"', tag)
                if name and 'type="hidden"' in tag:
                    fields[html.unescape(name.group(1))] = html.unescape(value.group(1)) if value else ""
        return self.send("POST", action, fields | (extra or {}))
