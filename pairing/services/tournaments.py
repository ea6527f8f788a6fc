"""Creating a tournament and its settings (the arbiter team: :mod:`.deputies`)."""

from __future__ import annotations

from collections.abc import Callable

from django.db import transaction

from ..models import (
    SEEN_CHANGED,
    AuditAction,
    AuditEntry,
    Conflict,
    Tournament,
)
from .rounds import discard_draft


def log_created(tournament: Tournament, user) -> None:
    AuditEntry.log(
        tournament, user, AuditAction.CREATE, f"Tournament created; initial colour {tournament.initial_colour}.",
        obj=tournament, label=tournament.name, after=tournament.audit_values(),
    )


def save_settings(tournament: Tournament, save: Callable[[], Tournament], user, before: dict, seen: str = "") -> Tournament:
    """Save the settings (``save``: the form's save, which updates this row) under the
    tournament lock; log the fields that changed (``before``: their old values) and
    discard the draft if any changed.  ``seen``: the version the arbiter's form was
    made from; raises :class:`Conflict` if the settings changed since."""
    with transaction.atomic():
        current = tournament.lock()
        if seen and current.version() != seen:
            raise Conflict(SEEN_CHANGED.format(what="The settings"))
        t = save()
        t.refresh_from_db()  # values as stored (3 is 3.0), as ``before`` was read
        after = t.audit_values(list(before))
        changed = [f for f in before if before[f] != after[f]]
        if changed:
            discard_draft(t, user, "Settings changed.")
            AuditEntry.log(
                t, user, AuditAction.SETTINGS, "Settings changed: " + ", ".join(changed),
                obj=t, label=t.name,
                before={f: before[f] for f in changed}, after={f: after[f] for f in changed},
            )
    return t
