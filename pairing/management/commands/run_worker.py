"""Run background tasks: ``manage.py run_worker``.

The queue's own worker (django-tasks-db's ``db_worker``) takes the tasks one at a time;
beside it a thread writes this worker's heartbeat, starts lost tasks again or marks
them failed, and starts the daily rating-list refresh when it is due
(:mod:`pairing.worker`).  Ctrl-C (SIGINT) or SIGTERM lets the running task finish, a
second one stops at once (the task is then lost, and handled as such by the next
worker).  ``make run`` starts one beside the development server; the compose stack runs
one as its ``worker`` service.
"""

from __future__ import annotations

import os
import signal
import sys

from django.core.management import call_command
from django.core.management.base import BaseCommand
from django.utils.crypto import get_random_string

from pairing.services import jobs
from pairing.worker import Housekeeper


class Command(BaseCommand):
    help = "Run background tasks (rating lists, checks) and the daily schedule."

    def add_arguments(self, parser):
        parser.add_argument("--interval", type=float, default=1.0,
                            help="seconds between looks at an empty queue (default 1)")
        parser.add_argument("--batch", action="store_true",
                            help="run what is queued, then stop (no schedule; for scripts and tests)")

    def handle(self, *args, **opts):
        # until the queue's worker sets its own (a graceful stop after the running task)
        signal.signal(signal.SIGTERM, lambda *_: sys.exit(0))
        worker_id = f"{os.uname().nodename[:40]}-{os.getpid()}-{get_random_string(8)}"
        keeper = Housekeeper(worker_id)
        keeper.tick(scheduled=not opts["batch"])  # heartbeat, lost jobs, and a refresh that is due: before the first task
        if not opts["batch"]:
            keeper.start()
        self.stdout.write(f"worker {worker_id}: waiting for tasks")
        try:
            call_command("db_worker", worker_id=worker_id, reload=False, startup_delay=False,
                         interval=opts["interval"], batch=opts["batch"], verbosity=opts["verbosity"],
                         stdout=self.stdout, stderr=self.stderr)
        finally:
            keeper.stop()
            try:
                jobs.gone(worker_id)
            except Exception:  # the database went away first: its heartbeat goes stale instead
                pass
