"""What a round's pairing list shows beside its boards: who is not paired, and why."""

from __future__ import annotations

from dataclasses import dataclass

from django.utils.translation import gettext_lazy as _

from ..models import Bye, ByeKind, Player, Tournament


@dataclass(frozen=True)
class NotPaired:
    player: Player
    reason: str  # "half-point bye", "zero-point bye", "full-point bye", "withdrawn"


_REASONS = {ByeKind.HALF: _("half-point bye"), ByeKind.ZERO: _("zero-point bye"), ByeKind.FULL: _("full-point bye")}


def not_paired(t: Tournament, number: int) -> list[NotPaired]:
    """The players left out of round ``number``: requested byes, then withdrawals (a
    withdrawn player without a bye in that round), each once, by pairing number."""
    byes = (
        Bye.objects.requested()
        .filter(tournament=t, round_number=number)
        .select_related("player")
    )
    rows = {b.player_id: NotPaired(b.player, _REASONS[ByeKind(b.kind)]) for b in byes}
    for p in t.player_set.filter(withdrawn_from_round__lte=number).exclude(pk__in=list(rows)):
        rows[p.pk] = NotPaired(p, _("withdrawn"))
    return sorted(rows.values(), key=lambda r: r.player.tpn or 0)
