"""Telling the arbiter about side effects of a change."""

from __future__ import annotations

from functools import wraps

from django.contrib import messages
from django.db.models import Max

from ..models import AuditAction, AuditEntry


def tells_of_a_discarded_draft(view):
    """A change that throws away the draft of the next round (a result corrected, byes,
    players, withdrawals, forbidden pairs, settings) says so at once, with the reason, to
    whoever made it; the services discard the draft and log it in the audit trail,
    which this reads.  Only for POSTs; a refused request (403, 404) says nothing."""

    @wraps(view)
    def wrapper(request, slug: str, *args, **kwargs):
        if request.method != "POST":
            return view(request, slug, *args, **kwargs)
        entries = AuditEntry.objects.filter(tournament__slug=slug)
        last = entries.aggregate(last=Max("pk"))["last"] or 0
        response = view(request, slug, *args, **kwargs)
        for entry in entries.filter(action=AuditAction.DISCARD, pk__gt=last).order_by("pk"):
            messages.warning(request, f"{entry.detail} Pair the round again when the changes are done.")
        return response

    return wrapper
