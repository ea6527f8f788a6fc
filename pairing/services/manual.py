"""Manual-pairing sessions (VCL4THP Q62–69): a draft changed by hand, or a round made by
hand when no legal pairing exists, between an explicit start and end.

Inside a session the arbiter swaps players (:func:`~.rounds.swap_players`, which also
swaps the colours of one board), moves a player to the pool of unpaired players, pairs
two players of the pool, and gives the PAB.  Each edit is applied in a transaction,
checked, and rolled back unless confirmed (Level 3) when it breaks a rule.  Ending the
session pairs the same round with the engine and compares; a difference needs a Level-3
confirmation and is a pairing-integrity event with the line
``MPA @ Round r: <engine pairs> => <round pairs>``.  A draft with a session open
cannot be published, so the next round cannot be paired either.
"""

from __future__ import annotations

from django.db import transaction
from django.db.models import Max
from django.utils import translation
from django.utils.translation import gettext as _

from .. import engine
from ..engine import version
from ..models import (
    AuditAction,
    AuditEntry,
    Bye,
    ByeKind,
    Game,
    IntegrityKind,
    PairedBy,
    Player,
    Round,
    RoundStatus,
    Seat,
    Tournament,
)
from ..warning_levels import Level, require
from . import events, integrity, provenance, restore
from .draft_checks import warnings_for
from .rounds import open_next_round
from .snapshot import absent_ids


def _open_draft(rnd: Round) -> Round:
    """The draft, locked, with its session open; ValueError otherwise."""
    rnd.tournament.lock()
    current = Round.objects.filter(pk=rnd.pk, status=RoundStatus.DRAFT).first()
    if current is None:
        raise ValueError(_("Round %(n)s was published or discarded in the meantime; nothing was changed.") % {"n": rnd.number})
    if not current.manual_session:
        raise ValueError(_("Start a manual-pairing session first; nothing was changed."))
    return current


def _log(rnd: Round, user, text: str, before=None) -> None:
    AuditEntry.log(rnd.tournament, user, AuditAction.SWAP, f"Round {rnd.number} draft: {text}", obj=rnd,
                   label=f"Round {rnd.number} (draft)", before=before, after=rnd.board_list())


def start_session(rnd: Round, user=None) -> bool:
    """Open a session on the draft; False when one is open already."""
    with transaction.atomic():
        rnd.tournament.lock()
        if not Round.objects.filter(pk=rnd.pk, status=RoundStatus.DRAFT).exists():
            raise ValueError(_("Round %(n)s is not a draft any more; nothing was changed.") % {"n": rnd.number})
        if not Round.objects.filter(pk=rnd.pk, manual_session=False).update(manual_session=True):
            return False
        rnd.manual_session = True
        _log(rnd, user, "manual-pairing session started.")
    return True


def pair_by_hand(t: Tournament, user=None) -> Round:
    """The next round as an empty draft with a session open: every player to be paired
    starts in the pool (Q63, when the engine finds no legal pairing)."""
    with transaction.atomic():
        existing = open_next_round(t)
        if isinstance(existing, Round):
            return existing
        number = existing
        rnd = Round.objects.create(tournament=t, number=number, status=RoundStatus.DRAFT, manual_session=True,
                                   explanation={"by_hand": True}, paired_by=PairedBy.HAND, program=version.program())
        AuditEntry.log(t, user, AuditAction.PAIR, f"Round {number} to be paired by hand (manual-pairing session).",
                       obj=rnd, label=f"Round {number} (draft)", after=rnd.board_list())
    return rnd


def pool(rnd: Round) -> list[Player]:
    """Players to be paired in the round who have neither a board nor the PAB yet."""
    t = rnd.tournament
    placed = set(Seat.objects.filter(round=rnd).values_list("player_id", flat=True))
    pab = rnd.pab()
    if pab is not None:
        placed.add(pab.player_id)
    away = absent_ids(t, rnd.number)
    return [p for p in t.player_set.order_by("tpn") if p.pk not in placed and p.pk not in away]


def to_pool(rnd: Round, player: Player, user=None) -> str:
    """Take a player's board apart (both players go to the pool) or take the PAB back."""
    with transaction.atomic():
        rnd = _open_draft(rnd)
        before = rnd.board_list()
        game = Game.objects.filter(round=rnd, white=player).first() or Game.objects.filter(round=rnd, black=player).first()
        if game is not None:
            game.delete()
            log = f"board {game.board} taken apart: {game.white.name} and {game.black.name} to the pool."
            text = _("Board %(n)s taken apart: %(a)s and %(b)s to the pool.") % {
                "n": game.board, "a": game.white.shown_name, "b": game.black.shown_name}
        elif Bye.objects.filter(tournament_id=rnd.tournament_id, round_number=rnd.number, kind=ByeKind.PAIRING,
                                player=player).delete()[0]:
            log = f"PAB taken back from {player.name}: to the pool."
            text = _("PAB taken back from %(name)s: to the pool.") % {"name": player.shown_name}
        else:
            raise ValueError(_("%(name)s is in the pool already; nothing was changed.") % {"name": player.shown_name})
        _log(rnd, user, log, before)
    return text


def _check_pool(rnd: Round, players: list[Player]) -> None:
    free = {p.pk for p in pool(rnd)}
    for p in players:
        if p.pk not in free:
            raise ValueError(_("%(name)s is not in the pool; nothing was changed.") % {"name": p.shown_name})


def pair_from_pool(rnd: Round, white: Player, black: Player, user=None, confirmations: int = 0) -> list[str]:
    """Pair two players of the pool on a new last board, ``white`` with White."""
    if white.pk == black.pk:
        raise ValueError(_("Choose two different players."))
    with transaction.atomic():
        rnd = _open_draft(rnd)
        _check_pool(rnd, [white, black])
        before = rnd.board_list()
        board = (rnd.game_set.aggregate(m=Max("board"))["m"] or 0) + 1
        Game.objects.create_boards(rnd, [(board, white.pk, black.pk, "")])
        found = warnings_for(rnd, [white.pk, black.pk])
        if found:
            require(Level.CONFIRM, confirmations, _("Pair %(white)s – %(black)s") % {"white": white.shown_name, "black": black.shown_name}, found)
        _log(rnd, user, f"board {board} paired by hand: {white.name} – {black.name}."
             + (" Warnings: " + " ".join(found) if found else ""), before)
    return found


def give_pab(rnd: Round, player: Player, user=None, confirmations: int = 0) -> list[str]:
    """Give the pairing-allocated bye to a player of the pool."""
    with transaction.atomic():
        rnd = _open_draft(rnd)
        _check_pool(rnd, [player])
        if rnd.pab() is not None:
            raise ValueError(_("The round has a PAB already: take it back to the pool first; nothing was changed."))
        before = rnd.board_list()
        Bye.objects.create(tournament_id=rnd.tournament_id, player=player, round_number=rnd.number,
                           kind=ByeKind.PAIRING)
        found = warnings_for(rnd, [player.pk])
        if found:
            require(Level.CONFIRM, confirmations, _("PAB to %(name)s") % {"name": player.shown_name}, found)
        _log(rnd, user, f"PAB given by hand to {player.name}." + (" Warnings: " + " ".join(found) if found else ""),
             before)
    return found


def _compact_boards(rnd: Round) -> None:
    """Boards 1..n again after boards were taken apart, in their order."""
    games = list(rnd.game_set.order_by("board"))
    if [g.board for g in games] == list(range(1, len(games) + 1)):
        return
    top = len(games) + max((g.board for g in games), default=0)
    for g in games:  # two steps: board numbers are unique in a round
        Game.objects.filter(pk=g.pk).update(board=g.board + top)
    for i, g in enumerate(games, start=1):
        Game.objects.filter(pk=g.pk).update(board=i)


def end_session(rnd: Round, user=None, confirmations: int = 0) -> str:
    """Close the session: every player to be paired has a board or the PAB; the engine
    pairs the same round and the two are compared.  A difference needs a Level-3
    confirmation showing both pairings and the rule breaches, and becomes an MPA event.
    Returns a sentence."""
    with transaction.atomic():
        rnd = _open_draft(rnd)
        t = Tournament.objects.get(pk=rnd.tournament_id)
        left = pool(rnd)
        if len(left) > 1 or (left and rnd.pab() is not None):
            names = ", ".join(p.name for p in left)
            raise ValueError(_("Still in the pool: %(names)s. Pair them or give the PAB before ending the session.") % {"names": names})
        if left:
            raise ValueError(_("Still in the pool: %(name)s. Give the PAB or pair them before ending the session.") % {"name": left[0].shown_name})
        _compact_boards(rnd)
        ours = integrity.round_pairs(rnd)
        tpn = dict(t.player_set.values_list("pk", "tpn"))
        players = {p.pk: p for p in t.player_set.all()}
        try:
            theirs = integrity.engine_pairs(t, rnd.number)
            engine_text = theirs.text(tpn)
            found = integrity.differences(theirs, ours, players)
        except engine.NoLegalPairing:
            theirs, engine_text = None, "no legal pairing"
            found = [_("The engine finds no legal pairing for this round: every pairing breaks a rule.")]
        breaches = warnings_for(rnd)
        if found:
            shown = _("no legal pairing") if theirs is None else engine_text
            require(
                Level.CONFIRM, confirmations, _("End the manual-pairing session of round %(n)s") % {"n": rnd.number},
                [_("The engine's pairing: %(pairs)s.") % {"pairs": shown}, _("This round: %(pairs)s.") % {"pairs": ours.text(tpn)},
                 *found, *([_("Rule breaches in this round:") + " " + " ".join(breaches)] if breaches else []),
                 _("The difference is a pairing-integrity event: recorded and written in the rating report's copy.")],
            )
            point = restore.take(t)
        Round.objects.filter(pk=rnd.pk).update(manual_session=False)
        rnd.manual_session = False
        # the round is the engine's pairing, or a pairing by hand (its MPA line says how it differs)
        if found:
            provenance.mark(rnd, PairedBy.HAND, version.program())
        else:
            provenance.mark(rnd, PairedBy.ENGINE, provenance.program_text(t.system, t.dubov_rules_1997))
        if found:
            with translation.override("en"):  # the event's detail is a record, in English
                detail = " ".join(warnings_for(rnd))
            events.record(t, IntegrityKind.MANUAL_PAIRING, rnd.number,
                             f"MPA @ Round {rnd.number}: {engine_text} => {ours.text(tpn)}", user,
                             detail=detail, point=point)
            log = "Session ended; the round differs from the engine's pairing and the difference is recorded."
            text = _("Session ended; the round differs from the engine's pairing and the difference is recorded.")
        else:
            log = "Session ended; the round is the engine's pairing."
            text = _("Session ended; the round is the engine's pairing.")
        _log(rnd, user, "manual-pairing session ended. " + log)
    return text
