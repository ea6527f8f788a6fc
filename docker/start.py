"""The web container's start, in one Python process (docker/entrypoint.sh runs it):

1. refuse to start in production mode without a secret key and the site's address;
2. as root only (the container starts as root): make the venue's self-signed certificate
   when ``certs/`` has none (docker/certs.py; SELF_SIGNED_CERT_DIR), give the backups
   folder to the app's user with private modes, then drop to that user (APP_USER);
3. Django's deploy checks; wait, a bounded number of times, for the database;
4. a backup when there are migrations to apply (an upgrade); migrations; collectstatic
   unless the image has collected the static files already (COLLECTSTATIC_AT_START);
5. run the command (gunicorn by default) in place of this process.

Django is set up once for all of it (five ``manage.py`` runs cost the restart seconds
of downtime before), and gunicorn itself runs in this same process, so its preloaded app
finds Django already imported; any other command is exec'd.  Works outside a container
too, from any directory, with any Python that has the requirements
(tests/hosting/test_entrypoint.py runs it so).
"""

from __future__ import annotations

import os
import shutil
import sys
import time
from pathlib import Path

STARTED = time.monotonic()
ROOT = Path(__file__).resolve().parents[1]
DEFAULT_COMMAND = ["gunicorn", "-c", "docker/gunicorn.conf.py", "arbiter_site.wsgi:application"]
TRUE, FALSE = {"1", "true", "yes", "on"}, {"0", "false", "no", "off"}


def say(text: str) -> None:
    print(f"entrypoint: {text}", file=sys.stderr, flush=True)


def env_flag(name: str, default: bool) -> bool:
    value = os.environ.get(name, "").strip().lower()
    return default if not value else value not in FALSE


def refuse_incomplete_production() -> None:
    """Production mode unless DJANGO_DEBUG says otherwise (the settings alone would
    default to debug); it needs a secret key and the site's address."""
    debug = os.environ.get("DJANGO_DEBUG") or "false"
    os.environ.update(DJANGO_DEBUG=debug)
    if debug.strip().lower() in TRUE:
        return
    missing = []
    if not os.environ.get("DJANGO_SECRET_KEY"):
        missing.append("DJANGO_SECRET_KEY")
    hosts = os.environ.get("SITE_URL", "") + os.environ.get("DJANGO_ALLOWED_HOSTS", "")
    if not hosts.replace(",", "").strip():
        missing.append("SITE_URL")
    if missing:
        say(f"refusing to start in production mode (DJANGO_DEBUG={debug}): not set: {' '.join(missing)}.")
        say("Set them in .env (see .env.example), or DJANGO_DEBUG=true for a local trial only.")
        sys.exit(2)


def site_names() -> list[str]:
    """The names and addresses of SITE_URL (and DJANGO_ALLOWED_HOSTS' plain names)."""
    sys.path.insert(0, str(ROOT))
    from arbiter_site.site_url import SiteUrlError, parse_site_urls

    try:
        names = [a.host for a in parse_site_urls(os.environ.get("SITE_URL", ""))]
    except SiteUrlError as exc:
        say(str(exc))
        sys.exit(2)
    for host in os.environ.get("DJANGO_ALLOWED_HOSTS", "").split(","):
        host = host.strip().strip("[]").lower()
        if host and "*" not in host and not host.startswith("."):
            names.append(host)
    return list(dict.fromkeys(names))


def prepare_as_root() -> None:
    """What needs root: the certificate and the backups folder (host folders mounted by
    docker-compose.yml, which the app's user could not write); then drop to that user."""
    import pwd

    cert_dir = os.environ.get("SELF_SIGNED_CERT_DIR")
    if cert_dir and Path(cert_dir).is_dir():
        sys.path.insert(0, str(Path(__file__).resolve().parent))
        import certs

        try:
            certs.ensure(Path(cert_dir), site_names())
        except (OSError, RuntimeError) as exc:
            say(f"could not make the self-signed certificate in {cert_dir}: {exc}")
    user = os.environ.get("APP_USER")
    if not user:
        say("running as root: set APP_USER to the user the app should run as")
        return
    account = pwd.getpwnam(user)
    backups = os.environ.get("DB_BACKUP_DIR")
    if backups:
        folder = Path(backups)
        folder.mkdir(parents=True, exist_ok=True)
        os.chown(folder, account.pw_uid, account.pw_gid)
        os.chmod(folder, 0o700)
    os.initgroups(user, account.pw_gid)
    os.setgid(account.pw_gid)
    os.setuid(account.pw_uid)
    home = account.pw_dir if Path(account.pw_dir).is_dir() else "/tmp"
    os.environ.update(HOME=home, USER=user, LOGNAME=user)


def wait_for_database(connection) -> None:
    from django.db import OperationalError

    tries = int(os.environ.get("DB_WAIT_TRIES") or 30)
    interval = float(os.environ.get("DB_WAIT_INTERVAL") or 1)
    for attempt in range(1, tries + 1):
        try:
            connection.ensure_connection()
            return
        except OperationalError as exc:
            connection.close()
            if attempt == tries:
                say(f"database not reachable after {tries} tries, giving up. Last error:")
                for line in str(exc).strip().splitlines()[-3:]:
                    print(line, file=sys.stderr)
                sys.exit(1)
            say(f"waiting for the database ({attempt}/{tries})...")
            time.sleep(interval)


def migration_state(connection) -> str:
    """'current', 'pending' (an upgrade) or 'new' (an empty database)."""
    from django.db.migrations.executor import MigrationExecutor

    executor = MigrationExecutor(connection)
    plan = executor.migration_plan(executor.loader.graph.leaf_nodes())
    if not plan:
        return "current"
    return "pending" if executor.loader.applied_migrations else "new"


def backup_before_migrating() -> None:
    """No backup, no migration (DB_BACKUP_BEFORE_MIGRATE=false skips it, only after a
    backup taken another way)."""
    import io

    from django.core.management import CommandError, call_command

    if not env_flag("DB_BACKUP_BEFORE_MIGRATE", True):
        say(f"migrations to apply; DB_BACKUP_BEFORE_MIGRATE={os.environ.get('DB_BACKUP_BEFORE_MIGRATE')}: no backup taken.")
        return
    say("migrations to apply: backing up the database first...")
    out = io.StringIO()
    options = {"label": "before-migrate", "stdout": out}
    if os.environ.get("DB_BACKUP_DIR"):
        options["dir"] = os.environ.get("DB_BACKUP_DIR")
    try:
        call_command("backupdb", **options)
    except CommandError as exc:
        say(f"backupdb: {exc}")
        say("the backup failed, so nothing was migrated. Fix the cause above, or take a backup")
        say("another way (README, 'Backups') and start once with DB_BACKUP_BEFORE_MIGRATE=false.")
        sys.exit(3)
    say(f"backup written: {out.getvalue().strip()}")


def main(command: list[str]) -> None:
    refuse_incomplete_production()
    if os.name == "posix" and os.geteuid() == 0:
        prepare_as_root()

    os.chdir(ROOT)
    sys.path.insert(0, str(ROOT))
    os.environ.setdefault("DJANGO_SETTINGS_MODULE", "arbiter_site.settings")
    # libpq gives up on a silent host after this many seconds (each try).
    os.environ.setdefault("PGCONNECT_TIMEOUT", "5")
    import django

    django.setup()  # a settings error (a bad boolean, a bad SITE_URL) stops here, said plainly
    from django.core.management import call_command
    from django.db import connection

    call_command("check", deploy=True, fail_level="ERROR")
    wait_for_database(connection)
    state = migration_state(connection)
    if state == "pending":
        backup_before_migrating()
    if state == "current":
        say("no migrations to apply")
    else:
        call_command("migrate", interactive=False)
    if env_flag("COLLECTSTATIC_AT_START", True):
        call_command("collectstatic", interactive=False, verbosity=0)
    connection.close()

    command = command or DEFAULT_COMMAND
    say(f"ready after {time.monotonic() - STARTED:.1f} s, starting: {' '.join(command)}")
    sys.stdout.flush()
    if Path(command[0]).name == "gunicorn":
        from gunicorn.app.wsgiapp import run

        sys.argv = [shutil.which(command[0]) or command[0], *command[1:]]
        sys.exit(run())
    os.execvp(command[0], command)


if __name__ == "__main__":
    main(sys.argv[1:])
