"""Health check of the worker container: healthy while the worker's heartbeat file is
fresh.  The worker (manage.py run_worker) touches it after each heartbeat it writes to
the database, every DJANGO_WORKER_BEAT_SECONDS; stale after DJANGO_WORKER_STALE_SECONDS
(or when the file is missing), the same limit after which its running task counts as lost.
Standard library only: no Django start-up on every check."""

from __future__ import annotations

import os
import sys
import tempfile
import time


def main() -> int:
    path = os.environ.get("DJANGO_WORKER_HEARTBEAT_FILE") or os.path.join(tempfile.gettempdir(),
                                                                         "dubov-worker-heartbeat")
    limit = float(os.environ.get("DJANGO_WORKER_STALE_SECONDS") or 120)
    try:
        age = time.time() - os.stat(path).st_mtime
    except OSError:
        print(f"worker: no heartbeat file {path}", file=sys.stderr)
        return 1
    if age > limit:
        print(f"worker: last heartbeat {age:.0f} s ago (limit {limit:.0f} s)", file=sys.stderr)
        return 1
    print(f"worker: heartbeat {age:.0f} s ago")
    return 0


if __name__ == "__main__":
    sys.exit(main())
