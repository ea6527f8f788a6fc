"""Entering and correcting results, with the check that nobody overwrites another arbiter."""

from __future__ import annotations

from django.db import transaction
from django.utils.translation import gettext as _

from ..models import (
    AuditAction,
    AuditEntry,
    Conflict,
    Game,
    GameResult,
    IntegrityKind,
    RoundStatus,
    Tournament,
)
from ..warning_levels import Level, require
from ..wording import in_english
from . import events, restore
from .drafts import discard_draft


def closed_before(t: Tournament) -> int:
    """In FIDE mode results can change in the last round played and the one before it
    (VCL4THP Q189–191): rounds below the number returned are closed (0: none)."""
    if not t.fide_mode:
        return 0
    return max(0, t.rounds_published() - 1)


def _result_line(game: Game, before: str, after: str) -> str:
    return (f"Result corrected @ Round {game.round.number}: board {game.board} "
            f"{game.white.tpn}-{game.black.tpn} {before} => {after}")


def record_result(g: Game, result: str, user=None, expected: str | None = None, confirmations: int = 0) -> bool:
    """Store ``result``; ``expected`` is the result the arbiter saw on screen.

    In FIDE mode a round before the one before the last played is closed (ValueError;
    :func:`correct_for_rating` is the way for those).  Correcting a result after the next
    round was published is a pairing-integrity event and needs a Level-3 confirmation
    (``confirmations``), because that round was paired on the old result.

    Raises :class:`Conflict` when another arbiter changed it in between (so two
    arbiters never overwrite each other silently); ValueError for an unknown result
    or a round that is still a draft.  Returns False when nothing changed.
    """
    if result not in GameResult.values or result == GameResult.PENDING:
        raise ValueError(_("unknown result %(code)r") % {"code": result})
    with transaction.atomic():
        # The tournament first (the lock pairing takes): a round is never paired while
        # a result it depends on is being changed.
        tournament = Tournament(pk=g.round.tournament_id).lock()
        game = Game.objects.select_for_update().select_related("round", "white", "black").get(pk=g.pk)
        if game.round.status == RoundStatus.DRAFT:
            raise ValueError(_("publish the round before entering results"))
        closed = closed_before(tournament)
        finishing = game.result == GameResult.ADJOURNED  # its result may come in any later round
        if game.round.number < closed and not finishing:
            raise ValueError(
                _("round %(n)s is closed: in FIDE mode results can change in rounds %(a)s and %(b)s only. A result "
                  "found wrong later is corrected for the rating report only (the board's 'Rated as' correction on "
                  "the round's page)") % {"n": game.round.number, "a": closed, "b": closed + 1}
            )
        if game.result == result:
            g.result = result
            return False
        if expected is not None and game.result != expected:
            g.result = game.result
            raise Conflict(
                _("Board %(n)s was changed to %(result)s by someone else; check it and enter the result again.")
                % {"n": game.board, "result": game.get_result_display()}
            )
        before = game.result
        # the rounds paired on this game's result (one query, used by both cases below)
        paired_after = (
            tournament.round_set.filter(number__gt=game.round.number).exclude(status=RoundStatus.DRAFT).exists()
        )
        point = None
        line = ""
        if finishing and paired_after:
            if result != GameResult.DRAW:
                require(
                    Level.CONFIRM, confirmations,
                    _("Result of the adjourned game, round %(n)s board %(board)s") % {"n": game.round.number, "board": game.board},
                    [f"{game.white.shown_name} – {game.black.shown_name}: {GameResult(result).label}.",
                     _("The pairings of round %(n)s on were made with this game as a draw; they stay as they are. The "
                       "result is recorded as a pairing-integrity event.") % {"n": game.round.number + 1}],
                )
                point = restore.take(tournament)
                line = (f"Adjourned game finished @ Round {game.round.number}: board {game.board} "
                        f"{game.white.tpn}-{game.black.tpn} {result} (paired as a draw)")
        elif before and paired_after:
            require(
                Level.CONFIRM, confirmations,
                _("Correct round %(n)s board %(board)s") % {"n": game.round.number, "board": game.board},
                [_("%(white)s – %(black)s: %(before)s becomes %(after)s.") % {
                    "white": game.white.shown_name, "black": game.black.shown_name,
                    "before": GameResult(before).label, "after": GameResult(result).label},
                 _("Round %(n)s was paired on the old result: this correction is a pairing-integrity event, recorded "
                   "and written in the rating report's copy.") % {"n": game.round.number + 1}],
            )
            point = restore.take(tournament)
            line = _result_line(game, before, result)
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
            f"Round {game.round.number} board {game.board}: {in_english(GameResult(result).label)} {verb}"
            + (f" (was {in_english(GameResult(before).label)})" if before else ""),
            obj=game,
            label=f"Round {game.round.number} board {game.board}: "
            f"{game.white.audit_label()} – {game.black.audit_label()}",
            before={"result": before},
            after={"result": result},
        )
        if point is not None:
            events.record(tournament, IntegrityKind.RESULT, game.round.number, line, user, point=point)
    g.result = result
    return True


def correct_for_rating(g: Game, result: str, user=None, confirmations: int = 0) -> bool:
    """A result found wrong after its round closed, corrected for the rating report only
    (C.04.2 4.3; VCL4THP Q192–193): pairings, standings and the engine keep the result
    they used; the rating report carries ``result`` and a ``###`` line says so.  Level 3.
    ``result`` equal to the played one removes the correction.  Returns False when
    nothing changed."""
    if result not in GameResult.values or result == GameResult.PENDING:
        raise ValueError(_("unknown result %(code)r") % {"code": result})
    with transaction.atomic():
        tournament = Tournament(pk=g.round.tournament_id).lock()
        game = Game.objects.select_for_update().select_related("round", "white", "black").get(pk=g.pk)
        if not game.result:
            raise ValueError(_("the game has no result yet; enter it on the round's page"))
        wanted = "" if result == game.result else result
        if wanted == game.rating_result:
            return False
        shown = GameResult(result).label
        require(
            Level.CONFIRM, confirmations,
            _("Correct round %(n)s board %(board)s for the rating report") % {"n": game.round.number, "board": game.board},
            [_("%(white)s – %(black)s: the rating report will carry %(rated)s; pairings and standings keep %(played)s, "
               "the result they were made with (C.04.2 4.3).") % {
                "white": game.white.shown_name, "black": game.black.shown_name, "rated": shown,
                "played": GameResult(game.result).label},
             _("This is a pairing-integrity event: recorded, and written in the rating report's copy.")],
        )
        point = restore.take(tournament)
        before = game.rating_result
        game.rating_result = wanted
        game.save(update_fields=["rating_result", "updated"])
        line = (f"Result for rating @ Round {game.round.number}: board {game.board} {game.white.tpn}-{game.black.tpn} "
                f"played {game.result}, rated {result}")
        AuditEntry.log(
            tournament, user, AuditAction.RESULT,
            f"Round {game.round.number} board {game.board}: rated as {in_english(shown)} in the rating report "
            f"(played {in_english(GameResult(game.result).label)})",
            obj=game, label=f"Round {game.round.number} board {game.board}",
            before={"rating_result": before}, after={"rating_result": wanted},
        )
        events.record(tournament, IntegrityKind.RATING_RESULT, game.round.number, line, user, point=point)
    return True
