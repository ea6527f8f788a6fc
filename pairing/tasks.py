"""Background tasks, through Django's tasks API (``django.tasks`` from Django 6; the
``django-tasks`` backport before it) on the database queue of ``django-tasks-db``.

Each task is a thin entry point: it runs a service's handler for one
:class:`~pairing.models.Job` (``services.jobs.run``), which records the progress, the
result or the error.  Views and the worker's schedule start work with :func:`start`; the
worker (``manage.py run_worker``, :mod:`pairing.worker`) takes tasks from the queue.

A layer of its own, beside the views: it calls services and models, and nothing below
it imports it (tests/test_layers.py).
"""

from __future__ import annotations

import datetime
import logging

from django.db import transaction

try:  # Django 6: the framework is built in; moving to it is a settings change
    from django.tasks import TaskContext, task
except ImportError:  # Django 5.2: the backport
    from django_tasks import TaskContext, task

from .models import Job, JobKind, Tournament
from .services import jobs

logger = logging.getLogger(__name__)


def _worker_of(context: TaskContext) -> str:
    ids = getattr(context.task_result, "worker_ids", None) or []
    return ids[-1] if ids else ""


def _handler(kind: str):
    from .services import background

    return background.HANDLERS[kind]


@task(takes_context=True)
def run_job(context: TaskContext, job_id: int) -> dict | None:
    """The one task: run the job's handler (by the job's kind)."""
    job = Job.objects.filter(pk=job_id).first()
    if job is None:
        return None
    return jobs.run(job_id, _handler(job.kind), worker_id=_worker_of(context))


def enqueue(job: Job) -> Job:
    """Put the job's task on the queue (again, for a retry)."""
    result = run_job.enqueue(job.pk)
    jobs.queued_as(job, result.id)
    return job


def start(kind: str, *, user=None, tournament: Tournament | None = None, params: dict | None = None,
          language: str | None = None, scheduled_for: datetime.date | None = None) -> Job:
    """A new job and its task, in one transaction: a job is never created without its
    task being queued, nor a task queued for a job that does not exist."""
    with transaction.atomic():
        job = jobs.create(JobKind(kind), user=user, tournament=tournament, params=params, language=language,
                          scheduled_for=scheduled_for)
        return enqueue(job)


@task()
def compute_ahead(tournament_id: int) -> list[str]:
    """The pages' figures after a round is complete, into the shared cache before the
    first visitor asks (:mod:`pairing.reports.ahead`).  No job record: nobody waits on
    its page, and a visitor who comes first computes (or waits for) the same values.  A
    failure is logged; the pages compute what they need when they are asked."""
    from .reports import ahead

    t = Tournament.objects.filter(pk=tournament_id).first()
    if t is None:
        return []
    try:
        return ahead.after_a_round(t)
    except Exception:  # noqa: BLE001 - work done ahead of time must not fail loudly
        logger.exception("Tournament %s: computing its pages ahead after a round failed", tournament_id)
        return []


def figures_moved(t: Tournament) -> None:
    """Something that moves the figures of ``t``'s complete rounds was saved (the result
    that completes a round, a correction in a complete one, a player's details such as
    his rating): queue :func:`compute_ahead` once the transaction under way commits (at
    once outside one).  ``robust``: a queue that cannot be written to is logged, and the
    change saved is answered as saved (the first visitor computes the pages instead)."""
    transaction.on_commit(lambda: compute_ahead.enqueue(t.pk), robust=True)
