"""Recording a pairing-integrity event (VCL4THP Q112-115) with its restore point and
audit entry: the step that results, players, byes, forbidden pairs, settings, pairing
numbers, imports and manual pairing share.

Its own module below the other services (it uses only :mod:`.restore` and the
models), so that they all depend on it and it on none of them; comparing a round
with the engine, leaving FIDE mode and undo stay in :mod:`.integrity`.
"""

from __future__ import annotations

from ..models import AuditAction, AuditEntry, IntegrityEvent, IntegrityKind, Tournament
from ..wording import in_english
from . import restore


def record(t: Tournament, kind: str, round_number: int, line: str, user=None, *, detail: str = "",
           point: dict | None = None) -> IntegrityEvent:
    """Store an event (inside the caller's transaction).  ``point``: the restore point
    taken before the act; taken now when not given."""
    known = user is not None and user.is_authenticated
    event = IntegrityEvent.objects.create(
        tournament=t, kind=kind, round_number=round_number, line=line, detail=detail,
        user=user if known else None, username=user.get_username() if known else "",
        restore_point=point if point is not None else restore.take(t),
        numbers=list(t.player_set.exclude(tpn=None).order_by("tpn").values_list("pk", flat=True)),
    )
    AuditEntry.log(
        t, user, AuditAction.INTEGRITY, f"Pairing-integrity event: {event.report_line}" + (f" {detail}" if detail else ""),
        obj=event, label=in_english(IntegrityKind(kind).label),
    )
    return event


def last_paired(t: Tournament) -> int:
    """The last round paired (published, or the draft): the N of ``@ Round N``."""
    last = t.round_set.order_by("-number").first()
    return last.number if last else 0
