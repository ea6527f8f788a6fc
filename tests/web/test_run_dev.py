"""``make run`` runs the development server and a background worker with one command
(scripts/run_dev.py), and Ctrl-C stops both."""

from __future__ import annotations

import os
import signal
import socket
import subprocess
import sys
import urllib.request

import pytest

from pairing.models import WorkerBeat
from tests.web.worker_process import ROOT, wait_for, worker_env


def free_port() -> int:
    with socket.socket() as s:
        s.bind(("127.0.0.1", 0))
        return s.getsockname()[1]


def answers(url: str) -> bool:
    try:
        with urllib.request.urlopen(url, timeout=2) as response:
            return response.status == 200
    except OSError:
        return False


@pytest.mark.django_db(transaction=True)
def test_make_run_starts_the_web_server_and_a_worker_and_ctrl_c_stops_both(tmp_path):
    port = free_port()
    log = (tmp_path / "run_dev.log").open("w")
    proc = subprocess.Popen([sys.executable, "scripts/run_dev.py", f"127.0.0.1:{port}"], cwd=ROOT,
                            env=worker_env(tmp_path), stdout=log, stderr=subprocess.STDOUT)
    try:
        wait_for(lambda: answers(f"http://127.0.0.1:{port}/health/"), timeout=60, what="the development server")
        beat = wait_for(lambda: WorkerBeat.objects.first(), timeout=60, what="the worker's heartbeat")
        proc.send_signal(signal.SIGINT)
        assert proc.wait(40) == 0
    finally:
        if proc.poll() is None:
            proc.kill()
    assert not answers(f"http://127.0.0.1:{port}/health/")
    wait_for(lambda: not WorkerBeat.objects.filter(pk=beat.pk).exists(), timeout=10, what="the worker to leave")
    with pytest.raises(ProcessLookupError):
        os.kill(beat.pid, 0)
