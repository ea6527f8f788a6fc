# The web app for clubs that host it: gunicorn, static files via whitenoise.
# Used by docker-compose.yml; docker/entrypoint.sh migrates and collects static files
# at start (so the same image serves any database).
FROM python:3.11-slim

ENV PYTHONDONTWRITEBYTECODE=1 \
    PYTHONUNBUFFERED=1 \
    PIP_NO_CACHE_DIR=1 \
    DJANGO_DEBUG=false \
    WEB_CONCURRENCY=3

RUN useradd --system --home-dir /app --shell /usr/sbin/nologin arbiter

WORKDIR /app

COPY requirements.txt .
RUN pip install -r requirements.txt

# .dockerignore keeps .env, the venv, SQLite files and test artefacts out of the image.
COPY --chown=arbiter:arbiter . .
RUN chmod 0755 /app/docker/entrypoint.sh

USER arbiter

EXPOSE 8000
HEALTHCHECK --interval=30s --timeout=5s --start-period=30s --retries=3 \
    CMD ["python", "/app/docker/healthcheck.py"]
ENTRYPOINT ["/app/docker/entrypoint.sh"]
CMD ["gunicorn", "arbiter_site.wsgi:application", "--bind", "0.0.0.0:8000", "--timeout", "120", "--access-logfile", "-"]
