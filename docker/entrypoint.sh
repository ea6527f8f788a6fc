#!/usr/bin/env sh
# Container start: wait for the database, migrate, collect static files, then exec
# the command (gunicorn by default).  Tested directly against PostgreSQL in CI.
set -eu

PYTHON="${PYTHON:-python}"

tries="${DB_WAIT_TRIES:-30}"
until "$PYTHON" manage.py shell -c "from django.db import connection; connection.ensure_connection()" >/dev/null 2>&1; do
  tries=$((tries - 1))
  if [ "$tries" -le 0 ]; then
    echo "entrypoint: database not reachable, giving up" >&2
    exit 1
  fi
  echo "entrypoint: waiting for the database..." >&2
  sleep 1
done

"$PYTHON" manage.py check --deploy --fail-level ERROR
"$PYTHON" manage.py migrate --noinput
"$PYTHON" manage.py collectstatic --noinput --verbosity 0

exec "$@"
