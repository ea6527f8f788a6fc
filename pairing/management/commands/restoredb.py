"""``manage.py restoredb FILE --yes``: the whole database becomes exactly the backup FILE.

PostgreSQL: FILE is a ``pg_dump --format=custom`` file (``manage.py backupdb``, the stack's
scheduled backups, the README's command).  It is checked first (``pg_restore --list``);
then the database is dropped (closing any other connection), created again and restored
with ``pg_restore --no-owner --exit-on-error``, with the connection settings of
DATABASE_URL (the password in the environment, never on the command line).  Dropping it,
rather than restoring over it, leaves nothing of a later release behind (the tables of a
newer migration, after a rollback).  The user of DATABASE_URL must be allowed to create
databases (the compose stack's is the server's superuser).

SQLite: FILE is a copy made by ``backupdb``; it replaces the database file (checked to be
SQLite first, written beside it and renamed).

Stop the site and its worker first (``docker compose stop web worker``): requests or
tasks during a restore would see, or write into, half a database.  Without ``--yes``
nothing is done.
"""

from __future__ import annotations

import os
import shutil
import subprocess
from pathlib import Path

from django.conf import settings
from django.core.management.base import BaseCommand, CommandError
from django.db import connection


class Command(BaseCommand):
    help = "Replace the whole database with a backup file (pg_dump custom format, or a SQLite copy)."

    def add_arguments(self, parser):
        parser.add_argument("file", help="the backup file")
        parser.add_argument("--yes", action="store_true", help="really replace the database (nothing happens without it)")

    def handle(self, *args, **options):
        source = Path(options["file"])
        if not source.is_file():
            raise CommandError(f"no backup file {source}")
        db = settings.DATABASES["default"]
        vendor = connection.vendor
        if not options["yes"]:
            raise CommandError(
                f"this replaces the whole database {db['NAME']} with {source}: everything saved since that backup "
                "is lost. Stop the site and its worker first, then run the command again with --yes."
            )
        connection.close()
        if vendor == "postgresql":
            self._pg_restore(db, source)
        elif vendor == "sqlite":
            self._sqlite_restore(Path(str(db["NAME"])), source)
        else:
            raise CommandError(f"no restore method for the {vendor} database")
        self.stdout.write(f"restored {source} into the database {db['NAME']}")

    def _pg_restore(self, db: dict, source: Path) -> None:
        tools = {name: shutil.which(name) for name in ("pg_restore", "dropdb", "createdb")}
        if not all(tools.values()):
            raise CommandError("pg_restore, dropdb and createdb are not installed (Debian: apt install postgresql-client)")
        env = dict(os.environ)
        for key, variable in (("HOST", "PGHOST"), ("PORT", "PGPORT"), ("USER", "PGUSER"), ("PASSWORD", "PGPASSWORD")):
            if db.get(key):
                env[variable] = str(db[key])
        name = str(db["NAME"])

        def run(*command: str) -> None:
            result = subprocess.run(command, env=env, capture_output=True, text=True)
            if result.returncode != 0:
                raise CommandError(f"{Path(command[0]).name} failed: {result.stderr.strip()}")

        listed = subprocess.run([tools["pg_restore"], "--list", str(source)], env=env, capture_output=True, text=True)
        if listed.returncode != 0:
            raise CommandError(f"{source} is not a backup pg_restore can read: {listed.stderr.strip()}")
        run(tools["dropdb"], "--force", "--if-exists", "--maintenance-db=postgres", name)
        run(tools["createdb"], "--maintenance-db=postgres", name)
        run(tools["pg_restore"], "--no-owner", "--exit-on-error", "--dbname", name, str(source))

    def _sqlite_restore(self, target: Path, source: Path) -> None:
        with source.open("rb") as file:
            if file.read(16) != b"SQLite format 3\x00":
                raise CommandError(f"{source} is not a SQLite database")
        partial = target.with_name(target.name + ".restoring")
        shutil.copyfile(source, partial)
        for suffix in ("-wal", "-shm", "-journal"):
            Path(f"{target}{suffix}").unlink(missing_ok=True)
        partial.replace(target)
