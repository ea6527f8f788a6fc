"""Fixtures of the hosting tests: a fresh PostgreSQL database.

Each PostgreSQL test gets a fresh database ``dubov_entrypoint_<pid>`` on the server of
DATABASE_URL when that is PostgreSQL, else on postgres@127.0.0.1:5432, and drops it
afterwards.  No server: skipped, unless REQUIRE_POSTGRES=1 (CI), then a failure.
"""

from __future__ import annotations

import os

import pytest


def _admin_dsn() -> dict:
    url = os.environ.get("DATABASE_URL", "")
    if url.startswith(("postgres://", "postgresql://")):
        import dj_database_url

        cfg = dj_database_url.parse(url)
        return {
            "host": cfg.get("HOST") or "127.0.0.1",
            "port": int(cfg.get("PORT") or 5432),
            "user": cfg.get("USER") or "postgres",
            "password": cfg.get("PASSWORD") or None,
        }
    return {"host": "127.0.0.1", "port": 5432, "user": "postgres", "password": None}


@pytest.fixture
def fresh_database():
    """(url, connect) for a new empty database; dropped at the end."""
    import psycopg

    dsn = _admin_dsn()
    name = f"dubov_entrypoint_{os.getpid()}"
    try:
        admin = psycopg.connect(dbname="postgres", autocommit=True, connect_timeout=3, **dsn)
    except psycopg.OperationalError as exc:
        reason = f"no PostgreSQL server at {dsn['host']}:{dsn['port']} ({exc.__class__.__name__})"
        if os.environ.get("REQUIRE_POSTGRES") == "1":
            pytest.fail(f"{reason} and REQUIRE_POSTGRES=1")
        pytest.skip(reason)
    with admin:
        admin.execute(f'DROP DATABASE IF EXISTS "{name}" WITH (FORCE)')
        admin.execute(f'CREATE DATABASE "{name}"')
        auth = dsn["user"] + (f":{dsn['password']}" if dsn["password"] else "")
        url = f"postgres://{auth}@{dsn['host']}:{dsn['port']}/{name}"

        def connect():
            return psycopg.connect(dbname=name, connect_timeout=3, **dsn)

        try:
            yield url, connect
        finally:
            admin.execute(f'DROP DATABASE IF EXISTS "{name}" WITH (FORCE)')
