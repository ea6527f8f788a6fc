"""Jobs: the progress records of background work, and the rules of their life.

A job is created ``queued`` together with its task on the database queue (one
transaction, :func:`pairing.tasks.start`), becomes ``running`` when a worker takes it
(:func:`run`), and ends ``done`` with a result or ``failed`` with an error in words.  The
handler that does the work reports progress through :class:`Progress` (done of total,
the current step) outside its own write transactions, so that the page polling the job
sees it at once.

A worker writes a heartbeat (:func:`beat`); a running job whose worker has not written
one for ``settings.WORKER_STALE_SECONDS`` is *lost* (the process was killed, the machine
restarted).  :func:`lost` finds such jobs for the reaper, which starts them again when
their kind allows another attempt (:func:`requeue`) or marks them failed with the reason
(:func:`fail`): a job is never left running with nobody running it.
"""

from __future__ import annotations

import datetime
import time
from collections.abc import Callable

from django.conf import settings
from django.db import transaction
from django.db.models import F
from django.utils import timezone, translation
from django.utils.translation import gettext as _

from ..models import Job, JobKind, JobStatus, Tournament, WorkerBeat


class JobFailed(Exception):
    """The work cannot be done; the message (in the job's language) is the job's error."""


class JobWaits(Exception):  # noqa: N818 - not an error: the job ends waiting for an answer
    """The work is done as far as it can go without the arbiter: the job waits for their
    answer, with ``result`` (what to ask)."""

    def __init__(self, result: dict):
        super().__init__("waits for an answer")
        self.result = result


class Progress:
    """Progress reports of a running job: ``progress("rounds", done=17, total=40)``.

    A report of the same step is written at most every ``interval`` seconds (a loop may
    report each row); a new step, and ``force=True``, are written at once."""

    def __init__(self, job: Job, interval: float = 0.5):
        self.job = job
        self.interval = interval
        self.writes = 0
        self._last_write = 0.0
        self._last_step = ""

    def __call__(self, step: str, *, done: int | None = None, total: int | None = None, force: bool = False,
                 **args) -> None:
        now = time.monotonic()
        if not force and step == self._last_step and now - self._last_write < self.interval:
            return
        fields: dict = {"step": step, "step_args": args}
        if done is not None:
            fields["done"] = done
        if total is not None:
            fields["total"] = total
        Job.objects.filter(pk=self.job.pk).update(**fields)
        for name, value in fields.items():
            setattr(self.job, name, value)
        self._last_write, self._last_step = now, step
        self.writes += 1


Handler = Callable[[Job, Progress], dict | None]


def create(kind: str, *, user=None, tournament: Tournament | None = None, params: dict | None = None,
           language: str | None = None, scheduled_for: datetime.date | None = None) -> Job:
    known = user is not None and user.is_authenticated
    return Job.objects.create(
        kind=JobKind(kind), user=user if known else None, tournament=tournament, params=params or {},
        language=language or translation.get_language() or "en", scheduled_for=scheduled_for,
    )


def queued_as(job: Job, task_id: str) -> None:
    Job.objects.filter(pk=job.pk).update(task_id=str(task_id))
    job.task_id = str(task_id)


def run(job_id: int, handler: Handler, *, worker_id: str = "") -> dict | None:
    """Run ``handler`` for the job (in the worker): running, then done with the
    handler's result, or failed with its :class:`JobFailed` message.  Any other
    exception fails the job and is raised again (the task queue keeps its traceback).
    A job already finished is left alone."""
    job = Job.objects.filter(pk=job_id).first()
    if job is None or not job.is_open:
        return None
    now = timezone.now()
    Job.objects.filter(pk=job.pk).update(
        status=JobStatus.RUNNING, started_at=job.started_at or now, worker_id=worker_id[:64],
        attempts=F("attempts") + 1,
    )
    job.refresh_from_db()
    progress = Progress(job)
    with translation.override(job.language or "en"):
        try:
            result = handler(job, progress)
        except JobFailed as exc:
            finish(job, JobStatus.FAILED, error=str(exc))
            return None
        except JobWaits as waits:
            finish(job, JobStatus.WAITING, result=waits.result)
            return waits.result
        except Exception as exc:
            finish(job, JobStatus.FAILED, error=_("The task stopped on an unexpected error: %(error)s") % {
                "error": f"{type(exc).__name__}: {exc}"})
            raise
    finish(job, JobStatus.DONE, result=result)
    return result


def finish(job: Job, status: str, *, result: dict | None = None, error: str = "") -> None:
    fields = {"status": status, "finished_at": timezone.now(), "result": result, "error": error,
              "step": {JobStatus.DONE: "finished", JobStatus.WAITING: "question"}.get(status, job.step)}
    if status == JobStatus.DONE and job.total:
        fields["done"] = job.total
    Job.objects.filter(pk=job.pk).update(**fields)
    for name, value in fields.items():
        setattr(job, name, value)


def fail(job: Job, error: str) -> None:
    finish(job, JobStatus.FAILED, error=error)


def requeue(job: Job) -> None:
    """Back on the queue after its worker was lost (the caller enqueues the task)."""
    Job.objects.filter(pk=job.pk).update(status=JobStatus.QUEUED, worker_id="", step="retry",
                                         step_args={"attempt": job.attempts + 1})
    job.refresh_from_db()


# ---------------------------------------------------------------- workers


def stale_after() -> datetime.timedelta:
    return datetime.timedelta(seconds=settings.WORKER_STALE_SECONDS)


def beat(worker_id: str, host: str = "", pid: int = 0) -> None:
    now = timezone.now()
    updated = WorkerBeat.objects.filter(worker_id=worker_id).update(seen_at=now)
    if not updated:
        WorkerBeat.objects.create(worker_id=worker_id[:64], host=host[:200], pid=pid, seen_at=now)


def gone(worker_id: str) -> None:
    """The worker stops (a clean shutdown)."""
    WorkerBeat.objects.filter(worker_id=worker_id).delete()


def worker_alive(now: datetime.datetime | None = None) -> bool:
    """Some worker has written its heartbeat recently."""
    now = now or timezone.now()
    return WorkerBeat.objects.filter(seen_at__gte=now - stale_after()).exists()


def lost(now: datetime.datetime | None = None) -> list[Job]:
    """Running jobs whose worker has stopped writing its heartbeat (or never wrote one)."""
    now = now or timezone.now()
    alive = set(WorkerBeat.objects.filter(seen_at__gte=now - stale_after()).values_list("worker_id", flat=True))
    out = []
    for job in Job.objects.filter(status=JobStatus.RUNNING):
        if job.worker_id not in alive and (job.started_at is None or job.started_at < now - stale_after()):
            out.append(job)
    return out


def forget_dead_workers(now: datetime.datetime | None = None) -> int:
    now = now or timezone.now()
    deleted, _rows = WorkerBeat.objects.filter(seen_at__lt=now - 10 * stale_after()).delete()
    return deleted


def prune(now: datetime.datetime | None = None) -> tuple[int, int]:
    """Delete the jobs that finished (done or failed) more than ``settings.JOB_KEEP_DAYS``
    days ago, and the queue's records of finished tasks as old; returns how many of each.
    Open jobs and jobs waiting for the arbiter's answer stay, however old."""
    from django_tasks_db.models import DBTaskResult

    before = (now or timezone.now()) - datetime.timedelta(days=settings.JOB_KEEP_DAYS)
    jobs_deleted, _rows = Job.objects.filter(status__in=(JobStatus.DONE, JobStatus.FAILED),
                                             finished_at__lt=before).delete()
    tasks_deleted, _rows = DBTaskResult.objects.filter(status__in=("SUCCESSFUL", "FAILED"),
                                                       finished_at__lt=before).delete()
    return jobs_deleted, tasks_deleted


def max_attempts() -> int:
    return max(1, settings.TASK_MAX_ATTEMPTS)


def lost_message(job: Job) -> str:
    with translation.override(job.language or "en"):
        return _("The worker running this task stopped (attempt %(attempt)s of %(max)s): the task was not "
                 "finished and nothing of it was applied.") % {"attempt": job.attempts, "max": max_attempts()}


@transaction.atomic
def claim_lost(job: Job) -> bool:
    """Take a lost job for handling (another worker's reaper may be at it too)."""
    return bool(Job.objects.filter(pk=job.pk, status=JobStatus.RUNNING, worker_id=job.worker_id)
                .update(worker_id="reaped"))
