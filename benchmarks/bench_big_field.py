"""Every arbiter and public page of a big tournament: time after a change, and size.

    .venv/bin/python benchmarks/bench_big_field.py --db postgres --players 10000 --played 40
    .venv/bin/python benchmarks/bench_big_field.py --players 1000 --played 9 --only public

Builds a throw-away database (SQLite in a temporary folder, or a new PostgreSQL database
``dubov_bigfield_<pid>`` on 127.0.0.1, dropped afterwards unless ``--keep``) holding the
tournament of ``benchmarks/big_field.py`` (N players, R rounds played, round R+1 in play
with ``--pending`` boards to go), then for each page, through Django's test Client with
production settings (``DEBUG`` off, the configured cache):

  cold    the first request of the run (nothing computed yet);
  first   the first request after a change made through the services just before it
          (``--change result``: a result of the round in play, as an arbiter enters it;
          ``--change rating``: a player's rating corrected, which every figure may
          depend on, so nothing computed earlier holds);
  its CPU this process's CPU time for the first request (the database's is not in it:
          on a busy machine the wall time is mostly waiting, this is the work);
  again   the same request at once (what a cache keeps: the second visitor's wait);
  KB      the size of the body; queries of the first request.

Public pages are asked as an anonymous visitor, arbiter pages as the chief arbiter.  The
wall time covers everything the request does (routing, access, queries, tie-breaks,
template).  Not part of the test run; no timing is asserted anywhere.
"""

from __future__ import annotations

import argparse
import json
import os
import sys
import tempfile
import time
import warnings
from pathlib import Path

ROOT = Path(__file__).resolve().parents[1]
sys.path.insert(0, str(ROOT))
sys.path.insert(0, str(ROOT / "benchmarks"))


def configure(folder: str, db: str, pg_admin: str, reuse: str | None) -> str | None:
    warnings.filterwarnings("ignore", message="No directory at")  # no collectstatic here
    pg_name = None
    if db == "postgres":
        import psycopg

        pg_name = reuse or f"dubov_bigfield_{os.getpid()}"
        if not reuse:
            with psycopg.connect(pg_admin, autocommit=True, connect_timeout=5) as admin:
                admin.execute(f'CREATE DATABASE "{pg_name}"')
        os.environ["DATABASE_URL"] = f"{pg_admin.rsplit('/', 1)[0]}/{pg_name}"
    else:
        os.environ["DATABASE_URL"] = f"sqlite:///{folder}/bench.sqlite3"
    # the site's settings, but static files without collectstatic's manifest
    Path(folder, "bench_settings.py").write_text(
        "from arbiter_site.settings import *  # noqa\n"
        "STORAGES['staticfiles'] = {'BACKEND': 'django.contrib.staticfiles.storage.StaticFilesStorage'}\n"
    )
    sys.path.insert(0, folder)
    os.environ["DJANGO_SETTINGS_MODULE"] = "bench_settings"
    os.environ["DJANGO_DEBUG"] = "false"  # production templates and no query log
    os.environ["DJANGO_SECRET_KEY"] = "benchmark-only-" + "x" * 40
    os.environ["DJANGO_ALLOWED_HOSTS"] = "testserver"
    os.environ["DJANGO_SECURE_SSL_REDIRECT"] = "false"
    os.environ.setdefault("DJANGO_LOG_LEVEL", "WARNING")
    import django

    django.setup()
    from django.core.management import call_command

    call_command("migrate", verbosity=0)
    return pg_name


def pages(t, in_play: int) -> list[tuple[str, str, str]]:
    """(who, name, url): who is "public" (anonymous) or "arbiter" (the chief arbiter)."""
    from django.urls import reverse

    def u(name, *args, query=""):
        return reverse(f"pairing:{name}", args=[t.slug, *args]) + query

    done = in_play - 1
    public = [
        ("home", u("tournament")),
        (f"standings after round {done}", u("standings")),
        ("standings after round 1", u("standings", query="?round=1")),
        ("standings CSV", u("standings_csv")),
        ("crosstable", u("crosstable")),
        (f"round {in_play} (in play) by board", u("round", in_play)),
        (f"round {in_play} by name", u("round", in_play, query="?by=name")),
        ("ARO list", u("aro")),
        *_chart(u),
        ("player card (No 1)", u("player_card", 1)),
    ]
    arbiter = [
        ("dashboard", reverse("pairing:dashboard")),
        ("overview", u("tournament")),
        ("players", u("players")),
        (f"round {in_play}: results entry", u("round", in_play)),
        ("standings", u("standings")),
        ("crosstable", u("crosstable")),
        ("ARO list", u("aro")),
        *_chart(u),
        ("byes (next round)", u("absences")),
        ("byes grid", u("byes_grid")),
        ("tie details", u("tie_details")),
        ("forbidden pairs", u("forbidden_pairs")),
        ("audit trail", u("audit")),
        ("settings", u("settings")),
        ("FIDE mode", u("fide_mode")),
        ("TRF export", u("trf_export")),
    ]
    return [("public", n, x) for n, x in public] + [("arbiter", n, x) for n, x in arbiter]


def change(t, flip: list[int], kind: str):
    """A change through the services, as an arbiter makes it: ``result`` enters (or
    changes) a result of the round in play; ``rating`` corrects a player's rating by a
    point (which every standings figure may depend on)."""
    from pairing.models import Game, GameResult, Player
    from pairing.services.players import change_player
    from pairing.services.results import record_result

    flip[0] += 1
    if kind == "result":
        game = Game.objects.filter(round__tournament=t).order_by("-round__number", "-board").first()
        result = GameResult.BLACK_WINS if game.result == GameResult.WHITE_WINS else GameResult.WHITE_WINS
        record_result(game, result, t.owner)
        return
    p = Player.objects.filter(tournament=t).order_by("-tpn").first()
    before = p.audit_values()

    def save():
        p.rating += 1 if flip[0] % 2 else -1
        p.save()
        return p

    change_player(t, p, save, t.owner, before, confirmations=2)


def timed(client, url: str) -> tuple[float, object]:
    start, cpu = time.perf_counter(), time.process_time()
    response = client.get(url)
    took = time.perf_counter() - start
    response.cpu = time.process_time() - cpu  # this process's CPU (the database's apart)
    assert response.status_code == 200, (url, response.status_code)
    return took, response


def measure(client, url: str, before) -> dict:
    """cold: the first request of the run; first: after a change; again: at once after."""
    from django.db import connection, reset_queries
    from django.test.utils import CaptureQueriesContext

    cold, _ = timed(client, url)
    before()
    reset_queries()  # the request resets the log when it starts: start the count at 0
    with CaptureQueriesContext(connection) as ctx:
        first, response = timed(client, url)
        queries = len(ctx.captured_queries)  # now: the next request empties the log
    again, _ = timed(client, url)
    return {"cold_ms": round(cold * 1000), "first_ms": round(first * 1000), "first_cpu_ms": round(response.cpu * 1000),
            "again_ms": round(again * 1000), "kb": round(len(response.content) / 1024), "queries": queries}


def _chart(url) -> list[tuple[str, str]]:
    """The ARO chart's page, where the site has one (its own page since the ARO list of
    2a98d8f, which drew it at its foot; ``--app`` of an older checkout has none)."""
    from django.urls import NoReverseMatch

    try:
        return [("ARO chart", url("aro_spread"))]
    except NoReverseMatch:
        return []


def arbiter_round(t, client, worker: bool = False) -> list[dict]:
    """The arbiter's round at this size, each step timed through the views: the missing
    results (the last one timed), the first visitor's standings and ARO list once the
    round is complete (``worker``: after the work the result queued for the worker, run
    here as the worker runs it and timed), pairing the next round (the engine and the
    draft stored), the draft page, publishing, the published round's page, and the first
    visitor's round, standings and ARO list after publishing."""
    from django.test import Client
    from django.urls import reverse

    from pairing.models import Game, GameResult

    rows = []

    def step(name, method, url, data=None, expect=(200,), who="arbiter", via=client):
        start = time.perf_counter()
        response = via.post(url, data or {}) if method == "POST" else via.get(url)
        took = time.perf_counter() - start
        assert response.status_code in expect, (name, response.status_code)
        row = {"who": who, "page": name, "url": url, "cold_ms": None, "first_ms": round(took * 1000),
               "again_ms": None, "kb": round(len(response.content) / 1024), "queries": None}
        rows.append(row)
        print(f"| {who} | {name} | | {row['first_ms']} ms | | | {row['kb']:,} | |", flush=True)
        return response

    pending = list(Game.objects.filter(round__tournament=t, result="").select_related("round").order_by("board"))
    for g in pending:
        url = reverse("pairing:game_result", args=[t.slug, g.round.number, g.pk])
        if g is pending[-1]:  # the one that completes the round
            step(f"result, board {g.board} of round {g.round.number}", "POST", url,
                 {"result": GameResult.DRAW, "expected": ""}, expect=(302,))
        else:
            client.post(url, {"result": GameResult.DRAW, "expected": ""})
    if worker:
        from django_tasks_db.models import DBTaskResult

        from pairing import tasks

        start = time.perf_counter()
        queued = DBTaskResult.objects.filter(task_path="pairing.tasks.compute_ahead", status="READY")
        done = [tasks.compute_ahead.call(*task.args_kwargs["args"]) for task in queued]
        took = time.perf_counter() - start
        rows.append({"who": "worker", "page": f"pages computed ahead ({len(done)} task): {', '.join(done[0]) if done else ''}",
                     "url": "", "cold_ms": None, "first_ms": round(took * 1000), "again_ms": None, "kb": 0,
                     "queries": None})
        print(f"| worker | {rows[-1]['page']} | | {rows[-1]['first_ms']} ms | | | | |", flush=True)
    visitor = Client()
    for name, url in (("standings", reverse("pairing:standings", args=[t.slug])),
                      ("ARO list", reverse("pairing:aro", args=[t.slug])),
                      *_chart(lambda name: reverse(f"pairing:{name}", args=[t.slug]))):
        step(f"{name} (the round just complete)", "GET", url, who="public", via=visitor)
    response = step("pair the next round (engine, draft stored)", "POST", reverse("pairing:pair_next", args=[t.slug]),
                    expect=(302,))
    draft = response["Location"]
    step("the draft page", "GET", draft)
    number = int(draft.rstrip("/").rsplit("/", 1)[1])
    step(f"publish round {number}", "POST", reverse("pairing:round_publish", args=[t.slug, number]), expect=(302,))
    step(f"round {number}: results entry", "GET", reverse("pairing:round", args=[t.slug, number]))
    # what the crowd asks the minute the round is out: each page's first request after
    # publishing, as an anonymous visitor
    visitor = Client()
    for name, url in ((f"round {number} by board", reverse("pairing:round", args=[t.slug, number])),
                      ("standings", reverse("pairing:standings", args=[t.slug])),
                      ("ARO list", reverse("pairing:aro", args=[t.slug])),
                      *_chart(lambda name: reverse(f"pairing:{name}", args=[t.slug]))):
        step(f"{name} (after publishing)", "GET", url, who="public", via=visitor)
    return rows


def main() -> None:
    parser = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    parser.add_argument("--db", choices=["sqlite", "postgres"], default="sqlite")
    parser.add_argument("--pg-admin", default="postgres://postgres@127.0.0.1:5432/postgres")
    parser.add_argument("--players", type=int, default=1000)
    parser.add_argument("--played", type=int, default=9, help="complete rounds; the next one is in play")
    parser.add_argument("--pending", type=int, default=50)
    parser.add_argument("--only", choices=["public", "arbiter"], help="only these pages")
    parser.add_argument("--page", help="only the pages whose name has this text (\"ARO list\", \"standings\")")
    parser.add_argument("--change", choices=["result", "rating"], default="result",
                        help="the change before each page: a result of the round in play (default), or a "
                             "player's rating")
    parser.add_argument("--keep", action="store_true", help="keep the PostgreSQL database (its name is printed)")
    parser.add_argument("--reuse", help="a PostgreSQL database kept by --keep: skip the building")
    parser.add_argument("--round", action="store_true",
                        help="then the arbiter's round: the last results, pair the next round, its draft page, "
                             "publish, its page (changes the database: the next run has one more round)")
    parser.add_argument("--worker", action="store_true",
                        help="with --round: once the last result is in, run the work it queued for the worker "
                             "(the pages computed ahead) before the first visitor asks, and time it")
    parser.add_argument("--json", type=Path, help="also write the figures here")
    parser.add_argument("--app", type=Path, metavar="DIR",
                        help="the site of another checkout of this repository (an older commit's worktree, for a "
                             "before-and-after): its code serves the pages")
    args = parser.parse_args()
    if args.app:
        sys.path.insert(0, str(args.app.resolve()))
    with tempfile.TemporaryDirectory() as folder:
        pg_name = configure(folder, args.db, args.pg_admin, args.reuse)
        try:
            run(args)
        finally:
            if pg_name and not args.keep and not args.reuse:
                from django.db import connections

                connections.close_all()
                import psycopg

                with psycopg.connect(args.pg_admin, autocommit=True, connect_timeout=5) as admin:
                    admin.execute(f'DROP DATABASE IF EXISTS "{pg_name}" WITH (FORCE)')
            elif pg_name:
                print(f"kept database {pg_name} (--reuse {pg_name})")


def python_speed() -> float:
    """Seconds for a plain Python loop of 10 million additions (the best of three): the
    machines of one kind differ by up to two and a half times (docs/scaling.md), and this
    figure beside the others tells how fast the one that measured them was."""
    best = float("inf")
    for _ in range(3):
        start, total = time.perf_counter(), 0
        for i in range(10_000_000):
            total += i
        best = min(best, time.perf_counter() - start)
    return best


def run(args) -> None:
    from big_field import analyze, build
    from django.contrib.auth import get_user_model
    from django.test import Client

    from pairing.models import Tournament

    slug = "big-open"
    if args.reuse:
        t = Tournament.objects.get(slug=slug)
    else:
        start = time.perf_counter()
        get_user_model().objects.create_user("bench", password="bench-only-password")
        t = build(args.players, args.played, args.pending, slug, "bench")
        print(f"built {args.players:,} players x {args.played} rounds in {time.perf_counter() - start:.1f} s")
    if args.reuse:
        analyze()  # a database kept before the builds did it themselves
    in_play = t.round_set.order_by("-number").first().number
    anonymous, arbiter = Client(), Client()
    arbiter.force_login(t.owner)
    flip = [0]
    rows = []
    started_at = os.getloadavg()
    print(f"load average {' '.join(f'{x:.2f}' for x in started_at)}")
    speed = python_speed()
    print(f"this machine's speed: a Python loop of 10 million additions in {speed:.2f} s")

    def save():
        if args.json:
            args.json.write_text(json.dumps({"players": field, "played": in_play - 1, "change": args.change,
                                             "app": str(args.app or ""), "python_loop_s": round(speed, 3),
                                             "load_average_before": started_at,
                                             "load_average": os.getloadavg(), "rows": rows}, indent=2))

    field = t.player_set.count()
    print(f"| who | page ({field:,} players, round {in_play} in play) | cold "
          f"| first after a {args.change} | its CPU | again | KB | queries |")
    print("|---|---|---:|---:|---:|---:|---:|---:|")
    for who, name, url in pages(t, in_play):
        if (args.only and who != args.only) or (args.page and args.page not in name):
            continue
        client = anonymous if who == "public" else arbiter
        try:
            row = {"who": who, "page": name, "url": url, **measure(client, url, lambda: change(t, flip, args.change))}
        except Exception as exc:  # noqa: BLE001 - an older site without a page: say so, go on
            print(f"| {who} | {name} | failed: {exc.__class__.__name__}: {str(exc)[:80]} |", flush=True)
            continue
        rows.append(row)
        print(f"| {who} | {name} | {row['cold_ms']} ms | {row['first_ms']} ms | {row['first_cpu_ms']} ms "
              f"| {row['again_ms']} ms | {row['kb']:,} | {row['queries']} |", flush=True)
        save()
    if args.round:
        rows += arbiter_round(t, arbiter, worker=args.worker)
    save()
    print(f"load average {' '.join(f'{x:.2f}' for x in os.getloadavg())}")


if __name__ == "__main__":
    main()
