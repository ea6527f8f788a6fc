"""The rating-list fuzz campaign (issue 33, finding 3): N damaged files of each format
(FIDE TXT, FIDE XML, each zipped, national CSV) loaded through the same service as the
upload page; each must load or be refused with a RatingFileError that writes nothing.

    .venv/bin/python scripts/fuzz_rating_files.py [--per-format 3000] [--db sqlite|postgres]
        [--seed S] [--keep DIR] [--formats txt xml zip-txt zip-xml csv]

A throw-away database (a SQLite file, or ``dubov_fuzz_ratings`` on the PostgreSQL server at
127.0.0.1, dropped afterwards).  Prints one line per format (loaded, refused, failures);
``--keep DIR`` writes every failing file there.  Exit status 1 on any failure.  The test
suite runs a few hundred of the same files (tests/web/test_rating_list_fuzz.py).
"""

from __future__ import annotations

import argparse
import io
import os
import random
import subprocess
import sys
import tempfile
import time
import traceback
import warnings
from pathlib import Path

ROOT = Path(__file__).resolve().parents[1]
sys.path.insert(0, str(ROOT))
PG_NAME = "dubov_fuzz_ratings"


def configure(db: str, folder: str) -> None:
    warnings.filterwarnings("ignore", message="No directory at")
    if db == "postgres":
        subprocess.run(["dropdb", "-h", "127.0.0.1", "-U", "postgres", "--if-exists", PG_NAME], check=True)
        subprocess.run(["createdb", "-h", "127.0.0.1", "-U", "postgres", PG_NAME], check=True)
        os.environ["DATABASE_URL"] = f"postgres://postgres@127.0.0.1:5432/{PG_NAME}"
    else:
        os.environ["DATABASE_URL"] = f"sqlite:///{folder}/fuzz.sqlite3"
    os.environ["DJANGO_SETTINGS_MODULE"] = "arbiter_site.settings"
    os.environ["DJANGO_DEBUG"] = "true"
    os.environ.setdefault("DJANGO_LOG_LEVEL", "WARNING")
    import django

    django.setup()
    from django.core.management import call_command

    call_command("migrate", verbosity=0)


def main() -> int:
    parser = argparse.ArgumentParser(description=__doc__.split("\n\n")[0])
    parser.add_argument("--per-format", type=int, default=3000)
    parser.add_argument("--db", choices=["sqlite", "postgres"], default="sqlite")
    parser.add_argument("--seed", default="campaign")
    parser.add_argument("--keep", type=Path, help="write failing files here")
    parser.add_argument("--formats", nargs="+", default=None, help="some of txt xml zip-txt zip-xml csv (default: all)")
    args = parser.parse_args()
    with tempfile.TemporaryDirectory() as folder:
        configure(args.db, folder)
        try:
            return run(args)
        finally:
            if args.db == "postgres":
                from django.db import connections

                connections.close_all()
                subprocess.run(["dropdb", "-h", "127.0.0.1", "-U", "postgres", "--if-exists", PG_NAME], check=False)


def run(args) -> int:
    from pairing.models import RatingEntry, RatingList
    from pairing.rating_files import RatingFileError
    from pairing.services.rating_lists import delete_list, load_list
    from tests.web import rating_fuzz

    failures = 0
    print(f"{'format':8} {'files':>6} {'loaded':>7} {'refused':>8} {'failures':>9} {'seconds':>8}")
    for fmt in args.formats or rating_fuzz.FORMATS:
        rng = random.Random(f"{args.seed}-{fmt}")
        counts = {"loaded": 0, "refused": 0, "failed": 0}
        started = time.monotonic()
        for i in range(args.per_format):
            data, filename, kind = rating_fuzz.sample(fmt, rng)
            before = (RatingList.objects.count(), RatingEntry.objects.count())
            problem = ""
            try:
                rl = load_list(io.BytesIO(data), filename, kind=kind, name="" if kind == "fide" else "Fuzz")
            except RatingFileError as exc:
                if not str(exc):
                    problem = "a refusal without a message"
                elif (RatingList.objects.count(), RatingEntry.objects.count()) != before:
                    problem = "a refusal wrote rows"
                else:
                    counts["refused"] += 1
            except Exception:  # noqa: BLE001 - this is what the campaign looks for
                problem = traceback.format_exc(limit=3)
            else:
                counts["loaded"] += 1
                delete_list(rl)
            if problem:
                counts["failed"] += 1
                print(f"  {fmt} #{i}: {problem.strip().splitlines()[-1]}")
                if args.keep:
                    args.keep.mkdir(parents=True, exist_ok=True)
                    (args.keep / f"{fmt}-{i}-{filename}").write_bytes(data)
        failures += counts["failed"]
        print(f"{fmt:8} {args.per_format:>6} {counts['loaded']:>7} {counts['refused']:>8} {counts['failed']:>9} "
              f"{time.monotonic() - started:>8.1f}")
    return 1 if failures else 0


if __name__ == "__main__":
    sys.exit(main())
