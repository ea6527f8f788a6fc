"""Time a pairing-integrity event's restore point and an undo on big tournaments.

    .venv/bin/python benchmarks/bench_restore.py [--db sqlite|postgres] [--players 300 1000 5000] [--rounds 9]

A throw-away database (as bench_import.py).  For each size a tournament is imported from
the engine's fast generator (players x rounds complete), then: the restore point taken
(the work every event adds to its act), its size as stored (JSON), and a restore (what an
undo does).  Not part of the test run; no timing is asserted (benchmarks/README.md).
"""

from __future__ import annotations

import argparse
import json
import sys
import tempfile
import time
from pathlib import Path

ROOT = Path(__file__).resolve().parents[1]
sys.path.insert(0, str(ROOT))
sys.path.insert(0, str(ROOT / "benchmarks"))

from bench_import import configure  # noqa: E402 - after the path is set


def main() -> None:
    parser = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    parser.add_argument("--db", choices=["sqlite", "postgres"], default="sqlite")
    parser.add_argument("--players", type=int, nargs="+", default=[300, 1000, 5000])
    parser.add_argument("--rounds", type=int, default=9)
    args = parser.parse_args()
    with tempfile.TemporaryDirectory() as folder:
        configure(args.db, folder)
        from django.contrib.auth import get_user_model
        from django.core.serializers.json import DjangoJSONEncoder
        from django.db import transaction

        from pairing.engine import trf
        from pairing.engine.generator import GeneratorConfig, generate_fast
        from pairing.models import Game, Tournament
        from pairing.services import interchange, restore

        owner = get_user_model().objects.create_user("bench", password="bench-only-password")
        print(f"| players x rounds | games | take | stored JSON | restore ({args.db}) |")
        print("|---:|---:|---:|---:|---:|")
        for n in args.players:
            gen = generate_fast(GeneratorConfig(players=n, rounds=args.rounds, seed=1), args.rounds)
            t = Tournament.objects.create(slug=f"restore-{n}", name=f"Restore {n}", owner=owner, fide_mode=True)
            interchange.import_trf(t, trf.dump_trf(trf.from_generated(gen)), owner, confirmations=1)
            start = time.perf_counter()
            with transaction.atomic():
                point = restore.take(t)
            took = time.perf_counter() - start
            stored = json.loads(json.dumps(point, cls=DjangoJSONEncoder))
            size = len(json.dumps(stored)) / 1e6
            start = time.perf_counter()
            with transaction.atomic():
                restore.restore(t, stored)
            back = time.perf_counter() - start
            games = Game.objects.filter(round__tournament=t).count()
            print(f"| {n:,} x {args.rounds} | {games:,} | {took:.2f} s | {size:.1f} MB | {back:.2f} s |")


if __name__ == "__main__":
    main()
