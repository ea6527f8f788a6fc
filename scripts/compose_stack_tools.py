"""The pieces of the CI compose stage (scripts/compose_stack_check.py): commands, the
stack (docker compose v2 or docker-compose 1.29), an HTTPS client of the proxy, a prober
that times outages, and the tournament the checks play."""

from __future__ import annotations

import http.client
import os
import re
import ssl
import subprocess
import threading
import time
import urllib.parse
from contextlib import contextmanager
from pathlib import Path

PROJECT = os.environ.get("STACK_PROJECT", "dubovci")  # another name runs a second stack beside it
HOST = "chess.example.org"
HTTPS_PORT = int(os.environ.get("STACK_HTTPS_PORT", "18443"))
HTTP_PORT = int(os.environ.get("STACK_HTTP_PORT", "18080"))
CHIEF, STAFF, PASSWORD = "ci-chief", "ci-staff", "stack-check-Passw0rd-long"

timings: list[tuple[str, float]] = []
figures: dict[str, float] = {}


class StackFailed(Exception):
    pass


def say(text: str) -> None:
    print(f"stack: {text}", flush=True)


@contextmanager
def step(name: str):
    started = time.monotonic()
    say(f"--- {name}")
    try:
        yield
    finally:
        took = time.monotonic() - started
        timings.append((name, took))
        say(f"    {name}: {took:.1f} s")


def run(*command: str, cwd: Path | None = None, env: dict | None = None, input: str | None = None,
        check: bool = True, quiet: bool = False) -> subprocess.CompletedProcess:
    result = subprocess.run(command, cwd=cwd, env=env, input=input, capture_output=True, text=True)
    if check and result.returncode != 0:
        raise StackFailed(f"{' '.join(command)} exited {result.returncode}:\n{result.stdout[-3000:]}\n{result.stderr[-3000:]}")
    if not quiet and result.stdout.strip():
        print(result.stdout.strip()[-2000:], flush=True)
    return result


def check(condition: bool, what: str) -> None:
    if not condition:
        raise StackFailed(what)
    say(f"ok: {what}")


def compose_command() -> list[str]:
    if subprocess.run(["docker", "compose", "version"], capture_output=True).returncode == 0:
        return ["docker", "compose"]
    return ["docker-compose"]


class Stack:
    """The compose project in ``workdir``; WEB_IMAGE comes from its .env."""

    def __init__(self, workdir: Path):
        self.workdir = workdir
        self.compose = [*compose_command(), "-p", PROJECT]

    def __call__(self, *args: str, input: str | None = None, check: bool = True,
                 quiet: bool = True) -> subprocess.CompletedProcess:
        return run(*self.compose, *args, cwd=self.workdir, input=input, check=check, quiet=quiet)

    def container(self, service: str) -> str:
        return self("ps", "-q", service).stdout.strip()

    def inspect(self, service: str, field: str) -> str:
        cid = self.container(service)
        if not cid:
            return "missing"
        return run("docker", "inspect", "--format", field, cid, check=False, quiet=True).stdout.strip()

    def wait_healthy(self, *services: str, timeout: float = 180) -> None:
        deadline = time.monotonic() + timeout
        states = {}
        while time.monotonic() < deadline:
            states = {service: self.inspect(service, "{{.State.Health.Status}}") for service in services}
            if all(state == "healthy" for state in states.values()):
                say(f"healthy: {', '.join(services)}")
                return
            time.sleep(1)
        logs = self("logs", "--tail", "40", check=False).stdout
        raise StackFailed(f"not healthy after {timeout} s: {states}\n{logs}")

    def logs(self, service: str) -> str:
        return self("logs", "--no-color", service).stdout

    def psql(self, sql: str) -> str:
        return self("exec", "-T", "db", "psql", "-U", "dubov", "-d", "dubov", "-At", "-c", sql).stdout.strip()

    def down(self) -> None:
        self("down", "-v", "--remove-orphans", check=False)


# --- HTTPS through the proxy ---------------------------------------------------------------


def _insecure() -> ssl.SSLContext:
    context = ssl.create_default_context()
    context.check_hostname = False
    context.verify_mode = ssl.CERT_NONE
    return context


def health(timeout: float = 2) -> str:
    """GET /health/ through the proxy: "200", "503", ... or the error's name."""
    conn = http.client.HTTPSConnection("127.0.0.1", HTTPS_PORT, timeout=timeout, context=_insecure())
    try:
        conn.request("GET", "/health/", headers={"Host": f"{HOST}:{HTTPS_PORT}"})
        response = conn.getresponse()
        response.read()
        return str(response.status)
    except (OSError, http.client.HTTPException) as exc:
        return type(exc).__name__
    finally:
        conn.close()


class Prober:
    """Asks /health/ through the proxy ten times a second while something happens;
    ``outage`` is the time from the first answer that was not 200 to the next 200."""

    def __init__(self):
        self.log: list[tuple[float, str]] = []
        self._stop = threading.Event()
        self._thread = threading.Thread(target=self._run, daemon=True)

    def _run(self) -> None:
        while not self._stop.is_set():
            self.log.append((time.monotonic(), health()))
            time.sleep(0.1)

    def __enter__(self) -> Prober:
        self._thread.start()
        time.sleep(0.5)
        return self

    def __exit__(self, *exc) -> None:
        self._stop.set()
        self._thread.join()

    def wait_answering(self, timeout: float = 90) -> None:
        """Until the site answers again after an outage (or, when no outage was seen at
        all, after ten seconds of answers)."""
        started = time.monotonic()
        while time.monotonic() - started < timeout:
            recent = [s for moment, s in self.log if moment > started]
            if self.log and self.log[-1][1] == "200":
                if any(s != "200" for _, s in self.log) or (time.monotonic() - started > 10 and recent):
                    return
            time.sleep(0.2)
        raise StackFailed(f"the site did not answer again within {timeout} s: {self.summary()}")

    def outage(self) -> float:
        down, start = 0.0, None
        for moment, status in self.log:
            if status != "200" and start is None:
                start = moment
            elif status == "200" and start is not None:
                down += moment - start
                start = None
        return down

    def summary(self) -> str:
        runs, last = [], None
        for _, status in self.log:
            if runs and status == last:
                runs[-1][1] += 1
            else:
                runs.append([status, 1])
            last = status
        return ", ".join(f"{status}×{count}" for status, count in runs)


class Browser:
    """A client of the proxy's https port: cookies, CSRF token, Host with the port."""

    def __init__(self):
        self.cookies: dict[str, str] = {}
        self.origin = f"https://{HOST}:{HTTPS_PORT}"

    def request(self, method: str, path: str, form: dict | None = None) -> tuple[int, dict, str]:
        conn = http.client.HTTPSConnection("127.0.0.1", HTTPS_PORT, timeout=60, context=_insecure())
        headers = {"Host": f"{HOST}:{HTTPS_PORT}"}
        if self.cookies:
            headers["Cookie"] = "; ".join(f"{k}={v}" for k, v in self.cookies.items())
        body = None
        if form is not None:
            form = {"csrfmiddlewaretoken": self.cookies.get("csrftoken", ""), **form}
            body = urllib.parse.urlencode(form)
            headers |= {"Content-Type": "application/x-www-form-urlencoded", "Origin": self.origin,
                        "Referer": self.origin + path}
        conn.request(method, path, body=body, headers=headers)
        response = conn.getresponse()
        text = response.read().decode("utf-8", "replace")
        for name, value in response.getheaders():
            if name.lower() == "set-cookie":
                key, _, rest = value.partition("=")
                self.cookies[key.strip()] = rest.split(";")[0]
        conn.close()
        return response.status, dict(response.getheaders()), text

    def get(self, path: str) -> tuple[int, str]:
        status, _, text = self.request("GET", path)
        return status, text

    def upload(self, path: str, form: dict, field: str, filename: str, data: bytes) -> tuple[int, dict, str]:
        """A multipart/form-data POST with one file, as a browser sends a form with a file."""
        boundary = "----dubov" + os.urandom(12).hex()
        parts = []
        for name, value in {"csrfmiddlewaretoken": self.cookies.get("csrftoken", ""), **form}.items():
            parts.append(f'--{boundary}\r\nContent-Disposition: form-data; name="{name}"\r\n\r\n{value}\r\n'.encode())
        parts.append(f'--{boundary}\r\nContent-Disposition: form-data; name="{field}"; filename="{filename}"\r\n'
                     f"Content-Type: application/zip\r\n\r\n".encode() + data + b"\r\n")
        body = b"".join(parts) + f"--{boundary}--\r\n".encode()
        conn = http.client.HTTPSConnection("127.0.0.1", HTTPS_PORT, timeout=120, context=_insecure())
        headers = {"Host": f"{HOST}:{HTTPS_PORT}", "Cookie": "; ".join(f"{k}={v}" for k, v in self.cookies.items()),
                   "Content-Type": f"multipart/form-data; boundary={boundary}", "Origin": self.origin,
                   "Referer": self.origin + "/ratings/"}
        conn.request("POST", path, body=body, headers=headers)
        response = conn.getresponse()
        text = response.read().decode("utf-8", "replace")
        conn.close()
        return response.status, dict(response.getheaders()), text

    def post(self, path: str, form: dict) -> tuple[int, str]:
        status, headers, text = self.request("POST", path, form)
        if status in (301, 302, 303):
            location = urllib.parse.urlsplit(headers.get("Location", "/"))
            return self.get(location.path + (f"?{location.query}" if location.query else ""))
        return status, text

    def login(self, username: str = CHIEF) -> None:
        self.get("/accounts/login/")
        status, text = self.post("/accounts/login/", {"username": username, "password": PASSWORD})
        check(status == 200 and "Your tournaments" in text, f"{username} logs in through the proxy")


# --- the tournament the checks play -------------------------------------------------------

TOURNAMENT = {
    "name": "Stack Open", "slug": "stack-open", "place": "Bled", "federation": "SLO",
    "start_date": "2026-11-24", "end_date": "2026-11-30", "time_control": "90+30", "rounds": "5",
    "point_win": "1", "point_draw": "0.5", "point_loss": "0", "point_pab": "1", "point_half_bye": "0.5",
    "initial_colour_method": "chosen", "initial_colour": "w", "tiebreaks": "BH-C1, BH, SB", "public": "on",
}
PLAYERS = "\n".join(f"Player{i}, Stack; {2400 - 37 * i}" for i in range(1, 10))
DATA_RECORDS = ("001", "XXR", "XXC", "XXS", "XXP", "XXZ", "240")


def create_arbiter(stack: Stack, username: str = CHIEF, *options: str) -> None:
    stack("exec", "-T", "web", "python", "manage.py", "createarbiter", username, *options, "--password-stdin",
          input=PASSWORD + "\n")


def start_event(browser: Browser, slug: str) -> None:
    """Create a public tournament, add nine players, pair and publish round 1."""
    browser.get("/new/")
    status, _ = browser.post("/new/", {**TOURNAMENT, "slug": slug, "name": f"Stack Open {slug}"})
    check(status == 200, f"tournament {slug} created")
    browser.get(f"/t/{slug}/players/import/")
    status, text = browser.post(f"/t/{slug}/players/import/", {"text": PLAYERS})
    check(status == 200 and "9 players added" in text, "nine players added from a pasted list")
    status, text = browser.post(f"/t/{slug}/pair/", {})
    check(status == 200 and "Round 1" in text, "round 1 paired (a draft)")
    status, text = browser.post(f"/t/{slug}/round/1/publish/", {})
    check(status == 200 and "published" in text.lower(), "round 1 published")


def enter_first_result(browser: Browser, slug: str) -> None:
    _, page = browser.get(f"/t/{slug}/round/1/")
    action = re.search(rf'action="(/t/{slug}/round/1/game/\d+/result/)"', page)
    check(action is not None, "the round page has result forms")
    status, text = browser.post(action.group(1), {"result": "1-0", "expected": ""})
    check(status == 200 and re.search(r"<strong>1 of \d+</strong>", text) is not None,
          "a result entered (1 of the boards done)")


def public_standings(slug: str) -> str:
    status, text = Browser().get(f"/t/{slug}/standings/")
    check(status == 200 and "Player1, Stack" in text, f"the public standings of {slug} read without logging in")
    return text


def fingerprint(browser: Browser, slug: str) -> str:
    """The tournament's whole data as its TRF export gives it: the player lines (players,
    games, results, byes) and the engines' records of rounds, colour, points, forbidden
    pairs and absences.  The tournament records around them (092, 132, 182 ...) are
    left out: a new release may write more of them from the same data."""
    status, text = browser.get(f"/t/{slug}/export.trf")
    if status != 200:
        raise StackFailed(f"export of {slug}: {status}")
    return "\n".join(line for line in text.splitlines() if line.startswith(DATA_RECORDS))
