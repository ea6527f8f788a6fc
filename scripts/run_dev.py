"""``make run``'s last step: Django's development server and a background worker, in one
command.  Ctrl-C (or SIGTERM) stops both; when either stops by itself, the other is
stopped too and this script exits with its status.

    python scripts/run_dev.py [ADDRESS:PORT]      # default 127.0.0.1:8000

Each child runs in a process group of its own (the development server's autoreloader is
two processes), and the signal is passed to the whole group.  A first Ctrl-C lets the
worker finish the task it is running (it says so); a second one stops everything at once.
"""

from __future__ import annotations

import os
import signal
import subprocess
import sys
import time
from pathlib import Path

ROOT = Path(__file__).resolve().parents[1]


def main(argv: list[str]) -> int:
    address = argv[0] if argv else "127.0.0.1:8000"
    python = sys.executable
    children = {
        "worker": subprocess.Popen([python, "manage.py", "run_worker"], cwd=ROOT, start_new_session=True),
        "web": subprocess.Popen([python, "manage.py", "runserver", address], cwd=ROOT, start_new_session=True),
    }
    stopping = {"count": 0}

    def signal_all(sig: int) -> None:
        for proc in children.values():
            if proc.poll() is None:
                try:
                    os.killpg(proc.pid, sig)
                except ProcessLookupError:
                    pass

    def on_signal(signum, _frame) -> None:
        stopping["count"] += 1
        signal_all(signal.SIGINT if stopping["count"] == 1 else signal.SIGKILL)

    signal.signal(signal.SIGINT, on_signal)
    signal.signal(signal.SIGTERM, on_signal)
    print(f"run_dev: web on http://{address}/ and a background worker; Ctrl-C stops both", flush=True)
    code = 0
    while all(proc.poll() is None for proc in children.values()):
        time.sleep(0.2)
    ended = [name for name, proc in children.items() if proc.poll() is not None]
    if not stopping["count"]:
        name = ended[0]
        code = children[name].returncode or 1
        print(f"run_dev: the {name} process stopped (status {children[name].returncode}); stopping the other",
              file=sys.stderr, flush=True)
        stopping["count"] = 1
        signal_all(signal.SIGINT)
    deadline = time.monotonic() + 30
    while any(proc.poll() is None for proc in children.values()):
        if time.monotonic() > deadline:
            signal_all(signal.SIGKILL)
            deadline += 5
        time.sleep(0.2)
    return code


if __name__ == "__main__":
    sys.exit(main(sys.argv[1:]))
