"""An event: the tournaments (sections) played at one place on the same dates, with one
organiser, one arbiter team, one public page, online entries and check-in.

Every tournament belongs to an event (:meth:`Tournament.save` makes an event of one
section for a tournament created without one; migration 0031 did so for the tournaments
that existed before events).  The sections keep their own settings (system, rounds,
tie-breaks, players); the event holds what they share.
"""

from __future__ import annotations

import secrets

from django.conf import settings
from django.db import models
from django.db.models import F, Q
from django.urls import reverse
from django.utils import timezone
from django.utils.translation import gettext_lazy as _


class EventQuerySet(models.QuerySet["Event"]):
    def for_arbiter(self, user) -> EventQuerySet:
        """Events the user runs: as their chief arbiter, or as an arbiter of a section."""
        if not user.is_authenticated:
            return self.none()
        return self.filter(
            Q(owner=user) | Q(sections__owner=user) | Q(sections__deputies=user)
        ).distinct()

    def public(self) -> EventQuerySet:
        """Events a visitor can find: a public section, or online entries open."""
        now = timezone.now()
        open_entries = Q(entries_open=True) & (Q(entries_close__isnull=True) | Q(entries_close__gt=now))
        return self.filter(Q(sections__public=True) | open_entries).distinct()


class Event(models.Model):
    slug = models.SlugField(_("address"), max_length=60, unique=True)
    name = models.CharField(_("name"), max_length=120)
    place = models.CharField(_("place"), max_length=120, blank=True)
    start_date = models.DateField(_("start date"), null=True, blank=True)
    end_date = models.DateField(_("end date"), null=True, blank=True)
    organiser = models.CharField(_("organiser"), max_length=120, blank=True)
    owner = models.ForeignKey(
        settings.AUTH_USER_MODEL, on_delete=models.PROTECT, related_name="owned_events",
        verbose_name=_("chief arbiter"),
    )
    created = models.DateTimeField(_("created"), auto_now_add=True)
    revision = models.PositiveBigIntegerField(
        _("revision"), default=0, editable=False,
        help_text=_("Counts the changes of the event's own state (its settings, entries, check-in)."),
    )

    # online entries
    entries_open = models.BooleanField(
        _("online entries open"), default=False,
        help_text=_("A form on the event's public page; each entry waits for an arbiter's approval."),
    )
    entries_close = models.DateTimeField(
        _("entries close at"), null=True, blank=True, help_text=_("Empty: open until you close them."),
    )

    # check-in
    self_checkin = models.BooleanField(
        _("players may check themselves in"), default=False,
        help_text=_("By the QR code on the printed check-in list (a secret link of this event)."),
    )
    checkin_secret = models.CharField(max_length=40, blank=True, editable=False)

    objects = EventQuerySet.as_manager()

    class Meta:
        ordering = ["-start_date", "name"]
        constraints = [
            models.CheckConstraint(
                condition=Q(end_date__isnull=True) | Q(start_date__isnull=True) | Q(end_date__gte=F("start_date")),
                name="event_end_after_start",
            ),
        ]

    def __str__(self) -> str:
        return self.name

    def get_absolute_url(self) -> str:
        return reverse("pairing:event", args=[self.slug])

    AUDITED_SETTINGS = [
        "name", "slug", "place", "start_date", "end_date", "organiser", "entries_open", "entries_close", "self_checkin",
    ]

    def is_arbiter(self, user) -> bool:
        if not user.is_authenticated:
            return False
        if self.owner_id == user.pk:
            return True
        return self.sections.filter(Q(owner=user) | Q(deputies=user)).exists()

    def entries_accepted(self, now=None) -> bool:
        """The public entry form takes entries now."""
        now = now or timezone.now()
        return self.entries_open and (self.entries_close is None or self.entries_close > now)

    def new_checkin_secret(self) -> str:
        self.checkin_secret = secrets.token_urlsafe(24)
        return self.checkin_secret

    @staticmethod
    def free_slug(wanted: str, exclude_pk: int | None = None) -> str:
        """``wanted``, or ``wanted-2``, ``wanted-3``... the first no other event has."""
        base = (wanted or "event")[:54]
        slug, n = base, 1
        while Event.objects.filter(slug=slug).exclude(pk=exclude_pk).exists():
            n += 1
            slug = f"{base}-{n}"
        return slug


def bump_event_revision(event_id: int) -> None:
    """Count one change of the event's own state (as :func:`~pairing.models.bump_revision`
    does for a tournament): the event's public page is kept in the cache under it."""
    Event.objects.filter(pk=event_id).update(revision=F("revision") + 1)
