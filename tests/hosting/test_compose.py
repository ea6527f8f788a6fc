"""The hosting files' structure: docker-compose.yml, Dockerfile, .dockerignore, the proxy's
and the backup service's files.

Read as files here, in the test suite; the stack itself is built and started by the CI
stage scripts/ci-compose-stack.sh (scripts/compose_stack_check.py), which also reads the
PostgreSQL versions from the images it runs.
"""

from __future__ import annotations

import json
import re
import subprocess
from pathlib import Path

import pytest

yaml = pytest.importorskip("yaml")

ROOT = Path(__file__).resolve().parents[2]
NGINX = ROOT / "docker" / "nginx"
# Debian's own PostgreSQL major version in each release a base image may be built on:
# a fact of Debian's archive (the postgresql-common "postgresql" dependency).
DEBIAN_POSTGRESQL = {"bookworm": 15, "trixie": 17}


@pytest.fixture(scope="module")
def compose() -> dict:
    return yaml.safe_load((ROOT / "docker-compose.yml").read_text())


@pytest.fixture(scope="module")
def services(compose) -> dict:
    return compose["services"]


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


def _as_list(command) -> list[str]:
    return command if isinstance(command, list) else command.split()


def _directives(text: str) -> dict[str, str]:
    """The first value of each directive: the http block's, for every address."""
    found: dict[str, str] = {}
    for line in text.splitlines():
        if re.match(r"\s*[a-z_]+\s+.*;\s*$", line):
            name, value = re.match(r"\s*([a-z_]+)\s+(.*?);", line).groups()
            found.setdefault(name, value)
    return found


# --- images ------------------------------------------------------------------------------


def test_images_can_be_replaced_but_default_to_pinned_public_ones(services):
    """`make local-images` replaces them (no Docker Hub); clubs get the public images,
    pinned to a major version and a Debian release."""
    assert services["db"]["image"] == "${POSTGRES_IMAGE:-postgres:16-bookworm}"
    assert services["proxy"]["image"] == "${PROXY_IMAGE:-nginx:1.27}"
    assert services["web"]["build"]["args"]["PYTHON_BASE"] == "${PYTHON_BASE:-python:3.11-slim-trixie}"


def test_the_compose_specification_only(compose):
    """compose v2 and docker-compose 1.29 both read it: no "version", no v2-only keys."""
    assert "version" not in compose
    text = (ROOT / "docker-compose.yml").read_text()
    for v2_only in ("pull_policy:", "develop:", "include:", "profiles:"):
        assert v2_only not in text


def test_the_web_image_is_built_for_the_db_service_s_postgresql(services, dockerfile):
    """The pair is one variable: the web build reads the same POSTGRES_IMAGE the db (and
    backup) service runs, and the Dockerfile takes its pg_dump from that server's version."""
    db_image = services["db"]["image"]
    assert services["web"]["build"]["args"]["POSTGRES_IMAGE"] == db_image
    assert services["backup"]["image"] == db_image
    froms = [rest for word, rest in dockerfile if word == "FROM"]
    assert froms[0] == "${POSTGRES_IMAGE} AS dbserver" and froms[-1] == "${PYTHON_BASE}"
    runs = " ".join(rest for word, rest in dockerfile if word == "RUN")
    assert "postgres --version" in runs
    assert 'postgresql-client-$server' in runs and '[ "$client" -lt "$server" ]' in runs and "exit 1" in runs


def test_pg_dump_is_at_least_the_server_for_the_default_image_pair(services):
    """Read from the images' names: the default web base's Debian release has a
    PostgreSQL client at least as new as the default server (bookworm's 15 would not do
    for postgres:16; the Dockerfile would stop the build).  CI runs the local pair and
    reads both versions from the built images (scripts/compose_stack_check.py)."""
    server_tag = _default(services["db"]["image"]).split(":")[1]
    server_major = int(re.match(r"(\d+)", server_tag).group(1))
    base = _default(services["web"]["build"]["args"]["PYTHON_BASE"])
    release = base.rsplit("-", 1)[1]
    assert release in DEBIAN_POSTGRESQL, f"pin PYTHON_BASE to a Debian release ({base})"
    assert DEBIAN_POSTGRESQL[release] >= server_major


# --- services ----------------------------------------------------------------------------


def test_services_and_volumes(compose, services):
    assert {"db", "web", "worker", "backup", "proxy"} <= set(services)
    # the database's and the uploads waiting for the worker: backups live in a host folder
    assert set(compose["volumes"]) == {"pgdata", "uploads"}


def test_every_service_restarts_by_itself_and_rotates_its_log(services):
    for name, service in services.items():
        assert service["restart"] == "unless-stopped", name
        assert service["logging"]["driver"] == "json-file", name
        assert service["logging"]["options"] == {"max-size": "10m", "max-file": "3"}, name
        assert service["healthcheck"]["test"], name


def test_db_is_postgres_pinned_to_a_major_with_a_healthcheck_and_a_named_volume(services):
    db = services["db"]
    image, _, tag = _default(db["image"]).partition(":")
    assert image == "postgres"
    assert re.fullmatch(r"\d+(\.\d+)?(-[a-z0-9]+)?", tag), f"pin the major version, not {tag!r}"
    test = " ".join(_as_list(db["healthcheck"]["test"]))
    assert "pg_isready" in test
    assert any(v.split(":")[0] == "pgdata" and v.endswith("/var/lib/postgresql/data") for v in db["volumes"])
    env = db["environment"]
    assert "POSTGRES_PASSWORD" in env and ":?" in env["POSTGRES_PASSWORD"]  # no silent empty password


def test_web_builds_here_runs_gunicorn_after_a_healthy_db(services):
    web = services["web"]
    assert web["build"]["context"] == "."
    assert _default(web["image"]) == "dubov-arbiter:latest"
    command = _as_list(web["command"])
    assert command[:3] == ["gunicorn", "-c", "docker/gunicorn.conf.py"]
    assert "arbiter_site.wsgi:application" in command
    assert web["depends_on"]["db"]["condition"] == "service_healthy"
    assert web["env_file"] in (".env", [".env"])
    assert "@db:5432/" in web["environment"]["DATABASE_URL"]


def test_backups_go_to_a_host_folder_that_down_v_keeps(services):
    """The before-upgrade backups (web) and the scheduled ones (backup) share the host's
    BACKUP_DIR: a bind mount, not a named volume, so `down -v` does not remove them."""
    for name in ("web", "backup"):
        assert "${BACKUP_DIR:-./backups}:/backups" in services[name]["volumes"], name
    assert services["web"]["environment"]["DB_BACKUP_DIR"] == "/backups"
    backup = services["backup"]
    assert backup["entrypoint"] == ["sh", "/dubov/backup.sh"]
    assert "./docker/backup:/dubov:ro" in backup["volumes"]
    assert backup["environment"]["PGHOST"] == "db"
    assert backup["environment"]["BACKUP_INTERVAL"] == "${BACKUP_INTERVAL:-86400}"
    assert backup["environment"]["BACKUP_KEEP_DAYS"] == "${BACKUP_KEEP_DAYS:-14}"
    assert backup["healthcheck"]["test"] == ["CMD", "sh", "/dubov/backup.sh", "--check"]


def test_the_web_service_makes_the_certificate_into_the_proxy_s_folder(services):
    web, proxy = services["web"], services["proxy"]
    assert "${TLS_CERT_DIR:-./certs}:/certs" in web["volumes"]
    assert web["environment"]["SELF_SIGNED_CERT_DIR"] == "/certs"
    assert "${TLS_CERT_DIR:-./certs}:/etc/nginx/certs:ro" in proxy["volumes"]


def test_the_worker_runs_the_web_image_with_its_own_command_restarts_and_checks_its_heartbeat(services):
    """Background tasks (docs/background-tasks.md): same image as web, started once web is
    healthy (web's start script migrated the database), the same database, no ports."""
    worker, web = services["worker"], services["web"]
    assert worker["image"] == web["image"] and worker["build"] == web["build"]  # compose v2 builds, never pulls it
    assert _as_list(worker["command"]) == ["python", "manage.py", "run_worker"]
    assert worker["env_file"] == web["env_file"]
    assert worker["environment"]["DATABASE_URL"] == web["environment"]["DATABASE_URL"]
    assert worker["depends_on"]["web"]["condition"] == "service_healthy"
    assert _as_list(worker["healthcheck"]["test"]) == ["CMD", "python", "/app/docker/worker_healthcheck.py"]
    assert "ports" not in worker and "expose" not in worker
    # an upload written by web is read by the worker
    assert "uploads:/app/uploads" in worker["volumes"] and "uploads:/app/uploads" in web["volumes"]


def test_audit_finding_1_only_the_proxy_publishes_ports(services):
    """gunicorn is reachable on the stack's internal network only: clients cannot skip
    nginx (and the address it puts in X-Forwarded-For is the one the app may trust)."""
    assert [name for name, service in services.items() if service.get("ports")] == ["proxy"]
    assert [str(p) for p in services["web"]["expose"]] == ["8000"]
    assert services["web"]["environment"]["DJANGO_TRUSTED_PROXIES"] == "1"
    proxy = services["proxy"]
    image = _default(proxy["image"])
    assert image.split(":")[0] == "nginx" and re.fullmatch(r"\d+(\.\d+)*", image.split(":")[1])
    assert sorted(str(p).rsplit(":", 1)[1] for p in proxy["ports"]) == ["443", "80"]


def test_issue_39_the_proxy_starts_on_its_own_and_checks_through_to_health(services):
    """No depends_on: recreating the web service (an upgrade) neither restarts nor waits
    for the proxy, which finds the web service by name at each request; its healthcheck
    goes through nginx and the app to /health/ (a database query), so it turns red when
    the site does not answer."""
    proxy = services["proxy"]
    assert "depends_on" not in proxy
    assert proxy["entrypoint"] == ["sh", "/etc/nginx/dubov/start.sh"]
    assert "./docker/nginx:/etc/nginx/dubov:ro" in proxy["volumes"]
    assert proxy["healthcheck"]["test"] == ["CMD", "sh", "/etc/nginx/dubov/healthcheck.sh"]
    check = (NGINX / "healthcheck.sh").read_text()
    assert "https://127.0.0.1/health/" in check and "curl -fsS" in check
    assert proxy["environment"]["HTTPS_PORT"] == "${HTTPS_PORT:-443}"
    assert proxy["environment"]["SITE_URL"] == "${SITE_URL:-}"


def test_issue_39_nginx_re_resolves_the_web_service_and_shows_a_maintenance_page():
    conf = (NGINX / "nginx.conf").read_text()
    assert "resolver 127.0.0.11 valid=2s" in conf
    assert "set $app http://web:8000;" in conf and not re.search(r"^\s*upstream ", conf, re.M)
    assert "error_page 502 504 =503 /maintenance.html;" in conf
    assert "add_header Retry-After 5 always;" in conf
    assert (NGINX / "html" / "maintenance.html").read_text().count("docker compose ps") == 2
    # the http -> https redirect keeps a non-443 port (written by start.sh)
    assert "return 301 https://$host$https_port_suffix$request_uri;" in conf
    assert "https_port_suffix" in (NGINX / "start.sh").read_text()
    # every location that passes to the app includes the one set of proxy settings
    assert conf.count("include /etc/nginx/dubov/proxy-app.conf;") == conf.count("location") - 2


def test_audit_finding_1_the_proxy_buffers_and_limits_request_bodies():
    text = (NGINX / "nginx.conf").read_text()
    conf = _directives(text)
    app = _directives((NGINX / "proxy-app.conf").read_text())
    assert conf["client_max_body_size"] == "12m"
    # one address takes more: a staff account's upload of FIDE's whole list (the app's
    # own limit for it is the same, DJANGO_MAX_LIST_UPLOAD_BYTES), read completely first
    upload = re.search(r"location = /ratings/upload/ \{(.*?)\}", text, re.S).group(1)
    assert "client_max_body_size 100m;" in upload and "include /etc/nginx/dubov/proxy-app.conf;" in upload
    assert text.count("client_max_body_size") == 2
    assert app["proxy_request_buffering"] == "on"
    assert conf["client_body_timeout"] == "30s" and conf["client_header_timeout"] == "15s"
    assert app["proxy_pass"] == "$app"
    # the client's own X-Forwarded-For is replaced, not appended to
    assert "proxy_set_header X-Forwarded-For $remote_addr;" in (NGINX / "proxy-app.conf").read_text()
    from django.conf import settings

    assert settings.MAX_REQUEST_BYTES == 12 * 1024 * 1024  # the app's limit is the proxy's
    assert settings.MAX_LIST_UPLOAD_BYTES == 100 * 1024 * 1024


# --- the web image and its start --------------------------------------------------------


def test_audit_finding_1_gunicorn_uses_threaded_workers_everywhere_it_is_started(dockerfile):
    config = {}
    exec(compile((ROOT / "docker" / "gunicorn.conf.py").read_text(), "gunicorn.conf.py", "exec"), config)
    assert config["worker_class"] == "gthread" and config["threads"] >= 4
    # loopback outside a container (issue 33); the image listens on its internal network
    assert config["bind"] == ["127.0.0.1:8000"] and config["timeout"] == 120
    assert dict(dockerfile)["ENV"].count("GUNICORN_BIND=0.0.0.0:8000") == 1
    cmd = json.loads(dict(dockerfile)["CMD"])
    assert cmd[:3] == ["gunicorn", "-c", "docker/gunicorn.conf.py"]
    assert '"gunicorn", "-c", "docker/gunicorn.conf.py"' in (ROOT / "docker" / "start.py").read_text()


def test_issue_39_quiet_logs_one_access_line_and_no_control_socket(services, monkeypatch):
    """nginx writes the access line of each request; gunicorn's is off in the stack; no
    control socket (its folder was not writable: an error line on every start)."""
    assert services["web"]["environment"]["GUNICORN_ACCESS_LOG"] == "off"
    source = (ROOT / "docker" / "gunicorn.conf.py").read_text()
    for value, expected in (("off", None), ("", "-")):
        monkeypatch.setenv("GUNICORN_ACCESS_LOG", value)
        config = {}
        exec(compile(source, "gunicorn.conf.py", "exec"), config)
        assert config["accesslog"] == expected
        assert config["control_socket_disable"] is True


def test_web_healthcheck_calls_the_health_endpoint(services):
    test = _as_list(services["web"]["healthcheck"]["test"])
    assert test[0] in ("CMD", "CMD-SHELL")
    script = next(arg for arg in test if arg.endswith("healthcheck.py"))
    assert script == "/app/docker/healthcheck.py"
    assert "/health/" in (ROOT / "docker" / "healthcheck.py").read_text()


def test_issue_39_the_code_is_root_s_and_the_app_runs_as_its_own_user(dockerfile):
    """The code is copied without --chown (root's, not writable by the app); the container
    starts as root only for the certificate and the backups folder, and docker/start.py
    then drops to APP_USER for everything else, gunicorn included."""
    args = dict(dockerfile)  # the last of each instruction
    assert "USER" not in args
    copies = [rest for word, rest in dockerfile if word == "COPY"]
    assert not any("--chown" in c for c in copies)
    assert copies[1].split()[0] == "requirements.txt" and copies[2] == ". ."  # dependencies cached first
    env = " ".join(rest for word, rest in dockerfile if word == "ENV")
    assert "APP_USER=arbiter" in env and "COLLECTSTATIC_AT_START=false" in env
    runs = " ".join(rest for word, rest in dockerfile if word == "RUN")
    assert "useradd --system --uid 10001" in runs and "manage.py collectstatic" in runs
    start = (ROOT / "docker" / "start.py").read_text()
    assert "os.setuid(account.pw_uid)" in start and "os.setgid(account.pw_gid)" in start
    assert json.loads(args["ENTRYPOINT"]) == ["/app/docker/entrypoint.sh"]
    assert args["WORKDIR"] == "/app" and args["EXPOSE"] == "8000"
    assert json.loads(args["CMD"])[0] == "gunicorn"
    assert any("pip install -r requirements.txt" in r for w, r in dockerfile if w == "RUN")
    assert "healthcheck.py" in args["HEALTHCHECK"]


def test_the_start_scripts_are_executable_in_git():
    for path in ("docker/entrypoint.sh", "docker/nginx/start.sh", "docker/backup/backup.sh"):
        out = subprocess.run(["git", "ls-files", "-s", path], cwd=ROOT, capture_output=True, text=True).stdout
        if not out:
            pytest.skip("not a git checkout (or not committed yet)")
        assert out.startswith("100755"), path


def test_dockerignore_and_gitignore_keep_secrets_backups_and_local_files_out():
    ignored = {
        line.strip() for line in (ROOT / ".dockerignore").read_text().splitlines()
        if line.strip() and not line.startswith("#")
    }
    assert {".env", ".venv", ".git", "db.sqlite3", "staticfiles", "artifacts", "certs", "backups"} <= ignored
    assert "!.env.example" in ignored or ".env.*" not in ignored
    git_ignored = {line.strip() for line in (ROOT / ".gitignore").read_text().splitlines()}
    assert {"certs/", "backups/", ".env"} <= git_ignored


def test_whitenoise_serves_the_static_files():
    from django.conf import settings

    assert "whitenoise.middleware.WhiteNoiseMiddleware" in settings.MIDDLEWARE
    assert "gunicorn" in (ROOT / "requirements.txt").read_text()
    assert "whitenoise" in (ROOT / "requirements.txt").read_text()


def test_issue_39_a_restart_s_stop_and_start_are_short():
    """The app is loaded once before the workers fork, and a worker that has finished
    leaves without Python's teardown of the app (2 of 2.2 s of a stop, measured); CI
    times the restart and the upgrade through the proxy (scripts/compose_stack_check.py)."""
    config = {}
    exec(compile((ROOT / "docker" / "gunicorn.conf.py").read_text(), "gunicorn.conf.py", "exec"), config)
    assert config["preload_app"] is True
    assert "os._exit(0)" in (ROOT / "docker" / "gunicorn.conf.py").read_text()
    assert callable(config["worker_exit"])
