"""The hosting files' structure: docker-compose.yml, Dockerfile, .dockerignore.

Read as files here, in the test suite; the stack itself is built and started by the CI
stage scripts/ci-compose-stack.sh (scripts/compose_stack_check.py).
"""

from __future__ import annotations

import json
import re
import subprocess
from pathlib import Path

import pytest

yaml = pytest.importorskip("yaml")

ROOT = Path(__file__).resolve().parents[2]


@pytest.fixture(scope="module")
def compose() -> dict:
    return yaml.safe_load((ROOT / "docker-compose.yml").read_text())


@pytest.fixture(scope="module")
def dockerfile() -> list[tuple[str, str]]:
    """(INSTRUCTION, arguments) with continuation lines joined and comments dropped."""
    text = re.sub(r"\\\n\s*", " ", (ROOT / "Dockerfile").read_text())
    out = []
    for line in text.splitlines():
        line = line.strip()
        if line and not line.startswith("#"):
            word, _, rest = line.partition(" ")
            out.append((word.upper(), rest.strip()))
    return out


def _default(value: str) -> str:
    """``${NAME:-default}`` -> default (the image a club gets); anything else unchanged."""
    m = re.fullmatch(r"\$\{[A-Z_]+:-(.+)\}", value)
    return m.group(1) if m else value


def test_images_can_be_replaced_but_default_to_the_public_ones(compose):
    """CI replaces them by local builds (no registry there); clubs get the public images."""
    services = compose["services"]
    assert services["db"]["image"] == "${POSTGRES_IMAGE:-postgres:16}"
    assert services["proxy"]["image"] == "${PROXY_IMAGE:-nginx:1.27}"
    assert "version" not in compose  # the Compose Specification: compose v2 and docker-compose 1.29


def _as_list(command) -> list[str]:
    return command if isinstance(command, list) else command.split()


def test_services_and_volumes(compose):
    assert set(compose["services"]) == {"db", "web", "worker", "proxy"}
    assert "pgdata" in compose["volumes"]


def test_db_is_postgres_pinned_to_a_major_with_a_healthcheck_and_a_named_volume(compose):
    db = compose["services"]["db"]
    image, _, tag = _default(db["image"]).partition(":")
    assert image == "postgres"
    assert re.fullmatch(r"\d+(\.\d+)?(-[a-z0-9]+)?", tag), f"pin the major version, not {tag!r}"
    test = " ".join(_as_list(db["healthcheck"]["test"]))
    assert "pg_isready" in test
    assert any(v.split(":")[0] == "pgdata" and v.endswith("/var/lib/postgresql/data") for v in db["volumes"])
    env = db["environment"]
    assert "POSTGRES_PASSWORD" in env and ":?" in env["POSTGRES_PASSWORD"]  # no silent empty password


def test_web_builds_here_runs_gunicorn_after_a_healthy_db(compose):
    web = compose["services"]["web"]
    assert web["build"]["context"] == "."
    assert web["build"]["args"] == {"PYTHON_BASE": "${PYTHON_BASE:-python:3.11-slim}"}
    assert _default(web["image"]) == "dubov-arbiter:latest"
    command = _as_list(web["command"])
    assert command[:3] == ["gunicorn", "-c", "docker/gunicorn.conf.py"]
    assert "arbiter_site.wsgi:application" in command
    assert web["depends_on"]["db"]["condition"] == "service_healthy"
    assert web["env_file"] in (".env", [".env"])
    assert "@db:5432/" in web["environment"]["DATABASE_URL"]


def test_the_worker_runs_the_web_image_with_its_own_command_restarts_and_checks_its_heartbeat(compose):
    """Background tasks (docs/background-tasks.md): same image as web, started once web is
    healthy (web's start script migrated the database), the same database, no ports."""
    worker, web = compose["services"]["worker"], compose["services"]["web"]
    assert worker["image"] == web["image"] and worker["build"] == web["build"]  # compose v2 builds, never pulls it
    assert _as_list(worker["command"]) == ["python", "manage.py", "run_worker"]
    assert worker["restart"] == "unless-stopped"
    assert worker["env_file"] == web["env_file"]
    assert worker["environment"]["DATABASE_URL"] == web["environment"]["DATABASE_URL"]
    assert worker["depends_on"]["web"]["condition"] == "service_healthy"
    assert _as_list(worker["healthcheck"]["test"]) == ["CMD", "python", "/app/docker/worker_healthcheck.py"]
    assert "ports" not in worker and "expose" not in worker
    # an upload written by web is read by the worker
    assert "uploads:/app/uploads" in worker["volumes"] and "uploads:/app/uploads" in web["volumes"]


def test_audit_finding_1_only_the_proxy_publishes_ports(compose):
    """gunicorn is reachable on the stack's internal network only: clients cannot skip
    nginx (and the address it puts in X-Forwarded-For is the one the app may trust)."""
    services = compose["services"]
    assert [name for name, service in services.items() if service.get("ports")] == ["proxy"]
    assert [str(p) for p in services["web"]["expose"]] == ["8000"]
    assert services["web"]["environment"]["DJANGO_TRUSTED_PROXIES"] == "1"
    proxy = services["proxy"]
    image = _default(proxy["image"])
    assert image.split(":")[0] == "nginx" and re.fullmatch(r"\d+(\.\d+)*", image.split(":")[1])
    assert sorted(str(p).rsplit(":", 1)[1] for p in proxy["ports"]) == ["443", "80"]
    assert "./docker/nginx/nginx.conf:/etc/nginx/nginx.conf:ro" in proxy["volumes"]
    assert any(v.endswith(":/etc/nginx/certs:ro") for v in proxy["volumes"])
    assert proxy["depends_on"]["web"]["condition"] == "service_healthy"
    assert "/proxy-health" in " ".join(_as_list(proxy["healthcheck"]["test"]))


def test_audit_finding_1_gunicorn_uses_threaded_workers_everywhere_it_is_started(compose, dockerfile):
    config = {}
    exec(compile((ROOT / "docker" / "gunicorn.conf.py").read_text(), "gunicorn.conf.py", "exec"), config)
    assert config["worker_class"] == "gthread" and config["threads"] >= 4
    # loopback outside a container (issue 33); the image listens on its internal network
    assert config["bind"] == ["127.0.0.1:8000"] and config["timeout"] == 120
    assert dict(dockerfile)["ENV"].count("GUNICORN_BIND=0.0.0.0:8000") == 1
    cmd = json.loads(dict(dockerfile)["CMD"])
    assert cmd[:3] == ["gunicorn", "-c", "docker/gunicorn.conf.py"]
    assert "gunicorn -c docker/gunicorn.conf.py" in (ROOT / "docker" / "entrypoint.sh").read_text()


def test_audit_finding_1_the_proxy_buffers_and_limits_request_bodies():
    conf = (ROOT / "docker" / "nginx" / "nginx.conf").read_text()
    directives: dict[str, str] = {}  # the first of each: the http block's, for every address
    for line in conf.splitlines():
        if re.match(r"\s*[a-z_]+\s+.*;\s*$", line):
            name, value = re.match(r"\s*([a-z_]+)\s+(.*?);", line).groups()
            directives.setdefault(name, value)
    assert directives["client_max_body_size"] == "12m"
    # one address takes more: a staff account's upload of FIDE's whole list (the app's
    # own limit for it is the same, DJANGO_MAX_LIST_UPLOAD_BYTES)
    upload = re.search(r"location = /ratings/upload/ \{(.*?)\}", conf, re.S).group(1)
    assert "client_max_body_size 100m;" in upload and "proxy_request_buffering on;" in upload
    assert conf.count("client_max_body_size") == 2
    assert directives["proxy_request_buffering"] == "on"
    assert directives["client_body_timeout"] == "30s" and directives["client_header_timeout"] == "15s"
    assert directives["proxy_pass"] == "http://app" and "server web:8000;" in conf
    # the client's own X-Forwarded-For is replaced, not appended to
    assert "proxy_set_header X-Forwarded-For $remote_addr;" in conf
    from django.conf import settings

    assert settings.MAX_REQUEST_BYTES == 12 * 1024 * 1024  # the app's limit is the proxy's
    assert settings.MAX_LIST_UPLOAD_BYTES == 100 * 1024 * 1024


def test_web_healthcheck_calls_the_health_endpoint(compose):
    web = compose["services"]["web"]
    test = _as_list(web["healthcheck"]["test"])
    assert test[0] in ("CMD", "CMD-SHELL")
    script = next(arg for arg in test if arg.endswith("healthcheck.py"))
    assert script == "/app/docker/healthcheck.py"
    assert "/health/" in (ROOT / "docker" / "healthcheck.py").read_text()


def test_dockerfile_runs_the_start_script_as_a_non_root_user(dockerfile):
    instructions = [word for word, _ in dockerfile]
    args = dict(dockerfile)  # the last of each instruction
    assert args["FROM"] == "${PYTHON_BASE}" and args["ARG"] == "PYTHON_BASE=python:3.11-slim"
    user = args["USER"]
    assert user and user not in ("root", "0")
    assert instructions.index("USER") > max(i for i, w in enumerate(instructions) if w == "RUN")
    assert args["EXPOSE"] == "8000"
    entrypoint = json.loads(args["ENTRYPOINT"])
    assert entrypoint == ["/app/docker/entrypoint.sh"]
    assert args["WORKDIR"] == "/app"
    cmd = json.loads(args["CMD"])
    assert cmd[0] == "gunicorn"
    runs = [rest for word, rest in dockerfile if word == "RUN"]
    assert any("pip install -r requirements.txt" in r for r in runs)
    copies = [rest for word, rest in dockerfile if word == "COPY"]
    assert copies[0].split()[0] == "requirements.txt"  # dependencies cached before the code
    assert "healthcheck.py" in args["HEALTHCHECK"]


def test_the_start_script_is_executable_in_git():
    out = subprocess.run(
        ["git", "ls-files", "-s", "docker/entrypoint.sh"], cwd=ROOT, capture_output=True, text=True
    ).stdout
    if not out:
        pytest.skip("not a git checkout")
    assert out.startswith("100755")


def test_dockerignore_keeps_secrets_and_local_files_out_of_the_image():
    ignored = {
        line.strip() for line in (ROOT / ".dockerignore").read_text().splitlines()
        if line.strip() and not line.startswith("#")
    }
    assert {".env", ".venv", ".git", "db.sqlite3", "staticfiles", "artifacts"} <= ignored
    assert "!.env.example" in ignored or ".env.*" not in ignored


def test_whitenoise_serves_the_static_files():
    from django.conf import settings

    assert "whitenoise.middleware.WhiteNoiseMiddleware" in settings.MIDDLEWARE
    assert "gunicorn" in (ROOT / "requirements.txt").read_text()
    assert "whitenoise" in (ROOT / "requirements.txt").read_text()
