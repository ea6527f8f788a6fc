"""Backups: the stack's schedule (docker/backup/backup.sh), ``manage.py backupdb``'s file
modes and ``manage.py restoredb``, run for real against PostgreSQL (and SQLite).

The compose stage of CI runs the same script in the stack (a short interval), destroys the
database's volume with ``down -v`` and restores from a scheduled backup.
"""

from __future__ import annotations

import os
import re
import signal
import subprocess
import sys
import time
from pathlib import Path

import pytest

ROOT = Path(__file__).resolve().parents[2]
SCRIPT = ROOT / "docker" / "backup" / "backup.sh"


def _manage(url: str, *args: str) -> subprocess.CompletedProcess:
    env = {**os.environ, "DJANGO_DEBUG": "true", "DATABASE_URL": url}
    env.pop("DJANGO_SETTINGS_MODULE", None)
    return subprocess.run([sys.executable, "manage.py", *args], cwd=ROOT, env=env, capture_output=True, text=True)


def _pg_env(url: str) -> dict[str, str]:
    import dj_database_url

    cfg = dj_database_url.parse(url)
    env = {**os.environ, "PGHOST": cfg["HOST"], "PGPORT": str(cfg["PORT"] or 5432), "PGUSER": cfg["USER"],
           "PGDATABASE": cfg["NAME"]}
    if cfg.get("PASSWORD"):
        env["PGPASSWORD"] = cfg["PASSWORD"]
    return env


def _wait_for(check, timeout: float = 30) -> None:
    deadline = time.monotonic() + timeout
    while time.monotonic() < deadline:
        if check():
            return
        time.sleep(0.2)
    raise AssertionError(f"not within {timeout} s")


# --- the schedule -------------------------------------------------------------------------


@pytest.mark.postgres
def test_issue_39_scheduled_backups_are_dated_private_and_pruned_after_n_days(fresh_database, tmp_path):
    url, _ = fresh_database
    name = _pg_env(url)["PGDATABASE"]
    folder = tmp_path / "backups"
    folder.mkdir(mode=0o755)
    stale = folder / f"{name}-daily-20200101T030000Z.dump"
    manual = folder / f"{name}-manual-20200101T030000Z.dump"
    for old in (stale, manual):
        old.write_text("an old backup")
        os.utime(old, (time.time() - 3 * 86400, time.time() - 3 * 86400))
    env = {**_pg_env(url), "BACKUP_TARGET": str(folder), "BACKUP_INTERVAL": "2", "BACKUP_KEEP_DAYS": "1"}
    service = subprocess.Popen(["sh", str(SCRIPT)], env=env, stdout=subprocess.PIPE, stderr=subprocess.STDOUT,
                               text=True)
    try:
        _wait_for(lambda: len(list(folder.glob(f"{name}-daily-2*.dump"))) >= 2)  # the first at once, then every 2 s
    finally:
        service.send_signal(signal.SIGTERM)
        log = service.communicate(timeout=10)[0]
    assert service.returncode == 0 and "backup: stopping" in log
    daily = sorted(folder.glob(f"{name}-daily-*.dump"))
    assert stale not in daily and manual.exists()  # past BACKUP_KEEP_DAYS; other backups are not its own
    assert f"deleted (over 1 days old): {stale.name}" in log
    assert folder.stat().st_mode & 0o777 == 0o700
    for dump in daily:
        assert dump.stat().st_mode & 0o777 == 0o600
        assert f"written: {dump.name}" in log
        listed = subprocess.run(["pg_restore", "--list", str(dump)], capture_output=True, text=True)
        assert listed.returncode == 0
    assert not list(folder.glob("*.partial"))


@pytest.mark.postgres
def test_a_restart_of_the_service_counts_from_the_newest_backup(fresh_database, tmp_path):
    """A daily schedule stays daily across restarts: no backup while the newest is
    younger than the interval; and the healthcheck says how old it is."""
    url, _ = fresh_database
    name = _pg_env(url)["PGDATABASE"]
    folder = tmp_path / "backups"
    folder.mkdir()
    recent = folder / f"{name}-daily-20261124T030000Z.dump"
    recent.write_text("taken an hour ago")
    os.utime(recent, (time.time() - 3600, time.time() - 3600))
    env = {**_pg_env(url), "BACKUP_TARGET": str(folder), "BACKUP_INTERVAL": "86400"}
    service = subprocess.Popen(["sh", str(SCRIPT)], env=env, stdout=subprocess.PIPE, stderr=subprocess.STDOUT,
                               text=True)
    time.sleep(2)
    service.send_signal(signal.SIGTERM)
    service.communicate(timeout=10)
    assert [p.name for p in folder.iterdir()] == [recent.name]
    check = subprocess.run(["sh", str(SCRIPT), "--check"], env=env, capture_output=True, text=True)
    assert check.returncode == 0 and re.search(r"\(36\d\d s old\)", check.stdout), check.stdout
    os.utime(recent, (time.time() - 3 * 86400, time.time() - 3 * 86400))
    stale = subprocess.run(["sh", str(SCRIPT), "--check"], env=env, capture_output=True, text=True)
    assert stale.returncode == 1 and "old" in stale.stdout


def test_a_failed_backup_is_said_and_leaves_no_file(tmp_path):
    folder = tmp_path / "backups"
    env = {**os.environ, "BACKUP_TARGET": str(folder), "BACKUP_INTERVAL": "60", "PGHOST": "127.0.0.1",
           "PGPORT": "1", "PGUSER": "nobody", "PGDATABASE": "nothing"}
    service = subprocess.Popen(["sh", str(SCRIPT)], env=env, stdout=subprocess.PIPE, stderr=subprocess.STDOUT,
                               text=True)
    time.sleep(2)
    service.send_signal(signal.SIGTERM)
    log = service.communicate(timeout=10)[0]
    assert "backup: FAILED:" in log and "connection" in log.lower()
    assert list(folder.iterdir()) == []


# --- backupdb and restoredb ----------------------------------------------------------------


@pytest.mark.postgres
def test_issue_39_a_backup_file_is_readable_by_its_owner_only(fresh_database, tmp_path):
    url, _ = fresh_database
    assert _manage(url, "migrate", "--noinput").returncode == 0
    done = _manage(url, "backupdb", "--dir", str(tmp_path / "new-folder"))
    assert done.returncode == 0, done.stderr
    dump = Path(done.stdout.strip())
    assert dump.stat().st_mode & 0o777 == 0o600
    assert dump.parent.stat().st_mode & 0o777 == 0o700


@pytest.mark.postgres
def test_issue_39_restoredb_makes_the_database_exactly_the_backup(fresh_database, tmp_path):
    url, connect = fresh_database
    assert _manage(url, "migrate", "--noinput").returncode == 0
    with connect() as conn:
        conn.execute("INSERT INTO auth_group (name) VALUES ('before the backup')")
        conn.commit()
    dump = Path(_manage(url, "backupdb", "--dir", str(tmp_path)).stdout.strip())
    with connect() as conn:
        conn.execute("INSERT INTO auth_group (name) VALUES ('after the backup')")
        conn.execute("CREATE TABLE from_a_later_release (id int)")  # a newer migration's table
        conn.commit()

    refused = _manage(url, "restoredb", str(dump))
    assert refused.returncode != 0 and "again with --yes" in refused.stderr
    done = _manage(url, "restoredb", str(dump), "--yes")
    assert done.returncode == 0, done.stderr
    assert f"restored {dump}" in done.stdout
    with connect() as conn:
        names = [row[0] for row in conn.execute("SELECT name FROM auth_group ORDER BY name")]
        tables = {row[0] for row in conn.execute("SELECT tablename FROM pg_tables WHERE schemaname = 'public'")}
    assert names == ["before the backup"]
    assert "from_a_later_release" not in tables and "pairing_tournament" in tables


@pytest.mark.postgres
def test_restoredb_refuses_a_file_that_is_not_a_backup_and_changes_nothing(fresh_database, tmp_path):
    url, connect = fresh_database
    assert _manage(url, "migrate", "--noinput").returncode == 0
    with connect() as conn:
        conn.execute("INSERT INTO auth_group (name) VALUES ('kept')")
        conn.commit()
    junk = tmp_path / "notes.dump"
    junk.write_text("not a dump")
    done = _manage(url, "restoredb", str(junk), "--yes")
    assert done.returncode != 0 and "is not a backup pg_restore can read" in done.stderr
    assert "Traceback" not in done.stderr
    with connect() as conn:
        assert [row[0] for row in conn.execute("SELECT name FROM auth_group")] == ["kept"]


def test_restoredb_puts_a_sqlite_copy_back(tmp_path):
    import sqlite3

    database = tmp_path / "club.sqlite3"
    url = f"sqlite:///{database}"
    assert _manage(url, "migrate", "--noinput").returncode == 0
    with sqlite3.connect(database) as conn:
        conn.execute("INSERT INTO auth_group (name) VALUES ('before the backup')")
    copy = Path(_manage(url, "backupdb", "--dir", str(tmp_path / "backups")).stdout.strip())
    with sqlite3.connect(database) as conn:
        conn.execute("INSERT INTO auth_group (name) VALUES ('after the backup')")
    assert _manage(url, "restoredb", str(copy), "--yes").returncode == 0
    with sqlite3.connect(database) as conn:
        assert [row[0] for row in conn.execute("SELECT name FROM auth_group")] == ["before the backup"]
    bad = _manage(url, "restoredb", str(tmp_path / "backups"), "--yes")
    assert bad.returncode != 0 and "no backup file" in bad.stderr
