"""Entering and correcting results, with the check that nobody overwrites another arbiter."""

from __future__ import annotations

from django.db import transaction

from ..models import (
    AuditAction,
    AuditEntry,
    Conflict,
    Game,
    GameResult,
    RoundStatus,
    Tournament,
)
from .rounds import discard_draft


def record_result(g: Game, result: str, user=None, expected: str | None = None) -> bool:
    """Store ``result``; ``expected`` is the result the arbiter saw on screen.

    Raises :class:`Conflict` when another arbiter changed it in between (so two
    arbiters never overwrite each other silently); ValueError for an unknown result
    or a round that is still a draft.  Returns False when nothing changed.
    """
    if result not in GameResult.values or result == GameResult.PENDING:
        raise ValueError(f"unknown result {result!r}")
    with transaction.atomic():
        # The tournament first (the lock pairing takes): a round is never paired while
        # a result it depends on is being changed.
        tournament = Tournament(pk=g.round.tournament_id).lock()
        game = Game.objects.select_for_update().select_related("round", "white", "black").get(pk=g.pk)
        if game.round.status == RoundStatus.DRAFT:
            raise ValueError("publish the round before entering results")
        if game.result == result:
            g.result = result
            return False
        if expected is not None and game.result != expected:
            g.result = game.result
            raise Conflict(
                f"Board {game.board} was changed to {game.get_result_display()} by someone else; "
                "check it and enter the result again."
            )
        before = game.result
        game.result = result
        game.save(update_fields=["result", "updated"])
        game.round.refresh_status()
        draft = tournament.draft_round()
        if draft is not None and draft.number > game.round.number:
            # the draft was paired on the old result
            discard_draft(tournament, user, f"A result of round {game.round.number} changed.")
        verb = "corrected" if before else "entered"
        AuditEntry.log(
            tournament,
            user,
            AuditAction.RESULT,
            f"Round {game.round.number} board {game.board}: {GameResult(result).label} {verb}"
            + (f" (was {GameResult(before).label})" if before else ""),
            obj=game,
            label=f"Round {game.round.number} board {game.board}: "
            f"{game.white.audit_label()} – {game.black.audit_label()}",
            before={"result": before},
            after={"result": result},
        )
    g.result = result
    return True
