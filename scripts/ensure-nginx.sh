#!/usr/bin/env bash
# Installs Debian's nginx for tests/hosting/test_slow_clients.py when it is missing: the
# test runs docker/nginx/nginx.conf (the compose stack's proxy) in front of gunicorn.
# Only the binary is used; the package's own site is never started by the tests.
set -u
if command -v nginx >/dev/null 2>&1 || [ -x /usr/sbin/nginx ]; then
  exit 0
fi
if [ "$(id -u)" = "0" ] && command -v apt-get >/dev/null 2>&1; then
  echo "Installing Debian's nginx for the proxy tests..."
  (DEBIAN_FRONTEND=noninteractive apt-get install -y -qq --no-install-recommends nginx >/dev/null 2>&1 \
    || (apt-get update -qq && DEBIAN_FRONTEND=noninteractive apt-get install -y -qq --no-install-recommends nginx >/dev/null)) \
    || echo "warning: could not install nginx; the proxy tests will be skipped" >&2
else
  echo "note: nginx is missing and cannot be installed here; the proxy tests will be skipped" >&2
fi
exit 0
