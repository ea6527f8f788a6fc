"""What the chief arbiter adds to the tie-break list by hand (C.07; VCL4THP Q205, Q207,
Q212-213): the order of players still tied on everything, tie-break values computed
outside the program (code EXT), and, for events over 30 days, a rating per round."""

from __future__ import annotations

from decimal import Decimal, InvalidOperation

from django.db import transaction
from django.utils.translation import gettext as _

from ..models import AuditAction, AuditEntry, Player, RoundRating, Tournament


class DetailsRefused(ValueError):
    """The values typed cannot be stored; the message says which and why.  Nothing changed."""


def _players(t: Tournament, pks) -> dict[int, Player]:
    found = {p.pk: p for p in t.player_set.filter(pk__in=list(pks))}
    if len(found) != len(set(pks)):
        raise DetailsRefused(_("A player in the form is not in this tournament any more; reload the page."))
    return found


def set_hand_ranks(t: Tournament, ranks: dict[int, str], groups: list[list[int]], user) -> int:
    """``ranks``: player pk -> the order typed ('' clears it), for players tied on points
    and every tie-break (``groups``: each tied group's pks).  Within a group the orders
    are distinct whole numbers from 1.  Returns the number of players changed."""
    group_of = {pk: g for g in groups for pk in g}
    parsed: dict[int, int | None] = {}
    for pk, raw in ranks.items():
        raw = raw.strip()
        if pk not in group_of:
            raise DetailsRefused(_("Only players tied on points and every tie-break can be ordered by hand."))
        if not raw:
            parsed[pk] = None
        elif raw.isdigit() and 1 <= int(raw) <= len(group_of[pk]):
            parsed[pk] = int(raw)
        else:
            raise DetailsRefused(_("Type a place from 1 to %(n)s within the tied group, or leave it empty.") % {"n": len(group_of[pk])})
    for g in groups:
        given = [parsed[pk] for pk in g if parsed.get(pk)]
        if len(given) != len(set(given)):
            raise DetailsRefused(_("Two tied players have the same place; give each a different one."))
    return _store(t, user, "hand_rank", parsed,
                  lambda p, rank: f"Order among tied players: {p.name} {'placed ' + str(rank) if rank else 'cleared'}.")


def _store(t: Tournament, user, name: str, parsed: dict, detail) -> int:
    """Set the field ``name`` of each player (pk -> value) that differs, under the
    tournament lock, one audit entry per player (``detail(player, value)``)."""
    with transaction.atomic():
        t.lock()
        players = _players(t, parsed)
        changed = 0
        for pk, value in parsed.items():
            p = players[pk]
            if getattr(p, name) != value:
                before = p.audit_values([name])
                setattr(p, name, value)
                p.save(update_fields=[name])
                AuditEntry.log(t, user, AuditAction.PLAYER, detail(p, value), obj=p, label=p.audit_label(),
                               before=before, after=p.audit_values([name]))
                changed += 1
    return changed


def set_external_values(t: Tournament, values: dict[int, str], user) -> int:
    """``values``: player pk -> the externally computed tie-break value ('' clears it);
    numbers with up to two decimals, between -999999 and 999999."""
    parsed: dict[int, Decimal | None] = {}
    for pk, raw in values.items():
        raw = raw.strip().replace(",", ".")
        if not raw:
            parsed[pk] = None
            continue
        try:
            number = Decimal(raw)
        except InvalidOperation:
            raise DetailsRefused(_("%(value)r is not a number (e.g. 12.5).") % {"value": raw}) from None
        if not number.is_finite() or abs(number) >= 10**6 or number != number.quantize(Decimal("0.01")):
            raise DetailsRefused(_("%(value)s: a number with at most two decimals, below a million.") % {"value": raw})
        parsed[pk] = number.quantize(Decimal("0.01"))
    return _store(t, user, "external_tiebreak", parsed,
                  lambda p, number: f"External tie-break value of {p.name}: {number}.")


def set_round_ratings(t: Tournament, grid: dict[tuple[int, int], str], user) -> int:
    """``grid``: (player pk, round) -> the rating from that round on ('' for none).  Each
    rating is a whole number from 1 to 3500; rounds from 2 to the tournament's last (round
    1 is the tournament rating itself).  Returns the number of cells changed."""
    if not t.long_event:
        raise DetailsRefused(_("Ratings per round are for events over 30 days: tick that setting first."))
    parsed: dict[tuple[int, int], int | None] = {}
    for (pk, number), raw in grid.items():
        raw = raw.strip()
        if not 2 <= number <= t.rounds:
            raise DetailsRefused(_("Round %(n)s is not a round of this tournament after the first.") % {"n": number})
        if not raw:
            parsed[(pk, number)] = None
        elif raw.isdigit() and 1 <= int(raw) <= 3500:
            parsed[(pk, number)] = int(raw)
        else:
            raise DetailsRefused(_("Round %(n)s: %(value)r is not a rating (a whole number from 1 to 3500).") % {"n": number, "value": raw})
    with transaction.atomic():
        t.lock()
        players = _players(t, {pk for pk, _ in parsed})
        stored = {(r.player_id, r.round_number): r for r in RoundRating.objects.filter(player__tournament=t)}
        changed = 0
        for (pk, number), rating in sorted(parsed.items()):
            old = stored.get((pk, number))
            if (old.rating if old else None) == rating:
                continue
            if rating is None:
                old.delete()
            elif old:
                old.rating = rating
                old.save(update_fields=["rating"])
            else:
                RoundRating.objects.create(player_id=pk, round_number=number, rating=rating)
            p = players[pk]
            AuditEntry.log(t, user, AuditAction.PLAYER,
                           f"Rating of {p.name} from round {number}: {old.rating if old else '—'} => {rating or '—'}.",
                           obj=p, label=p.audit_label())
            changed += 1
    return changed
