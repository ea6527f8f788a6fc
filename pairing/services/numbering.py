"""Pairing numbers (TPNs) by the initial ranking rules, and late entries once they are frozen."""

from __future__ import annotations

from django.db import transaction
from django.db.models import F

from ..models import (
    Player,
    Tournament,
)


def renumber(tournament: Tournament) -> None:
    """Give pairing numbers (TPNs) by the initial ranking rules.

    Before the ranking is frozen (round 4 published) every player's TPN is their
    position by rating (descending), title (GM, IM, WGM, FM, WIM, CM, WFM, WCM,
    none), then name.  Once frozen, existing players keep their relative order and a
    late entry is inserted at the first position where the rules rank them above
    the player there; everyone from that position down moves one number down.
    """
    players = list(tournament.player_set.all())
    if not players:
        return
    if tournament.ranking_frozen:
        placed = sorted((p for p in players if p.tpn), key=lambda p: p.tpn)
        for late in sorted((p for p in players if not p.tpn), key=Player.ranking_key):
            at = next(
                (i for i, p in enumerate(placed) if Player.ranking_key(late) < Player.ranking_key(p)),
                len(placed),
            )
            placed.insert(at, late)
        order = placed
    else:
        order = sorted(players, key=Player.ranking_key)
    wanted = {p.pk: i for i, p in enumerate(order, start=1)}
    if all(p.tpn == wanted[p.pk] for p in players):
        return
    with transaction.atomic():
        # Two passes so that the unique (tournament, tpn) constraint holds at every row.
        offset = len(players) + 100000
        tournament.player_set.update(tpn=F("pk") + offset)
        for p in players:
            p.tpn = wanted[p.pk]
        Player.objects.bulk_update(players, ["tpn"])
