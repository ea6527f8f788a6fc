# The web app for clubs that host it: gunicorn (docker/gunicorn.conf.py), static files
# collected here and served by whitenoise; in docker-compose.yml behind nginx.
# The container starts with docker/entrypoint.sh (docker/start.py): as root only to make
# the venue's certificate and the backups folder, then as user arbiter, which cannot write
# the code (owned by root): checks, the database wait, a backup before migrating, migrate.
#
# PYTHON_BASE and POSTGRES_IMAGE come from docker-compose.yml (the same POSTGRES_IMAGE as
# its db service).  Without Docker Hub, `make local-images` builds both from Debian's
# packages and names them in .env (scripts/local_images.py).
ARG PYTHON_BASE=python:3.11-slim-trixie
ARG POSTGRES_IMAGE=postgres:16-bookworm

# The database server's image, only to read its PostgreSQL version: the backup taken
# before an upgrade runs this image's pg_dump, which cannot dump a newer server.
FROM ${POSTGRES_IMAGE} AS dbserver
RUN postgres --version > /tmp/postgres-server-version

FROM ${PYTHON_BASE}

ENV PYTHONDONTWRITEBYTECODE=1 \
    PYTHONUNBUFFERED=1 \
    PIP_NO_CACHE_DIR=1 \
    DJANGO_DEBUG=false \
    WEB_CONCURRENCY=3 \
    GUNICORN_BIND=0.0.0.0:8000 \
    APP_USER=arbiter \
    DB_BACKUP_DIR=/backups \
    COLLECTSTATIC_AT_START=false

# pg_dump of the server's major version when this Debian has it, else Debian's own
# client when it is newer; an older one stops the build here, saying what to change.
# openssl: the venue's self-signed certificate (docker/certs.py).
COPY --from=dbserver /tmp/postgres-server-version /tmp/postgres-server-version
RUN set -eu; \
    server=$(sed -E 's/^[^0-9]*([0-9]+).*/\1/' /tmp/postgres-server-version); \
    apt-get update; \
    if apt-cache show "postgresql-client-$server" >/dev/null 2>&1; then client_package="postgresql-client-$server"; \
    else client_package=postgresql-client; fi; \
    apt-get install -y --no-install-recommends "$client_package" openssl; \
    rm -rf /var/lib/apt/lists/*; \
    client=$(pg_dump --version | sed -E 's/^[^0-9]*([0-9]+).*/\1/'); \
    if [ "$client" -lt "$server" ]; then \
      echo "pg_dump $client (this image's Debian) is older than the PostgreSQL $server server of POSTGRES_IMAGE:" >&2; \
      echo "the backup before an upgrade would fail. Use a PYTHON_BASE whose Debian has PostgreSQL $server or newer" >&2; \
      echo "(python:3.11-slim-trixie has 17), or the POSTGRES_IMAGE your data was made with." >&2; \
      exit 1; \
    fi; \
    echo "pg_dump $client for PostgreSQL server $server" > /etc/dubov-pg-versions

RUN groupadd --system --gid 10001 arbiter \
    && useradd --system --uid 10001 --gid arbiter --home-dir /nonexistent --no-create-home \
        --shell /usr/sbin/nologin arbiter \
    && mkdir -p /backups /app/uploads && chown arbiter:arbiter /backups /app/uploads && chmod 0700 /backups

WORKDIR /app

COPY requirements.txt .
RUN pip install -r requirements.txt

# .dockerignore keeps .env, certs, backups, the venv, SQLite files and test artefacts out.
# The code stays root's: the app's user reads it and cannot change it (it writes only the
# backups folder and /app/uploads, rating-list files waiting for the worker).
COPY . .
RUN chmod 0755 docker/entrypoint.sh \
    && python -m compileall -q arbiter_site pairing docker manage.py \
    && DJANGO_SECRET_KEY="$(python -c 'import secrets; print(secrets.token_urlsafe(50))')" \
       SITE_URL=https://localhost DJANGO_ALLOWED_HOSTS=localhost python manage.py collectstatic --noinput --verbosity 0

EXPOSE 8000
HEALTHCHECK --interval=10s --timeout=5s --start-period=60s --retries=3 \
    CMD ["python", "/app/docker/healthcheck.py"]
ENTRYPOINT ["/app/docker/entrypoint.sh"]
CMD ["gunicorn", "-c", "docker/gunicorn.conf.py", "arbiter_site.wsgi:application"]
