"""Container healthcheck: GET /health/ on the local gunicorn; exit 0 only on 200 "ok".

Production settings would refuse a bare http://127.0.0.1 request (the host is not one of
SITE_URL's, and plain http is redirected to https), so the request names the site's first
address (SITE_URL, else DJANGO_ALLOWED_HOSTS) and says it came through the TLS proxy, as
the real proxy would.
Only the standard library: it runs in the image without the app's settings.
"""

from __future__ import annotations

import http.client
import json
import os
import sys
from urllib.parse import urlsplit


def host_header(allowed: str, site_url: str = "") -> str:
    for url in (u.strip() for u in site_url.split(",")):
        host = urlsplit(url).netloc.rsplit("@", 1)[-1] if url else ""
        if host:
            return host  # with its port: the app only matches the name
    for host in (h.strip() for h in allowed.split(",")):
        if host and host != "*":
            return host.lstrip(".")  # ".example.org" allows example.org itself
    return "localhost"


def main() -> int:
    port = int(os.environ.get("HEALTHCHECK_PORT") or 8000)
    conn = http.client.HTTPConnection("127.0.0.1", port, timeout=4)
    try:
        conn.request(
            "GET",
            "/health/",
            headers={
                "Host": host_header(os.environ.get("DJANGO_ALLOWED_HOSTS", ""), os.environ.get("SITE_URL", "")),
                "X-Forwarded-Proto": "https",
            },
        )
        response = conn.getresponse()
        body = response.read()
    except OSError as exc:
        print(f"healthcheck: no answer on port {port}: {exc}", file=sys.stderr)
        return 1
    finally:
        conn.close()
    try:
        status = json.loads(body).get("status")
    except ValueError:
        status = None
    if response.status != 200 or status != "ok":
        print(f"healthcheck: HTTP {response.status}: {body[:200]!r}", file=sys.stderr)
        return 1
    return 0


if __name__ == "__main__":
    sys.exit(main())
