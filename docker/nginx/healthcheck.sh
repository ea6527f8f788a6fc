#!/bin/sh
# The proxy's healthcheck (docker-compose.yml): GET /health/ over https through this
# nginx to the web service, which runs a database query; under the site's first address
# (SITE_URL, else DJANGO_ALLOWED_HOSTS), since the app refuses other hosts.
first=$(printf '%s' "${SITE_URL:-}" | cut -d, -f1 | tr -d ' ')
rest=${first#*://}
case "$rest" in
  \[*) host="${rest%%]*}]" ;;
  *) host=${rest%%[:/]*} ;;
esac
if [ -z "$host" ]; then
  host=$(printf '%s' "${DJANGO_ALLOWED_HOSTS:-}" | cut -d, -f1 | tr -d ' ')
  host=${host#.}
fi
exec curl -fsS -k -o /dev/null --max-time 4 -H "Host: ${host:-localhost}" https://127.0.0.1/health/
