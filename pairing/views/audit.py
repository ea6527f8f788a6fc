from __future__ import annotations

from django.contrib.auth.decorators import login_required
from django.core.paginator import Paginator
from django.http import HttpRequest, HttpResponse
from django.shortcuts import render
from django.views.decorators.http import require_GET

from ..access import get_tournament_for_arbiter
from ..models import AuditAction

PER_PAGE = 50


@login_required
@require_GET
def audit_trail(request: HttpRequest, slug: str) -> HttpResponse:
    """Every change to the tournament, newest first, for its arbiters only
    (``?kind=result`` filters, ``?page=2`` pages)."""
    t = get_tournament_for_arbiter(request, slug)
    kind = request.GET.get("kind", "")
    entries = t.auditentry_set.of_kind(kind).select_related("user")
    page = Paginator(entries, PER_PAGE).get_page(request.GET.get("page"))
    return render(request, "pairing/audit.html", {
        "t": t, "page": page, "lines": [{"entry": a} for a in page],  # the rows of _audit_trail.html
        "kind": kind if kind in AuditAction.values else "", "kinds": AuditAction.choices,
    })
