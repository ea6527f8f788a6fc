"""Background work and its progress: one :class:`Job` per long task (what, for whom,
started, done of total, current step, result or error), and one :class:`WorkerBeat`
per running worker process.

The task itself runs through Django's tasks API (``pairing.tasks``) on the database
queue; the job is what the pages show and poll.  A job whose worker stops reporting is
found by the worker's reaper (``pairing.services.jobs.reap``): retried when its kind
allows, otherwise marked failed with the reason, never left running.
"""

from __future__ import annotations

from django.conf import settings
from django.db import models
from django.db.models import Q
from django.utils.translation import gettext_lazy as _


class JobKind(models.TextChoices):
    RATING_REFRESH = "rating-refresh", _("Update of the rating lists")
    RATING_FILE = "rating-file", _("Loading of a rating list file")
    IMPORT_CHECK = "import-check", _("Import of a large TRF file, checked round by round")
    TOURNAMENT_CHECK = "tournament-check", _("Check of the tournament")


class JobStatus(models.TextChoices):
    QUEUED = "queued", _("waiting for the worker")
    RUNNING = "running", _("running")
    WAITING = "waiting", _("waits for your answer")
    DONE = "done", _("done")
    FAILED = "failed", _("failed")


OPEN = (JobStatus.QUEUED, JobStatus.RUNNING)
# a tournament whose imported file is queued, being checked or waiting for the arbiter's
# answer cannot be paired or reported (Tournament.import_pending)
BLOCKING = (JobStatus.QUEUED, JobStatus.RUNNING, JobStatus.WAITING)

# The current step, in words, shown under the progress bar: filled with the job's
# ``step_args`` (numbers, names) when the page is drawn, so that each reader sees it in
# their own language.
STEPS = {
    "queued": _("Waiting for the worker to start it."),
    "retry": _("The worker stopped; starting again (attempt %(attempt)s)."),
    "download": _("Downloading %(list)s…"),
    "downloaded": _("%(list)s: %(mb)s MB downloaded…"),
    "unchanged": _("%(list)s: no newer list published."),
    "load": _("%(list)s: %(players)s players loaded…"),
    "activate": _("%(list)s: making the new list the active one…"),
    "lists": _("%(done)s of %(total)s lists updated."),
    "rounds": _("Round %(done)s of %(total)s checked."),
    "import": _("Importing the file (%(players)s players, %(rounds)s rounds)…"),
    "question": _("The check is finished: the import waits for your answer."),
    "standings": _("Recomputing the standings…"),
    "finished": _("Finished."),
}


class JobQuerySet(models.QuerySet["Job"]):
    def open(self) -> JobQuerySet:
        return self.filter(status__in=OPEN)


class Job(models.Model):
    kind = models.CharField(max_length=20, choices=JobKind.choices)
    status = models.CharField(max_length=8, choices=JobStatus.choices, default=JobStatus.QUEUED)
    tournament = models.ForeignKey("pairing.Tournament", null=True, blank=True, on_delete=models.CASCADE,
                                   related_name="jobs")
    user = models.ForeignKey(settings.AUTH_USER_MODEL, null=True, blank=True, on_delete=models.SET_NULL,
                             related_name="+", help_text=_("Who asked for it (none: the daily schedule)."))
    language = models.CharField(max_length=10, default="en", help_text=_("Results and errors are written in it."))
    params = models.JSONField(default=dict, blank=True)
    # the daily refresh is started once per day whatever the number of workers
    scheduled_for = models.DateField(null=True, blank=True)
    task_id = models.CharField(max_length=64, blank=True, help_text=_("The queued task of the current attempt."))
    worker_id = models.CharField(max_length=64, blank=True)
    attempts = models.PositiveSmallIntegerField(default=0)
    created_at = models.DateTimeField(auto_now_add=True)
    started_at = models.DateTimeField(null=True, blank=True)
    finished_at = models.DateTimeField(null=True, blank=True)
    done = models.PositiveBigIntegerField(default=0)
    total = models.PositiveBigIntegerField(null=True, blank=True)
    step = models.CharField(max_length=20, default="queued")
    step_args = models.JSONField(default=dict, blank=True)
    result = models.JSONField(null=True, blank=True)
    error = models.TextField(blank=True)

    objects = JobQuerySet.as_manager()

    class Meta:
        ordering = ["-created_at", "-pk"]
        constraints = [
            models.UniqueConstraint(fields=["kind", "scheduled_for"], condition=Q(scheduled_for__isnull=False),
                                    name="job_scheduled_once"),
            models.CheckConstraint(condition=Q(status__in=["queued", "running", "waiting", "done", "failed"]),
                                   name="job_status_valid"),
        ]
        indexes = [models.Index(fields=["status", "kind"], name="job_status_kind")]

    def __str__(self) -> str:
        return f"{self.get_kind_display()} #{self.pk} ({self.status})"

    @property
    def is_open(self) -> bool:
        return self.status in OPEN

    @property
    def percent(self) -> int | None:
        if not self.total:
            return None
        return min(100, int(100 * self.done / self.total))

    @property
    def step_text(self) -> str:
        template = STEPS.get(self.step)
        if template is None:
            return ""
        args = {"done": f"{self.done:,}", "total": f"{self.total or 0:,}", **(self.step_args or {})}
        try:
            return str(template) % args
        except (KeyError, TypeError, ValueError):
            return str(template)


class WorkerBeat(models.Model):
    """A worker process that is alive: it writes ``seen_at`` every few seconds."""

    worker_id = models.CharField(max_length=64, unique=True)
    host = models.CharField(max_length=200, blank=True)
    pid = models.PositiveIntegerField(default=0)
    started_at = models.DateTimeField(auto_now_add=True)
    seen_at = models.DateTimeField()

    def __str__(self) -> str:
        return f"{self.worker_id} ({self.host}:{self.pid})"
