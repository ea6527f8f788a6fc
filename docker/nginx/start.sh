#!/bin/sh
# The proxy's start (docker-compose.yml, service "proxy"; this folder is mounted at
# /etc/nginx/dubov): wait for the site's certificate, write the https port for the
# http -> https redirect, then run nginx with nginx.conf in the foreground.
set -eu
trap 'exit 0' TERM INT
certs=/etc/nginx/certs
waited=0
while [ ! -s "$certs/fullchain.pem" ] || [ ! -s "$certs/privkey.pem" ]; do
  if [ $((waited % 15)) -eq 0 ]; then
    echo "proxy: waiting for certs/fullchain.pem and certs/privkey.pem: the web service makes a" \
         "self-signed pair on its first start when certs/ has none (see its log), or put the" \
         "site's certificate there" >&2
  fi
  waited=$((waited + 1))
  sleep 1 &
  wait $!
done

port=${HTTPS_PORT:-443}
port=${port##*:}   # "127.0.0.1:443" publishes on one address: the port is after the colon
case "$port" in
  '' | *[!0-9]*) echo "proxy: HTTPS_PORT must end in a port number, got '${HTTPS_PORT:-}'" >&2; exit 2 ;;
esac
suffix=""
[ "$port" = 443 ] || suffix=":$port"
mkdir -p /tmp/dubov-nginx
printf 'map $host $https_port_suffix { default "%s"; }\n' "$suffix" > /tmp/dubov-nginx/https-port.conf
exec nginx -c /etc/nginx/dubov/nginx.conf -g 'daemon off;'
