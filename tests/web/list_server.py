"""A local HTTP server that publishes rating-list files as FIDE's site and a national
federation's would (this machine reaches no other site): each file with its ETag and
Last-Modified, 304 for a conditional request that matches, and a failure on demand."""

from __future__ import annotations

import email.utils
import hashlib
import http.server
import threading
from contextlib import contextmanager
from dataclasses import dataclass, field


@dataclass
class Published:
    data: bytes
    modified: str  # an HTTP date

    @property
    def etag(self) -> str:
        return '"' + hashlib.sha256(self.data).hexdigest()[:16] + '"'


@dataclass
class ListServer:
    port: int = 0
    files: dict[str, Published] = field(default_factory=dict)
    failing: dict[str, int] = field(default_factory=dict)  # path -> HTTP status
    requests: list[tuple[str, int]] = field(default_factory=list)  # (path, status answered)

    def url(self, path: str) -> str:
        return f"http://127.0.0.1:{self.port}{path}"

    def publish(self, path: str, data: bytes, year: int = 2026, month: int = 11, day: int = 1) -> None:
        import datetime

        when = datetime.datetime(year, month, day, 6, 0, tzinfo=datetime.UTC)
        self.files[path] = Published(data, email.utils.format_datetime(when, usegmt=True))


@contextmanager
def list_server():
    state = ListServer()

    class Handler(http.server.BaseHTTPRequestHandler):
        def log_message(self, *args):
            pass

        def answer(self, status: int, body: bytes = b"", headers: dict | None = None) -> None:
            state.requests.append((self.path, status))
            self.send_response(status)
            for name, value in (headers or {}).items():
                self.send_header(name, value)
            self.send_header("Content-Length", str(len(body)))
            self.end_headers()
            if body:
                self.wfile.write(body)

        def do_GET(self):
            if self.path in state.failing:
                return self.answer(state.failing[self.path], b"server trouble")
            published = state.files.get(self.path)
            if published is None:
                return self.answer(404, b"not found")
            headers = {"ETag": published.etag, "Last-Modified": published.modified,
                       "Content-Type": "application/zip"}
            if self.headers.get("If-None-Match") == published.etag:
                return self.answer(304, headers=headers)
            return self.answer(200, published.data, headers)

    server = http.server.ThreadingHTTPServer(("127.0.0.1", 0), Handler)
    state.port = server.server_port
    thread = threading.Thread(target=server.serve_forever, daemon=True)
    thread.start()
    try:
        yield state
    finally:
        server.shutdown()
        server.server_close()
