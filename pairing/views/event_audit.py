"""The event's audit trail, for its arbiters."""

from __future__ import annotations

from django.contrib.auth.decorators import login_required
from django.core.paginator import Paginator
from django.http import HttpRequest, HttpResponse
from django.shortcuts import render
from django.views.decorators.http import require_GET

from ..access import get_event_for_arbiter
from ..reports import event_audit

PER_PAGE = 50


@login_required
@require_GET
def event_audit_trail(request: HttpRequest, slug: str) -> HttpResponse:
    """Entries, check-in, moves between sections, prize lists and the event's settings,
    newest first (``?kind=entry`` filters, ``?page=2`` pages); the event's chief arbiter
    reads every section, another arbiter his own sections."""
    e = get_event_for_arbiter(request, slug)
    kind = request.GET.get("kind", "")
    kind = kind if kind in event_audit.KINDS else ""
    page = Paginator(event_audit.entries(e, request.user, kind), PER_PAGE).get_page(request.GET.get("page"))
    return render(request, "pairing/event_audit.html", {
        "e": e, "page": page, "lines": event_audit.lines(page), "kind": kind, "kinds": event_audit.kind_choices(),
        "every_section": e.owner_id == request.user.pk,
    })
