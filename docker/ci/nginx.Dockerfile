# CI's stand-in for nginx:1.27 (no registry can be reached from CI): Debian bookworm's
# nginx in the foreground, with curl for the compose file's healthcheck.  The compose
# file mounts docker/nginx/nginx.conf over /etc/nginx/nginx.conf, as with the official image.
ARG DEBIAN_BASE=dubov-ci/debian:bookworm
FROM ${DEBIAN_BASE}
RUN apt-get update \
    && apt-get install -y --no-install-recommends nginx curl ca-certificates \
    && rm -rf /var/lib/apt/lists/*
EXPOSE 80 443
STOPSIGNAL SIGQUIT
CMD ["nginx", "-g", "daemon off;"]
