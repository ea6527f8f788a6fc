"""Background work: a job's page (progress, then its result), polled by HTMX and
refreshing itself without JavaScript; and "Check this tournament", which starts one."""

from __future__ import annotations

from django.contrib import messages
from django.contrib.auth.decorators import login_required
from django.http import Http404, HttpRequest, HttpResponse
from django.shortcuts import redirect, render
from django.urls import reverse
from django.utils.translation import gettext as _
from django.views.decorators.http import require_GET, require_POST

from .. import tasks
from ..access import get_job_for_viewer, get_tournament_for_arbiter
from ..models import Job, JobKind
from ..services import import_check, jobs, tournament_check

POLL_SECONDS = 1
REFRESH_SECONDS = 2  # without JavaScript: the page reloads itself while the job runs


def back_url(job: Job) -> str:
    """Where the arbiter goes back to from the job's page."""
    if job.kind == JobKind.TOURNAMENT_CHECK and job.tournament is not None:
        return reverse("pairing:fide_mode", args=[job.tournament.slug])
    if job.tournament is not None:
        return reverse("pairing:tournament", args=[job.tournament.slug])
    return reverse("pairing:rating_lists")


def progress_context(job: Job) -> dict:
    return {"job": job, "worker_alive": jobs.worker_alive() if job.is_open else True, "poll": POLL_SECONDS}



@login_required
@require_GET
def job_detail(request: HttpRequest, pk: int) -> HttpResponse:
    job = get_job_for_viewer(request, pk)
    ctx = {**progress_context(job), "t": job.tournament, "back": back_url(job), "refresh": REFRESH_SECONDS}
    if request.htmx:
        on_page = request.GET.get("on") == "page"
        response = render(request, "pairing/_job_progress.html", {**ctx, "on_page": on_page})
        if not job.is_open and on_page:
            response["HX-Refresh"] = "true"  # the whole page, with the result
        return response
    if job.kind == JobKind.TOURNAMENT_CHECK and job.result:
        ctx["check"] = job.result
    if job.kind == JobKind.IMPORT_CHECK:
        ctx["import_result"] = job.result or {}
    return render(request, "pairing/job.html", ctx)


@login_required
@require_POST
def job_answer(request: HttpRequest, pk: int) -> HttpResponse:
    """The arbiter's answer to a large import that waits after its background check:
    ``answer=import`` keeps the rounds as imported (pairing-integrity events), ``answer=undo``
    puts the tournament back as it was before the import.  Acts once."""
    job = get_job_for_viewer(request, pk)
    if job.kind != JobKind.IMPORT_CHECK or job.tournament is None:
        raise Http404("No such question.")
    t = get_tournament_for_arbiter(request, job.tournament.slug)
    choice = request.POST.get("answer")
    if choice not in ("import", "undo"):
        messages.error(request, _("Choose to import the rounds as they are or to undo the import."))
        return redirect("pairing:job", pk=job.pk)
    job.tournament = t
    if not import_check.answer(job, request.user, accept=choice == "import"):
        messages.info(request, _("This import was answered already; nothing changed."))
    elif choice == "import":
        messages.success(request, _("Imported as the file has it; each round the engine pairs differently is a "
                                    "pairing-integrity event."))
    else:
        messages.success(request, _("The import was undone: the tournament is as it was before it."))
    return redirect("pairing:tournament", slug=t.slug)


@login_required
@require_POST
def check_tournament(request: HttpRequest, slug: str) -> HttpResponse:
    """Start "Check this tournament" (or go to the one already running)."""
    t = get_tournament_for_arbiter(request, slug)
    why = tournament_check.can_check(t)
    if why:
        messages.error(request, why)
        return redirect("pairing:fide_mode", slug=t.slug)
    job = Job.objects.open().filter(tournament=t, kind=JobKind.TOURNAMENT_CHECK).first()
    if job is None:
        job = tasks.start(JobKind.TOURNAMENT_CHECK, user=request.user, tournament=t)
    return redirect("pairing:job", pk=job.pk)
