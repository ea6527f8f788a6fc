"""Background work end to end (issue 36): a real web server (gunicorn, the image's
configuration, one process) and a real worker (``manage.py run_worker``) on a throw-away
database, driven over HTTP as a browser drives them.

    .venv/bin/python benchmarks/bench_background.py [--db sqlite|postgres] [--players 1200000]
        [--trf-players 9999] [--trf-rounds 40] [--only upload button import]

* **upload**: a staff account uploads FIDE's whole list (a synthetic ``players_list_xml.zip``
  of ``--players`` players, bench_rating_list.py's generator) at ``/ratings/upload/``; the
  job's page is polled every second until the worker has loaded it.
* **button**: *Update all lists now*, FIDE's address pointing at a local HTTP server that
  serves the same list (its digest differs from the upload's record, so it is loaded again).
* **import**: a tournament played by the engine's generator (``--trf-players`` x
  ``--trf-rounds``, every round Dubov-paired) pasted on the TRF import page: over the page's
  limit, so the worker imports it and re-pairs every round; polled until it ends.

Reported: the request's time, the job's time (queued to finished), the distinct progress
steps the polling saw, and the peak resident memory (VmHWM) of the web server's worker
process and of the background worker.  Nothing is asserted (benchmarks/README.md).
"""

from __future__ import annotations

import argparse
import http.client
import http.server
import os
import re
import secrets
import signal
import socket
import subprocess
import sys
import tempfile
import threading
import time
import urllib.parse
from pathlib import Path

ROOT = Path(__file__).resolve().parents[1]
sys.path.insert(0, str(ROOT / "benchmarks"))
PG_NAME = "dubov_bench_background"
PASSWORD = "bench-background-Passw0rd"


def free_port() -> int:
    with socket.socket() as s:
        s.bind(("127.0.0.1", 0))
        return s.getsockname()[1]


def peak_kb(pid: int) -> int:
    """VmHWM of the process and of its children (gunicorn's master and worker)."""
    total = 0
    pids = [pid] + [int(p) for p in subprocess.run(["pgrep", "-P", str(pid)], capture_output=True, text=True)
                    .stdout.split()]
    for p in pids:
        try:
            for line in Path(f"/proc/{p}/status").read_text().splitlines():
                if line.startswith("VmHWM:"):
                    total = max(total, int(line.split()[1]))
        except OSError:
            pass
    return total


class Client:
    """A browser's requests: cookies, the CSRF token, multipart uploads."""

    def __init__(self, port: int):
        self.port = port
        self.cookies: dict[str, str] = {}

    def request(self, method: str, path: str, body: bytes | None = None, headers: dict | None = None):
        conn = http.client.HTTPConnection("127.0.0.1", self.port, timeout=600)
        headers = {"Host": "127.0.0.1", **(headers or {})}
        if self.cookies:
            headers["Cookie"] = "; ".join(f"{k}={v}" for k, v in self.cookies.items())
        conn.request(method, path, body=body, headers=headers)
        response = conn.getresponse()
        text = response.read().decode("utf-8", "replace")
        for name, value in response.getheaders():
            if name.lower() == "set-cookie":
                key, _, rest = value.partition("=")
                self.cookies[key.strip()] = rest.split(";")[0]
        conn.close()
        return response.status, dict(response.getheaders()), text

    def form(self, path: str, fields: dict):
        body = urllib.parse.urlencode({"csrfmiddlewaretoken": self.cookies.get("csrftoken", ""), **fields}).encode()
        return self.request("POST", path, body, {"Content-Type": "application/x-www-form-urlencoded",
                                                  "Referer": f"http://127.0.0.1:{self.port}{path}"})

    def upload(self, path: str, fields: dict, name: str, filename: str, data: bytes):
        boundary = "----bench" + secrets.token_hex(8)
        parts = [f'--{boundary}\r\nContent-Disposition: form-data; name="{k}"\r\n\r\n{v}\r\n'.encode()
                 for k, v in {"csrfmiddlewaretoken": self.cookies.get("csrftoken", ""), **fields}.items()]
        parts.append(f'--{boundary}\r\nContent-Disposition: form-data; name="{name}"; filename="{filename}"\r\n'
                     "Content-Type: application/zip\r\n\r\n".encode() + data + b"\r\n")
        body = b"".join(parts) + f"--{boundary}--\r\n".encode()
        return self.request("POST", path, body, {"Content-Type": f"multipart/form-data; boundary={boundary}",
                                                  "Referer": f"http://127.0.0.1:{self.port}{path}"})

    def login(self, username: str) -> None:
        self.request("GET", "/accounts/login/")
        status, headers, _ = self.form("/accounts/login/", {"username": username, "password": PASSWORD})
        assert status == 302, f"login of {username}: {status}"


def follow(client: Client, location: str, every: float = 1.0) -> tuple[float, list[str], str]:
    """Poll the job's page until it ends: (seconds, distinct steps seen, final status)."""
    started, steps = time.monotonic(), []
    while True:
        _, _, page = client.request("GET", location)
        step = re.search(r'<p id="job-step">(.*?)</p>', page, re.S)
        status = re.search(r'id="job-status">([^<]*)<', page)
        if step and (not steps or steps[-1] != step.group(1)):
            steps.append(step.group(1))
        if status and status.group(1) in ("done", "failed", "waits for your answer"):
            return time.monotonic() - started, steps, status.group(1)
        time.sleep(every)


def main() -> int:
    parser = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    parser.add_argument("--db", choices=["sqlite", "postgres"], default="sqlite")
    parser.add_argument("--players", type=int, default=1_200_000)
    parser.add_argument("--trf-players", type=int, default=9999)
    parser.add_argument("--trf-rounds", type=int, default=40)
    parser.add_argument("--only", nargs="*", default=["upload", "button", "import"])
    args = parser.parse_args()
    folder = Path(tempfile.mkdtemp(prefix="bench-background-"))
    if args.db == "postgres":
        subprocess.run(["dropdb", "-h", "127.0.0.1", "-U", "postgres", "--if-exists", PG_NAME], check=True)
        subprocess.run(["createdb", "-h", "127.0.0.1", "-U", "postgres", PG_NAME], check=True)
        url = f"postgres://postgres@127.0.0.1:5432/{PG_NAME}"
    else:
        url = f"sqlite:///{folder}/bench.sqlite3"
    port, list_port = free_port(), free_port()
    env = {**os.environ, "DATABASE_URL": url, "DJANGO_DEBUG": "true", "DJANGO_LOG_LEVEL": "WARNING",
           "DJANGO_UPLOAD_DIR": str(folder / "uploads"), "DJANGO_RATING_REFRESH_AT": "off",
           "DJANGO_FIDE_RATING_LIST_URL": f"http://127.0.0.1:{list_port}/players_list_xml.zip",
           "DJANGO_ARBITER_PASSWORD": PASSWORD, "WEB_CONCURRENCY": "1", "GUNICORN_BIND": f"127.0.0.1:{port}",
           "GUNICORN_TIMEOUT": "600", "DJANGO_WORKER_HEARTBEAT_FILE": str(folder / "heartbeat")}
    python = sys.executable
    manage = [python, "manage.py"]
    subprocess.run([*manage, "migrate", "-v0"], cwd=ROOT, env=env, check=True)
    subprocess.run([*manage, "createarbiter", "admin", "--staff"], cwd=ROOT, env=env, check=True,
                   stdout=subprocess.DEVNULL)
    subprocess.run([*manage, "createarbiter", "arbiter"], cwd=ROOT, env=env, check=True, stdout=subprocess.DEVNULL)

    from bench_rating_list import write_list

    zipped = folder / "players_list_xml.zip"
    if {"upload", "button"} & set(args.only):
        started = time.monotonic()
        write_list(zipped, args.players)
        print(f"list: {args.players:,} players, {zipped.stat().st_size / 1e6:.1f} MB zipped "
              f"(written in {time.monotonic() - started:.0f} s)", flush=True)

    class Files(http.server.SimpleHTTPRequestHandler):
        def __init__(self, *a, **k):
            super().__init__(*a, directory=str(folder), **k)

        def log_message(self, *a):
            pass

    files = http.server.ThreadingHTTPServer(("127.0.0.1", list_port), Files)
    threading.Thread(target=files.serve_forever, daemon=True).start()
    web = subprocess.Popen(["gunicorn", "-c", "docker/gunicorn.conf.py", "arbiter_site.wsgi:application"], cwd=ROOT,
                           env={**env, "PATH": f"{Path(python).parent}:{env['PATH']}"}, stdout=subprocess.DEVNULL,
                           stderr=subprocess.DEVNULL, start_new_session=True)
    worker = subprocess.Popen([*manage, "run_worker"], cwd=ROOT, env=env, stdout=subprocess.DEVNULL,
                              stderr=subprocess.DEVNULL, start_new_session=True)
    rows = []
    try:
        client = Client(port)
        for _ in range(100):
            try:
                client.request("GET", "/health/")
                break
            except OSError:
                time.sleep(0.3)
        if "upload" in args.only:
            client.login("admin")
            data = zipped.read_bytes()
            started = time.monotonic()
            status, headers, _ = client.upload("/ratings/upload/", {"kind": "fide", "name": "", "month": "2026-11"},
                                               "file", zipped.name, data)
            request_s = time.monotonic() - started
            assert status == 302, status
            seconds, steps, final = follow(client, urllib.parse.urlsplit(headers["Location"]).path)
            rows.append(("upload", request_s, seconds, final, steps, peak_kb(web.pid), peak_kb(worker.pid)))
            print(rows[-1], flush=True)
        if "button" in args.only:
            client.login("admin")
            started = time.monotonic()
            status, headers, _ = client.form("/ratings/update/", {})
            request_s = time.monotonic() - started
            seconds, steps, final = follow(client, urllib.parse.urlsplit(headers["Location"]).path)
            rows.append(("button", request_s, seconds, final, steps, peak_kb(web.pid), peak_kb(worker.pid)))
            print(rows[-1], flush=True)
        if "import" in args.only:
            started = time.monotonic()
            trf = folder / "big.trf"
            subprocess.run([python, "-m", "pairing.engine", "--dubov", "-g", "--players", str(args.trf_players),
                            "--rounds", str(args.trf_rounds), "--seed", "1", "--fixed", "-o", str(trf)], cwd=ROOT,
                           check=True, capture_output=True)
            print(f"TRF: {args.trf_players:,} x {args.trf_rounds}, {trf.stat().st_size / 1e6:.1f} MB "
                  f"(generated in {time.monotonic() - started:.0f} s)", flush=True)
            subprocess.run([*manage, "shell", "-c", "from django.contrib.auth.models import User; "
                            "from pairing.models import Tournament; Tournament.objects.create(slug='big', "
                            "name='Big', owner=User.objects.get(username='arbiter'))"], cwd=ROOT, env=env,
                           check=True, capture_output=True)
            client = Client(port)
            client.login("arbiter")
            client.request("GET", "/t/big/import-trf/")
            started = time.monotonic()
            status, headers, _ = client.upload("/t/big/import-trf/", {"text": ""}, "file", "big.trf",
                                               trf.read_bytes())
            request_s = time.monotonic() - started
            assert status == 302, status
            seconds, steps, final = follow(client, urllib.parse.urlsplit(headers["Location"]).path)
            rounds_seen = sorted({int(m.group(1)) for s in steps if (m := re.match(r"Round (\d+) of", s))})
            rows.append(("import", request_s, seconds, final, steps, peak_kb(web.pid), peak_kb(worker.pid)))
            print(("import", request_s, seconds, final, f"{len(steps)} steps, rounds seen {rounds_seen}"), flush=True)
    finally:
        for proc in (web, worker):
            try:
                os.killpg(proc.pid, signal.SIGTERM)
            except ProcessLookupError:
                pass
        files.shutdown()
    print()
    print(f"| {args.db} | request | job, queued to finished | result | progress steps seen | web peak | worker peak |")
    print("|---|---:|---:|---|---:|---:|---:|")
    for what, request_s, seconds, final, steps, web_kb, worker_kb in rows:
        print(f"| {what} | {request_s:.1f} s | {seconds:.0f} s | {final} | {len(steps)} | {web_kb / 1024:.0f} MB "
              f"| {worker_kb / 1024:.0f} MB |")
    return 0


if __name__ == "__main__":
    sys.exit(main())
