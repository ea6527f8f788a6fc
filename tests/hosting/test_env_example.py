""".env.example lists every variable the settings read, and nothing nobody reads.

The settings' variables are found by parsing arbiter_site/settings.py (calls to its
``env_*`` helpers, ``os.environ.get``/``os.getenv`` and ``os.environ[...]``), so a new
setting is caught without updating this test.
"""

from __future__ import annotations

import ast
import re
from pathlib import Path

ROOT = Path(__file__).resolve().parents[2]
SETTINGS = ROOT / "arbiter_site" / "settings.py"
# Files that may read a variable of .env.example besides the settings.
READERS = [
    ROOT / "docker" / "start.py", ROOT / "docker-compose.yml", ROOT / "docker" / "healthcheck.py",
    ROOT / "docker" / "gunicorn.conf.py", ROOT / "docker" / "backup" / "backup.sh",
]
# Read only by programs rather than by our files (none yet; document each in .env.example).
READ_ELSEWHERE: set[str] = set()


def _is_os_environ(node: ast.AST) -> bool:
    return (
        isinstance(node, ast.Attribute) and node.attr == "environ"
        and isinstance(node.value, ast.Name) and node.value.id == "os"
    )


def variables_read_by(source: str) -> set[str]:
    tree = ast.parse(source)
    helpers = {
        node.name for node in tree.body
        if isinstance(node, ast.FunctionDef) and node.name.startswith(("env", "_env"))
    }
    found: set[str] = set()
    for node in ast.walk(tree):
        name_arg = None
        if isinstance(node, ast.Call) and node.args:
            func = node.func
            if isinstance(func, ast.Name) and func.id in helpers:
                name_arg = node.args[0]
            elif isinstance(func, ast.Attribute) and func.attr in ("get", "pop", "setdefault") and _is_os_environ(
                func.value
            ):
                name_arg = node.args[0]
            elif (
                isinstance(func, ast.Attribute) and func.attr == "getenv"
                and isinstance(func.value, ast.Name) and func.value.id == "os"
            ):
                name_arg = node.args[0]
        elif isinstance(node, ast.Subscript) and _is_os_environ(node.value):
            name_arg = node.slice
        if isinstance(name_arg, ast.Constant) and isinstance(name_arg.value, str):
            found.add(name_arg.value)
    return found


def example_variables() -> dict[str, bool]:
    """NAME -> whether it is set (True) or only shown in a comment (False)."""
    out: dict[str, bool] = {}
    for line in (ROOT / ".env.example").read_text().splitlines():
        m = re.match(r"^(#\s*)?([A-Z][A-Z0-9_]*)=", line.strip())
        if m:
            out.setdefault(m.group(2), not m.group(1))
            out[m.group(2)] = out[m.group(2)] or not m.group(1)
    return out


def test_the_parser_finds_the_settings_variables():
    found = variables_read_by(SETTINGS.read_text())
    assert {"DJANGO_DEBUG", "DJANGO_SECRET_KEY", "DJANGO_ALLOWED_HOSTS", "DATABASE_URL",
            "DATABASE_CONN_MAX_AGE", "DJANGO_TIME_ZONE"} <= found


def test_the_parser_sees_every_way_of_reading_the_environment():
    source = (
        "import os\n"
        "def env_flag(name, default): return os.environ.get(name) or default\n"
        "A = env_flag('VIA_HELPER', 1)\n"
        "B = os.environ.get('VIA_GET')\n"
        "C = os.getenv('VIA_GETENV', 'x')\n"
        "D = os.environ['VIA_SUBSCRIPT']\n"
        "if True:\n    E = os.environ.get('NESTED')\n"
    )
    assert variables_read_by(source) == {"VIA_HELPER", "VIA_GET", "VIA_GETENV", "VIA_SUBSCRIPT", "NESTED"}


def test_every_variable_the_settings_read_is_in_env_example():
    listed = example_variables()
    missing = sorted(variables_read_by(SETTINGS.read_text()) - set(listed))
    assert not missing, f"add to .env.example (with a comment): {missing}"


def test_every_variable_in_env_example_is_read_somewhere():
    readers = "\n".join(path.read_text() for path in READERS)
    settings_vars = variables_read_by(SETTINGS.read_text())
    unread = sorted(
        name for name in example_variables()
        if name not in settings_vars and name not in READ_ELSEWHERE
        and not re.search(r"\$\{?" + name + r"\b|[\"']" + name + r"[\"']", readers)
    )
    assert not unread, f"listed in .env.example but read by nothing: {unread}"


def test_the_required_production_settings_are_set_lines_not_comments():
    listed = example_variables()
    for name in ("SITE_URL", "DJANGO_DEBUG", "DJANGO_SECRET_KEY", "POSTGRES_PASSWORD"):
        assert listed.get(name) is True, name


def test_the_example_holds_no_secret():
    for line in (ROOT / ".env.example").read_text().splitlines():
        for name in ("DJANGO_SECRET_KEY", "POSTGRES_PASSWORD"):
            if line.startswith(f"{name}="):
                assert line == f"{name}=", f"{name} must be left empty in the example"


def test_env_is_ignored_by_git():
    patterns = {line.strip() for line in (ROOT / ".gitignore").read_text().splitlines()}
    assert ".env" in patterns


# Read by the start script but set by the image or the compose file, not by .env:
# PYTHON (outside the image, README), the app's user, the certificate's folder in the
# container, Django's settings module, collectstatic at start (the image collects at build).
NOT_FOR_ENV_FILE = {"PYTHON", "APP_USER", "SELF_SIGNED_CERT_DIR", "DJANGO_SETTINGS_MODULE", "COLLECTSTATIC_AT_START"}


def test_every_variable_compose_and_the_start_script_read_is_in_env_example():
    listed = set(example_variables())
    compose = (ROOT / "docker-compose.yml").read_text()
    # ${NAME}, ${NAME:-default}, ${NAME:?message}; $${NAME} is the container's own shell
    in_compose = set(re.findall(r"(?<!\$)\$\{([A-Z][A-Z0-9_]*)", compose))
    in_script = variables_read_by((ROOT / "docker" / "start.py").read_text())
    assert {"POSTGRES_PASSWORD", "HTTPS_PORT", "BACKUP_DIR"} <= in_compose and "DB_WAIT_TRIES" in in_script
    in_gunicorn = variables_read_by((ROOT / "docker" / "gunicorn.conf.py").read_text())
    assert {"WEB_CONCURRENCY", "GUNICORN_THREADS"} <= in_gunicorn
    missing = sorted((in_compose | in_script | in_gunicorn) - listed - NOT_FOR_ENV_FILE)
    assert not missing, f"add to .env.example: {missing}"
