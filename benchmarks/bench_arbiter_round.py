"""Time the arbiter's round in a large open, request by request, on SQLite.

    .venv/bin/python benchmarks/bench_arbiter_round.py [--players 1000] [--rounds 6] [--repeat 3]

Builds a throw-away SQLite database (as bench_public_pages.py: the engine's fast
generator through the TRF import), ``--rounds`` rounds played and complete, then, as the
tournament's owner through Django's test Client: pairs the next round (the POST that
runs the pairing service and the engine and stores the draft), opens the draft with its
explanation, publishes it, opens the results page, enters one result by HTMX, and
discards/re-pairs ``--repeat`` times for a best and median.  Prints wall time and
query count per request.  Not part of the test run; no timing is asserted anywhere.
"""

from __future__ import annotations

import argparse
import statistics
import sys
import tempfile
import time
from pathlib import Path

ROOT = Path(__file__).resolve().parents[1]
sys.path.insert(0, str(ROOT))
sys.path.insert(0, str(ROOT / "benchmarks"))

from bench_public_pages import build, configure  # noqa: E402


def timed(fn):
    from django.db import connection
    from django.test.utils import CaptureQueriesContext

    with CaptureQueriesContext(connection) as ctx:
        start = time.perf_counter()
        response = fn()
        elapsed = time.perf_counter() - start
    assert response.status_code < 400, response.status_code
    return elapsed, len(ctx.captured_queries)


def main() -> None:
    parser = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    parser.add_argument("--players", type=int, default=1000)
    parser.add_argument("--rounds", type=int, default=6, help="rounds played before the one timed")
    parser.add_argument("--repeat", type=int, default=3)
    args = parser.parse_args()
    with tempfile.TemporaryDirectory() as folder:
        configure(folder)
        from django.test import Client
        from django.urls import reverse

        from pairing.models import Game, GameResult, Round, RoundStatus

        start = time.perf_counter()
        # build() leaves the last of rounds + 1 in play; complete it again
        t = build(args.players, args.rounds)
        last = Round.objects.get(tournament=t, number=args.rounds)
        Game.objects.filter(round=last).update(result=GameResult.DRAW)
        Round.objects.filter(pk=last.pk).update(status=RoundStatus.COMPLETE)
        print(f"built {args.players:,} players, {args.rounds} rounds in {time.perf_counter() - start:.1f} s")

        client = Client()
        client.force_login(t.owner)
        number = args.rounds + 1
        pair = reverse("pairing:pair_next", args=[t.slug])
        page = reverse("pairing:round", args=[t.slug, number])
        discard = reverse("pairing:round_discard", args=[t.slug, number])
        publish = reverse("pairing:round_publish", args=[t.slug, number])
        rows: dict[str, list[tuple[float, int]]] = {}

        def measure(name, fn):
            rows.setdefault(name, []).append(timed(fn))

        for k in range(args.repeat):
            measure(f"pair round {number} (engine + draft stored)", lambda: client.post(pair))
            measure("draft page with explanation", lambda: client.get(page))
            if k < args.repeat - 1:
                measure("discard the draft", lambda: client.post(discard))
        measure("publish", lambda: client.post(publish))
        for _ in range(args.repeat):
            measure("results page (all boards)", lambda: client.get(page))
        games = list(Game.objects.filter(round__tournament=t, round__number=number).order_by("board")[: args.repeat])
        for g in games:
            url = reverse("pairing:game_result", args=[t.slug, number, g.pk])
            measure("one result (HTMX)", lambda url=url: client.post(url, {"result": "1", "expected": ""}, HTTP_HX_REQUEST="true"))

        print(f"| request ({args.players:,} players, round {number}) | best | median | queries |")
        print("|---|---:|---:|---:|")
        for name, got in rows.items():
            times = [s for s, _ in got]
            print(f"| {name} | {min(times) * 1000:.0f} ms | {statistics.median(times) * 1000:.0f} ms | {got[-1][1]} |")


if __name__ == "__main__":
    main()
