#!/usr/bin/env bash
# Installs Debian's chromium for the real-browser tests when it is missing.
# Browsers cannot be downloaded by Playwright here; Debian's package is used instead.
set -u
if [ -x /usr/bin/chromium ]; then
  exit 0
fi
if [ "$(id -u)" = "0" ] && command -v apt-get >/dev/null 2>&1; then
  echo "Installing Debian's chromium for the browser tests..."
  (apt-get update -qq && DEBIAN_FRONTEND=noninteractive apt-get install -y -qq chromium >/dev/null) \
    || echo "warning: could not install chromium; browser tests will be skipped" >&2
else
  echo "note: /usr/bin/chromium is missing and cannot be installed here; browser tests will be skipped" >&2
fi
exit 0
