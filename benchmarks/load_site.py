"""A bounded load test of the site on loopback: spectators, public standings, results entry.

It builds a fresh database (SQLite file in a temporary folder, or a new PostgreSQL
database it drops afterwards) holding the demo tournament (``manage.py demo``: 40
players, round 4 in play) or a bigger one (``--players N``, ``--played R``: the
tournament of ``benchmarks/big_field.py``, round R+1 in play with ``--pending`` boards
to go), starts gunicorn as the container does (``docker/gunicorn.conf.py``, production
mode) bound to 127.0.0.1 with the compose stack's nginx in front (``--proxy``; TLS,
``docker/nginx/nginx.conf``), and drives concurrent clients (threads + http.client,
standard library only) for a fixed time on

  standings  N anonymous clients: GET /t/<slug>/standings/, one after the other;
  results    N logged-in arbiters posting results to the boards of the current round as
             htmx does, with ``expected`` set to the result the client last saw: a
             refusal because another client changed the board in between is a
             *conflict*, counted apart from HTTP errors;
  crowd      N spectators following the tournament as a browser does (the home page,
             the standings and the current round's pairings, each polled as the page
             polls itself, ETags sent back), ``--think`` seconds between requests,
             while one arbiter enters the missing results of the round in play
             (``--arbiter-pause`` between them), then pairs and publishes the next round,
             and goes on with its results.

Prints requests/s and latency p50/p95/p99/max for each kind of request (spectators'
pages and polls, the arbiter's results, pairing and publishing), HTTP errors and
conflicts.

    .venv/bin/python benchmarks/load_site.py                          # SQLite, 2 workers, 8 clients, 10 s each
    .venv/bin/python benchmarks/load_site.py --db postgres --players 1000 --scenario standings --clients 50
    .venv/bin/python benchmarks/load_site.py --db postgres --players 1000 --scenario crowd --clients 200
    .venv/bin/python benchmarks/load_site.py --db postgres --players 9999 --played 40 --scenario crowd --clients 100

Bounds: loopback only (the server binds 127.0.0.1; --host must be a loopback address),
at most 60 s per scenario, 400 clients and 8 workers, 9,999 players (TRF's limit).
"""

from __future__ import annotations

import argparse
import http.client
import json
import os
import re
import statistics
import sys
import threading
import time
from dataclasses import dataclass, field
from pathlib import Path

sys.path.insert(0, str(Path(__file__).resolve().parent))

from load_stack import (  # noqa: E402
    Session,
    Site,
    bounded,
    loopback_only,
)

__all__ = ["loopback_only", "main"]

MAX_DURATION = 60.0
MAX_CLIENTS = 400
MAX_WORKERS = 8
MAX_PLAYERS = 9999


# ---------------------------------------------------------------- tallies


@dataclass
class Tally:
    """One kind of request (``standings``, ``poll``, ``result``...)."""

    latencies: list[float] = field(default_factory=list)
    ok: int = 0
    http_errors: int = 0
    conflicts: int = 0
    refused: int = 0  # 200 with another message (should stay 0)
    exceptions: int = 0
    late: int = 0  # finished after the deadline (in flight when it passed)
    statuses: dict[int, int] = field(default_factory=dict)
    cache: dict[str, int] = field(default_factory=dict)  # the site's X-Cache answers
    computed: list[float] = field(default_factory=list)  # latencies of the answers the app computed

    def merge(self, other: Tally) -> None:
        self.latencies += other.latencies
        self.computed += other.computed
        for name in ("ok", "http_errors", "conflicts", "refused", "exceptions", "late"):
            setattr(self, name, getattr(self, name) + getattr(other, name))
        for mine, theirs in ((self.statuses, other.statuses), (self.cache, other.cache)):
            for key, count in theirs.items():
                mine[key] = mine.get(key, 0) + count


class Tallies(dict):
    """Kind -> Tally, for one client (no lock needed)."""

    def __missing__(self, kind: str) -> Tally:
        self[kind] = Tally()
        return self[kind]


class Deadline:
    def __init__(self) -> None:
        self.at = float("inf")

    def passed(self) -> bool:
        return time.perf_counter() >= self.at


def timed(tallies: Tallies, kind: str, deadline: Deadline, call):
    """Run ``call()`` -> (outcome, status, headers, text); tally it under ``kind``."""
    tally = tallies[kind]
    t0 = time.perf_counter()
    try:
        outcome, status, headers, text = call()
    except (OSError, http.client.HTTPException):
        tally.exceptions += 1
        tally.http_errors += 1
        tally.late += deadline.passed()
        return None, "", ""
    tally.late += deadline.passed()
    tally.latencies.append(time.perf_counter() - t0)
    tally.statuses[status] = tally.statuses.get(status, 0) + 1
    # who answered: nginx from its copy ("proxy HIT"), else the app (its X-Cache: hit,
    # miss, wait, not-modified, unchanged, private)
    proxy = headers.get("x-proxy-cache", "")
    # (a response nginx revalidated carries the X-Cache of the copy it kept: nginx's answer)
    answer = f"proxy {proxy}" if proxy in ("HIT", "REVALIDATED", "UPDATING", "STALE") else headers.get("x-cache", "")
    if answer:
        tally.cache[answer] = tally.cache.get(answer, 0) + 1
    if answer == "miss":  # the first request after a change: the page computed
        tally.computed.append(tally.latencies[-1])
    setattr(tally, outcome, getattr(tally, outcome) + 1)
    return status, headers, text


def run_clients(n: int, duration: float, make_client, background=()) -> tuple[dict[str, Tally], float]:
    """n threads, each calling its step(tallies, deadline) until the deadline, and the
    ``background`` actors (functions of (tallies, deadline) that loop on their own) beside
    them; (tally per kind, seconds of the window).  Requests still in flight at the
    deadline are waited for (and counted as ``late``, outside the rate) so that a slow or
    failed one is never lost."""
    deadline = Deadline()
    clients = [make_client(i) for i in range(n)]
    tallies = [Tallies() for _ in range(n + len(background))]
    start_gate = threading.Barrier(n + len(background) + 1)

    def loop(step, tally):
        start_gate.wait()
        while not deadline.passed():
            step(tally, deadline)

    def actor(run, tally):
        start_gate.wait()
        run(tally, deadline)

    threads = [threading.Thread(target=loop, args=(c, t), daemon=True) for c, t in zip(clients, tallies, strict=False)]
    threads += [threading.Thread(target=actor, args=(b, t), daemon=True)
                for b, t in zip(background, tallies[n:], strict=True)]
    for th in threads:
        th.start()
    deadline.at = time.perf_counter() + duration
    start_gate.wait()
    for th in threads:
        th.join(duration + 120)
    total: dict[str, Tally] = {}
    for per_client in tallies:
        for kind, tally in per_client.items():
            total.setdefault(kind, Tally()).merge(tally)
    return total, duration


def source_address(i: int) -> str | None:
    """Visitors come from different loopback addresses (127.0.0.2-127.0.0.201) as phones
    do, so that nginx's limit of 100 requests in progress per address applies to each."""
    return f"127.0.0.{2 + i % 200}"


# ---------------------------------------------------------------- scenarios


def standings_client(site: Site):
    def make(i):
        session = Session(site, source_address(i) if site.args.host == "127.0.0.1" else None)
        path = f"/t/{site.slug}/standings/"

        def call():
            status, headers, text = session.send("GET", path)
            good = status == 200 and 'id="standings"' in text
            return ("ok" if good else "http_errors"), status, headers, text

        return lambda tallies, deadline: timed(tallies, "standings", deadline, call)

    return make


BOARD = re.compile(
    r'action="(?P<action>/t/[^"]+/round/\d+/game/\d+/result/)".*?name="expected" value="(?P<expected>[^"]*)"',
    re.S,
)


def current_round(session: Session, slug: str) -> int:
    status, _, page = session.send("GET", f"/t/{slug}/")
    numbers = [int(n) for n in re.findall(rf'href="/t/{slug}/round/(\d+)/"', page)]
    if status != 200 or not numbers:
        raise SystemExit(f"load_site: no published round in {slug} (HTTP {status})")
    return max(numbers)


def round_boards(session: Session, slug: str, number: int, pending: bool = False) -> list[tuple[str, str]]:
    """(action, result shown) of every board of the round, from the arbiter's page (and
    its further pages, when the page is split in pages); ``pending``: the boards still
    without a result, as the arbiter's page lists them (``?pending=1``; a site without
    that list shows every board, and the caller keeps the open ones)."""
    boards, path, seen = [], f"/t/{slug}/round/{number}/" + ("?pending=1" if pending else ""), set()
    while path and path not in seen:
        seen.add(path)
        status, _, page = session.send("GET", path)
        if status != 200:
            raise SystemExit(f"load_site: round {number} answered HTTP {status}")
        boards += [(m.group("action"), m.group("expected")) for m in BOARD.finditer(page)]
        more = re.search(r'<a [^>]*rel="next"[^>]*href="([^"]+)"|<a [^>]*href="([^"]+)"[^>]*rel="next"', page)
        path = (more.group(1) or more.group(2)).replace("&amp;", "&") if more else None
    return boards


def row_outcome(status: int, row: str) -> str:
    if status != 200:
        return "http_errors"
    if 'class="error"' in row:
        return "conflicts" if "someone else" in row else "refused"
    return "ok"


def results_client(site: Site):
    lock = threading.Lock()
    prepared: dict = {}

    def make(i):
        session = Session(site, role="arbiter")
        session.login(*site.login)
        with lock:
            if "boards" not in prepared:
                prepared["boards"] = round_boards(session, site.slug, current_round(session, site.slug))
                if not prepared["boards"]:
                    raise SystemExit("load_site: no result forms on the current round")
        boards = prepared["boards"]
        seen = {action: expected for action, expected in boards}  # this client's view of each board
        order = [action for action, _ in boards]
        position = [i * 7 % len(order)]  # clients start on different boards

        def call():
            action = order[position[0] % len(order)]
            position[0] += 1
            expected = seen[action]
            # always a change from what this client saw; clients differ in what they pick,
            # so a client whose view is stale is refused (a conflict), as a real arbiter is
            choices = [r for r in ("1-0", "1/2-1/2", "0-1") if r != expected]
            result = choices[(i + position[0]) % len(choices)]
            status, headers, row = session.send(
                "POST", action, {"result": result, "expected": expected}, {"HX-Request": "true"}
            )
            now = re.search(r'name="expected" value="([^"]*)"', row)
            if now:
                seen[action] = now.group(1)
            return row_outcome(status, row), status, headers, row

        return lambda tallies, deadline: timed(tallies, "result", deadline, call)

    return make


LIVE = re.compile(r'id="live"[^>]*\bhx-get="([^"]+)"|\bhx-get="([^"]+)"[^>]*id="live"')


def poll_path(page: str) -> str | None:
    """Where the page's self-refreshing part polls (None: it does not poll)."""
    m = LIVE.search(page)
    return (m.group(1) or m.group(2)).replace("&amp;", "&") if m else None


def arrival_offset(i: int, clients: int, think: float, stagger: bool) -> float:
    """Seconds spectator i waits before its first request: 0 for all (they arrive at
    once, the worst case) or, with ``--stagger``, spread evenly over one ``--think``
    pause, as the polls of pages opened at different moments are."""
    return (i % clients) / clients * think if stagger and clients else 0.0


def spectator_client(site: Site):
    """A visitor following the tournament: the home page, then the standings polled as
    the page polls itself (``--polls`` times), the home page again, the round in play's
    pairings polled, and so on.  ETags come back as a browser's cache sends them; a poll
    answered 286 (nothing in play any more) ends that page's polling."""
    args = site.args

    def make(i):
        session = Session(site, source_address(i) if args.host == "127.0.0.1" else None)
        state = {"page": None, "poll": None, "polls": 0, "next": "standings" if i % 2 else "round",
                 "late": arrival_offset(i, args.clients, args.think, args.stagger)}

        def get(kind, path, extra=None):
            def call():
                status, headers, text = session.send("GET", path, extra=extra, conditional=True)
                good = status in (200, 204, 286, 304)
                return ("ok" if good else "http_errors"), status, headers, text

            return call

        def step(tallies, deadline):
            if state["late"]:
                time.sleep(min(state["late"], max(0.0, deadline.at - time.perf_counter())))
                state["late"] = 0.0
                return
            if state["poll"] is None or state["polls"] >= args.polls:
                status, _, text = timed(tallies, "home", deadline, get("home", f"/t/{site.slug}/"))
                numbers = [int(n) for n in re.findall(rf'href="/t/{site.slug}/round/(\d+)/"', text or "")]
                kind = state["next"]
                state["next"] = "round" if kind == "standings" else "standings"
                path = f"/t/{site.slug}/standings/" if kind == "standings" or not numbers else \
                    f"/t/{site.slug}/round/{max(numbers)}/"
                pause(deadline)
                status, _, text = timed(tallies, kind, deadline, get(kind, path))
                state["page"], state["polls"] = path, 0
                state["poll"] = poll_path(text) if status == 200 else state["poll"] if status == 304 else None
                if state["poll"] is None:  # a page that does not poll: read it, then move on
                    state["polls"] = args.polls
                pause(deadline)
                return
            status, _, text = timed(tallies, "poll", deadline, get("poll", state["poll"], {"HX-Request": "true"}))
            state["polls"] += 1
            if status == 286:
                state["polls"] = args.polls
            elif status == 200 and text:
                state["poll"] = poll_path(text) or state["poll"]
            pause(deadline)

        def pause(deadline):
            if args.think:
                time.sleep(min(args.think, max(0.0, deadline.at - time.perf_counter())))

        return step

    return make


def arbiter_actor(site: Site):
    """The chief arbiter at the desk: the missing results of the round in play, one by
    one; then the next round paired, its draft looked at and published; and so on."""
    args = site.args
    slug = site.slug
    session = Session(site, role="arbiter")
    session.login(*site.login)  # before the clock starts, as the clients' sessions are made

    def run(tallies, deadline):
        while not deadline.passed():
            number = current_round(session, slug)
            pending = [action for action, shown in round_boards(session, slug, number, pending=True) if not shown]
            for k, action in enumerate(pending):
                if deadline.passed():
                    return

                def post(action=action, k=k):
                    result = ("1-0", "1/2-1/2", "0-1")[k % 3]
                    status, headers, row = session.send(
                        "POST", action, {"result": result, "expected": ""}, {"HX-Request": "true"})
                    return row_outcome(status, row), status, headers, row

                timed(tallies, "result", deadline, post)
                time.sleep(args.arbiter_pause)
            if deadline.passed():
                return

            def pair():
                status, headers, text = session.submit(session.send("GET", f"/t/{slug}/")[2], f"/t/{slug}/pair/")
                return ("ok" if status == 302 else "http_errors"), status, headers, text

            status, headers, _ = timed(tallies, "pair", deadline, pair)
            if status != 302:
                return
            draft = headers.get("location", "")
            draft = draft.split("://", 1)[-1].split("/", 1)[-1] if "://" in draft else draft.lstrip("/")
            draft = "/" + draft

            def page(path=draft):
                status, headers, text = session.send("GET", path)
                return ("ok" if status == 200 else "http_errors"), status, headers, text

            status, _, text = timed(tallies, "draft page", deadline, page)
            publish = re.search(r'action="(/t/[^"]+/round/\d+/publish/)"', text or "")
            if not publish:
                return

            action = publish.group(1)

            def post_publish(text=text, action=action):
                status, headers, body = session.submit(text, action)
                return ("ok" if status == 302 else "http_errors"), status, headers, body

            timed(tallies, "publish", deadline, post_publish)
            time.sleep(args.arbiter_pause)

    return run


# ---------------------------------------------------------------- report


def percentile(values: list[float], q: int) -> float:
    if not values:
        return float("nan")
    if len(values) == 1:
        return values[0]
    return statistics.quantiles(values, n=100, method="inclusive")[q - 1]


def summary(scenario: str, kind: str, tally: Tally, elapsed: float) -> dict:
    done = len(tally.latencies) + tally.exceptions
    ms = lambda v: round(v * 1000, 1)  # noqa: E731
    return {
        "scenario": scenario,
        "kind": kind,
        "requests": done,
        "seconds": round(elapsed, 2),
        "req_per_s": round((done - tally.late) / elapsed, 1) if elapsed else 0.0,
        "late": tally.late,
        "exceptions": tally.exceptions,
        "p50_ms": ms(percentile(tally.latencies, 50)),
        "p95_ms": ms(percentile(tally.latencies, 95)),
        "p99_ms": ms(percentile(tally.latencies, 99)),
        "max_ms": ms(max(tally.latencies, default=float("nan"))),
        "ok": tally.ok,
        "http_errors": tally.http_errors,
        "conflicts": tally.conflicts,
        "refused": tally.refused,
        "statuses": {str(k): v for k, v in sorted(tally.statuses.items())},
        "cache": dict(sorted(tally.cache.items())),
        "computed": len(tally.computed),
        "computed_p50_ms": ms(percentile(tally.computed, 50)),
        "computed_max_ms": ms(max(tally.computed, default=float("nan"))),
    }


def warm_up(site: Site) -> list[tuple[str, float]]:
    """The spectators' pages asked once each, as a visitor: (path, seconds)."""
    visitor = Session(site)
    done = []
    for path in (f"/t/{site.slug}/", f"/t/{site.slug}/standings/", "round"):
        if path == "round":  # the round in play, read from the home page (in the cache now)
            path = f"/t/{site.slug}/round/{current_round(visitor, site.slug)}/"
        start = time.perf_counter()
        status, _, _ = visitor.send("GET", path)
        if status != 200:
            raise SystemExit(f"load_site: warming up, {path} answered HTTP {status}")
        done.append((path, time.perf_counter() - start))
    return done


def app_summary(scenario: str, kind: str, ms: list[float]) -> dict:
    return {"scenario": scenario, "kind": kind, "requests": len(ms), "p50_ms": round(percentile(ms, 50), 1),
            "p95_ms": round(percentile(ms, 95), 1), "p99_ms": round(percentile(ms, 99), 1),
            "max_ms": round(max(ms), 1)}


def load_average() -> str:
    try:
        return " ".join(f"{x:.2f}" for x in os.getloadavg())
    except OSError:
        return "?"


def arguments(argv: list[str] | None = None) -> argparse.Namespace:
    """The command line (tests/hosting/test_proxy_cache.py starts its site with it too)."""
    parser = argparse.ArgumentParser(description=__doc__.split("\n\n")[0])
    parser.add_argument("--db", choices=["sqlite", "postgres"], default="sqlite")
    parser.add_argument("--pg-admin", default="postgres://postgres@127.0.0.1:5432/postgres",
                        help="PostgreSQL server (loopback) where a fresh database is created and dropped")
    parser.add_argument("--host", default="127.0.0.1", help="loopback address the servers bind (default 127.0.0.1)")
    parser.add_argument("--proxy", choices=["auto", "yes", "no"], default="auto",
                        help="nginx with docker/nginx/nginx.conf in front (auto: when nginx is installed)")
    parser.add_argument("--workers", type=int, default=2, help=f"gunicorn workers (max {MAX_WORKERS})")
    parser.add_argument("--clients", type=int, default=8,
                        help=f"concurrent clients; spectators in the crowd scenario (max {MAX_CLIENTS})")
    parser.add_argument("--duration", type=float, default=10.0, help=f"seconds per scenario (max {MAX_DURATION:g})")
    parser.add_argument("--scenario", choices=["standings", "results", "crowd", "both"], default="both",
                        help="both: standings then results")
    parser.add_argument("--players", type=int, default=0,
                        help=f"a tournament of N players instead of the demo (max {MAX_PLAYERS})")
    parser.add_argument("--played", type=int, default=3, help="complete rounds of that tournament (default 3)")
    parser.add_argument("--pending", type=int, default=40,
                        help="boards of its round in play still without a result (default 40)")
    parser.add_argument("--think", type=float, default=0.0, help="crowd: a spectator's pause between requests (s)")
    parser.add_argument("--stagger", action="store_true",
                        help="crowd: spectators arrive spread evenly over one --think pause, not all at once")
    parser.add_argument("--polls", type=int, default=5, help="crowd: polls of a page before the visitor moves on")
    parser.add_argument("--arbiter-pause", type=float, default=0.5, help="crowd: the arbiter's pause between acts (s)")
    parser.add_argument("--env", action="append", metavar="NAME=VALUE",
                        help="an environment variable for the site (e.g. REDIS_URL=redis://127.0.0.1:6379/0)")
    parser.add_argument("--sqlite-immediate", action="store_true",
                        help="SQLite only: run the site with transaction_mode IMMEDIATE (for comparison)")
    parser.add_argument("--db-name", metavar="NAME",
                        help="PostgreSQL: the name of the fresh database (default dubov_load_<pid>); one of that "
                             "name is dropped first")
    parser.add_argument("--reuse-db", metavar="NAME",
                        help="PostgreSQL: a database prepared earlier (e.g. by --keep or bench_big_field.py --keep), "
                             "migrated and used as it is, never dropped")
    parser.add_argument("--slug", help="with --reuse-db: the tournament (default load-open)")
    parser.add_argument("--user", help="with --reuse-db: the arbiter's account (default the demo's)")
    parser.add_argument("--password", help="with --reuse-db: its password")
    parser.add_argument("--warm", action="store_true",
                        help="before the clock starts, ask for the home page, the standings and the round in play "
                             "once each as a visitor (the figures then start from a warm cache)")
    parser.add_argument("--json", type=Path, help="also write the figures to this file")
    parser.add_argument("--keep", action="store_true", help="keep the database and folder afterwards")
    parser.add_argument("--app", type=Path, metavar="DIR",
                        help="run the site of another checkout of this repository (e.g. a git worktree of an "
                             "older commit, for a before-and-after): its manage.py, gunicorn configuration and "
                             "code; the clients, big_field.py and the proxy's nginx.conf stay this one's")
    return parser.parse_args(argv)


def main(argv: list[str] | None = None) -> int:
    args = arguments(argv)

    loopback_only(args.host)
    bounded(args.duration, MAX_DURATION, "--duration")
    bounded(args.clients, MAX_CLIENTS, "--clients")
    bounded(args.workers, MAX_WORKERS, "--workers")
    if args.players:
        bounded(args.players, MAX_PLAYERS, "--players")
    if args.db_name and not re.fullmatch(r"[a-z][a-z0-9_]{0,62}", args.db_name):
        raise SystemExit("load_site: --db-name takes lower-case letters, digits and _")
    if args.reuse_db and args.db != "postgres":
        raise SystemExit("load_site: --reuse-db is for --db postgres")
    if args.sqlite_immediate and args.db != "sqlite":
        raise SystemExit("load_site: --sqlite-immediate is for --db sqlite")
    if args.app and not (args.app / "manage.py").is_file():
        raise SystemExit(f"load_site: --app {args.app}: no manage.py there")
    if args.db == "postgres":
        import dj_database_url

        loopback_only(dj_database_url.parse(args.pg_admin).get("HOST") or "127.0.0.1")

    site = Site(args)
    results = []
    app_rows = []
    loads = []
    try:
        t0 = time.perf_counter()
        site.prepare()
        print(f"database ready ({args.db}, {site.slug}) in {time.perf_counter() - t0:.1f} s", flush=True)
        site.start()
        front = f"nginx (TLS) on {args.host}:{site.port} -> " if site.tls else ""
        print(f"{front}gunicorn on {args.host}:{site.app_port}, {args.workers} workers; "
              f"{args.clients} clients x {args.duration:g} s per scenario", flush=True)
        if args.warm:
            for path, seconds in warm_up(site):
                print(f"warm-up: {path} answered in {seconds:.1f} s", flush=True)
        scenarios = ["standings", "results"] if args.scenario == "both" else [args.scenario]
        for name in scenarios:
            before = site.server_errors()
            offset = site.access_log.stat().st_size if site.access_log.exists() else 0
            loads.append(f"{name}: load average before {load_average()}")
            if name == "crowd":
                tallies, elapsed = run_clients(args.clients, args.duration, spectator_client(site),
                                               background=[arbiter_actor(site)])
            else:
                make = standings_client(site) if name == "standings" else results_client(site)
                tallies, elapsed = run_clients(args.clients, args.duration, make)
            loads[-1] += f", after {load_average()}"
            after = site.server_errors()
            errors = {k: v - before.get(k, 0) for k, v in after.items() if v > before.get(k, 0)}
            for kind, tally in sorted(tallies.items()):
                results.append(summary(name, kind, tally, elapsed) | {"server_errors": errors})
            time.sleep(1.5)  # gunicorn writes its log lines a moment after the answers
            _, times = site.app_times(offset)
            app_rows += [app_summary(name, kind, ms) for kind, ms in sorted(times.items())]
    finally:
        site.stop()

    db_label = args.db + (" (IMMEDIATE)" if args.sqlite_immediate else "")
    via = "nginx" if site.tls else "gunicorn"
    described = args.reuse_db or (f"{args.players} players, {args.played} rounds" if args.players else "the demo (40 players)")
    if args.app:
        described = f"the site of {args.app}: {described}"
    print(f"\n{described}; {db_label}; {args.workers} workers; via {via}; cpus {os.cpu_count()}")
    print("| scenario | kind | requests | req/s | p50 ms | p95 ms | p99 ms | max ms | HTTP errors | conflicts |")
    print("|---|---|---:|---:|---:|---:|---:|---:|---:|---:|")
    for r in results:
        print(f"| {r['scenario']} | {r['kind']} | {r['requests']} | {r['req_per_s']} | {r['p50_ms']} | {r['p95_ms']} "
              f"| {r['p99_ms']} | {r['max_ms']} | {r['http_errors']} | {r['conflicts']} |")
    if app_rows:
        print("\nInside the app (gunicorn's access log: the proxy's answers and the clients' own waits left out)")
        print("| scenario | kind | requests | p50 ms | p95 ms | p99 ms | max ms |")
        print("|---|---|---:|---:|---:|---:|---:|")
        for r in app_rows:
            print(f"| {r['scenario']} | {r['kind']} | {r['requests']} | {r['p50_ms']} | {r['p95_ms']} | {r['p99_ms']} "
                  f"| {r['max_ms']} |")
    for r in results:
        extra = f", refused {r['refused']}" if r["refused"] else ""
        extra += f", connection failures {r['exceptions']}" if r["exceptions"] else ""
        extra += f", {r['late']} finished after the deadline" if r["late"] else ""
        extra += f", X-Cache {r['cache']}" if r["cache"] else ""
        if r["computed"]:
            extra += (f"; computed by the app {r['computed']} times: p50 {r['computed_p50_ms']} ms, "
                      f"max {r['computed_max_ms']} ms")
        print(f"{r['scenario']} {r['kind']}: status codes {r['statuses']}{extra}")
    shown = set()
    for r in results:
        for message, count in r["server_errors"].items():
            if (r["scenario"], message) not in shown:
                shown.add((r["scenario"], message))
                print(f"    {r['scenario']}: server log: {count} x {message}")
    for line in loads:
        print(line)
    if args.json:
        meta = {"db": db_label, "workers": args.workers, "clients": args.clients, "duration": args.duration,
                "players": args.players or 40, "played": args.played, "via": via, "think": args.think, "stagger": args.stagger,
                "cpus": os.cpu_count(), "load_average": loads, "app": str(args.app or ""), "warm": args.warm}
        args.json.write_text(json.dumps({"settings": meta, "results": results, "app": app_rows}, indent=2))
    return 1 if any(r["http_errors"] or r["refused"] for r in results) else 0


if __name__ == "__main__":
    sys.exit(main())
