"""What a worker process does besides running tasks (``manage.py run_worker``): every
few seconds, in a thread of its own, it

* writes its heartbeat (a row, then a file the container's health check reads);
* reaps lost jobs: a running job whose worker stopped writing its heartbeat is started
  again when it has attempts left, otherwise marked failed with the reason (its task on
  the queue is marked failed too, and what the lost attempt left half-written is
  removed by the job kind's clean-up);
* starts what the schedule says is due: the daily rating-list refresh at
  ``settings.RATING_REFRESH_AT`` (local time), once per day whatever the number of
  workers (a unique job per day), and at start-up when today's has not run yet;
* deletes finished jobs older than ``settings.JOB_KEEP_DAYS`` (at start-up, then hourly).

The clock is a parameter, so that tests move it.
"""

from __future__ import annotations

import datetime
import logging
import os
import threading
from collections.abc import Callable
from pathlib import Path

from django.conf import settings
from django.db import DatabaseError, IntegrityError, close_old_connections, connection
from django.utils import timezone

from . import tasks
from .models import Job, JobKind
from .services import background, jobs

log = logging.getLogger("pairing.worker")
PRUNE_EVERY = datetime.timedelta(hours=1)


def mark_task_lost(job: Job, message: str) -> None:
    """The queue's record of the lost attempt: failed, with the reason."""
    from django_tasks_db.models import DBTaskResult

    if job.task_id:
        DBTaskResult.objects.filter(id=job.task_id, status="RUNNING").update(
            status="FAILED", finished_at=timezone.now(), exception_class_path="pairing.worker.WorkerLost",
            traceback=message,
        )


def reap(now: datetime.datetime | None = None) -> list[Job]:
    """Handle every lost job; returns them (retried or failed)."""
    handled = []
    for job in jobs.lost(now):
        if not jobs.claim_lost(job):
            continue
        message = jobs.lost_message(job)
        mark_task_lost(job, message)
        final = job.attempts >= jobs.max_attempts()
        cleanup = background.CLEANUP.get(job.kind)
        if cleanup is not None:
            cleanup(job, final)
        if not final:
            jobs.requeue(job)
            tasks.enqueue(job)
            log.warning("job %s: its worker stopped; queued again (attempt %s)", job.pk, job.attempts + 1)
        else:
            jobs.fail(job, message)
            log.warning("job %s: its worker stopped; failed after %s attempts", job.pk, job.attempts)
        handled.append(job)
    return handled


def refresh_time() -> datetime.time | None:
    return settings.RATING_REFRESH_AT


def schedule(now: datetime.datetime) -> list[Job]:
    """Start the daily refresh when it is due and has not run today (local time)."""
    at = refresh_time()
    if at is None or JobKind.RATING_REFRESH not in background.HANDLERS:
        return []
    local = timezone.localtime(now)
    if local.time() < at:
        return []
    day = local.date()
    if Job.objects.filter(kind=JobKind.RATING_REFRESH, scheduled_for=day).exists():
        return []
    try:
        job = tasks.start(JobKind.RATING_REFRESH, scheduled_for=day, language=settings.LANGUAGE_CODE,
                          params={"scheduled": True})
    except IntegrityError:  # another worker started it a moment ago
        return []
    log.info("daily rating-list refresh for %s queued (job %s)", day, job.pk)
    return [job]


class Housekeeper(threading.Thread):
    """The worker's heartbeat, reaper and schedule, every ``interval`` seconds."""

    def __init__(self, worker_id: str, *, interval: float | None = None,
                 clock: Callable[[], datetime.datetime] = timezone.now, heartbeat_file: str | None = None):
        super().__init__(name="worker-housekeeper", daemon=True)
        self.worker_id = worker_id
        self.interval = interval if interval is not None else settings.WORKER_BEAT_SECONDS
        self.clock = clock
        self.heartbeat_file = Path(heartbeat_file if heartbeat_file is not None else settings.WORKER_HEARTBEAT_FILE)
        self._stop = threading.Event()
        self._pruned_at: datetime.datetime | None = None

    def tick(self, *, scheduled: bool = True) -> None:
        now = self.clock()
        try:
            jobs.beat(self.worker_id, host=os.uname().nodename, pid=os.getpid())
            self._touch()
            reap(now)
            if scheduled:
                schedule(now)
            jobs.forget_dead_workers(now)
            if self._pruned_at is None or now - self._pruned_at >= PRUNE_EVERY:
                deleted, _tasks = jobs.prune(now)
                self._pruned_at = now
                if deleted:
                    log.info("deleted %s finished jobs older than %s days", deleted, settings.JOB_KEEP_DAYS)
        except DatabaseError as exc:  # the database is busy or away: try again next time
            log.warning("worker housekeeping: %s", exc)

    def _touch(self) -> None:
        if str(self.heartbeat_file):
            try:
                self.heartbeat_file.parent.mkdir(parents=True, exist_ok=True)
                self.heartbeat_file.touch()
            except OSError as exc:
                log.warning("worker heartbeat file %s: %s", self.heartbeat_file, exc)

    def run(self) -> None:
        while not self._stop.wait(self.interval):
            self.tick()
            close_old_connections()  # this thread's own connection, as after a request
        connection.close()

    def stop(self) -> None:
        self._stop.set()
