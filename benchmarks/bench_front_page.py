"""Time the public front page and an event's page (issue 37) through Django's test Client on
SQLite, with the site's own cache (the database table).

    .venv/bin/python benchmarks/bench_front_page.py [--events 300] [--sections 3] [--players 20] [--repeat 10] [--no-limit]

Builds a throw-away SQLite database in a temporary folder with ``--events`` public events
(a third on now, a third coming, a third ended in the last 60 days; every fourth with its
online entries open), each of ``--sections`` sections of ``--players`` players, then asks
as an anonymous visitor for: the front page when an event has just changed (*computed*:
its cache entry is new), the same page again (*from the cache*), the page with a search
by a player's name (computed), and one event's page computed and from the cache.
Best and median wall time, the median CPU time of the process, and the queries of one
request.  Not part of the test run; no
timing is asserted anywhere.
"""

from __future__ import annotations

import argparse
import datetime
import os
import statistics
import sys
import tempfile
import time
from pathlib import Path

ROOT = Path(__file__).resolve().parents[1]
sys.path.insert(0, str(ROOT))
sys.path.insert(0, str(ROOT / "benchmarks"))

from bench_public_pages import configure  # noqa: E402 - the same throw-away database and settings


def build(events: int, sections: int, players: int) -> list:
    from django.contrib.auth import get_user_model
    from django.utils import timezone

    from pairing.models import Event, Player, Tournament

    owner = get_user_model().objects.create_user("bench", password="bench-only-password")
    today = timezone.localdate()
    made = []
    for i in range(events):
        when = i % 3  # on now, coming, recent
        start = today + datetime.timedelta(days=(-1, 7 + i % 50, -10 - i % 45)[when])
        e = Event.objects.create(slug=f"event-{i:04d}", name=f"Club Event {i:04d}", place=f"Town {i % 40}",
                                 start_date=start, end_date=start + datetime.timedelta(days=2), owner=owner,
                                 entries_open=i % 4 == 0)
        for s in range(sections):
            t = Tournament.objects.create(slug=f"e{i:04d}-s{s}", name=f"Section {s + 1}", rounds=7, owner=owner,
                                          event=e, public=True)
            Player.objects.bulk_create(
                Player(tournament=t, tpn=n + 1, name=f"Player {i:04d}-{s}-{n:02d}", rating=2300 - 10 * n)
                for n in range(players)
            )
        made.append(e)
    return made


def time_page(client, url: str, repeat: int, before=None) -> tuple[float, float, float, int]:
    """Best and median wall time of ``repeat`` requests (``before()`` called ahead of each,
    untimed), the median CPU time of this process (SQLite runs in it: on a busy machine
    the figure the machine's load does not inflate), and the queries of one more."""
    from django.db import connection
    from django.test.utils import CaptureQueriesContext

    client.get(url)  # warm up (templates, the first connection)
    times, cpu = [], []
    for _ in range(repeat):
        if before:
            before()
        start, start_cpu = time.perf_counter(), time.process_time()
        response = client.get(url)
        times.append(time.perf_counter() - start)
        cpu.append(time.process_time() - start_cpu)
        assert response.status_code == 200, (url, response.status_code)
    if before:
        before()
    with CaptureQueriesContext(connection) as ctx:
        client.get(url)
    return min(times), statistics.median(times), statistics.median(cpu), len(ctx.captured_queries)


def main() -> None:
    parser = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    parser.add_argument("--events", type=int, default=300)
    parser.add_argument("--sections", type=int, default=3)
    parser.add_argument("--players", type=int, default=20)
    parser.add_argument("--repeat", type=int, default=10)
    parser.add_argument("--no-limit", action="store_true",
                        help="every event on now and coming shown (the front page before its limits)")
    args = parser.parse_args()
    with tempfile.TemporaryDirectory() as folder:
        configure(folder)
        if args.no_limit:
            from pairing.reports import events as report

            report.CURRENT_SHOWN = report.COMING_SHOWN = 10**9
        from django.db.models import F
        from django.test import Client

        from pairing.models import Event

        start = time.perf_counter()
        events = build(args.events, args.sections, args.players)
        print(f"built {args.events} events x {args.sections} sections x {args.players} players "
              f"in {time.perf_counter() - start:.1f} s")
        one = events[0]  # on now

        def change() -> None:  # an event changes: the pages showing it are computed again
            Event.objects.filter(pk=one.pk).update(revision=F("revision") + 1)

        client = Client()
        shown = client.get("/").content.decode().count('class="card event"')
        rows = [
            (f"front page ({shown} events shown), computed", "/", change),
            ("front page, from the cache", "/", None),
            ("front page with a search by a player's name, computed", "/?q=player 0007-1-03", change),
            (f"an event's page ({args.sections} sections), computed", one.get_absolute_url(), change),
            ("an event's page, from the cache", one.get_absolute_url(), None),
        ]
        print(f"| page ({args.events} public events) | best | median | CPU (median) | queries |")
        print("|---|---:|---:|---:|---:|")
        for name, url, before in rows:
            best, median, cpu, queries = time_page(client, url, args.repeat, before)
            print(f"| {name} | {best * 1000:.0f} ms | {median * 1000:.0f} ms | {cpu * 1000:.0f} ms | {queries} |")
        print(f"load average: {' '.join(f'{x:.1f}' for x in os.getloadavg())}")


if __name__ == "__main__":
    main()
