"""A real worker process (``manage.py run_worker``) on the test database, for the tests
of background work: the same queue, the same database file or server, committed data
(tests that use it take ``transactional_db``)."""

from __future__ import annotations

import os
import signal
import subprocess
import sys
import time
from collections.abc import Callable
from contextlib import contextmanager
from pathlib import Path

from django.db import connection

ROOT = Path(__file__).resolve().parents[2]


def database_url() -> str:
    """The test database, as a DATABASE_URL another process can open."""
    s = connection.settings_dict
    if connection.vendor == "sqlite":
        return f"sqlite:///{s['NAME']}"
    auth = s["USER"] + (f":{s['PASSWORD']}" if s.get("PASSWORD") else "")
    return f"postgres://{auth}@{s['HOST'] or '127.0.0.1'}:{s['PORT'] or 5432}/{s['NAME']}"


def worker_env(tmp_path: Path, **extra: str) -> dict[str, str]:
    env = {k: v for k, v in os.environ.items() if not k.startswith(("DJANGO_", "DATABASE_URL"))}
    env.update({
        "DJANGO_SETTINGS_MODULE": "arbiter_site.test_settings",
        "DJANGO_DEBUG": "true",
        "DATABASE_URL": database_url(),
        "DJANGO_WORKER_BEAT_SECONDS": "1",
        "DJANGO_WORKER_STALE_SECONDS": "3",
        "DJANGO_WORKER_HEARTBEAT_FILE": str(tmp_path / "heartbeat"),
        "PYTHONUNBUFFERED": "1",
    })
    env.update(extra)
    return env


def start_worker(tmp_path: Path, name: str = "worker", **extra: str) -> subprocess.Popen:
    connection.close()  # SQLite: no transaction of ours holds the file
    log = (tmp_path / f"{name}.log").open("w")
    return subprocess.Popen([sys.executable, "manage.py", "run_worker", "--interval", "0.2"], cwd=ROOT,
                            env=worker_env(tmp_path, **extra), stdout=log, stderr=subprocess.STDOUT,
                            start_new_session=True)


def stop_worker(proc: subprocess.Popen, *, kill: bool = False) -> None:
    if proc.poll() is not None:
        return
    proc.send_signal(signal.SIGKILL if kill else signal.SIGTERM)
    try:
        proc.wait(15)
    except subprocess.TimeoutExpired:
        proc.kill()
        proc.wait(5)


@contextmanager
def running_worker(tmp_path: Path, name: str = "worker", **extra: str):
    proc = start_worker(tmp_path, name, **extra)
    try:
        yield proc
    finally:
        stop_worker(proc, kill=True)


def log_of(tmp_path: Path, name: str = "worker") -> str:
    path = tmp_path / f"{name}.log"
    return path.read_text() if path.exists() else ""


def wait_for(condition: Callable[[], object], timeout: float = 60, every: float = 0.1, what: str = "") -> object:
    """Poll until ``condition()`` is true; returns its value (fails after ``timeout``)."""
    deadline = time.monotonic() + timeout
    while True:
        value = condition()
        if value:
            return value
        if time.monotonic() > deadline:
            raise AssertionError(f"timed out after {timeout} s waiting for {what or condition}")
        time.sleep(every)


def generated_trf(players: int, rounds: int, seed: int = 1, *extra: str) -> str:
    """A tournament played by the engine's generator (fixed defaults), as TRF text."""
    import tempfile

    with tempfile.TemporaryDirectory() as tmp:
        out = Path(tmp) / "generated.trf"
        subprocess.run([sys.executable, "-m", "pairing.engine", "--dubov", "-g", "--players", str(players), "--rounds",
                        str(rounds), "--seed", str(seed), "--fixed", *extra, "-o", str(out)], cwd=ROOT, check=True,
                       capture_output=True)
        return out.read_text()


def import_generated(t, players: int, rounds: int, seed: int = 1):
    """``t`` with the generated tournament's players and rounds (imported as a TRF file)."""
    from pairing.services.trf_import import import_trf

    import_trf(t, generated_trf(players, rounds, seed), t.owner, confirmations=1)
    return t


def run_queued() -> list:
    """Run every queued job's handler here, in the test's transaction (what the worker
    does, without the queue: the queue and the worker are tested on their own)."""
    from pairing.models import Job
    from pairing.services import background, jobs

    ran = []
    for job in Job.objects.filter(status="queued").order_by("pk"):
        jobs.run(job.pk, background.HANDLERS[job.kind], worker_id="test")
        job.refresh_from_db()
        ran.append(job)
    return ran
