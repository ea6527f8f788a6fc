#!/usr/bin/env sh
# Start script of the web container (and of any production start outside one):
#   1. refuse to start in production mode without a secret key and allowed hosts;
#   2. wait, a bounded number of times, for the database;
#   3. Django's deploy checks, migrations, collectstatic;
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

"$PYTHON" manage.py migrate --noinput
"$PYTHON" manage.py collectstatic --noinput --verbosity 0

if [ "$#" -eq 0 ]; then
  set -- gunicorn arbiter_site.wsgi:application --bind 0.0.0.0:8000 --access-logfile -
fi
say "ready, starting: $*"
exec "$@"
