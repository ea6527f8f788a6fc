"""Discarding a draft round: the step every change that makes a draft stale shares
(results, players, byes, forbidden pairs, settings, pairing numbers).

Its own module below the other services, so that they all depend on it and it on
none of them (``tests/test_layers.py`` fails on an import cycle among the services).
"""

from __future__ import annotations

from django.db import transaction

from ..models import AuditAction, AuditEntry, Bye, ByeKind, Tournament


def discard_draft(tournament: Tournament, user=None, reason: str = "") -> bool:
    """Drop the draft round (its games and PAB) if there is one."""
    with transaction.atomic():
        tournament.lock()
        draft = tournament.draft_round()
        if draft is None:
            return False
        boards = draft.board_list()
        # the draft's PAB, and in a round robin the table's bye (a zero-point bye it made)
        kinds = [ByeKind.PAIRING, ByeKind.ZERO] if Tournament.objects.get(pk=tournament.pk).round_robin else [ByeKind.PAIRING]
        Bye.objects.filter(tournament=tournament, round_number=draft.number, kind__in=kinds).delete()
        draft_pk = draft.pk
        draft.delete()
        AuditEntry.log(
            tournament, user, AuditAction.DISCARD, f"Draft of round {draft.number} discarded. {reason}".strip(),
            object_type="round", object_id=draft_pk, label=f"Round {draft.number} (draft)", before=boards,
        )
    return True
