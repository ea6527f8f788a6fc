"""Time the big inputs: renumbering, a large TRF import and a long pasted player list.

    .venv/bin/python benchmarks/bench_import.py [--db sqlite|postgres] [--players 1000 5000 15000]
        [--trf-players 9999] [--trf-rounds 40] [--list-lines 30000] [--only renumber trf list]

A throw-away database (a SQLite file, or ``dubov_bench_import`` on the PostgreSQL server at
127.0.0.1, dropped afterwards).  For each size: pairing numbers for N new players (every
row changes), then again after a late entry (one row changes), and -- for comparison --
the pre-fix way (one bulk_update of every row: a CASE per player in one statement).  Then
the import of a generated TRF file (the engine's fast generator) and of a pasted list,
through the same services as the web pages.  Not part of the test run; no timing is
asserted anywhere (audit finding 6, benchmarks/README.md).
"""

from __future__ import annotations

import argparse
import os
import subprocess
import sys
import tempfile
import time
import warnings
from pathlib import Path

ROOT = Path(__file__).resolve().parents[1]
sys.path.insert(0, str(ROOT))
PG_NAME = "dubov_bench_import"


def configure(db: str, folder: str) -> None:
    warnings.filterwarnings("ignore", message="No directory at")
    if db == "postgres":
        subprocess.run(["dropdb", "-h", "127.0.0.1", "-U", "postgres", "--if-exists", PG_NAME], check=True)
        subprocess.run(["createdb", "-h", "127.0.0.1", "-U", "postgres", PG_NAME], check=True)
        os.environ["DATABASE_URL"] = f"postgres://postgres@127.0.0.1:5432/{PG_NAME}"
    else:
        os.environ["DATABASE_URL"] = f"sqlite:///{folder}/bench.sqlite3"
    os.environ["DJANGO_SETTINGS_MODULE"] = "arbiter_site.settings"
    os.environ["DJANGO_DEBUG"] = "true"
    os.environ.setdefault("DJANGO_LOG_LEVEL", "WARNING")
    import django

    django.setup()
    from django.core.management import call_command

    call_command("migrate", verbosity=0)


def timed(fn) -> float:
    start = time.perf_counter()
    fn()
    return time.perf_counter() - start


def old_renumber(t) -> None:
    """The pre-fix write: every row moved away, then one bulk_update of every row."""
    from django.db import transaction
    from django.db.models import F

    from pairing.models import Player

    players = sorted(t.player_set.all(), key=Player.ranking_key)
    with transaction.atomic():
        t.player_set.update(tpn=F("pk") + len(players) + 100000)
        for i, p in enumerate(players, start=1):
            p.tpn = i
        Player.objects.bulk_update(players, ["tpn"])


def bench_renumber(owner, sizes: list[int]) -> None:
    from pairing.models import Player, Tournament
    from pairing.services.numbering import renumber

    print("| players | renumber, all new | after one late entry | pre-fix way, all rows |")
    print("|---:|---:|---:|---:|")
    for n in sizes:
        t = Tournament.objects.create(slug=f"renumber-{n}", name=f"Renumber {n}", owner=owner)
        Player.objects.bulk_create(
            (Player(tournament=t, name=f"Player {i:05}", rating=1000 + (i * 7919) % 2000) for i in range(n)),
            batch_size=2000,
        )
        fresh = timed(lambda t=t: renumber(t))
        Player.objects.create(tournament=t, name="Late, Entry", rating=900)
        late = timed(lambda t=t: renumber(t))
        old = timed(lambda t=t: old_renumber(t))
        print(f"| {n:,} | {fresh:.2f} s | {late:.3f} s | {old:.2f} s |")


def bench_trf(owner, players: int, rounds: int) -> None:
    from pairing.engine import trf
    from pairing.engine.generator import GeneratorConfig, generate_fast
    from pairing.models import Tournament
    from pairing.services import interchange

    gen = generate_fast(GeneratorConfig(players=players, rounds=rounds, seed=1), rounds)
    text = trf.dump_trf(trf.from_generated(gen))
    t = Tournament.objects.create(slug="trf-import", name="TRF import", rounds=rounds, owner=owner)
    seconds = timed(lambda: interchange.import_trf(t, text, owner))
    print(f"TRF import: {players:,} players x {rounds} rounds ({len(text) / 1e6:.1f} MB): {seconds:.1f} s")


def bench_list(owner, lines: int) -> None:
    from pairing.forms import parse_player_list
    from pairing.models import Tournament
    from pairing.services.players import add_players

    t = Tournament.objects.create(slug="pasted", name="Pasted list", owner=owner)
    text = "\n".join(f"Player {i:05}, Given; {1000 + (i * 7919) % 2000}; ; SLO" for i in range(lines))
    start = time.perf_counter()
    players, errors = parse_player_list(text, t)
    assert not errors, errors[:3]
    parsed = time.perf_counter() - start
    add_players(t, [p.values for p in players], owner)
    print(f"pasted list: {lines:,} lines: parse {parsed:.1f} s, register {time.perf_counter() - start - parsed:.1f} s")


def main() -> None:
    parser = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    parser.add_argument("--db", choices=["sqlite", "postgres"], default="sqlite")
    parser.add_argument("--players", type=int, nargs="+", default=[1000, 5000, 15000])
    parser.add_argument("--trf-players", type=int, default=9999)
    parser.add_argument("--trf-rounds", type=int, default=40)
    parser.add_argument("--list-lines", type=int, default=30000)
    parser.add_argument("--only", nargs="+", choices=["renumber", "trf", "list"], default=["renumber", "trf", "list"])
    args = parser.parse_args()
    with tempfile.TemporaryDirectory() as folder:
        configure(args.db, folder)
        from django.contrib.auth import get_user_model

        owner = get_user_model().objects.create_user("bench", password="bench-only-password")
        try:
            if "renumber" in args.only:
                bench_renumber(owner, args.players)
            if "trf" in args.only:
                bench_trf(owner, args.trf_players, args.trf_rounds)
            if "list" in args.only:
                bench_list(owner, args.list_lines)
        finally:
            if args.db == "postgres":
                from django.db import connections

                connections.close_all()
                subprocess.run(["dropdb", "-h", "127.0.0.1", "-U", "postgres", "--if-exists", PG_NAME], check=True)


if __name__ == "__main__":
    main()
