"""FIDE mode: its page, leaving it (chief arbiter, Level 4), and the pairing-integrity
events with their undo (chief arbiter, Level 3)."""

from __future__ import annotations

from django.contrib import messages
from django.contrib.auth.decorators import login_required
from django.http import HttpRequest, HttpResponse
from django.shortcuts import redirect, render
from django.urls import reverse
from django.utils.translation import gettext as _
from django.views.decorators.http import require_GET, require_POST

from ..access import get_tournament_for_arbiter, get_tournament_for_owner
from ..models import IntegrityEvent, Job, JobKind
from ..services import integrity, tournament_check
from ..warning_levels import NeedsConfirmation
from .confirm import ask, confirmable, given


@login_required
@require_GET
def fide_mode(request: HttpRequest, slug: str) -> HttpResponse:
    t = get_tournament_for_arbiter(request, slug)
    return render(
        request,
        "pairing/fide_mode.html",
        {
            "t": t,
            "is_owner": t.owner_id == request.user.pk,
            "events": IntegrityEvent.objects.filter(tournament=t).order_by("at", "pk"),
            "locked": t.fide_mode and t.rounds_published() >= 1,
            "cannot_check": tournament_check.can_check(t),
            "last_check": Job.objects.filter(tournament=t, kind=JobKind.TOURNAMENT_CHECK).first(),
        },
    )


@login_required
@require_POST
@confirmable
def fide_mode_leave(request: HttpRequest, slug: str) -> HttpResponse:
    t = get_tournament_for_owner(request, slug)
    back = reverse("pairing:fide_mode", args=[t.slug])
    try:
        left = integrity.leave_fide_mode(t, request.user, given(request))
    except NeedsConfirmation as exc:
        return ask(request, exc, t=t, back=back)
    if left:
        messages.warning(request, _("%(name)s is no longer in FIDE mode.") % {"name": t.name})
    else:
        messages.info(request, _("The tournament had left FIDE mode already."))
    return redirect(back)


@login_required
@require_POST
@confirmable
def integrity_undo(request: HttpRequest, slug: str, pk: int) -> HttpResponse:
    t = get_tournament_for_owner(request, slug)
    back = reverse("pairing:fide_mode", args=[t.slug])
    try:
        integrity.undo(t, pk, request.user, given(request))
    except NeedsConfirmation as exc:
        return ask(request, exc, t=t, back=back)
    except ValueError as exc:
        messages.error(request, str(exc))
    else:
        messages.success(request, _("Undone: the tournament is back where it was before that event."))
    return redirect(back)
