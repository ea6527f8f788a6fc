"""``manage.py backupdb [--dir DIR] [--label LABEL]``: a copy of the whole database.

PostgreSQL: ``pg_dump --format=custom`` (restore with ``pg_restore --clean --if-exists``,
see the README), run with the connection settings of DATABASE_URL, the password passed in
the environment, never on the command line.  SQLite: SQLite's online backup, a consistent
copy even while the site is writing (restore by copying the file back while the site is
stopped).

The file is ``<dir>/<database>-<label>-<UTC time>.dump`` (``.sqlite3`` for SQLite), written
under a temporary name and renamed when complete, so a file with the final name is always
whole; it is readable by its owner only (mode 600), in a folder made with mode 700.  The
start script (docker/start.py) runs it with ``--label before-migrate`` when the database
has migrations to apply.  Prints the file's path; exits non-zero (and leaves no file) when
the copy fails.  ``manage.py restoredb`` puts a file back.
"""

from __future__ import annotations

import os
import shutil
import sqlite3
import subprocess
from contextlib import closing
from datetime import UTC, datetime
from pathlib import Path

from django.conf import settings
from django.core.management.base import BaseCommand, CommandError
from django.db import connection

DEFAULT_DIR = "backups"


class Command(BaseCommand):
    help = "Write a backup of the whole database (pg_dump custom format, or a SQLite copy) into a folder."

    def add_arguments(self, parser):
        parser.add_argument(
            "--dir", default=os.environ.get("DB_BACKUP_DIR") or DEFAULT_DIR,
            help="folder for the backup file (default: $DB_BACKUP_DIR, else backups/)",
        )
        parser.add_argument("--label", default="manual", help="word in the file name (default: manual)")

    def handle(self, *args, **options):
        label = options["label"]
        if not label.replace("-", "").isalnum() or not label.isascii():
            raise CommandError("--label takes letters, digits and dashes only")
        folder = Path(options["dir"])
        try:
            folder.mkdir(mode=0o700, parents=True, exist_ok=True)
        except OSError as exc:
            raise CommandError(f"cannot create the backup folder {folder}: {exc.strerror}") from exc
        stamp = datetime.now(UTC).strftime("%Y%m%dT%H%M%SZ")
        db = settings.DATABASES["default"]
        vendor = connection.vendor
        if vendor == "postgresql":
            target = folder / f"{db['NAME']}-{label}-{stamp}.dump"
            self._pg_dump(db, target)
        elif vendor == "sqlite":
            target = folder / f"{Path(str(db['NAME'])).stem}-{label}-{stamp}.sqlite3"
            self._sqlite_copy(str(db["NAME"]), target)
        else:
            raise CommandError(f"no backup method for the {vendor} database")
        self.stdout.write(str(target))

    def _pg_dump(self, db: dict, target: Path) -> None:
        pg_dump = shutil.which("pg_dump")
        if pg_dump is None:
            raise CommandError("pg_dump is not installed (Debian/Ubuntu: apt install postgresql-client)")
        env = dict(os.environ)
        for key, variable in (("HOST", "PGHOST"), ("PORT", "PGPORT"), ("USER", "PGUSER"), ("PASSWORD", "PGPASSWORD")):
            if db.get(key):
                env[variable] = str(db[key])
        partial = target.with_name(target.name + ".partial")
        partial.touch(mode=0o600)
        result = subprocess.run(
            [pg_dump, "--format=custom", f"--file={partial}", "--dbname", str(db["NAME"])],
            env=env, capture_output=True, text=True,
        )
        if result.returncode != 0:
            partial.unlink(missing_ok=True)
            raise CommandError(f"pg_dump failed: {result.stderr.strip()}")
        partial.replace(target)

    def _sqlite_copy(self, source: str, target: Path) -> None:
        partial = target.with_name(target.name + ".partial")
        partial.touch(mode=0o600)
        try:
            with closing(sqlite3.connect(source)) as src, closing(sqlite3.connect(partial)) as dst:
                src.backup(dst)
        except sqlite3.Error as exc:
            partial.unlink(missing_ok=True)
            raise CommandError(f"SQLite backup failed: {exc}") from exc
        partial.replace(target)
