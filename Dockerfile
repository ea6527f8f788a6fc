# The web app for clubs that host it: gunicorn (docker/gunicorn.conf.py), static files via
# whitenoise; in docker-compose.yml behind nginx.
# Used by docker-compose.yml; docker/entrypoint.sh migrates and collects static files
# at start (so the same image serves any database).
# The base can be changed at build time (CI builds on a local Debian base, since no registry
# is reachable there: docker build --build-arg PYTHON_BASE=dubov-ci/python:3.11 .).
ARG PYTHON_BASE=python:3.11-slim
FROM ${PYTHON_BASE}

ENV PYTHONDONTWRITEBYTECODE=1 \
    PYTHONUNBUFFERED=1 \
    PIP_NO_CACHE_DIR=1 \
    DJANGO_DEBUG=false \
    WEB_CONCURRENCY=3 \
    GUNICORN_BIND=0.0.0.0:8000 \
    DB_BACKUP_DIR=/app/backups

# pg_dump, for the backup the start script takes before migrating (manage.py backupdb).
# Debian's client is at least as new as the compose file's PostgreSQL server (pg_dump can
# dump servers older than itself, not newer ones).
RUN apt-get update \
    && apt-get install -y --no-install-recommends postgresql-client \
    && rm -rf /var/lib/apt/lists/*

RUN useradd --system --home-dir /app --shell /usr/sbin/nologin arbiter

WORKDIR /app

COPY requirements.txt .
RUN pip install -r requirements.txt

# .dockerignore keeps .env, the venv, SQLite files and test artefacts out of the image.
COPY --chown=arbiter:arbiter . .
RUN chmod 0755 /app/docker/entrypoint.sh \
    && mkdir -p /app/backups /app/staticfiles /app/uploads \
    && chown arbiter:arbiter /app/backups /app/staticfiles /app/uploads

USER arbiter

EXPOSE 8000
HEALTHCHECK --interval=30s --timeout=5s --start-period=30s --retries=3 \
    CMD ["python", "/app/docker/healthcheck.py"]
ENTRYPOINT ["/app/docker/entrypoint.sh"]
CMD ["gunicorn", "-c", "docker/gunicorn.conf.py", "arbiter_site.wsgi:application"]
