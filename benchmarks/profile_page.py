"""Where a page's time goes: one request through Django's test Client under pyinstrument.

    DATABASE_URL=postgres://postgres@127.0.0.1:5432/NAME .venv/bin/python benchmarks/profile_page.py \\
        /t/big-open/standings/ [--user bench] [--html out.html] [--repeat 2]

Production settings (``DEBUG`` off) with the cache switched off (every request computes
the page, as the first one after a change does).  ``--user``: as this user (logged in),
else as an anonymous visitor.  Prints the wall time of each request, the size and query
count of the last, and pyinstrument's tree of the last (``--html``: also as a page).
The database is read as it is: use one kept by ``bench_big_field.py --keep``.
"""

from __future__ import annotations

import argparse
import os
import sys
import tempfile
import time
import warnings
from pathlib import Path

ROOT = Path(__file__).resolve().parents[1]
sys.path.insert(0, str(ROOT))


def main() -> None:
    parser = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    parser.add_argument("url")
    parser.add_argument("--user", help="log in as this user")
    parser.add_argument("--repeat", type=int, default=2, help="requests (the last one is profiled)")
    parser.add_argument("--html", type=Path, help="also write pyinstrument's page here")
    parser.add_argument("--post", action="append", metavar="NAME=VALUE", help="POST these fields instead of a GET")
    parser.add_argument("--cache", action="store_true",
                        help="keep the configured cache, and enter a result of the round in play before the "
                             "profiled request (the first request after a result)")
    args = parser.parse_args()
    if "DATABASE_URL" not in os.environ:
        raise SystemExit("profile_page: set DATABASE_URL to the database to read")
    warnings.filterwarnings("ignore", message="No directory at")
    folder = tempfile.mkdtemp(prefix="profile-page-")
    Path(folder, "profile_settings.py").write_text(
        "from arbiter_site.settings import *  # noqa\n"
        "STORAGES['staticfiles'] = {'BACKEND': 'django.contrib.staticfiles.storage.StaticFilesStorage'}\n"
        + ("" if args.cache else "CACHES = {'default': {'BACKEND': 'django.core.cache.backends.dummy.DummyCache'}}\n")
    )
    sys.path.insert(0, folder)
    os.environ.update(DJANGO_SETTINGS_MODULE="profile_settings", DJANGO_DEBUG="false",
                      DJANGO_SECRET_KEY="profile-only-" + "x" * 40, DJANGO_ALLOWED_HOSTS="testserver",
                      DJANGO_SECURE_SSL_REDIRECT="false", DJANGO_LOG_LEVEL="WARNING")
    import django

    django.setup()
    from django.contrib.auth import get_user_model
    from django.db import connection, reset_queries
    from django.test import Client
    from django.test.utils import CaptureQueriesContext
    from pyinstrument import Profiler

    client = Client()
    if args.user:
        client.force_login(get_user_model().objects.get(username=args.user))
    data = dict(item.split("=", 1) for item in args.post or [])

    def ask():
        return client.post(args.url, data) if args.post else client.get(args.url)

    for _ in range(max(0, args.repeat - 1)):
        start = time.perf_counter()
        response = ask()
        print(f"{response.status_code} in {time.perf_counter() - start:.3f} s")
    if args.cache:
        enter_a_result(args.url)
    profiler = Profiler(interval=0.001)
    reset_queries()
    with CaptureQueriesContext(connection) as ctx:
        start = time.perf_counter()
        profiler.start()
        response = ask()
        profiler.stop()
        took = time.perf_counter() - start
        queries = len(ctx.captured_queries)
    print(f"{response.status_code} in {took:.3f} s, {len(response.content) / 1024:,.0f} KB, {queries} queries")
    print(profiler.output_text(unicode=True, color=False, show_all=False))
    if args.html:
        args.html.write_text(profiler.output_html())


def enter_a_result(url: str) -> None:
    """Change the result of the last board of the round in play of the tournament of ``url``."""
    from pairing.models import Game, GameResult, Tournament
    from pairing.services.results import record_result

    t = Tournament.objects.get(slug=url.split("/t/", 1)[1].split("/", 1)[0])
    game = Game.objects.filter(round__tournament=t).order_by("-round__number", "-board").first()
    result = GameResult.BLACK_WINS if game.result == GameResult.WHITE_WINS else GameResult.WHITE_WINS
    record_result(game, result, t.owner)


if __name__ == "__main__":
    main()
