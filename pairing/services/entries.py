"""Online entries: sent from the event's public page, approved, refused or moved by the
arbiters (in bulk), an approved entry registered as a player.  Every change of an entry's
state is in the section's audit trail; mail goes through Django's mail framework (sent
when the site has a mail server, written to the console in development, never needed:
the entrant's private link always shows the state)."""

from __future__ import annotations

import logging
import secrets

from django.conf import settings
from django.core.mail import send_mail
from django.db import IntegrityError, transaction
from django.urls import reverse
from django.utils import timezone
from django.utils.translation import gettext as _

from ..models import (
    AuditAction,
    AuditEntry,
    Entry,
    EntryState,
    Event,
    Player,
    Tournament,
    bump_event_revision,
)
from . import player_ratings
from .players import add_players

logger = logging.getLogger(__name__)
ENTRANT = "online entry"  # who acted, in the audit trail, for the entrant


class EntryRefused(ValueError):
    """The entry cannot be taken or changed as asked; ``field``: the form field it is about."""

    def __init__(self, message: str, field: str | None = None):
        super().__init__(message)
        self.field = field


def open_sections(event: Event) -> list[Tournament]:
    """The sections an entry may go to: those that have not published round 1."""
    return [t for t in event.sections.order_by("name") if not t.rounds_published()]


def places_taken(section: Tournament) -> int:
    """Registered players, and the entries waiting for approval (they hold a place)."""
    return section.player_set.count() + section.entries.filter(state=EntryState.PENDING).count()


def is_full(section: Tournament) -> bool:
    return section.entry_limit is not None and places_taken(section) >= section.entry_limit


def _words(name: str) -> set[str]:
    return {w for w in player_ratings.search_name(name).split() if len(w) > 1}


def from_lists(section: Tournament, fide_id: str, name: str) -> dict:
    """What the section's rating lists say of FIDE id ``fide_id``: the values of the
    registration (name, title, federation, ratings ... from the list).  Refused when the id
    is in no loaded list, or the list's name has no word of the name typed (a mistyped id)."""
    found = player_ratings.look_up(section, fide_id=fide_id)
    if found.entry is None:
        raise EntryRefused(_("FIDE id %(id)s is in none of the rating lists this section uses. Check the number, "
                             "or leave it empty if you have none.") % {"id": fide_id}, "fide_id")
    values, _found = player_ratings.initial_from(section, found.entry)
    if not _words(values["name"]) & _words(name):
        raise EntryRefused(_("FIDE id %(id)s belongs to another name in the rating list. Check the number and the "
                             "name.") % {"id": fide_id}, "fide_id")
    return values


def submit(event: Event, section: Tournament, name: str, fide_id: str, email: str, address: str,
           now=None, site: str = "") -> Entry:
    """Take an entry (the form has checked its shape): the player's data from the lists,
    a place or the waiting list, the audit entry, a mail.  Raises :class:`EntryRefused`."""
    if not event.entries_accepted(now):
        raise EntryRefused(_("Online entries for this event are closed."))
    if section.event_id != event.pk or section not in open_sections(event):
        raise EntryRefused(_("Choose one of the sections listed."), "section")
    values = from_lists(section, fide_id, name) if fide_id else {}
    with transaction.atomic():
        section.lock()
        if fide_id and Entry.objects.filter(event=event, fide_id=fide_id).exclude(state=EntryState.REFUSED).exists():
            raise EntryRefused(_("An entry with FIDE id %(id)s has been sent already; its private link shows its "
                                 "state.") % {"id": fide_id}, "fide_id")
        if fide_id and Player.objects.filter(tournament__event=event, fide_id=fide_id).exists():
            raise EntryRefused(_("A player with FIDE id %(id)s is registered in this event already.") % {"id": fide_id},
                               "fide_id")
        state = EntryState.WAITING if is_full(section) else EntryState.PENDING
        details = {k: values.get(k) for k in ("birth_year", "sex", "fide_rating", "national_rating", "national_id",
                                               "k_factor") if values.get(k) not in (None, "")}
        try:
            with transaction.atomic():
                entry = Entry.objects.create(
                    event=event, section=section, state=state, name=(values.get("name") or name)[:33], fide_id=fide_id,
                    email=email, title=values.get("title") or "", federation=values.get("federation") or "",
                    rating=values.get("rating"), rating_source=values.get("rating_source") or "", details=details,
                    token=secrets.token_urlsafe(24), address=address,
                )
        except IntegrityError:  # the same id sent twice at the same moment
            raise EntryRefused(_("An entry with FIDE id %(id)s has been sent already; its private link shows its "
                                 "state.") % {"id": fide_id}, "fide_id") from None
        _log(entry, None, f"Online entry of {entry.name}" + (f" (FIDE id {fide_id})" if fide_id else "")
             + f": {_state_words(state)}.", after=_values(entry))
    _mail(entry, _("Your entry to %(event)s") % {"event": event.name}, _received_text(entry, site))
    return entry


def _state_words(state: str) -> str:
    return {EntryState.PENDING: "waiting for approval", EntryState.WAITING: "on the waiting list (section full)",
            EntryState.APPROVED: "approved", EntryState.REFUSED: "refused"}[state]


def _values(entry: Entry) -> dict:
    return {"name": entry.name, "fide_id": entry.fide_id, "section": entry.section.name, "state": entry.state,
            "rating": entry.rating, "title": entry.title, "federation": entry.federation}


def _log(entry: Entry, user, detail: str, before=None, after=None, section: Tournament | None = None) -> None:
    AuditEntry.log(section or entry.section, user, AuditAction.ENTRY, detail, obj=entry, label=entry.name,
                   before=before, after=after, username="" if user else ENTRANT)
    bump_event_revision(entry.event_id)


def private_path(entry: Entry) -> str:
    return reverse("pairing:entry_status", args=[entry.event.slug, entry.token])


def _received_text(entry: Entry, site: str = "") -> str:
    text = _("We have your entry for %(section)s (%(event)s): %(state)s. Its state is always at %(link)s") % {
        "section": entry.section.name, "event": entry.event.name, "state": entry.get_state_display(),
        "link": site.rstrip("/") + private_path(entry)}
    if entry.state == EntryState.REFUSED and entry.note:
        text += "\n\n" + _("The arbiters' reason: %(note)s") % {"note": entry.note}
    return text


def _mail(entry: Entry, subject: str, body: str) -> None:
    """One mail to the entrant; a failure is logged, never in the way."""
    try:
        send_mail(subject, body, settings.DEFAULT_FROM_EMAIL, [entry.email], fail_silently=False)
    except Exception as exc:  # noqa: BLE001 - a mail server down must not lose an entry
        logger.warning("entry %s: mail not sent: %s", entry.pk, exc)


def _room(section: Tournament) -> int | None:
    if section.entry_limit is None:
        return None
    return section.entry_limit - places_taken(section)


def approve(entries: list[Entry], user, ratings: dict[int, int] | None = None, site: str = "") -> list[str]:
    """Register the players of ``entries`` (pending, or waiting when their section has
    room again): one transaction per section; an unrated entry needs the provisional
    rating the arbiter gives it (``ratings`` by entry pk).  Returns what was done, one
    sentence each; raises :class:`EntryRefused` (nothing done) for an entry that cannot be."""
    ratings = ratings or {}
    done: list[str] = []
    by_section: dict[int, list[Entry]] = {}
    for e in entries:
        by_section.setdefault(e.section_id, []).append(e)
    with transaction.atomic():
        for section_id, group in by_section.items():
            section = Tournament.objects.get(pk=section_id)
            section.lock()
            group = list(Entry.objects.select_for_update().filter(pk__in=[e.pk for e in group]).order_by("created", "pk"))
            for e in group:
                if e.state not in (EntryState.PENDING, EntryState.WAITING):
                    raise EntryRefused(_("%(name)s: the entry is %(state)s already (another arbiter?). Nothing was "
                                         "changed.") % {"name": e.name, "state": e.get_state_display().lower()})
                if section.rounds_published():
                    raise EntryRefused(_("%(section)s has published round 1: register late players on its players "
                                         "page.") % {"section": section.name})
            waiting = [e for e in group if e.state == EntryState.WAITING]
            room = _room(section)
            if waiting and room is not None and room < len(waiting):
                raise EntryRefused(_("%(section)s is full (%(limit)s places): refuse or move an entry, or raise its "
                                     "maximum, before approving from the waiting list.") % {
                    "section": section.name, "limit": section.entry_limit})
            rows = []
            for e in group:
                rating = e.rating or ratings.get(e.pk)
                if not rating or not 1 <= rating <= 3500:
                    raise EntryRefused(_("%(name)s is unrated: give a provisional rating (1 to 3500) before "
                                         "approving. Nothing was changed.") % {"name": e.name})
                d = e.details or {}
                rows.append({
                    "name": e.name, "title": e.title, "federation": e.federation, "fide_id": e.fide_id,
                    "rating": rating, "rating_provisional": not e.rating, "rating_source": e.rating_source,
                    "birth_year": d.get("birth_year"), "sex": d.get("sex") or "", "fide_rating": d.get("fide_rating"),
                    "national_rating": d.get("national_rating"), "national_id": d.get("national_id") or "",
                    "k_factor": d.get("k_factor"),
                })
            try:
                created = add_players(section, rows, user, how="from online entries")
            except Exception as exc:
                from ..models import Conflict

                if isinstance(exc, Conflict):
                    raise EntryRefused(str(exc)) from None
                raise
            for e, p in zip(group, created, strict=True):
                before = e.state
                e.state, e.player = EntryState.APPROVED, p
                e.save(update_fields=["state", "player", "changed"])
                _log(e, user, f"Online entry of {e.name} approved: registered with TPN {p.tpn}.",
                     before={"state": before}, after={"state": e.state, "tpn": p.tpn})
                done.append(_("%(name)s registered in %(section)s.") % {"name": p.shown_name, "section": section.name})
    for e in entries:
        e.refresh_from_db()
        _mail(e, _("Your entry to %(event)s is approved") % {"event": e.event.name}, _received_text(e, site))
    return done


def refuse(entries: list[Entry], user, note: str = "", site: str = "") -> list[str]:
    """Refuse entries waiting for approval or on the waiting list; the first entries of
    the waiting list move up into the places that frees."""
    done = []
    with transaction.atomic():
        for e in Entry.objects.select_for_update().filter(pk__in=[e.pk for e in entries]).select_related("section"):
            if e.state not in (EntryState.PENDING, EntryState.WAITING):
                raise EntryRefused(_("%(name)s: the entry is %(state)s already (another arbiter?). Nothing was "
                                     "changed.") % {"name": e.name, "state": e.get_state_display().lower()})
            before = e.state
            e.state, e.note = EntryState.REFUSED, note[:200]
            e.save(update_fields=["state", "note", "changed"])
            _log(e, user, f"Online entry of {e.name} refused." + (f" {note[:200]}" if note else ""),
                 before={"state": before}, after={"state": e.state})
            done.append(_("%(name)s: entry refused.") % {"name": e.name})
        for section in Tournament.objects.filter(pk__in={e.section_id for e in entries}):
            done += promote(section, user)
    for e in entries:
        e.refresh_from_db()
        _mail(e, _("Your entry to %(event)s") % {"event": e.event.name}, _received_text(e, site))
    return done


def promote(section: Tournament, user) -> list[str]:
    """Waiting-list entries of ``section`` moved up, first come first, while it has room."""
    done = []
    for e in section.entries.filter(state=EntryState.WAITING).order_by("created", "pk"):
        if is_full(section):
            break
        e.state = EntryState.PENDING
        e.save(update_fields=["state", "changed"])
        _log(e, user, f"Online entry of {e.name} moved up from the waiting list: waiting for approval.",
             before={"state": EntryState.WAITING}, after={"state": e.state})
        done.append(_("%(name)s moved up from the waiting list.") % {"name": e.name})
    return done


def move(entries: list[Entry], target: Tournament, user) -> list[str]:
    """Move entries (not yet approved) to another section of their event: waiting for
    approval there, or on its waiting list when it is full."""
    done = []
    with transaction.atomic():
        target.lock()
        sources = set()
        for e in Entry.objects.select_for_update().filter(pk__in=[e.pk for e in entries]).select_related("section"):
            if e.state not in (EntryState.PENDING, EntryState.WAITING):
                raise EntryRefused(_("%(name)s: only an entry not yet approved or refused moves; move a registered "
                                     "player on the event's player list.") % {"name": e.name})
            if target.event_id != e.event_id or target.rounds_published():
                raise EntryRefused(_("Choose a section of the event that has not published round 1."))
            if e.section_id == target.pk:
                continue
            old = e.section
            sources.add(old.pk)
            e.section = target
            e.state = EntryState.WAITING if is_full(target) else EntryState.PENDING
            e.save(update_fields=["section", "state", "changed"])
            detail = f"Online entry of {e.name} moved from {old.name} to {target.name}: {_state_words(e.state)}."
            _log(e, user, detail, before={"section": old.name}, after={"section": target.name, "state": e.state},
                 section=old)
            _log(e, user, detail, before={"section": old.name}, after={"section": target.name, "state": e.state})
            done.append(_("%(name)s moved to %(section)s.") % {"name": e.name, "section": target.name})
        for section in Tournament.objects.filter(pk__in=sources):
            done += promote(section, user)
    return done


def follow_move(player: Player, target: Tournament) -> None:
    """A registered player moved to another section: the entry goes with him."""
    Entry.objects.filter(player=player).update(section=target, changed=timezone.now())


def entries_from_address(address: str, since) -> int:
    return Entry.objects.filter(address=address, created__gte=since).count()
