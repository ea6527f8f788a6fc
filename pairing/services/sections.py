"""Events and their sections: an event's settings, a section created inside an event, and
a registered player moved to another section before round 1."""

from __future__ import annotations

from collections.abc import Callable

from django.db import IntegrityError, transaction
from django.db.models import Q
from django.utils.translation import gettext as _

from ..models import (
    AuditAction,
    AuditEntry,
    Bye,
    Event,
    ForbiddenPair,
    Player,
    Tournament,
    bump_event_revision,
)
from .drafts import discard_draft
from .entries import follow_move
from .numbering import renumber

# what a section takes from its event when the event changes them
SHARED = ("place", "start_date", "end_date")


def log_event(event: Event, user, detail: str, before=None, after=None, username: str = "") -> None:
    """A change of the event itself: in the audit trail of each of its sections (the
    one trail an arbiter reads), and the event's revision moves on."""
    bump_event_revision(event.pk)
    for t in event.sections.all():
        AuditEntry.log(t, user, AuditAction.SECTION, detail, obj=event, label=event.name[:200],
                       before=before, after=after, username=username)


def save_event(event: Event, save: Callable[[], Event], user, before: dict) -> Event:
    """Save the event's settings (``save``: the form's save).  A section that had the
    event's place or dates takes the new ones (a section with dates of its own keeps
    them); each change is in the sections' audit trails."""
    with transaction.atomic():
        sections = list(Tournament.objects.select_for_update().filter(event=event))
        event = save()
        event.refresh_from_db()
        after = {f: v for f, v in event_values(event).items()}
        changed = [f for f in before if before[f] != after[f]]
        for t in sections:
            followed = [f for f in SHARED if f in changed and _value(getattr(t, f)) == before[f]]
            if followed:
                old = t.audit_values(followed)
                for f in followed:
                    setattr(t, f, getattr(event, f))
                t.save(update_fields=followed)
                AuditEntry.log(t, user, AuditAction.SETTINGS, "Settings changed with the event's: " + ", ".join(followed),
                               obj=t, label=t.name, before=old, after=t.audit_values(followed))
        if changed:
            log_event(event, user, "Event changed: " + ", ".join(changed),
                      before={f: before[f] for f in changed}, after={f: after[f] for f in changed})
    return event


def _value(v):
    return v.isoformat() if hasattr(v, "isoformat") else v


def event_values(event: Event) -> dict:
    return {f: _value(getattr(event, f)) for f in Event.AUDITED_SETTINGS}


def add_section(event: Event, save: Callable[[], Tournament], user) -> Tournament:
    """Create a section of ``event`` (``save``: the tournament form's save, on a
    tournament whose ``event`` is set).  The section has the event's chief arbiter and
    the deputies of its other sections."""
    from .tournaments import log_created

    with transaction.atomic():
        deputies = set(
            Tournament.objects.filter(event=event).values_list("deputies", flat=True)
        ) - {None, event.owner_id}
        t = save()
        if deputies:
            t.deputies.add(*deputies)
        log_created(t, user)
        AuditEntry.log(t, user, AuditAction.SECTION, f"Section of the event {event.name}.", obj=event,
                       label=event.name[:200])
        bump_event_revision(event.pk)
    return t


class MoveRefused(ValueError):
    """The player cannot move (a round is published, the FIDE id is in the other section...)."""


def move_player(player: Player, target: Tournament, user) -> Player:
    """Move a registered player to another section of the same event before round 1 of
    either: the player has no history, so nothing but the registration moves.  Requested
    byes and forbidden pairs of the old section go (they name its rounds and players);
    both sections are renumbered and lose their draft; the move is in both audit trails.
    """
    source = player.tournament
    if target.event_id != source.event_id or target.pk == source.pk:
        raise MoveRefused(_("Choose another section of the same event."))
    with transaction.atomic():
        # lock both rows, always in the same order (two moves at once cannot deadlock)
        locked = {t.pk: t for t in Tournament.objects.select_for_update().filter(pk__in=[source.pk, target.pk]).order_by("pk")}
        source, target = locked[source.pk], locked[target.pk]
        player = Player.objects.select_for_update().get(pk=player.pk)
        if player.tournament_id != source.pk:
            raise MoveRefused(_("%(name)s has been moved already (by another arbiter?).") % {"name": player.name})
        for t in (source, target):
            if t.rounds_published():
                raise MoveRefused(_("%(section)s has published round 1: players move between sections only before "
                                    "round 1 of both.") % {"section": t.name})
        if target.round_robin and target.round_set.exists():
            raise MoveRefused(_("A round robin takes no new player once round 1 is paired: the Berger table is made "
                                "for the players registered then."))
        if player.fide_id and target.player_set.filter(fide_id=player.fide_id).exists():
            raise MoveRefused(_("FIDE id %(id)s is already registered in %(section)s.") % {
                "id": player.fide_id, "section": target.name})
        discard_draft(source, user, "A player moved to another section.")
        discard_draft(target, user, "A player moved in from another section.")
        byes = list(Bye.objects.filter(player=player).values_list("round_number", "kind"))
        pairs = ForbiddenPair.objects.filter(Q(player_a=player) | Q(player_b=player))
        gone_pairs = sorted(p.audit_label() for p in pairs.select_related("player_a", "player_b"))
        Bye.objects.filter(player=player).delete()
        pairs.delete()
        old_label = player.audit_label()
        try:
            with transaction.atomic():
                Player.objects.filter(pk=player.pk).update(tournament=target, tpn=None, entered_round=None)
        except IntegrityError:
            raise MoveRefused(_("FIDE id %(id)s is already registered in %(section)s.") % {
                "id": player.fide_id, "section": target.name}) from None
        follow_move(player, target)
        renumber(source)
        renumber(target)
        player.refresh_from_db()
        dropped = {}
        if byes:
            dropped["byes"] = [f"round {n}: {k}" for n, k in byes]
        if gone_pairs:
            dropped["forbidden_pairs"] = gone_pairs
        AuditEntry.log(source, user, AuditAction.PLAYER, f"{player.name} moved to the section {target.name}.",
                       obj=player, label=old_label, before={"section": source.name, **dropped},
                       after={"section": target.name})
        AuditEntry.log(target, user, AuditAction.PLAYER,
                       f"{player.name} moved in from the section {source.name}, with TPN {player.tpn}.",
                       obj=player, label=player.audit_label(), before={"section": source.name},
                       after={"section": target.name, **player.audit_values()})
    return player
