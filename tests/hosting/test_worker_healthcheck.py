"""docker/worker_healthcheck.py: the worker container is healthy while its heartbeat
file is fresh (the worker touches it after each heartbeat written to the database)."""

from __future__ import annotations

import os
import subprocess
import sys
import time
from pathlib import Path

SCRIPT = Path(__file__).resolve().parents[2] / "docker" / "worker_healthcheck.py"


def check(path: Path, stale: str = "120") -> subprocess.CompletedProcess:
    env = {**os.environ, "DJANGO_WORKER_HEARTBEAT_FILE": str(path), "DJANGO_WORKER_STALE_SECONDS": stale}
    return subprocess.run([sys.executable, str(SCRIPT)], env=env, capture_output=True, text=True)


def test_a_fresh_heartbeat_is_healthy(tmp_path):
    beat = tmp_path / "beat"
    beat.touch()
    assert check(beat).returncode == 0


def test_an_old_heartbeat_is_unhealthy(tmp_path):
    beat = tmp_path / "beat"
    beat.touch()
    old = time.time() - 300
    os.utime(beat, (old, old))
    done = check(beat)
    assert done.returncode == 1 and "last heartbeat 300 s ago (limit 120 s)" in done.stderr


def test_no_heartbeat_file_is_unhealthy(tmp_path):
    done = check(tmp_path / "missing")
    assert done.returncode == 1 and "no heartbeat file" in done.stderr
