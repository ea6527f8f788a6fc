"""Load a rating list: ``manage.py import_rating_list FILE [--kind fide|national|custom]
[--name NAME] [--month YYYY-MM]``, or ``--download`` for FIDE's current combined list
(from ``DJANGO_FIDE_RATING_LIST_URL``; loaded only when FIDE serves a newer file than the
one loaded: the daily refresh of the background worker does the same every day).

FIDE's list (``players_list_xml.zip``, or its fixed-column TXT variant) has standard,
rapid and blitz ratings; national and custom lists are CSV (id, name, rating; optional
federation, title, birth year, FIDE id, sex).  Loading a list of the same name and month
again replaces it atomically.
"""

from __future__ import annotations

import datetime
import time
from pathlib import Path

from django.core.management.base import BaseCommand, CommandError

from pairing.models import Job, JobKind
from pairing.rating_files import FULL_LIST_MAX_UNZIPPED_BYTES, RatingFileError
from pairing.services import jobs, rating_sources
from pairing.services.rating_lists import load_list


def _month(text: str) -> datetime.date:
    try:
        return datetime.datetime.strptime(text, "%Y-%m").date()
    except ValueError:
        raise CommandError(f"--month takes YYYY-MM, not {text!r}") from None


class Command(BaseCommand):
    help = "Load FIDE's rating list, a national list or a custom list."

    def add_arguments(self, parser):
        parser.add_argument("file", nargs="?", help="the list file (.zip, .xml, .txt or .csv)")
        parser.add_argument("--kind", choices=["fide", "national", "custom"], default="fide")
        parser.add_argument("--name", default="", help="the list's name (FIDE lists are called FIDE)")
        parser.add_argument("--month", type=_month, help="the month the list is valid from (default: this month)")
        parser.add_argument("--download", action="store_true", help="fetch FIDE's current list from FIDE's site")

    def handle(self, *args, **opts):
        if opts["download"] == bool(opts["file"]):
            raise CommandError("give a FILE or --download (not both)")
        started = time.monotonic()
        if opts["download"]:
            return self._download(started)
        path = Path(opts["file"])
        if not path.is_file():
            raise CommandError(f"{path}: no such file")
        return self._load(path, opts["kind"], opts["name"], opts["month"], str(path.name), started)

    def _download(self, started: float) -> None:
        """FIDE's list from its address, as the daily refresh does it (the same job, run
        here rather than by the worker): loaded only when FIDE serves a newer file."""
        source = rating_sources.fide_source()
        self.stdout.write(f"Checking {source.url} ...")
        job = jobs.create(JobKind.RATING_REFRESH, params={"sources": [source.pk]}, language="en")
        result = jobs.run(job.pk, rating_sources.refresh, worker_id="import_rating_list")
        outcome = (result or {"lists": [{"status": "failed", "message": Job.objects.get(pk=job.pk).error}]})["lists"][0]
        if outcome["status"] == "failed":
            raise CommandError(outcome["message"])
        seconds = time.monotonic() - started
        self.stdout.write(self.style.SUCCESS(f"{outcome['message']} ({seconds:.1f} s)"))

    def _load(self, path: Path, kind: str, name: str, month, source: str, started: float) -> None:
        def progress(count: int) -> None:
            if count % 200_000 < 20_000:
                self.stdout.write(f"  {count:,} players ...")

        try:
            with path.open("rb") as stream:
                rl = load_list(stream, path.name, kind=kind, name=name, month=month, source=source, progress=progress,
                               max_unzipped=FULL_LIST_MAX_UNZIPPED_BYTES)
        except RatingFileError as exc:
            raise CommandError(f"{path.name}: {exc}") from None
        seconds = time.monotonic() - started
        self.stdout.write(self.style.SUCCESS(f"Loaded {rl.label}: {rl.players:,} players in {seconds:.1f} s."))
