"""Pairing numbers (TPNs) by the initial ranking rules, and late entries once they are frozen."""

from __future__ import annotations

from django.db import transaction
from django.db.models import F
from django.utils.translation import gettext as _

from ..models import (
    Player,
    Tournament,
    bump_revision,
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
    gap a deleted player leaves); a new player gets the next number.  After the chief
    arbiter has exchanged two numbers (``numbers_by_hand``) the list is kept as it is, as
    when frozen, until it is regenerated (:func:`regenerate`).
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
    elif tournament.ranking_frozen or tournament.numbers_by_hand:
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
        # every page that shows a pairing number changes: the revision moves, even when
        # no audit entry is written (the numbers brought up to date before an export)
        bump_revision(tournament.pk)


class NumbersRefused(ValueError):
    """An exchange or a regeneration the rules do not allow; the message says why."""


def by_rules(tournament: Tournament) -> dict[int, int]:
    """{player pk: the TPN the ranking rules give} (rating, title, announced order, name)."""
    players = sorted(tournament.player_set.all(), key=lambda p: Player.ranking_key(p, tournament.tie_order))
    return {p.pk: i for i, p in enumerate(players, start=1)}


def moves(tournament: Tournament, wanted: dict[int, int]) -> list[tuple[Player, int, int]]:
    """(player, TPN now, TPN wanted) for every player whose number would change."""
    return [(p, p.tpn, wanted[p.pk]) for p in tournament.player_set.order_by("tpn") if p.tpn != wanted[p.pk]]


def _not_frozen(t: Tournament, what: str) -> None:
    if t.ranking_frozen:
        raise NumbersRefused(_("Round 4 has been paired: pairing numbers no longer change (C.04.2), so %(what)s is "
                               "not possible.") % {"what": what})
    if t.round_robin:
        raise NumbersRefused(_("A round robin's numbers are its Berger numbers: set them on the Berger numbers page."))


def exchange(t: Tournament, a: Player, b: Player, user, confirmations: int = 0) -> None:
    """The chief arbiter exchanges the pairing numbers of two players of the same
    tournament rating (VCL4THP Q147-150), until round 4 is paired (Q151).  Always a
    Level-3 confirmation; the warning says when the exchange goes against the title or
    the announced order.  The numbers then stay as they are (late entries are inserted)
    until the list is regenerated.  Once a round is paired it is a pairing-integrity
    event (a ### line)."""
    from ..models import TITLE_ORDER, AuditAction, AuditEntry, IntegrityKind
    from ..warning_levels import Level, require
    from . import events, restore
    from .drafts import discard_draft

    _not_frozen(t, _("an exchange"))
    if a.pk == b.pk:
        raise NumbersRefused(_("Choose two different players."))
    if a.rating != b.rating:
        raise NumbersRefused(_("%(a)s (%(ra)s) and %(b)s (%(rb)s) have different tournament ratings: only the numbers "
                               "of players of the same rating can be exchanged (C.04.2). Correct a rating on the "
                               "player's page instead.") % {"a": a.shown_name, "ra": a.rating, "b": b.shown_name, "rb": b.rating})
    warnings = [_("No %(ta)s %(a)s and No %(tb)s %(b)s exchange their pairing numbers.") % {
        "ta": a.tpn, "a": a.name, "tb": b.tpn, "b": b.name}]
    if TITLE_ORDER.get(a.title, 99) != TITLE_ORDER.get(b.title, 99):
        warnings.append(_("Their titles differ: the ranking rules order equal ratings by title, so the exchange goes "
                          "against them."))
    else:
        warnings.append(_("The announced order for equal ratings (%(order)s) is set aside for these two.") % {
            "order": t.get_tie_order_display().lower()})
    warnings.append(_("From now on the numbers stay as they are (a late entry is inserted where its rating places "
                      "it) until the list is regenerated from the ratings."))
    published = t.rounds_published()
    if published:
        warnings.append(_("A round has been paired: the exchange is a pairing-integrity event, recorded and written "
                          "in the rating report's copy."))
    require(Level.CONFIRM, confirmations, _("Exchange two pairing numbers"), warnings)
    with transaction.atomic():
        t = t.lock()
        point = restore.take(t) if published else None
        a, b = Player.objects.get(pk=a.pk), Player.objects.get(pk=b.pk)
        first, second = a.tpn, b.tpn
        Player.objects.filter(pk=a.pk).update(tpn=None)
        Player.objects.filter(pk=b.pk).update(tpn=first)
        Player.objects.filter(pk=a.pk).update(tpn=second)
        Tournament.objects.filter(pk=t.pk).update(numbers_by_hand=True)
        discard_draft(t, user, "Pairing numbers were exchanged.")
        AuditEntry.log(t, user, AuditAction.PLAYER,
                       f"Pairing numbers exchanged: {a.name} {first} => {second}, {b.name} {second} => {first}.",
                       label=f"TPN {first} <=> {second}", before={a.name: first, b.name: second},
                       after={a.name: second, b.name: first})
        if point is not None:
            number = events.last_paired(t)
            events.record(t, IntegrityKind.TPN, number,
                             f"Pairing numbers exchanged @ Round {number}: {first} <=> {second}", user, point=point)


def regenerate(t: Tournament, user, confirmations: int = 0) -> int:
    """Give every player the number the ranking rules give again (the announced order
    for equal ratings kept, Q155), until round 4 is paired.  A Level-3 confirmation when
    two or more numbers move (Q154).  Returns the number of players renumbered."""
    from ..models import AuditAction, AuditEntry
    from ..warning_levels import Level, require
    from .drafts import discard_draft

    _not_frozen(t, _("regenerating the numbers"))
    moved = moves(t, by_rules(t))
    if len(moved) >= 2:
        require(Level.CONFIRM, confirmations, _("Regenerate the pairing numbers"),
                [_("%(n)s players get another pairing number: %(moves)s.") % {
                    "n": len(moved),
                    "moves": ", ".join(f"{p.name} {old} => {new}" for p, old, new in moved[:30])
                    + (" …" if len(moved) > 30 else "")}])
    with transaction.atomic():
        t = t.lock()
        Tournament.objects.filter(pk=t.pk).update(numbers_by_hand=False)
        t.numbers_by_hand = False
        renumber(t)
        if moved:
            discard_draft(t, user, "Pairing numbers were regenerated.")
        AuditEntry.log(t, user, AuditAction.PLAYER,
                       f"Pairing numbers regenerated from the ratings: {len(moved)} changed.",
                       label="Pairing numbers", after={p.name: new for p, _, new in moved})
    return len(moved)
