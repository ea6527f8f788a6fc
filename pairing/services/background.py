"""The handler of each kind of background job, and what to clean up when a worker is
lost in the middle of one (:mod:`pairing.worker`).  A handler takes the job and its
:class:`~.jobs.Progress` and returns the result to keep (JSON), or raises
:class:`~.jobs.JobFailed` with the reason in words."""

from __future__ import annotations

from collections.abc import Callable

from ..models import Job, JobKind
from . import import_check, rating_sources, tournament_check
from .jobs import Handler

HANDLERS: dict[str, Handler] = {
    JobKind.TOURNAMENT_CHECK: tournament_check.run,
    JobKind.RATING_REFRESH: rating_sources.refresh,
    JobKind.RATING_FILE: rating_sources.load_upload,
    JobKind.IMPORT_CHECK: import_check.run,
}

# What a lost attempt may have left half-written, removed before the job is tried again
# (``final`` False) or marked failed (``final`` True).  A kind whose handler writes in one
# transaction has nothing here.
CLEANUP: dict[str, Callable[[Job, bool], None]] = {
    JobKind.RATING_REFRESH: rating_sources.forget_refresh,
    JobKind.RATING_FILE: rating_sources.forget_upload,
    JobKind.IMPORT_CHECK: import_check.forget,
}
