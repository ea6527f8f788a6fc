"""Pairing numbers (TPNs) by the initial ranking rules, and late entries once they are frozen."""

from __future__ import annotations

from django.db import transaction
from django.db.models import F

from ..models import (
    Player,
    Tournament,
)

BATCH = 500


def renumber(tournament: Tournament) -> None:
    """Give pairing numbers (TPNs) by the initial ranking rules.

    Before the ranking is frozen (round 4 published) every player's TPN is their
    position by rating (descending), title (GM, IM, WGM, FM, WIM, CM, WFM, WCM,
    none), then the order the tournament announced (FIDE id, oldest or youngest first;
    ``Tournament.tie_order``), then name.  Once frozen, existing players keep their relative order and a
    late entry is inserted at the first position where the rules rank them above
    the player there; everyone from that position down moves one number down.  A round
    robin whose Berger numbers were drawn by lot or given by hand keeps them (closing the
    gap a deleted player leaves); a new player gets the next number.
    """
    players = list(tournament.player_set.all())
    if not players:
        return

    def key(p: Player) -> tuple:
        return Player.ranking_key(p, tournament.tie_order)

    if tournament.round_robin and tournament.rr_numbers != "rating":
        # Berger numbers drawn by lot or given by hand stay; a new player comes last
        placed = sorted((p for p in players if p.tpn), key=lambda p: p.tpn)
        order = placed + sorted((p for p in players if not p.tpn), key=key)
    elif tournament.ranking_frozen:
        placed = sorted((p for p in players if p.tpn), key=lambda p: p.tpn)
        for late in sorted((p for p in players if not p.tpn), key=key):
            at = next(
                (i for i, p in enumerate(placed) if key(late) < key(p)),
                len(placed),
            )
            placed.insert(at, late)
        order = placed
    else:
        order = sorted(players, key=key)
    wanted = {p.pk: i for i, p in enumerate(order, start=1)}
    changed = [p for p in players if p.tpn != wanted[p.pk]]
    if not changed:
        return
    with transaction.atomic():
        # Only the rows whose number changes, in batches: one bulk_update of every row
        # was one statement with a CASE per player, quadratic on PostgreSQL (15,000
        # players: 105 s, audit finding 6).  Two passes so that the unique (tournament,
        # tpn) constraint holds at every row: the changed rows first move out of the
        # way (past any number in use), then take their numbers.
        offset = len(players) + 100000
        pks = [p.pk for p in changed]
        for start in range(0, len(pks), BATCH):
            Player.objects.filter(pk__in=pks[start : start + BATCH]).update(tpn=F("pk") + offset)
        for p in changed:
            p.tpn = wanted[p.pk]
        Player.objects.bulk_update(changed, ["tpn"], batch_size=BATCH)
