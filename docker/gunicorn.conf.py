"""gunicorn's settings for serving the app (the image's command, docker-compose.yml, and
docker/entrypoint.sh's default): ``gunicorn -c docker/gunicorn.conf.py arbiter_site.wsgi``.

Threaded workers (``gthread``): a client that sends its body slowly holds one thread, not
a whole worker, and idle keep-alive connections wait in the worker's poller, not in a
thread.  In the compose stack gunicorn is reachable only from the reverse proxy (nginx,
docker/nginx/nginx.conf), which reads every request completely before passing it on, so
slow clients never reach gunicorn there; the threads are what keeps a server without that
proxy answering (tests/hosting/test_slow_clients.py).

gunicorn itself has no limit on how long a request body may take to arrive: each slow
body holds a thread, and about 25 of them (3 workers x 8 threads) stopped /health/ when
sent straight to it (issue 33).  So, outside a container, it listens on 127.0.0.1 unless
GUNICORN_BIND says otherwise (the image sets 0.0.0.0:8000 for its internal network), a
proxy that reads bodies first (nginx) stands in front, and :func:`pre_request` below cuts
a body that has not arrived within GUNICORN_BODY_TIMEOUT seconds (30), freeing its thread.

Every value can be changed from the environment without editing this file.
"""

from __future__ import annotations

import os
import time


def _env_int(name: str, default: int) -> int:
    raw = os.environ.get(name, "").strip()
    if not raw:
        return default
    if not raw.isascii() or not raw.isdigit() or int(raw) < 1:
        raise SystemExit(f"gunicorn.conf.py: {name} must be a whole number of at least 1, got {raw!r}")
    return int(raw)


# Outside a container: the loopback address only (a proxy on the same host in front).
# Inside the image GUNICORN_BIND is 0.0.0.0:8000 (Dockerfile): every interface of the
# container, which in the compose stack is the internal network only (no port of the web
# service is published on the host).
bind = [os.environ.get("GUNICORN_BIND", "127.0.0.1:8000")]
worker_class = "gthread"
# The app is loaded once, before the workers are forked: a restart's workers are ready
# at once instead of each importing Django on a shared CPU (the restart's downtime).
preload_app = True
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
# One line per request: gunicorn's, unless a proxy in front logs them (docker-compose.yml
# sets GUNICORN_ACCESS_LOG=off for the web service, since nginx writes that line).
accesslog = None if os.environ.get("GUNICORN_ACCESS_LOG", "").strip().lower() in ("off", "false", "0", "no") else "-"
errorlog = "-"
# No control socket (gunicornc): it is not used, and its default folder ($HOME/.gunicorn)
# is not writable by the app's user (an error line on every start).
control_socket_disable = True

# The longest a request's body may take to arrive, from the end of its headers.
body_timeout = _env_int("GUNICORN_BODY_TIMEOUT", 30)


def pre_request(worker, req) -> None:
    """Bound the reading of this request's body by ``body_timeout`` seconds in all: each
    read of the connection's socket may wait only for what is left of it, so a client
    that sends its body slowly (or not at all) gets a timeout error in the app and its
    thread is free again.  The wrapper is put on the connection's reader once; each
    request sets its own deadline, and post_request clears it (keep-alive waits are the
    poller's, not a read)."""
    unreader = req.unreader
    sock = getattr(unreader, "sock", None)
    if sock is None or not hasattr(sock, "settimeout"):
        return
    if not hasattr(unreader, "plain_chunk"):
        unreader.plain_chunk = unreader.chunk

        def chunk(*args):
            # gunicorn calls it with a read-ahead size on keep-alive connections
            deadline = getattr(unreader, "body_deadline", None)
            if deadline is None:
                return unreader.plain_chunk(*args)
            remaining = deadline - time.monotonic()
            if remaining <= 0:
                raise TimeoutError(f"the request body took longer than {body_timeout} s")
            sock.settimeout(remaining)
            try:
                return unreader.plain_chunk(*args)
            finally:
                sock.settimeout(None)

        unreader.chunk = chunk
    unreader.body_deadline = time.monotonic() + body_timeout


def post_request(worker, req, environ, resp) -> None:
    req.unreader.body_deadline = None


def worker_exit(server, worker):
    """A worker that has finished its last request leaves at once.  Python's own teardown
    of the whole app, in every worker at the same moment, took most of a restart's stop
    time (about 2 s of 2.2 s, measured); there is nothing left to write by then (the log
    is unbuffered, an idle database connection just closes)."""
    os._exit(0)
