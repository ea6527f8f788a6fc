"""Late entries (C.04.2 2.4): the points of the rounds a late entry missed.

A late entry is "only taken into account for the pairing of rounds after the first" and
scores no points for the rounds it missed "unless the rules of the tournament state
otherwise"; arbiters give what the regulations say, often a half-point bye.  The rounds
before a player's entry (``Player.entered_round``) may therefore hold a requested bye of
any kind (half-point, zero-point, full-point), given after those rounds were played.
Written in the rating report as the 001 entries of those rounds (``0000 - H`` ...).
"""

from __future__ import annotations

from django.db import transaction
from django.utils.translation import gettext as _

from ..models import BYE_WORDS, REQUESTED_BYES, AuditAction, AuditEntry, Bye, ByeKind, IntegrityKind, Player
from ..warning_levels import Level, require
from ..wording import points_text
from . import events, restore
from .drafts import discard_draft
from .players import half_bye_warnings


def missed_rounds(player: Player) -> dict[int, str]:
    """{round: requested bye kind or ''} of the rounds before ``player`` entered (empty
    for a player who was there from round 1)."""
    if player.entered_round is None:
        return {}
    given = dict(Bye.objects.filter(player=player, round_number__lt=player.entered_round)
                 .values_list("round_number", "kind"))
    return {n: given.get(n, "") for n in range(1, player.entered_round)}


def set_missed_rounds(player: Player, wanted: dict[int, str], user=None, confirmations: int = 0) -> list[str]:
    """Give ``player`` the requested byes ``wanted`` ({round: H, Z, F or '' for none}) in
    rounds before their entry.  Always a Level-3 confirmation: those rounds have been
    played (or paired) without the player, and the points change the standings.  A
    full-point bye is a pairing-integrity event, as in any round; so is any change made
    once a round the player was in has been paired (that pairing used the old score).
    All or nothing; returns the changes made.  Raises ValueError for a round the player
    was in, or an unknown kind."""
    t = player.tournament
    if player.entered_round is None:
        raise ValueError(_("%(name)s was in the tournament from round 1: give byes on the byes page.")
                         % {"name": player.shown_name})
    for number, kind in wanted.items():
        if not 1 <= number < player.entered_round:
            raise ValueError(_("%(name)s entered in round %(entry)s: only rounds 1 to %(last)s were missed.")
                             % {"name": player.shown_name, "entry": player.entered_round,
                                "last": player.entered_round - 1})
        if kind not in ("", *REQUESTED_BYES):
            raise ValueError(_("%(name)s: unknown choice %(value)r.") % {"name": player.shown_name, "value": kind})
    with transaction.atomic():
        t = t.lock()
        current = missed_rounds(Player.objects.get(pk=player.pk))
        wanted = {n: k for n, k in wanted.items() if current.get(n, "") != k}
        if not wanted:
            return []
        paired_since = t.round_set.filter(number__gte=player.entered_round).exists()
        warnings = [_("%(name)s entered in round %(entry)s; rounds before it have been played without them. A late "
                      "entry scores nothing for the rounds it missed unless the tournament's rules say otherwise "
                      "(C.04.2 2.4).") % {"name": player.shown_name, "entry": player.entered_round}]
        for number, kind in sorted(wanted.items()):
            warnings.append(_("Round %(n)s: %(was)s => %(now)s.") % {
                "n": number, "was": ByeKind(current[number]).label if current[number] else _("nothing (0)"),
                "now": ByeKind(kind).label if kind else _("nothing (0)")})
        for number, kind in sorted(wanted.items()):
            if kind == ByeKind.HALF:
                warnings += half_bye_warnings(t, number, [player])
        if ByeKind.FULL in wanted.values():
            warnings.append(_("A full-point bye scores %(points)s without a game. FIDE's rules discourage full-point "
                              "byes, and the player can no longer get the pairing-allocated bye.")
                            % {"points": points_text(t.point_win)})
        if paired_since or ByeKind.FULL in wanted.values():
            warnings.append(_("It is a pairing-integrity event: recorded and written in the rating report's copy."))
        require(Level.CONFIRM, confirmations, _("Rounds %(name)s missed") % {"name": player.shown_name}, warnings)
        point = restore.take(t) if paired_since or ByeKind.FULL in wanted.values() else None
        changes = []
        for number, kind in sorted(wanted.items()):
            if kind:
                Bye.objects.update_or_create(player=player, round_number=number,
                                             defaults={"tournament": t, "kind": kind})
            else:
                Bye.objects.filter(player=player, round_number=number).delete()
            changes.append(f"round {number}: {BYE_WORDS[kind] if kind else 'nothing'}")
        discard_draft(t, user, "The score of a late entry changed.")
        AuditEntry.log(
            t, user, AuditAction.BYE, f"{player.name} (late entry from round {player.entered_round}): "
            + "; ".join(changes) + ".", obj=player, label=player.audit_label(),
            before={str(n): current[n] for n in wanted}, after={str(n): k for n, k in wanted.items()},
        )
        if point is not None:
            number = events.last_paired(t)
            given = " ".join(f"{n}{k or '-'}" for n, k in sorted(wanted.items()))
            kind = IntegrityKind.MISSED_ROUND if paired_since else IntegrityKind.FULL_BYE
            events.record(t, kind, number, f"Late entry's missed rounds @ Round {number}: {player.tpn} {given}",
                             user, point=point)
    return changes
