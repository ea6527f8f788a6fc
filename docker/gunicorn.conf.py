"""gunicorn's settings for serving the app (the image's command, docker-compose.yml, and
docker/entrypoint.sh's default): ``gunicorn -c docker/gunicorn.conf.py arbiter_site.wsgi``.

Threaded workers (``gthread``): a client that sends its body slowly holds one thread, not
a whole worker, and idle keep-alive connections wait in the worker's poller, not in a
thread.  In the compose stack gunicorn is reachable only from the reverse proxy (nginx,
docker/nginx/nginx.conf), which reads every request completely before passing it on, so
slow clients never reach gunicorn there; the threads are what keeps a server without that
proxy answering (tests/hosting/test_slow_clients.py).

Every value can be changed from the environment without editing this file.
"""

from __future__ import annotations

import os


def _env_int(name: str, default: int) -> int:
    raw = os.environ.get(name, "").strip()
    if not raw:
        return default
    if not raw.isascii() or not raw.isdigit() or int(raw) < 1:
        raise SystemExit(f"gunicorn.conf.py: {name} must be a whole number of at least 1, got {raw!r}")
    return int(raw)


# Inside the container: every interface of the container, which in the compose stack is
# the internal network only (no port of the web service is published on the host).
bind = [os.environ.get("GUNICORN_BIND", "0.0.0.0:8000")]
worker_class = "gthread"
workers = _env_int("WEB_CONCURRENCY", 3)
threads = _env_int("GUNICORN_THREADS", 8)
# A request may take this long (the largest TRF import measured: 69 s on PostgreSQL).
timeout = _env_int("GUNICORN_TIMEOUT", 120)
graceful_timeout = 30
keepalive = 5
# Request line and headers: gunicorn's defaults, written out.
limit_request_line = 4094
limit_request_fields = 100
limit_request_field_size = 8190
accesslog = "-"
errorlog = "-"
