"""A small, bounded load test of the site on loopback: public standings and results entry.

It builds a fresh database (SQLite file in a temporary folder, or a new PostgreSQL
database it drops afterwards) holding the demo tournament (``manage.py demo``: 40
players, round 4 in play) or a bigger one (``--players N``), starts gunicorn in
production mode bound to 127.0.0.1 on a free port, and drives concurrent clients
(threads + http.client, standard library only) for a fixed time on

  standings  GET /t/<slug>/standings/ as an anonymous visitor;
  results    logged-in arbiters (one session per client, CSRF token) posting results
             to the boards of the current round as htmx does, alternating 1-0 / 0-1,
             with ``expected`` set to the result the client last saw: a refusal because
             another client changed the board in between is a *conflict*, counted
             apart from HTTP errors.

Prints requests/s, latency p50/p95/max, HTTP errors and conflicts per scenario.

    .venv/bin/python benchmarks/load_site.py                          # SQLite, 2 workers, 8 clients, 10 s each
    .venv/bin/python benchmarks/load_site.py --db postgres --workers 3 --clients 16 --duration 20
    .venv/bin/python benchmarks/load_site.py --players 400 --scenario standings --json out.json

Bounds: loopback only (the server binds 127.0.0.1; --host must be a loopback address),
at most 60 s per scenario, 64 clients and 8 workers.
"""

from __future__ import annotations

import argparse
import http.client
import ipaddress
import json
import os
import re
import shutil
import signal
import socket
import statistics
import subprocess
import sys
import tempfile
import threading
import time
from dataclasses import dataclass, field
from pathlib import Path
from urllib.parse import urlencode

ROOT = Path(__file__).resolve().parents[1]
MAX_DURATION = 60.0
MAX_CLIENTS = 64
MAX_WORKERS = 8
DEMO_SLUG, DEMO_USER, DEMO_PASSWORD = "demo-open", "arbiter", "dubov-demo"
BIG_SLUG = "load-open"

# Run inside `manage.py shell` for --players N: a tournament with `played` complete
# rounds and the next one published with no results yet.
BIG_TOURNAMENT = """
import random
from django.contrib.auth import get_user_model
from pairing.services import rounds
from pairing.models import GameResult, Player, Tournament
from pairing.services.numbering import renumber
from pairing.services.results import record_result
from pairing.services.rounds import publish
n, played = {players}, {played}
user = get_user_model().objects.get(username="{user}")
t = Tournament.objects.create(slug="{slug}", name="Load Open", rounds=max(played + 2, 5), public=True, owner=user)
Player.objects.bulk_create(
    Player(tournament=t, name=f"Player {{i:05d}}", rating=2600 - (i * 1600) // n) for i in range(n)
)
renumber(t)
rng = random.Random(7)
for number in range(1, played + 2):
    rnd = rounds.pair_next_round(t, user)
    publish(rnd, user)
    if number <= played:
        for g in rnd.games():
            record_result(g, rng.choice([GameResult.WHITE_WINS, GameResult.DRAW, GameResult.BLACK_WINS]), user)
print("load tournament ready")
"""


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


# ---------------------------------------------------------------- the site under test


@dataclass
class Site:
    args: argparse.Namespace
    workdir: Path = field(default_factory=lambda: Path(tempfile.mkdtemp(prefix="dubov-load-")))
    pg_name: str | None = None
    server: subprocess.Popen | None = None
    port: int = 0

    @property
    def log_file(self) -> Path:
        return self.workdir / "gunicorn.log"

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
        return BIG_SLUG if self.args.players else DEMO_SLUG

    def env(self) -> dict[str, str]:
        env = {k: v for k, v in os.environ.items() if not k.startswith(("DJANGO_", "DATABASE_"))}
        env.update(
            DJANGO_DEBUG="false",
            DJANGO_SECRET_KEY="load-test-only-" + "x" * 40,
            DJANGO_ALLOWED_HOSTS=self.args.host,
            DJANGO_STATIC_ROOT=str(self.workdir / "static"),
            DJANGO_LOG_LEVEL="WARNING",
            DATABASE_URL=self.database_url,
            WEB_CONCURRENCY=str(self.args.workers),
        )
        if self.args.sqlite_immediate:
            # A variant of the settings, for comparison: SQLite write transactions take
            # the write lock at BEGIN, so they queue (busy timeout) instead of failing.
            (self.workdir / "load_settings.py").write_text(
                "from arbiter_site.settings import *  # noqa\n"
                "DATABASES['default'].setdefault('OPTIONS', {})['transaction_mode'] = 'IMMEDIATE'\n"
            )
            env["PYTHONPATH"] = os.pathsep.join(filter(None, [str(self.workdir), env.get("PYTHONPATH")]))
            env["DJANGO_SETTINGS_MODULE"] = "load_settings"
        return env

    def create_database(self) -> None:
        if self.args.db == "sqlite":
            self.database_url = f"sqlite:///{self.workdir / 'load.sqlite3'}"
            return
        import psycopg

        self.pg_name = f"dubov_load_{os.getpid()}"
        with psycopg.connect(self.args.pg_admin, autocommit=True, connect_timeout=5) as admin:
            admin.execute(f'DROP DATABASE IF EXISTS "{self.pg_name}" WITH (FORCE)')
            admin.execute(f'CREATE DATABASE "{self.pg_name}"')
        base = self.args.pg_admin.rsplit("/", 1)[0]
        self.database_url = f"{base}/{self.pg_name}"

    def manage(self, *argv: str, **extra_env: str) -> str:
        done = subprocess.run(
            [sys.executable, "manage.py", *argv], cwd=ROOT, env=self.env() | extra_env, capture_output=True, text=True
        )
        if done.returncode:
            raise SystemExit(f"load_site: manage.py {argv[0]} failed:\n{done.stderr[-2000:]}")
        return done.stdout

    def prepare(self) -> None:
        self.create_database()
        self.manage("migrate", "--noinput")
        self.manage("collectstatic", "--noinput", "--verbosity", "0")
        self.manage("demo", DJANGO_DEBUG="true")  # the demo runs on development copies only
        if self.args.players:
            code = BIG_TOURNAMENT.format(
                players=self.args.players, played=self.args.played, user=DEMO_USER, slug=BIG_SLUG
            )
            self.manage("shell", "-c", code)

    def start(self) -> None:
        self.port = free_port(self.args.host)
        bind = f"[{self.args.host}]:{self.port}" if ":" in self.args.host else f"{self.args.host}:{self.port}"
        gunicorn = Path(sys.executable).parent / "gunicorn"
        self._log = self.log_file.open("w")
        self.server = subprocess.Popen(
            [str(gunicorn), "arbiter_site.wsgi:application", "--bind", bind, "--workers", str(self.args.workers),
             "--log-level", "warning"],
            cwd=ROOT, env=self.env(), stdout=subprocess.DEVNULL, stderr=self._log,
        )
        deadline = time.monotonic() + 30
        while time.monotonic() < deadline:
            if self.server.poll() is not None:
                raise SystemExit(f"load_site: gunicorn exited:\n{self.log_file.read_text()[-2000:]}")
            try:
                status, _, _ = request(self.args.host, self.port, "GET", "/health/")
                if status == 200:
                    return
            except OSError:
                pass
            time.sleep(0.2)
        raise SystemExit("load_site: gunicorn did not answer /health/ within 30 s")

    def stop(self) -> None:
        if self.server and self.server.poll() is None:
            self.server.send_signal(signal.SIGTERM)
            try:
                self.server.wait(timeout=15)
            except subprocess.TimeoutExpired:
                self.server.kill()
                self.server.wait()
            self._log.close()
        if self.pg_name and not self.args.keep:
            import psycopg

            with psycopg.connect(self.args.pg_admin, autocommit=True, connect_timeout=5) as admin:
                admin.execute(f'DROP DATABASE IF EXISTS "{self.pg_name}" WITH (FORCE)')
        if self.args.keep:
            print(f"kept: {self.workdir} {self.pg_name or ''}")
        else:
            shutil.rmtree(self.workdir, ignore_errors=True)


# ---------------------------------------------------------------- HTTP


def base_headers(host: str, port: int) -> dict[str, str]:
    # Production settings: the site sits behind a TLS proxy, which says so in this header.
    netloc = f"[{host}]:{port}" if ":" in host else f"{host}:{port}"
    return {"Host": netloc, "X-Forwarded-Proto": "https"}


def request(host, port, method, path, headers=None, body=None, conn=None):
    """(status, headers dict, body text); reuses ``conn`` when given."""
    own = conn is None
    conn = conn or http.client.HTTPConnection(host, port, timeout=30)
    try:
        conn.request(method, path, body=body, headers={**base_headers(host, port), **(headers or {})})
        response = conn.getresponse()
        data = response.read().decode("utf-8", "replace")
        return response.status, {k.lower(): v for k, v in response.getheaders()} | {
            "set-cookie-all": response.headers.get_all("Set-Cookie") or []
        }, data
    finally:
        if own:
            conn.close()


class Session:
    """One client's cookies and connection (gunicorn's sync workers close after each reply)."""

    def __init__(self, host: str, port: int):
        self.host, self.port = host, port
        self.cookies: dict[str, str] = {}
        self.conn = http.client.HTTPConnection(host, port, timeout=30)

    def send(self, method: str, path: str, form: dict | None = None, extra: dict | None = None):
        headers = dict(extra or {})
        if self.cookies:
            headers["Cookie"] = "; ".join(f"{k}={v}" for k, v in self.cookies.items())
        body = None
        if form is not None:
            body = urlencode(form)
            headers["Content-Type"] = "application/x-www-form-urlencoded"
            headers["Origin"] = f"https://{base_headers(self.host, self.port)['Host']}"
            headers["X-CSRFToken"] = self.cookies.get("csrftoken", "")
        try:
            status, got, text = request(self.host, self.port, method, path, headers, body, self.conn)
        except (OSError, http.client.HTTPException):
            self.conn.close()
            self.conn = http.client.HTTPConnection(self.host, self.port, timeout=30)
            raise
        for cookie in got["set-cookie-all"]:
            name, _, rest = cookie.partition("=")
            self.cookies[name.strip()] = rest.split(";", 1)[0]
        return status, got, text

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


BOARD = re.compile(
    r'action="(?P<action>/t/[^"]+/round/\d+/game/\d+/result/)".*?name="expected" value="(?P<expected>[^"]*)"',
    re.S,
)


def current_round_boards(session: Session, slug: str) -> tuple[int, list[tuple[str, str]]]:
    status, _, page = session.send("GET", f"/t/{slug}/")
    numbers = [int(n) for n in re.findall(rf'href="/t/{slug}/round/(\d+)/"', page)]
    if status != 200 or not numbers:
        raise SystemExit(f"load_site: no published round in {slug} (HTTP {status})")
    number = max(numbers)
    status, _, page = session.send("GET", f"/t/{slug}/round/{number}/")
    boards = [(m.group("action"), m.group("expected")) for m in BOARD.finditer(page)]
    if status != 200 or not boards:
        raise SystemExit(f"load_site: no result forms on round {number} (HTTP {status})")
    return number, boards


# ---------------------------------------------------------------- load


@dataclass
class Tally:
    latencies: list[float] = field(default_factory=list)
    ok: int = 0
    http_errors: int = 0
    conflicts: int = 0
    refused: int = 0  # 200 with another message (should stay 0)
    exceptions: int = 0
    late: int = 0  # finished after the deadline (in flight when it passed)
    statuses: dict[int, int] = field(default_factory=dict)

    def merge(self, other: Tally) -> None:
        self.latencies += other.latencies
        for name in ("ok", "http_errors", "conflicts", "refused", "exceptions", "late"):
            setattr(self, name, getattr(self, name) + getattr(other, name))
        for code, count in other.statuses.items():
            self.statuses[code] = self.statuses.get(code, 0) + count


def run_clients(n: int, duration: float, make_client) -> tuple[Tally, float]:
    """n threads, each calling its step() until the deadline; (tally, seconds of the window).

    Requests still in flight at the deadline are waited for (and counted as ``late``,
    outside the rate) so that a slow or failed one is never lost."""
    clients = [make_client(i) for i in range(n)]
    tallies = [Tally() for _ in range(n)]
    start_gate = threading.Barrier(n + 1)
    deadline = [0.0]

    def loop(step, tally):
        start_gate.wait()
        while time.perf_counter() < deadline[0]:
            t0 = time.perf_counter()
            try:
                outcome, status = step()
            except (OSError, http.client.HTTPException):
                tally.exceptions += 1
                tally.http_errors += 1
                tally.late += time.perf_counter() > deadline[0]
                continue
            t1 = time.perf_counter()
            tally.late += t1 > deadline[0]
            tally.latencies.append(t1 - t0)
            tally.statuses[status] = tally.statuses.get(status, 0) + 1
            setattr(tally, outcome, getattr(tally, outcome) + 1)

    threads = [threading.Thread(target=loop, args=(c, t), daemon=True) for c, t in zip(clients, tallies, strict=True)]
    for th in threads:
        th.start()
    began = time.perf_counter()
    deadline[0] = began + duration
    start_gate.wait()
    for th in threads:
        th.join(duration + 60)
    elapsed = duration
    total = Tally()
    for t in tallies:
        total.merge(t)
    return total, elapsed


def standings_client(site: Site):
    def make(i):
        session = Session(site.args.host, site.port)
        path = f"/t/{site.slug}/standings/"

        def step():
            status, _, text = session.send("GET", path)
            good = status == 200 and 'id="standings"' in text
            return ("ok" if good else "http_errors"), status

        return step

    return make


def results_client(site: Site):
    lock = threading.Lock()
    prepared: dict = {}

    def make(i):
        session = Session(site.args.host, site.port)
        session.login(DEMO_USER, DEMO_PASSWORD)
        with lock:
            if "boards" not in prepared:
                prepared["round"], prepared["boards"] = current_round_boards(session, site.slug)
        boards = prepared["boards"]
        seen = {action: expected for action, expected in boards}  # this client's view of each board
        order = [action for action, _ in boards]
        position = [i * 7 % len(order)]  # clients start on different boards

        def step():
            action = order[position[0] % len(order)]
            position[0] += 1
            expected = seen[action]
            # always a change from what this client saw; clients differ in what they pick,
            # so a client whose view is stale is refused (a conflict), as a real arbiter is
            choices = [r for r in ("1-0", "1/2-1/2", "0-1") if r != expected]
            result = choices[(i + position[0]) % len(choices)]
            status, _, row = session.send(
                "POST", action, {"result": result, "expected": expected}, {"HX-Request": "true"}
            )
            if status != 200:
                return "http_errors", status
            now = re.search(r'name="expected" value="([^"]*)"', row)
            if now:
                seen[action] = now.group(1)
            if 'class="error"' in row:
                return ("conflicts" if "someone else" in row else "refused"), status
            return "ok", status

        return step

    return make


def percentile(values: list[float], q: float) -> float:
    if not values:
        return float("nan")
    if len(values) == 1:
        return values[0]
    return statistics.quantiles(values, n=100, method="inclusive")[q - 1]


def summary(name: str, tally: Tally, elapsed: float) -> dict:
    done = len(tally.latencies) + tally.exceptions
    return {
        "scenario": name,
        "requests": done,
        "seconds": round(elapsed, 2),
        "req_per_s": round((done - tally.late) / elapsed, 1) if elapsed else 0.0,
        "late": tally.late,
        "exceptions": tally.exceptions,
        "p50_ms": round(percentile(tally.latencies, 50) * 1000, 1),
        "p95_ms": round(percentile(tally.latencies, 95) * 1000, 1),
        "max_ms": round(max(tally.latencies, default=float("nan")) * 1000, 1),
        "ok": tally.ok,
        "http_errors": tally.http_errors,
        "conflicts": tally.conflicts,
        "refused": tally.refused,
        "statuses": {str(k): v for k, v in sorted(tally.statuses.items())},
    }


def main(argv: list[str] | None = None) -> int:
    parser = argparse.ArgumentParser(description=__doc__.split("\n\n")[0])
    parser.add_argument("--db", choices=["sqlite", "postgres"], default="sqlite")
    parser.add_argument("--pg-admin", default="postgres://postgres@127.0.0.1:5432/postgres",
                        help="PostgreSQL server (loopback) where a fresh database is created and dropped")
    parser.add_argument("--host", default="127.0.0.1", help="loopback address gunicorn binds (default 127.0.0.1)")
    parser.add_argument("--workers", type=int, default=2, help=f"gunicorn workers (max {MAX_WORKERS})")
    parser.add_argument("--clients", type=int, default=8, help=f"concurrent clients (max {MAX_CLIENTS})")
    parser.add_argument("--duration", type=float, default=10.0, help=f"seconds per scenario (max {MAX_DURATION:g})")
    parser.add_argument("--scenario", choices=["standings", "results", "both"], default="both")
    parser.add_argument("--players", type=int, default=0,
                        help="a bigger tournament of N players instead of the demo (max 2000)")
    parser.add_argument("--played", type=int, default=3, help="complete rounds of that tournament (default 3)")
    parser.add_argument("--sqlite-immediate", action="store_true",
                        help="SQLite only: run the site with transaction_mode IMMEDIATE (for comparison)")
    parser.add_argument("--json", type=Path, help="also write the figures to this file")
    parser.add_argument("--keep", action="store_true", help="keep the database and folder afterwards")
    args = parser.parse_args(argv)

    loopback_only(args.host)
    bounded(args.duration, MAX_DURATION, "--duration")
    bounded(args.clients, MAX_CLIENTS, "--clients")
    bounded(args.workers, MAX_WORKERS, "--workers")
    if args.players:
        bounded(args.players, 2000, "--players")
    if args.sqlite_immediate and args.db != "sqlite":
        raise SystemExit("load_site: --sqlite-immediate is for --db sqlite")
    if args.db == "postgres":
        import dj_database_url

        loopback_only(dj_database_url.parse(args.pg_admin).get("HOST") or "127.0.0.1")

    site = Site(args)
    results = []
    try:
        t0 = time.perf_counter()
        site.prepare()
        print(f"database ready ({args.db}, {site.slug}) in {time.perf_counter() - t0:.1f} s", flush=True)
        site.start()
        print(f"gunicorn on {args.host}:{site.port}, {args.workers} workers; "
              f"{args.clients} clients x {args.duration:g} s per scenario", flush=True)
        scenarios = ["standings", "results"] if args.scenario == "both" else [args.scenario]
        for name in scenarios:
            make = standings_client(site) if name == "standings" else results_client(site)
            before = site.server_errors()
            tally, elapsed = run_clients(args.clients, args.duration, make)
            results.append(summary(name, tally, elapsed))
            after = site.server_errors()
            results[-1]["server_errors"] = {k: v - before.get(k, 0) for k, v in after.items() if v > before.get(k, 0)}
    finally:
        site.stop()

    print("\n| scenario | db | workers | clients | requests | req/s | p50 ms | p95 ms | max ms | HTTP errors | conflicts |")
    print("|---|---|---:|---:|---:|---:|---:|---:|---:|---:|---:|")
    db_label = args.db + (" (IMMEDIATE)" if args.sqlite_immediate else "")
    for r in results:
        print(f"| {r['scenario']} | {db_label} | {args.workers} | {args.clients} | {r['requests']} | {r['req_per_s']} "
              f"| {r['p50_ms']} | {r['p95_ms']} | {r['max_ms']} | {r['http_errors']} | {r['conflicts']} |")
    for r in results:
        extra = f", refused {r['refused']}" if r["refused"] else ""
        extra += f", connection failures {r['exceptions']}" if r["exceptions"] else ""
        extra += f", {r['late']} finished after the deadline" if r["late"] else ""
        print(f"{r['scenario']}: status codes {r['statuses']}{extra}")
        for message, count in r["server_errors"].items():
            print(f"    server log: {count} x {message}")
    if args.json:
        meta = {"db": db_label, "workers": args.workers, "clients": args.clients, "duration": args.duration,
                "players": args.players or 40, "cpus": os.cpu_count()}
        args.json.write_text(json.dumps({"settings": meta, "results": results}, indent=2))
    return 1 if any(r["http_errors"] or r["refused"] for r in results) else 0


if __name__ == "__main__":
    sys.exit(main())
