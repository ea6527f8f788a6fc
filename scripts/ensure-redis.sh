#!/usr/bin/env bash
# A Redis server on 127.0.0.1:6379 (REDIS_PORT) for CI's run of the public pages' cache on Redis
# (.ci/run): Debian's redis-server, installed when missing and started when nothing
# answers there (in memory only, no files). Exit status 1 when there is still none.
set -u
port=${REDIS_PORT:-6379}
ping() { redis-cli -h 127.0.0.1 -p "$port" ping 2>/dev/null | grep -q PONG; }
ping && exit 0
if ! command -v redis-server >/dev/null 2>&1; then
  if [ "$(id -u)" = "0" ] && command -v apt-get >/dev/null 2>&1; then
    echo "Installing Debian's redis-server for the cache's Redis run..."
    (DEBIAN_FRONTEND=noninteractive apt-get install -y -qq --no-install-recommends redis-server >/dev/null 2>&1 \
      || (apt-get update -qq && DEBIAN_FRONTEND=noninteractive apt-get install -y -qq --no-install-recommends redis-server >/dev/null)) \
      || echo "warning: could not install redis-server" >&2
  fi
fi
if command -v redis-server >/dev/null 2>&1; then
  redis-server --bind 127.0.0.1 --port "$port" --daemonize yes --save '' --appendonly no --dir /tmp >/dev/null
  for _ in 1 2 3 4 5 6 7 8 9 10; do ping && exit 0; sleep 0.5; done
fi
echo "error: no Redis answers on 127.0.0.1:$port" >&2
exit 1
