#!/usr/bin/env sh
# Start script of the web container (and of any production start outside one): runs
# docker/start.py, one Python process that checks the settings, makes the venue's
# certificate when certs/ has none (as root, then drops to the app's user), waits for the
# database, backs it up when there are migrations to apply, migrates, and then execs the
# command (gunicorn by default): `docker/entrypoint.sh [command...]`.
# Works from any directory, with $PYTHON, else `python`, else `python3` from PATH.
# Tested directly against PostgreSQL by tests/hosting/test_entrypoint.py.
set -eu
here="$(cd "$(dirname "$0")" && pwd)"
if [ -z "${PYTHON:-}" ]; then
  if command -v python >/dev/null 2>&1; then PYTHON=python; else PYTHON=python3; fi
fi
exec "$PYTHON" "$here/start.py" "$@"
