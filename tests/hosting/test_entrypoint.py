"""docker/entrypoint.sh (docker/start.py) run directly, against a real PostgreSQL.

Each PostgreSQL test gets a fresh database ``dubov_entrypoint_<pid>`` on the server of
DATABASE_URL when that is PostgreSQL, else on postgres@127.0.0.1:5432, and drops it
afterwards.  No server: skipped, unless REQUIRE_POSTGRES=1 (CI), then a failure.
The refusal tests need no database at all.
"""

from __future__ import annotations

import json
import os
import socket
import subprocess
import sys
import time
from pathlib import Path

import pytest

ROOT = Path(__file__).resolve().parents[2]
ENTRYPOINT = ROOT / "docker" / "entrypoint.sh"
HEALTHCHECK = ROOT / "docker" / "healthcheck.py"
VENV_BIN = Path(sys.executable).parent
SECRET = "entrypoint-test-" + "k" * 50
HOST = "chess.example.org"


def _env(**extra: str) -> dict[str, str]:
    """A production-like environment built from scratch (nothing of pytest's leaks in)."""
    env = {
        "PATH": f"{VENV_BIN}{os.pathsep}{os.environ.get('PATH', '/usr/bin:/bin')}",
        "HOME": os.environ.get("HOME", "/tmp"),
        "LANG": "C.UTF-8",
        "PYTHON": sys.executable,
        "DJANGO_DEBUG": "false",
        "DJANGO_SECRET_KEY": SECRET,
        "SITE_URL": f"https://{HOST}",
    }
    env.update(extra)
    return {k: v for k, v in env.items() if v is not None}


def _run(env: dict[str, str], *command: str, timeout: float = 120) -> subprocess.CompletedProcess:
    return subprocess.run(
        ["sh", str(ENTRYPOINT), *command], env=env, cwd="/", capture_output=True, text=True, timeout=timeout
    )


PRINT_STARTED = (sys.executable, "-c", "print('started')")


@pytest.mark.postgres
def test_migrates_collects_static_and_execs_the_command(fresh_database, tmp_path):
    url, connect = fresh_database
    static_root = tmp_path / "static"
    env = _env(DATABASE_URL=url, DJANGO_STATIC_ROOT=str(static_root))

    result = _run(env, *PRINT_STARTED)

    assert result.returncode == 0, result.stderr
    assert result.stdout.strip().endswith("started")
    with connect() as conn:
        (applied,) = conn.execute("SELECT count(*) FROM django_migrations").fetchone()
        apps = {row[0] for row in conn.execute("SELECT DISTINCT app FROM django_migrations")}
    assert applied > 10 and {"pairing", "auth", "sessions"} <= apps
    shown = subprocess.run(
        [sys.executable, "manage.py", "showmigrations"], env=env, cwd=ROOT, capture_output=True, text=True
    )
    lines = [line.strip() for line in shown.stdout.splitlines() if line.startswith(" ")]
    assert shown.returncode == 0 and lines, shown.stderr
    assert all(line.startswith("[X]") for line in lines), shown.stdout
    # collectstatic, with the production manifest storage (hashed names + manifest)
    assert (static_root / "js" / "htmx.min.js").is_file()
    manifest = json.loads((static_root / "staticfiles.json").read_text())
    hashed = manifest["paths"]["js/htmx.min.js"]
    assert hashed != "js/htmx.min.js" and (static_root / hashed).is_file()

    # a second start (a container restart) has nothing to migrate and still starts
    again = _run(env, *PRINT_STARTED)
    assert again.returncode == 0 and "started" in again.stdout, again.stderr
    assert "entrypoint: no migrations to apply" in again.stderr


def _free_port() -> int:
    with socket.socket() as s:
        s.bind(("127.0.0.1", 0))
        return s.getsockname()[1]


@pytest.mark.postgres
def test_gunicorn_serves_health_and_static_files_and_the_healthcheck_passes(fresh_database, tmp_path):
    """The image's default command, as far as it can run here: gunicorn + whitenoise."""
    import http.client

    url, _ = fresh_database
    port = _free_port()
    env = _env(DATABASE_URL=url, DJANGO_STATIC_ROOT=str(tmp_path / "static"), HEALTHCHECK_PORT=str(port))
    server = subprocess.Popen(
        ["sh", str(ENTRYPOINT), str(VENV_BIN / "gunicorn"), "arbiter_site.wsgi:application",
         "--bind", f"127.0.0.1:{port}", "--workers", "1"],
        env=env, cwd="/", stdout=subprocess.PIPE, stderr=subprocess.STDOUT, text=True,
    )
    try:
        deadline = time.monotonic() + 60
        check = None
        while time.monotonic() < deadline:
            assert server.poll() is None, server.stdout.read()
            check = subprocess.run([sys.executable, str(HEALTHCHECK)], env=env, capture_output=True, text=True)
            if check.returncode == 0:
                break
            time.sleep(0.5)
        assert check is not None and check.returncode == 0, check.stderr

        headers = {"Host": HOST, "X-Forwarded-Proto": "https"}
        conn = http.client.HTTPConnection("127.0.0.1", port, timeout=5)
        conn.request("GET", "/health/", headers=headers)
        response = conn.getresponse()
        assert response.status == 200
        assert json.loads(response.read()) == {"status": "ok", "database": "ok"}
        conn.request("GET", "/static/js/htmx.min.js", headers=headers)
        response = conn.getresponse()
        assert response.status == 200 and b"htmx" in response.read()
        # production mode: plain http is redirected, unknown hosts are refused
        conn.request("GET", "/health/", headers={"Host": HOST})
        redirect = conn.getresponse()
        redirect.read()
        assert redirect.status == 301 and redirect.getheader("Location").startswith("https://")
        conn.request("GET", "/health/", headers={"Host": "evil.example.com", "X-Forwarded-Proto": "https"})
        refused = conn.getresponse()
        refused.read()
        assert refused.status == 400
        conn.close()
    finally:
        server.terminate()
        try:
            server.wait(timeout=15)
        except subprocess.TimeoutExpired:
            server.kill()
            server.wait()
        if server.stdout:
            server.stdout.close()


@pytest.mark.parametrize(
    ("unset", "named"),
    [
        (["DJANGO_SECRET_KEY"], ["DJANGO_SECRET_KEY"]),
        (["SITE_URL"], ["SITE_URL"]),
        (["DJANGO_SECRET_KEY", "SITE_URL"], ["DJANGO_SECRET_KEY", "SITE_URL"]),
    ],
)
@pytest.mark.parametrize("debug", ["false", None])  # unset means production for the start script
def test_refuses_production_start_without_secret_key_or_site_url(unset, named, debug):
    env = _env(DATABASE_URL="postgres://nobody@127.0.0.1:1/none", DJANGO_DEBUG=debug)
    for name in unset:
        env.pop(name)
    started = time.monotonic()
    result = _run(env, *PRINT_STARTED, timeout=30)
    assert result.returncode != 0
    assert "started" not in result.stdout
    assert "refusing to start in production mode" in result.stderr
    for name in named:
        assert name in result.stderr
    assert time.monotonic() - started < 10  # refused at once, no database wait


def test_a_blank_site_url_list_is_refused_too():
    result = _run(_env(SITE_URL=" , "), *PRINT_STARTED, timeout=30)
    assert result.returncode != 0 and "not set: SITE_URL" in result.stderr


def test_the_older_allowed_hosts_setting_still_counts_as_the_site_s_address(tmp_path):
    """A .env from before SITE_URL (DJANGO_ALLOWED_HOSTS only) still starts."""
    env = _env(SITE_URL=None, DJANGO_ALLOWED_HOSTS=HOST, DATABASE_URL=f"sqlite:///{tmp_path / 'old.sqlite3'}",
               COLLECTSTATIC_AT_START="false")
    result = _run(env, *PRINT_STARTED)
    assert result.returncode == 0 and "started" in result.stdout, result.stderr


def test_a_malformed_site_url_stops_the_start_saying_what_is_wrong(tmp_path):
    env = _env(SITE_URL="chess.example.org", DATABASE_URL=f"sqlite:///{tmp_path / 'x.sqlite3'}")
    result = _run(env, *PRINT_STARTED, timeout=60)
    assert result.returncode != 0 and "started" not in result.stdout
    assert "SITE_URL: 'chess.example.org' is not an address like https://chess.example.org" in result.stderr
    assert not (tmp_path / "x.sqlite3").exists()  # stopped before touching the database


def test_issue_39_every_step_runs_in_one_python_process_that_becomes_the_command(tmp_path):
    """The start used to run Django five times (five manage.py processes, the restart's
    downtime); now the shell script execs docker/start.py, which sets Django up once,
    runs every step in itself and execs the command: same process id throughout."""
    env = _env(DATABASE_URL=f"sqlite:///{tmp_path / 'one.sqlite3'}", DJANGO_STATIC_ROOT=str(tmp_path / "static"))
    process = subprocess.Popen(
        ["sh", str(ENTRYPOINT), sys.executable, "-c", "import os; print('pid', os.getpid())"],
        env=env, cwd="/", stdout=subprocess.PIPE, stderr=subprocess.PIPE, text=True,
    )
    out, err = process.communicate(timeout=120)
    assert process.returncode == 0, err
    assert f"pid {process.pid}" in out
    source = (ROOT / "docker" / "start.py").read_text()
    assert "subprocess" not in source and "manage.py" not in source.split('"""', 2)[2]
    assert "call_command(\"migrate\"" in source and "call_command(\"backupdb\"" in source


def test_issue_39_the_image_collects_static_files_at_build_so_the_start_does_not(tmp_path):
    env = _env(DATABASE_URL=f"sqlite:///{tmp_path / 'site.sqlite3'}", DJANGO_STATIC_ROOT=str(tmp_path / "static"),
               COLLECTSTATIC_AT_START="false")
    result = _run(env, *PRINT_STARTED)
    assert result.returncode == 0 and "started" in result.stdout, result.stderr
    assert not (tmp_path / "static").exists()


def test_gives_up_on_an_unreachable_database_after_a_bounded_wait(tmp_path):
    port = _free_port()  # nothing listens there
    env = _env(
        DATABASE_URL=f"postgres://postgres@127.0.0.1:{port}/nowhere",
        DJANGO_STATIC_ROOT=str(tmp_path / "static"),
        DB_WAIT_TRIES="3",
        DB_WAIT_INTERVAL="0",
    )
    started = time.monotonic()
    result = _run(env, *PRINT_STARTED, timeout=90)
    assert result.returncode == 1
    assert "started" not in result.stdout
    assert "database not reachable after 3 tries, giving up" in result.stderr
    assert result.stderr.count("waiting for the database") == 2
    assert "Connection refused" in result.stderr or "connection" in result.stderr.lower()
    assert time.monotonic() - started < 60
    assert not (tmp_path / "static").exists()  # nothing ran after the wait


def test_debug_mode_needs_no_secret_key(tmp_path):
    """DJANGO_DEBUG=true (a local trial) starts with the settings' development defaults."""
    env = _env(DJANGO_DEBUG="true", DATABASE_URL=f"sqlite:///{tmp_path / 'trial.sqlite3'}",
               DJANGO_STATIC_ROOT=str(tmp_path / "static"))
    env.pop("DJANGO_SECRET_KEY")
    env.pop("SITE_URL")
    result = _run(env, *PRINT_STARTED)
    assert result.returncode == 0, result.stderr
    assert "started" in result.stdout
    assert (tmp_path / "static" / "js" / "htmx.min.js").is_file()


# --- audit finding 9: a backup before migrating -----------------------------------------

PREVIOUS = "0006_player_games_restrict"  # the database of the release before the last migration


def _migrate_to_previous_release(env: dict[str, str]) -> None:
    for args in (["migrate", "--noinput"], ["migrate", "pairing", PREVIOUS, "--noinput"]):
        done = subprocess.run([sys.executable, "manage.py", *args], env=env, cwd=ROOT, capture_output=True, text=True)
        assert done.returncode == 0, done.stderr


def _pairing_migrations(rows) -> set[str]:
    return {name for app, name in rows if app == "pairing"}


@pytest.mark.postgres
def test_audit_finding_9_an_upgrade_is_backed_up_before_it_migrates(fresh_database, tmp_path):
    url, connect = fresh_database
    backups = tmp_path / "backups"
    env = _env(DATABASE_URL=url, DJANGO_STATIC_ROOT=str(tmp_path / "static"), DB_BACKUP_DIR=str(backups))
    _migrate_to_previous_release(env)
    with connect() as conn:
        conn.execute(
            "INSERT INTO auth_user (password, is_superuser, username, first_name, last_name, email, is_staff,"
            " is_active, date_joined) VALUES ('x', false, 'season-arbiter', '', '', '', false, true, now())"
        )
        conn.commit()

    result = _run(env, *PRINT_STARTED)

    assert result.returncode == 0, result.stderr
    assert "migrations to apply: backing up the database first" in result.stderr
    (dump,) = backups.glob("*-before-migrate-*.dump")
    assert f"backup written: {dump}" in result.stderr
    assert not list(backups.glob("*.partial"))
    # the dump is the database as it was: restored elsewhere it has the user and lacks the
    # migration the start then applied
    listed = subprocess.run(["pg_restore", "--list", str(dump)], capture_output=True, text=True)
    assert listed.returncode == 0 and "TABLE public pairing_tournament" in listed.stdout
    data = subprocess.run(["pg_restore", "--data-only", "--table=django_migrations", "--table=auth_user",
                           "--file=-", str(dump)], capture_output=True, text=True)
    assert "season-arbiter" in data.stdout and PREVIOUS in data.stdout
    assert "0007_player_fide_id_unique" not in data.stdout
    with connect() as conn:
        applied = _pairing_migrations(conn.execute("SELECT app, name FROM django_migrations").fetchall())
    assert "0007_player_fide_id_unique" in applied  # and then it migrated

    # a restart with nothing to migrate takes no second backup
    again = _run(env, *PRINT_STARTED)
    assert again.returncode == 0 and "backing up" not in again.stderr
    assert len(list(backups.glob("*.dump"))) == 1


@pytest.mark.postgres
def test_audit_finding_9_a_new_empty_database_is_not_backed_up(fresh_database, tmp_path):
    url, _ = fresh_database
    backups = tmp_path / "backups"
    env = _env(DATABASE_URL=url, DJANGO_STATIC_ROOT=str(tmp_path / "static"), DB_BACKUP_DIR=str(backups))
    result = _run(env, *PRINT_STARTED)
    assert result.returncode == 0, result.stderr
    assert "backing up" not in result.stderr and not backups.exists()


@pytest.mark.postgres
def test_audit_finding_9_no_backup_no_migration(fresh_database, tmp_path):
    url, connect = fresh_database
    blocked = tmp_path / "not-a-folder"
    blocked.write_text("a file where the backup folder should be")
    env = _env(DATABASE_URL=url, DJANGO_STATIC_ROOT=str(tmp_path / "static"), DB_BACKUP_DIR=str(blocked))
    _migrate_to_previous_release(env)

    result = _run(env, *PRINT_STARTED)

    assert result.returncode == 3
    assert "started" not in result.stdout
    assert "cannot create the backup folder" in result.stderr
    assert "the backup failed, so nothing was migrated" in result.stderr
    with connect() as conn:
        applied = _pairing_migrations(conn.execute("SELECT app, name FROM django_migrations").fetchall())
    assert "0007_player_fide_id_unique" not in applied

    # the documented way out, after a backup taken another way
    skipped = _run({**env, "DB_BACKUP_BEFORE_MIGRATE": "false"}, *PRINT_STARTED)
    assert skipped.returncode == 0 and "no backup taken" in skipped.stderr


def test_audit_finding_9_a_sqlite_upgrade_is_copied_before_it_migrates(tmp_path):
    import sqlite3

    database = tmp_path / "club.sqlite3"
    backups = tmp_path / "backups"
    env = _env(DATABASE_URL=f"sqlite:///{database}", DJANGO_STATIC_ROOT=str(tmp_path / "static"),
               DB_BACKUP_DIR=str(backups))
    _migrate_to_previous_release(env)

    result = _run(env, *PRINT_STARTED)

    assert result.returncode == 0, result.stderr
    (copy,) = backups.glob("club-before-migrate-*.sqlite3")
    with sqlite3.connect(copy) as conn:
        names = {row[0] for row in conn.execute("SELECT name FROM django_migrations WHERE app = 'pairing'")}
    assert PREVIOUS in names and "0007_player_fide_id_unique" not in names
    with sqlite3.connect(database) as conn:
        names = {row[0] for row in conn.execute("SELECT name FROM django_migrations WHERE app = 'pairing'")}
    assert "0007_player_fide_id_unique" in names


@pytest.mark.postgres
def test_issue_39_as_root_it_makes_the_certificate_and_backups_folder_then_drops_to_the_app_user(
    fresh_database, tmp_path
):
    """The container starts as root only for this: the venue's certificate in the empty
    certs folder, the backups folder given to the app's user (mode 700); then everything,
    the command included, runs as that user."""
    import pwd

    if os.geteuid() != 0:
        pytest.skip("needs root (the container's start); CI runs as root")
    nobody = pwd.getpwnam("nobody")

    def as_nobody():
        os.setgid(nobody.pw_gid)
        os.setuid(nobody.pw_uid)

    try:
        usable = subprocess.run([sys.executable, "-c", "import datetime, django"], preexec_fn=as_nobody,
                                cwd="/", capture_output=True).returncode == 0
    except OSError:
        usable = False
    if not usable:
        pytest.skip("this Python cannot be read by the user nobody (the compose stage checks the drop in the image)")
    url, _ = fresh_database
    certs, backups = tmp_path / "certs", tmp_path / "backups"
    certs.mkdir()
    env = _env(DATABASE_URL=url, APP_USER="nobody", DB_BACKUP_DIR=str(backups), SELF_SIGNED_CERT_DIR=str(certs),
               COLLECTSTATIC_AT_START="false", SITE_URL=f"https://{HOST},https://192.168.1.20:8443")
    result = _run(env, sys.executable, "-c", "import os; print('ids', os.getuid(), os.getgid(), os.environ['HOME'])")
    assert result.returncode == 0, result.stderr
    assert f"ids {nobody.pw_uid} {nobody.pw_gid}" in result.stdout
    assert "A SELF-SIGNED ONE WAS MADE" in result.stderr and "chess.example.org, 192.168.1.20" in result.stderr
    assert {p.name for p in certs.iterdir()} == {"fullchain.pem", "privkey.pem", "venue-ca.crt", "venue-ca.key"}
    assert (certs / "privkey.pem").stat().st_uid == 0  # root's, for nginx's master process
    folder = backups.stat()
    assert (folder.st_uid, folder.st_mode & 0o777) == (nobody.pw_uid, 0o700)
