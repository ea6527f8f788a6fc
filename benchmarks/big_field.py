"""A big public tournament for the benchmarks: N players, R rounds played, round R+1 in play.

    python benchmarks/big_field.py --players 10000 --played 40 --pending 50 --slug big-open --owner arbiter

Run with the Django settings of the site under test in the environment (``DATABASE_URL``,
``DJANGO_SETTINGS_MODULE``...); ``benchmarks/load_site.py`` and ``bench_big_field.py``
call :func:`build` for their tournaments.

The history of the first R rounds comes from the engine's fast generator (plausible,
not Dubov-paired, as in ``bench_public_pages.py``) and goes in through the TRF import, as
an arbiter continuing a tournament started elsewhere would load it.  Round R+1 is paired
by the engine and published through the services, as the arbiter does; then every board
but ``pending`` gets a result (one bulk update: the setting-up is not what is measured),
so that a load test's arbiter finishes the round in a few dozen results and publishes
the next one.
"""

from __future__ import annotations

import argparse
import os
import random
import sys
import time
from decimal import Decimal
from pathlib import Path

ROOT = Path(__file__).resolve().parents[1]


def build(players: int, played: int, pending: int, slug: str, owner: str, seed: int = 1, log=print):
    """The tournament ``slug`` (public, owned by ``owner``), made as the module says."""
    from django.contrib.auth import get_user_model
    from django.db.models import Case, CharField, Value, When

    from pairing.engine import trf
    from pairing.engine.generator import GeneratorConfig, generate_fast
    from pairing.models import Game, GameResult, Round, RoundStatus, Tournament
    from pairing.services import interchange, rounds

    started = time.perf_counter()
    user = get_user_model().objects.get(username=owner)
    declared = played + 2
    t = Tournament.objects.create(slug=slug, name=f"Open of {players:,}", rounds=declared, owner=user, public=True)
    if played:
        gen = generate_fast(GeneratorConfig(players=players, rounds=declared, seed=seed), played)
        text = trf.dump_trf(
            trf.TrfTournament(
                name=t.name,
                total_rounds=declared,
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
        log(f"  history of {players:,} x {played} generated in {time.perf_counter() - started:.1f} s")
        interchange.import_trf(t, text, user, confirmations=2)  # rounds the engine pairs otherwise: confirmed
        log(f"  imported in {time.perf_counter() - started:.1f} s")
    else:
        from pairing.models import Player
        from pairing.services.numbering import renumber

        Player.objects.bulk_create(
            (Player(tournament=t, name=f"Player {i:05d}", rating=2600 - (i * 1600) // players) for i in range(players)),
            batch_size=1000,
        )
        renumber(t)
    t.refresh_from_db()
    rnd = rounds.pair_next_round(t, user)
    rounds.publish(rnd, user)
    log(f"  round {rnd.number} paired and published in {time.perf_counter() - started:.1f} s")
    rng = random.Random(seed)
    boards = list(Game.objects.filter(round=rnd).order_by("board").values_list("pk", flat=True))
    decided = boards[: max(0, len(boards) - pending)]
    choices = [GameResult.WHITE_WINS, GameResult.DRAW, GameResult.BLACK_WINS]
    step = 1000
    for i in range(0, len(decided), step):
        chunk = decided[i:i + step]
        Game.objects.filter(pk__in=chunk).update(
            result=Case(*(When(pk=pk, then=Value(rng.choice(choices))) for pk in chunk), output_field=CharField())
        )
    Round.objects.get(pk=rnd.pk).refresh_status()
    status = Round.objects.get(pk=rnd.pk).status
    log(f"  {len(decided):,} of {len(boards):,} results entered ({status}); "
        f"ready in {time.perf_counter() - started:.1f} s")
    assert status in (RoundStatus.PUBLISHED, RoundStatus.COMPLETE)
    analyze(log)
    return Tournament.objects.get(pk=t.pk)


def analyze(log=print) -> None:
    """On PostgreSQL, the planner's statistics gathered (ANALYZE), as autovacuum gathers
    them on its own a minute after a load like this one.  A server with autovacuum off
    (this workplace's) would otherwise plan one page's games from the empty statistics of
    a new database -- reading all 200,000 games of the tournament to find a hundred
    players' 4,000 (9,999 x 40: 84 ms against 19 ms, measured)."""
    from django.db import connection

    if connection.vendor == "postgresql":
        start = time.perf_counter()
        with connection.cursor() as cursor:
            cursor.execute("ANALYZE")
        log(f"statistics gathered (ANALYZE) in {time.perf_counter() - start:.1f} s")


def main() -> None:
    parser = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    parser.add_argument("--players", type=int, required=True)
    parser.add_argument("--played", type=int, default=3)
    parser.add_argument("--pending", type=int, default=50, help="boards of the round in play left without a result")
    parser.add_argument("--slug", default="big-open")
    parser.add_argument("--owner", required=True, help="an existing user, the chief arbiter")
    parser.add_argument("--seed", type=int, default=1)
    parser.add_argument("--app", type=Path, default=ROOT,
                        help="the checkout whose code builds it (another commit's worktree, for a before-and-after)")
    args = parser.parse_args()
    sys.path.insert(0, str(args.app.resolve()))
    os.environ.setdefault("DJANGO_SETTINGS_MODULE", "arbiter_site.settings")
    import django

    django.setup()
    build(args.players, args.played, args.pending, args.slug, args.owner, args.seed)
    print("big field ready")


if __name__ == "__main__":
    main()
