# Stand-in for nginx:1.27 built from Debian's packages (`make local-images`, and CI):
# bookworm's nginx in the foreground, with curl for the compose file's healthcheck.  The
# compose file starts it with docker/nginx/start.sh and docker/nginx/nginx.conf, as it
# starts the official image.
ARG DEBIAN_BASE=dubov-local/debian:bookworm
FROM ${DEBIAN_BASE}
RUN apt-get update \
    && apt-get install -y --no-install-recommends nginx curl ca-certificates \
    && rm -rf /var/lib/apt/lists/*
EXPOSE 80 443
STOPSIGNAL SIGQUIT
CMD ["nginx", "-g", "daemon off;"]
