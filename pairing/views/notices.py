"""Telling the arbiter about side effects of a change."""

from __future__ import annotations

import re
from functools import wraps

from django.contrib import messages
from django.db.models import Max
from django.utils.translation import gettext as _
from django.utils.translation import gettext_lazy

from ..models import AuditAction, AuditEntry

# The reasons the services give when they discard a draft (written in English in the audit
# trail, a record), shown to the arbiter in the page's language.
REASONS = {
    "Byes changed.": gettext_lazy("Byes changed."),
    "Players were added.": gettext_lazy("Players were added."),
    "A player was added.": gettext_lazy("A player was added."),
    "A player was changed.": gettext_lazy("A player was changed."),
    "A player was deleted.": gettext_lazy("A player was deleted."),
    "A withdrawal changed.": gettext_lazy("A withdrawal changed."),
    "Settings changed.": gettext_lazy("Settings changed."),
    "A forbidden pair was added.": gettext_lazy("A forbidden pair was added."),
    "A forbidden pair was removed.": gettext_lazy("A forbidden pair was removed."),
    "Pairing numbers were exchanged.": gettext_lazy("Pairing numbers were exchanged."),
    "Pairing numbers were regenerated.": gettext_lazy("Pairing numbers were regenerated."),
}
DETAIL = re.compile(r"Draft of round (\d+) discarded\.\s*(.*)", re.S)
RESULT_CHANGED = re.compile(r"A result of round (\d+) changed\.")


def discard_notice(detail: str) -> str:
    """The audit entry of a discarded draft as a sentence in the page's language."""
    match = DETAIL.fullmatch(detail)
    if match is None:
        return f"{detail} " + _("Pair the round again when the changes are done.")
    number, reason = match.groups()
    result = RESULT_CHANGED.fullmatch(reason)
    if result:
        reason = _("A result of round %(n)s changed.") % {"n": result.group(1)}
    else:
        reason = str(REASONS.get(reason, reason))
    parts = [_("Draft of round %(n)s discarded.") % {"n": number}, reason, _("Pair the round again when the changes are done.")]
    return " ".join(p for p in parts if p)


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
            messages.warning(request, discard_notice(entry.detail))
        return response

    return wrapper
