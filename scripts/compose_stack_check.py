"""The compose stack, built and started for real, checked over HTTPS through its proxy.

Run by ``scripts/ci-compose-stack.sh`` (which installs and starts a Docker engine first) as
the last stage of ``.ci/run``.  No registry can be reached here, so the public images of
docker-compose.yml are replaced by local ones of the same kind (``docker/ci/``): a Debian
bookworm base made with debootstrap, Python 3.11, PostgreSQL 15 and nginx from Debian's
packages.  The app image is built from the repository's own Dockerfile on that Python
base.  Steps, each timed:

1. local bases (built once, kept between runs, rebuilt when their Dockerfile changes);
2. the app image, and the previous release's (the code before the newest migration);
3. the previous release started on new volumes; an arbiter and a tournament created;
4. upgrade: the new image on the same database, backup first, then the migration;
5. the smoke flow over HTTPS through the proxy: log in, create a tournament, add players,
   pair, publish, enter a result, read the public standings;
   then the worker: a staff account uploads a FIDE list of 450,000 players (a 13 MB zip,
   over the 12 MB every other address takes) through the proxy, and the worker loads it
   while the job's page is polled;
6. slow clients through the proxy while /health/ keeps answering;
7. restart of the web and the database containers: nothing lost;
8. backup with the README's command, the database volume destroyed, restore, compare.

Everything is torn down at the end; any failure exits non-zero.
"""

from __future__ import annotations

import argparse
import hashlib
import http.client
import json
import os
import re
import shutil
import ssl
import subprocess
import sys
import tempfile
import time
import urllib.parse
from contextlib import contextmanager
from pathlib import Path

ROOT = Path(__file__).resolve().parents[1]
CI_DOCKER = ROOT / "docker" / "ci"
CACHE = Path(os.environ.get("DUBOV_CI_CACHE", "/var/cache/dubov-ci"))
PROJECT = os.environ.get("STACK_PROJECT", "dubovci")  # another name runs a second stack beside it
HOST = "chess.example.org"
HTTPS_PORT = int(os.environ.get("STACK_HTTPS_PORT", "18443"))
HTTP_PORT = int(os.environ.get("STACK_HTTP_PORT", "18080"))
DEBIAN = "dubov-ci/debian:bookworm"
BASES = {  # image: (Dockerfile, other files of its build context)
    "dubov-ci/python:3.11": ("python.Dockerfile", []),
    "dubov-ci/postgres:15": ("postgres.Dockerfile", ["postgres-entrypoint.sh"]),
    "dubov-ci/nginx:1.22": ("nginx.Dockerfile", []),
}
APP = "dubov-arbiter:" + os.environ.get("STACK_IMAGE_TAG", "ci")
PREVIOUS = APP + "-previous" if os.environ.get("STACK_IMAGE_TAG") else "dubov-arbiter:previous"
CHIEF, PASSWORD = "ci-chief", "stack-check-Passw0rd-long"
STAFF = "ci-staff"
DB_PASSWORD = "ci_stack_password"

timings: list[tuple[str, float]] = []


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


# --- images ---------------------------------------------------------------------------


def image_label(image: str, label: str) -> str | None:
    found = run("docker", "image", "inspect", "--format", f'{{{{index .Config.Labels "{label}"}}}}', image,
                check=False, quiet=True)
    return found.stdout.strip() if found.returncode == 0 else None


def build_debian_base() -> None:
    if image_label(DEBIAN, "dubov.ci") is not None:
        say(f"{DEBIAN}: cached")
        return
    rootfs = CACHE / "rootfs-bookworm"
    if not (rootfs / "etc" / "debian_version").exists():
        shutil.rmtree(rootfs, ignore_errors=True)
        CACHE.mkdir(parents=True, exist_ok=True)
        run("debootstrap", "--variant=minbase", "bookworm", str(rootfs), "http://deb.debian.org/debian", quiet=True)
    tar = subprocess.Popen(["tar", "-C", str(rootfs), "-c", "."], stdout=subprocess.PIPE)
    imported = subprocess.run(["docker", "import", "--change", "LABEL dubov.ci=debootstrap-minbase-bookworm",
                               "-", DEBIAN], stdin=tar.stdout, capture_output=True, text=True)
    tar.wait()
    if imported.returncode != 0 or tar.returncode != 0:
        raise StackFailed(f"docker import failed: {imported.stderr}")
    say(f"{DEBIAN}: imported from debootstrap ({rootfs})")


def build_bases() -> None:
    build_debian_base()
    extra_ca = sorted(Path("/usr/local/share/ca-certificates").glob("*.crt"))
    for image, (dockerfile, files) in BASES.items():
        context = Path(tempfile.mkdtemp(prefix="dubov-ci-base-"))
        try:
            shutil.copy(CI_DOCKER / dockerfile, context / "Dockerfile")
            for name in files:
                shutil.copy(CI_DOCKER / name, context / name)
            (context / "extra-ca").mkdir()
            if dockerfile == "python.Dockerfile":
                for ca in extra_ca:
                    shutil.copy(ca, context / "extra-ca" / ca.name)
            digest = hashlib.sha256()
            for path in sorted(context.rglob("*")):
                if path.is_file():
                    digest.update(path.relative_to(context).as_posix().encode() + path.read_bytes())
            wanted = digest.hexdigest()[:16]
            if image_label(image, "dubov.ci.hash") == wanted:
                say(f"{image}: cached")
                continue
            run("docker", "build", "-q", "--label", f"dubov.ci.hash={wanted}", "-t", image, str(context), quiet=True)
            say(f"{image}: built")
        finally:
            shutil.rmtree(context, ignore_errors=True)


def previous_release() -> str:
    """The commit before the newest migration was added: the release a club upgrades from."""
    added = run("git", "log", "-1", "--diff-filter=A", "--format=%H", "--", "pairing/migrations/0*.py",
                cwd=ROOT, quiet=True).stdout.strip()
    return run("git", "rev-parse", f"{added}^", cwd=ROOT, quiet=True).stdout.strip()


def build_app_images(stack: Stack) -> tuple[str, list[str]]:
    workdir = stack.workdir
    stack("build", "web", web_image=APP)  # as "docker compose up -d --build" does, PYTHON_BASE from .env
    say(f"{APP}: built from this checkout by compose")
    rev = previous_release()
    old = Path(tempfile.mkdtemp(prefix="dubov-ci-previous-"))
    try:
        archive = subprocess.Popen(["git", "archive", rev], cwd=ROOT, stdout=subprocess.PIPE)
        subprocess.run(["tar", "-x", "-C", str(old)], stdin=archive.stdout, check=True)
        archive.wait()
        # Images before this stage existed could not start (collectstatic had no writable
        # folder), so the previous release's code is packaged with today's Dockerfile and
        # start script: what is tested is its code and its migrations.
        shutil.copy(workdir / "Dockerfile", old / "Dockerfile")
        shutil.rmtree(old / "docker", ignore_errors=True)
        shutil.copytree(workdir / "docker", old / "docker")
        run("docker", "build", "-q", "--build-arg", "PYTHON_BASE=dubov-ci/python:3.11", "-t", PREVIOUS, str(old),
            quiet=True)
        migrations = sorted(p.name for p in (old / "pairing" / "migrations").glob("0*.py"))
    finally:
        shutil.rmtree(old, ignore_errors=True)
    say(f"{PREVIOUS}: built from {rev[:10]} (newest migration {migrations[-1]})")
    return rev, migrations


# --- the stack --------------------------------------------------------------------------


def compose_command() -> list[str]:
    if subprocess.run(["docker", "compose", "version"], capture_output=True).returncode == 0:
        return ["docker", "compose"]
    return ["docker-compose"]


class Stack:
    def __init__(self, workdir: Path):
        self.workdir = workdir
        self.compose = [*compose_command(), "-p", PROJECT]

    def env(self, web_image: str) -> dict[str, str]:
        return {**os.environ, "WEB_IMAGE": web_image}

    def __call__(self, *args: str, web_image: str = APP, input: str | None = None, check: bool = True,
                 quiet: bool = True) -> subprocess.CompletedProcess:
        return run(*self.compose, *args, cwd=self.workdir, env=self.env(web_image), input=input, check=check,
                   quiet=quiet)

    def container(self, service: str) -> str:
        return self("ps", "-q", service).stdout.strip()

    def wait_healthy(self, *services: str, timeout: float = 180) -> None:
        deadline = time.monotonic() + timeout
        states = {}
        while time.monotonic() < deadline:
            states = {}
            for service in services:
                cid = self.container(service)
                states[service] = run("docker", "inspect", "--format", "{{.State.Health.Status}}", cid,
                                      check=False, quiet=True).stdout.strip() if cid else "missing"
            if all(state == "healthy" for state in states.values()):
                say(f"healthy: {', '.join(services)}")
                return
            time.sleep(2)
        logs = self("logs", "--tail", "40", check=False).stdout
        raise StackFailed(f"not healthy after {timeout} s: {states}\n{logs}")

    def psql(self, sql: str) -> str:
        return self("exec", "-T", "db", "psql", "-U", "dubov", "-d", "dubov", "-At", "-c", sql).stdout.strip()

    def down(self) -> None:
        self("down", "-v", "--remove-orphans", check=False)


def prepare_workdir() -> Path:
    """This checkout's tracked files (with their working-tree contents), a .env and a
    self-signed certificate: the folder a club would have."""
    workdir = Path(tempfile.mkdtemp(prefix="dubov-stack-"))
    files = run("git", "ls-files", "-z", cwd=ROOT, quiet=True).stdout.split("\0")
    for name in filter(None, files):
        source = ROOT / name
        if source.is_file():
            target = workdir / name
            target.parent.mkdir(parents=True, exist_ok=True)
            shutil.copy2(source, target)
    (workdir / "certs").mkdir()
    run("openssl", "req", "-x509", "-newkey", "rsa:2048", "-nodes", "-days", "2", "-subj", f"/CN={HOST}",
        "-keyout", str(workdir / "certs" / "privkey.pem"), "-out", str(workdir / "certs" / "fullchain.pem"),
        quiet=True)
    (workdir / ".env").write_text(
        "DJANGO_DEBUG=false\n"
        f"DJANGO_SECRET_KEY=stack-check-{os.urandom(24).hex()}\n"
        f"DJANGO_ALLOWED_HOSTS={HOST}\n"
        f"POSTGRES_PASSWORD={DB_PASSWORD}\n"
        "POSTGRES_IMAGE=dubov-ci/postgres:15\n"
        "PROXY_IMAGE=dubov-ci/nginx:1.22\n"
        "PYTHON_BASE=dubov-ci/python:3.11\n"
        f"HTTP_PORT={HTTP_PORT}\nHTTPS_PORT={HTTPS_PORT}\n"
    )
    return workdir


# --- HTTPS through the proxy --------------------------------------------------------------


class Browser:
    """A client of the proxy's https port: cookies, CSRF token, Host with the port."""

    def __init__(self):
        self.cookies: dict[str, str] = {}
        context = ssl.create_default_context()
        context.check_hostname = False
        context.verify_mode = ssl.CERT_NONE
        self.context = context
        self.origin = f"https://{HOST}:{HTTPS_PORT}"

    def request(self, method: str, path: str, form: dict | None = None) -> tuple[int, dict, str]:
        conn = http.client.HTTPSConnection("127.0.0.1", HTTPS_PORT, timeout=60, context=self.context)
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
        conn = http.client.HTTPSConnection("127.0.0.1", HTTPS_PORT, timeout=120, context=self.context)
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
            location = headers.get("Location", "/")
            return self.get(urllib.parse.urlsplit(location).path + ("?" + urllib.parse.urlsplit(location).query
                                                                  if urllib.parse.urlsplit(location).query else ""))
        return status, text

    def login(self, username: str = CHIEF) -> None:
        self.get("/accounts/login/")
        status, text = self.post("/accounts/login/", {"username": username, "password": PASSWORD})
        check(status == 200 and "Your tournaments" in text, f"{username} logs in through the proxy")


TOURNAMENT = {
    "name": "Stack Open", "slug": "stack-open", "place": "Bled", "federation": "SLO",
    "start_date": "2026-11-24", "end_date": "2026-11-30", "time_control": "90+30", "rounds": "5",
    "point_win": "1", "point_draw": "0.5", "point_loss": "0", "point_pab": "1", "point_half_bye": "0.5",
    "initial_colour_method": "chosen", "initial_colour": "w", "tiebreaks": "BH-C1, BH, SB", "public": "on",
}
PLAYERS = "\n".join(f"Player{i}, Stack; {2400 - 37 * i}" for i in range(1, 10))


def create_arbiter(stack: Stack, web_image: str, username: str = CHIEF, *options: str) -> None:
    stack("exec", "-T", "web", "python", "manage.py", "createarbiter", username, *options, "--password-stdin",
          web_image=web_image, input=PASSWORD + "\n")


LIST_PLAYERS = 450_000


def worker_loads_a_list(stack: Stack) -> None:
    """The worker service: healthy, and loading a FIDE list uploaded through the proxy by a
    staff account (larger than the 12 MB every other address takes), the job's page polled
    as a browser polls it until the list is loaded."""
    sys.path.insert(0, str(ROOT / "benchmarks"))
    from bench_rating_list import write_list

    stack.wait_healthy("worker")
    create_arbiter(stack, APP, STAFF, "--staff")
    browser = Browser()
    browser.login(STAFF)
    with tempfile.TemporaryDirectory() as tmp:
        path = Path(tmp) / "players_list_xml.zip"
        write_list(path, LIST_PLAYERS)
        data = path.read_bytes()
    check(len(data) > 12 * 1024 * 1024, f"the list file is {len(data):,} bytes, over the 12 MB of other addresses")
    started = time.monotonic()
    status, headers, _ = browser.upload("/ratings/upload/", {"kind": "fide", "name": "", "month": "2026-11"},
                                        "file", "players_list_xml.zip", data)
    location = urllib.parse.urlsplit(headers.get("Location", "")).path
    check(status == 302 and re.fullmatch(r"/jobs/\d+/", location) is not None,
          f"the upload went through the proxy in {time.monotonic() - started:.1f} s; its job: {location}")
    polls, steps = 0, []
    deadline = time.monotonic() + 600
    while time.monotonic() < deadline:
        _, fragment = browser.get(location)
        polls += 1
        step = re.search(r'<p id="job-step">(.*?)</p>', fragment, re.S)
        if step and (not steps or steps[-1] != step.group(1)):
            steps.append(step.group(1))
        if 'id="job-status">done' in fragment or 'id="job-status">failed' in fragment:
            break
        time.sleep(1)
    check('id="job-status">done' in fragment, f"the worker loaded the list in {time.monotonic() - started:.0f} s "
                                                f"({polls} polls; steps seen: {steps[:3]} ... {steps[-2:]})")
    _, page = browser.get("/ratings/")
    check(f"{LIST_PLAYERS}" in page.replace(",", "") and "Loaded FIDE" in page,
          "the Rating lists page shows FIDE's list with every player and the result of the load")


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
    check(status == 200 and re.search(r"<strong>1 of \d+</strong>", text) is not None, "a result entered (1 of the boards done)")


def public_standings(slug: str) -> str:
    status, text = Browser().get(f"/t/{slug}/standings/")
    check(status == 200 and "Player1, Stack" in text, f"the public standings of {slug} read without logging in")
    return text


DATA_RECORDS = ("001", "XXR", "XXC", "XXS", "XXP", "XXZ", "240")


def fingerprint(browser: Browser, slug: str) -> str:
    """The tournament's whole data as its TRF export gives it: the player lines (players,
    games, results, byes) and the engines' records of rounds, colour, points, forbidden
    pairs and absences.  The tournament records around them (092, 132, 182 ...) are
    left out: a new release may write more of them from the same data."""
    status, text = browser.get(f"/t/{slug}/export.trf")
    if status != 200:
        raise StackFailed(f"export of {slug}: {status}")
    return "\n".join(line for line in text.splitlines() if line.startswith(DATA_RECORDS))


# --- the checks ---------------------------------------------------------------------------


def slow_clients() -> None:
    sys.path.insert(0, str(ROOT))
    from tests.hosting import test_slow_clients as probe

    probe.HOST = HOST
    socks = [probe._slow_post(HTTPS_PORT, 60_000, tls=True) for _ in range(40)]
    try:
        times = probe._keeps_answering(HTTPS_PORT, tls=True, seconds=6, trickle=socks)
    finally:
        probe._close(socks)
    check(max(times) < 2, f"/health/ answered through the proxy while 40 slow clients held connections "
                          f"(slowest {max(times):.3f} s of {len(times)})")
    big = probe._slow_post(HTTPS_PORT, 1_000_000_000, tls=True)
    try:
        check(probe._answer(big, timeout=5).startswith(b"HTTP/1.1 413"), "a 1 GB body refused by the proxy (413)")
    finally:
        big.close()


def main() -> int:
    parser = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    parser.add_argument("--keep", action="store_true", help="leave the stack running at the end")
    args = parser.parse_args()
    started = time.monotonic()
    workdir = prepare_workdir()
    stack = Stack(workdir)
    stack.down()
    try:
        with step("local base images"):
            build_bases()
        with step("app image and the previous release's image"):
            rev, old_migrations = build_app_images(stack)

        with step("previous release started on new volumes"):
            # the previous release has no background worker: the worker service starts with the new image
            stack("up", "-d", "--no-build", "db", "web", "proxy", web_image=PREVIOUS)
            stack.wait_healthy("db", "web", "proxy")
            create_arbiter(stack, PREVIOUS)
            browser = Browser()
            browser.login()
            start_event(browser, "season")
            enter_first_result(browser, "season")
            season = fingerprint(browser, "season")

        with step("upgrade to the new image: backup, then migrate"):
            stack("up", "-d", "--no-build", web_image=APP)
            stack.wait_healthy("web", "proxy")
            logs = stack("logs", "web").stdout
            check("migrations to apply: backing up the database first" in logs, "the new image found migrations")
            dumps = stack("exec", "-T", "web", "sh", "-c", "ls /app/backups").stdout.split()
            check(any("before-migrate" in name for name in dumps), f"a backup was taken before migrating: {dumps}")
            applied = stack.psql("SELECT name FROM django_migrations WHERE app = 'pairing' ORDER BY name")
            new_migrations = sorted(p.name[:-3] for p in (workdir / "pairing" / "migrations").glob("0*.py"))
            check(applied.split() == new_migrations,
                  f"migrated from {old_migrations[-1][:-3]} to {new_migrations[-1]}")
            browser = Browser()
            browser.login()
            check(fingerprint(browser, "season") == season, "the season's tournament is unchanged by the upgrade")

        with step("smoke flow over HTTPS through the proxy"):
            start_event(browser, "smoke")
            enter_first_result(browser, "smoke")
            public_standings("smoke")
            status, _ = Browser().request("GET", "/t/smoke/settings/")[:2]
            check(status == 302, "an arbiter page sends an anonymous visitor to the login page")

        with step("the worker service loads a rating list uploaded through the proxy"):
            worker_loads_a_list(stack)

        with step("slow clients through the proxy"):
            slow_clients()

        with step("restart the web and the database containers"):
            before = {slug: fingerprint(browser, slug) for slug in ("season", "smoke")}
            stack("restart", "web")
            stack("restart", "db")
            stack.wait_healthy("db", "web", "proxy")
            browser = Browser()
            browser.login()
            check({slug: fingerprint(browser, slug) for slug in before} == before, "nothing lost in the restarts")

        with step("backup, destroy the database volume, restore"):
            dump = workdir / "backup.dump"
            with dump.open("wb") as out:
                done = subprocess.run([*stack.compose, "exec", "-T", "db", "sh", "-c",
                                       'pg_dump -U "$POSTGRES_USER" -Fc "$POSTGRES_DB"'],
                                      cwd=workdir, env=stack.env(APP), stdout=out)
            check(done.returncode == 0 and dump.stat().st_size > 10_000,
                  f"README backup command wrote {dump.stat().st_size:,} bytes")
            stack("stop", "web", "worker", "proxy")  # the worker too: it would migrate the empty database
            stack("rm", "-f", "-s", "db")
            run("docker", "volume", "rm", f"{PROJECT}_pgdata", quiet=True)
            stack("up", "-d", "--no-build", "db")
            stack.wait_healthy("db")
            check(stack.psql("SELECT count(*) FROM information_schema.tables WHERE table_schema = 'public'") == "0",
                  "the new database volume is empty")
            stack("exec", "-T", "db", "sh", "-c",
                  'dropdb -U "$POSTGRES_USER" --force "$POSTGRES_DB" && createdb -U "$POSTGRES_USER" "$POSTGRES_DB"')
            with dump.open("rb") as source:
                done = subprocess.run([*stack.compose, "exec", "-T", "db", "sh", "-c",
                                       'pg_restore -U "$POSTGRES_USER" -d "$POSTGRES_DB" --no-owner'],
                                      cwd=workdir, env=stack.env(APP), stdin=source, capture_output=True)
            check(done.returncode == 0, "README restore command ran")
            stack("up", "-d", "--no-build")
            stack.wait_healthy("db", "web", "proxy")
            browser = Browser()
            browser.login()
            check({slug: fingerprint(browser, slug) for slug in before} == before,
                  "both tournaments are the same after the restore")
            public_standings("season")
    except StackFailed as exc:
        say(f"FAILED: {exc}")
        print(stack("logs", "--tail", "30", check=False).stdout[-6000:], flush=True)
        return 1
    finally:
        if not args.keep:
            stack.down()
            shutil.rmtree(workdir, ignore_errors=True)
        say("step times: " + json.dumps({name: round(took, 1) for name, took in timings}))
        say(f"total {time.monotonic() - started:.1f} s")
    say("compose stack: all checks passed")
    return 0


if __name__ == "__main__":
    sys.exit(main())
