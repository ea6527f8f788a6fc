#!/usr/bin/env sh
# Start script of the web container (and of any production start outside one):
#   1. refuse to start in production mode without a secret key and allowed hosts;
#   2. wait, a bounded number of times, for the database;
#   3. Django's deploy checks; a backup when there are migrations to apply (an upgrade);
#      migrations; collectstatic;
#   4. exec the command (gunicorn by default).
# Works from any directory: it runs from the repository root (/app in the image), with
# $PYTHON, else `python`, else `python3` from PATH.  Tested directly against PostgreSQL
# by tests/hosting/test_entrypoint.py, since no Docker engine runs in CI.
set -eu

cd "$(dirname "$0")/.."

say() { echo "entrypoint: $*" >&2; }

if [ -z "${PYTHON:-}" ]; then
  if command -v python >/dev/null 2>&1; then PYTHON=python; else PYTHON=python3; fi
fi

# The start script is for serving: production mode unless DJANGO_DEBUG says otherwise
# (the settings alone would default to debug).
DJANGO_DEBUG="${DJANGO_DEBUG:-false}"
export DJANGO_DEBUG

case "$(printf '%s' "$DJANGO_DEBUG" | tr '[:upper:]' '[:lower:]')" in
  1 | true | yes | on) production=no ;;
  *) production=yes ;;
esac

if [ "$production" = yes ]; then
  missing=""
  [ -n "${DJANGO_SECRET_KEY:-}" ] || missing="$missing DJANGO_SECRET_KEY"
  [ -n "$(printf '%s' "${DJANGO_ALLOWED_HOSTS:-}" | tr -d ', ')" ] || missing="$missing DJANGO_ALLOWED_HOSTS"
  if [ -n "$missing" ]; then
    say "refusing to start in production mode (DJANGO_DEBUG=$DJANGO_DEBUG): not set:$missing."
    say "Set them in .env (see .env.example), or DJANGO_DEBUG=true for a local trial only."
    exit 2
  fi
fi

# Settings errors (a bad boolean, say) are reported now, not as a database wait.
"$PYTHON" manage.py check --deploy --fail-level ERROR

# libpq gives up on a silent host after this many seconds (each try).
PGCONNECT_TIMEOUT="${PGCONNECT_TIMEOUT:-5}"
export PGCONNECT_TIMEOUT
tries="${DB_WAIT_TRIES:-30}"
interval="${DB_WAIT_INTERVAL:-1}"
attempt=1
until last_error=$("$PYTHON" manage.py shell -c \
    "from django.db import connection; connection.ensure_connection()" 2>&1); do
  if [ "$attempt" -ge "$tries" ]; then
    say "database not reachable after $tries tries, giving up. Last error:"
    printf '%s\n' "$last_error" | tail -n 3 >&2
    exit 1
  fi
  say "waiting for the database ($attempt/$tries)..."
  attempt=$((attempt + 1))
  sleep "$interval"
done

# A database with migrations to apply (an upgrade) is backed up first, into
# $DB_BACKUP_DIR (the "backups" volume in docker-compose.yml); no backup, no migration.
# DB_BACKUP_BEFORE_MIGRATE=false skips it (only after taking a backup another way).
# A new, empty database (the first start) has nothing to back up.
migrations=$("$PYTHON" manage.py shell -c "
from django.db import connection
from django.db.migrations.executor import MigrationExecutor
executor = MigrationExecutor(connection)
plan = executor.migration_plan(executor.loader.graph.leaf_nodes())
print('current' if not plan else 'pending' if executor.loader.applied_migrations else 'new')
" | tail -n 1)
if [ "$migrations" = pending ]; then
  case "$(printf '%s' "${DB_BACKUP_BEFORE_MIGRATE:-true}" | tr '[:upper:]' '[:lower:]')" in
    0 | false | no | off)
      say "migrations to apply; DB_BACKUP_BEFORE_MIGRATE=${DB_BACKUP_BEFORE_MIGRATE}: no backup taken." ;;
    *)
      say "migrations to apply: backing up the database first..."
      if ! backup=$("$PYTHON" manage.py backupdb --label before-migrate ${DB_BACKUP_DIR:+--dir "$DB_BACKUP_DIR"}); then
        say "the backup failed, so nothing was migrated. Fix the cause above, or take a backup"
        say "another way (README, 'Backups') and start once with DB_BACKUP_BEFORE_MIGRATE=false."
        exit 3
      fi
      say "backup written: $backup" ;;
  esac
fi
"$PYTHON" manage.py migrate --noinput
"$PYTHON" manage.py collectstatic --noinput --verbosity 0

if [ "$#" -eq 0 ]; then
  set -- gunicorn -c docker/gunicorn.conf.py arbiter_site.wsgi:application
fi
say "ready, starting: $*"
exec "$@"
