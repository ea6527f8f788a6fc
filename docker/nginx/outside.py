"""The stack's proxy configuration (nginx.conf in this folder) for an nginx started outside
Docker: Debian's, on this machine.  The tests (tests/hosting/test_slow_clients.py, and
through the load test tests/hosting/test_proxy_cache.py) and the load test
(benchmarks/load_stack.py) run the very file the proxy service runs, with only its
addresses and folders changed, in this one place.  A change of nginx.conf's shape (one of
these lines gone or doubled) is an error here, so the copy never drifts silently.
"""

from __future__ import annotations

from pathlib import Path

HERE = Path(__file__).resolve().parent


def configure(folder: Path, *, host: str, http_port: int, https_port: int, app: str, certs: Path,
              access_log: Path | None = None) -> Path:
    """Write ``folder``/nginx.conf listening on ``host`` and passing to ``app``
    ("127.0.0.1:8000"), with the site's certificate in ``certs``; its temporary and cache
    folders in ``folder`` (made readable by nginx's workers, which run as another user
    when nginx is started as root).  Returns the file's path."""
    folder.mkdir(parents=True, exist_ok=True)
    folder.chmod(0o755)
    listen = f"[{host}]" if ":" in host else host
    # what docker/nginx/start.sh writes from HTTPS_PORT: the redirect keeps the port
    (folder / "https-port.conf").write_text(f'map $host $https_port_suffix {{ default ":{https_port}"; }}\n')
    changes = [
        ("listen 80;", f"listen {listen}:{http_port};", 1),
        ("listen 443 ssl;", f"listen {listen}:{https_port} ssl;", 1),
        ("set $app http://web:8000;", f"set $app http://{app};", 1),
        ("/etc/nginx/certs/", f"{certs}/", 2),
        ("/etc/nginx/dubov/proxy-app.conf", str(HERE / "proxy-app.conf"), 3),
        ("/etc/nginx/dubov/html", str(HERE / "html"), 1),
        ("/tmp/dubov-nginx/https-port.conf", str(folder / "https-port.conf"), 1),
        # the five temporary folders and the micro-cache's
        ("/tmp/nginx-", f"{folder}/nginx-", 6),
    ]
    if access_log is not None:
        changes.append(("access_log /dev/stdout;", f"access_log {access_log};", 1))
    conf = (HERE / "nginx.conf").read_text()
    for old, new, times in changes:
        if conf.count(old) != times:
            raise ValueError(f"docker/nginx/nginx.conf: {old!r} is there {conf.count(old)} times, not {times}")
        conf = conf.replace(old, new)
    path = folder / "nginx.conf"
    path.write_text(conf)
    return path
