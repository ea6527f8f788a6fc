"""Time the public pages of a large tournament through Django's test Client on SQLite.

    .venv/bin/python benchmarks/bench_public_pages.py [--players 1000] [--rounds 9] [--repeat 5]

Builds a throw-away SQLite database in a temporary folder, migrates it, writes a
plausible history (the engine's fast generator, as in bench_standings.py) through the
TRF import, with the last round left in play, then requests each public page as an
anonymous visitor and prints the best and median wall time and the number of queries.
Everything the request does is timed: URL routing, access check, queries, tie-breaks,
template rendering.  Not part of the test run; no timing is asserted anywhere.
"""

from __future__ import annotations

import argparse
import os
import statistics
import sys
import tempfile
import time
import warnings
from pathlib import Path

ROOT = Path(__file__).resolve().parents[1]
sys.path.insert(0, str(ROOT))


def configure(folder: str) -> None:
    warnings.filterwarnings("ignore", message="No directory at")  # no collectstatic here
    os.environ["DATABASE_URL"] = f"sqlite:///{folder}/bench.sqlite3"
    os.environ["DJANGO_SETTINGS_MODULE"] = "arbiter_site.test_settings"
    os.environ["DJANGO_DEBUG"] = "false"  # production templates and no query log
    os.environ["DJANGO_SECRET_KEY"] = "benchmark-only-" + "x" * 40
    os.environ["DJANGO_ALLOWED_HOSTS"] = "testserver"
    os.environ["DJANGO_SECURE_SSL_REDIRECT"] = "false"
    os.environ.setdefault("DJANGO_LOG_LEVEL", "WARNING")
    import django

    django.setup()
    from django.core.management import call_command

    call_command("migrate", verbosity=0)


def build(players: int, rounds: int):
    """A public tournament of ``players`` with ``rounds`` rounds played, the last in play."""
    from decimal import Decimal

    from django.contrib.auth import get_user_model

    from pairing.engine import trf
    from pairing.engine.generator import GeneratorConfig, generate_fast
    from pairing.models import Game, GameResult, Round, RoundStatus, Tournament
    from pairing.services import interchange

    gen = generate_fast(GeneratorConfig(players=players, rounds=rounds + 1, seed=1), rounds)
    owner = get_user_model().objects.create_user("bench", password="bench-only-password")
    t = Tournament.objects.create(slug="bench", name="Benchmark Open", rounds=rounds + 1, owner=owner, public=True)
    text = trf.dump_trf(
        trf.TrfTournament(
            name=t.name,
            total_rounds=rounds + 1,
            initial_colour=gen.initial_colour,
            points=gen.points,
            players=tuple(
                trf.TrfPlayer(
                    id=p.tpn, name=f"Player {p.tpn:05d}", rating=p.rating,
                    points=sum((gen.points.points(e.result) for e in p.history), Decimal(0)), history=p.history,
                )
                for p in gen.players
            ),
        )
    )
    interchange.import_trf(t, text)
    # the last round back in play: its results pending
    last = Round.objects.get(tournament=t, number=rounds)
    Game.objects.filter(round=last).update(result=GameResult.PENDING)
    Round.objects.filter(pk=last.pk).update(status=RoundStatus.PUBLISHED)
    return t


def time_page(client, url: str, repeat: int) -> tuple[float, float, int]:
    from django.db import connection
    from django.test.utils import CaptureQueriesContext

    client.get(url)  # warm up (template loading, first connection)
    times = []
    for _ in range(repeat):
        start = time.perf_counter()
        response = client.get(url)
        times.append(time.perf_counter() - start)
        assert response.status_code == 200, (url, response.status_code)
    with CaptureQueriesContext(connection) as ctx:
        client.get(url)
    return min(times), statistics.median(times), len(ctx.captured_queries)


def main() -> None:
    parser = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    parser.add_argument("--players", type=int, default=1000)
    parser.add_argument("--rounds", type=int, default=9, help="rounds played (the last one in play)")
    parser.add_argument("--repeat", type=int, default=5)
    args = parser.parse_args()
    with tempfile.TemporaryDirectory() as folder:
        configure(folder)
        from django.test import Client
        from django.urls import reverse

        start = time.perf_counter()
        t = build(args.players, args.rounds)
        print(f"built {args.players:,} players, {args.rounds} rounds in {time.perf_counter() - start:.1f} s")
        done = args.rounds - 1
        pages = [
            ("home", reverse("pairing:tournament", args=[t.slug])),
            (f"standings after round {done}", reverse("pairing:standings", args=[t.slug])),
            ("standings after round 1", reverse("pairing:standings", args=[t.slug]) + "?round=1"),
            ("standings CSV", reverse("pairing:standings_csv", args=[t.slug])),
            ("crosstable", reverse("pairing:crosstable", args=[t.slug])),
            (f"round {args.rounds} (in play) by board", reverse("pairing:round", args=[t.slug, args.rounds])),
            (f"round {args.rounds} by name", reverse("pairing:round", args=[t.slug, args.rounds]) + "?by=name"),
            (f"ARO list for round {args.rounds}", reverse("pairing:aro", args=[t.slug])),
            ("player card (No 1)", reverse("pairing:player_card", args=[t.slug, 1])),
        ]
        client = Client()
        print(f"| page ({args.players:,} players) | best | median | queries |")
        print("|---|---:|---:|---:|")
        for name, url in pages:
            best, median, queries = time_page(client, url, args.repeat)
            print(f"| {name} | {best * 1000:.0f} ms | {median * 1000:.0f} ms | {queries} |")


if __name__ == "__main__":
    main()
