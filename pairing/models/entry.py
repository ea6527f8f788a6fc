"""Online entries, check-in, and the categories and prizes of a section."""

from __future__ import annotations

from decimal import Decimal

from django.db import models
from django.db.models import Q
from django.utils.translation import gettext_lazy as _

from .event import Event
from .player import Player
from .tournament import Tournament


class EntryState(models.TextChoices):
    PENDING = "pending", _("Waiting for approval")
    WAITING = "waiting", _("On the waiting list")
    APPROVED = "approved", _("Approved: registered")
    REFUSED = "refused", _("Refused")


# the entries that hold (or wait for) a place in a section
LIVE_ENTRIES = (EntryState.PENDING, EntryState.WAITING, EntryState.APPROVED)


class Entry(models.Model):
    """A player's online entry into a section of an event.  The name, rating, title and
    federation come from the rating lists (by the FIDE id), not from what the entrant
    typed; the entrant follows it at a private link (``token``)."""

    event = models.ForeignKey(Event, on_delete=models.CASCADE, related_name="entries")
    section = models.ForeignKey(Tournament, on_delete=models.CASCADE, related_name="entries", verbose_name=_("section"))
    state = models.CharField(_("state"), max_length=8, choices=EntryState.choices, default=EntryState.PENDING)
    name = models.CharField(_("name"), max_length=33)
    fide_id = models.CharField(_("FIDE id"), max_length=11, blank=True)
    email = models.EmailField(_("e-mail"), max_length=120)
    title = models.CharField(_("title"), max_length=3, blank=True)
    federation = models.CharField(_("federation"), max_length=3, blank=True)
    rating = models.PositiveSmallIntegerField(_("rating"), null=True, blank=True)
    rating_source = models.CharField(_("rating source"), max_length=80, blank=True)
    # what the lists say besides: birth year, sex, FIDE and national rating, K (registration)
    details = models.JSONField(default=dict, blank=True)
    token = models.CharField(max_length=48, unique=True, editable=False)
    address = models.CharField(max_length=64, blank=True, editable=False,
                               help_text=_("A keyed digest of the address it came from (the limit per address)."))
    created = models.DateTimeField(_("sent"), auto_now_add=True)
    changed = models.DateTimeField(auto_now=True)
    player = models.ForeignKey(Player, null=True, blank=True, on_delete=models.SET_NULL, related_name="entries")
    note = models.CharField(_("note"), max_length=200, blank=True)

    class Meta:
        ordering = ["created", "pk"]
        verbose_name_plural = _("entries")
        constraints = [
            models.CheckConstraint(condition=Q(state__in=["pending", "waiting", "approved", "refused"]),
                                   name="entry_state_valid"),
            # one live entry per FIDE id and event (the same player twice is a mistake)
            models.UniqueConstraint(fields=["event", "fide_id"], condition=~Q(fide_id="") & ~Q(state="refused"),
                                    name="entry_fide_id_once_per_event"),
            models.CheckConstraint(condition=~Q(name=""), name="entry_name_not_empty"),
        ]
        indexes = [models.Index(fields=["address", "created"], name="entry_address_created")]

    def __str__(self) -> str:
        return f"{self.name} ({self.get_state_display()})"

    @property
    def live(self) -> bool:
        return self.state in LIVE_ENTRIES


class CheckIn(models.Model):
    """A player present in the hall before round 1 (or not yet), and the entry fee."""

    player = models.OneToOneField(Player, on_delete=models.CASCADE, related_name="checkin")
    present = models.BooleanField(_("present"), default=False)
    at = models.DateTimeField(_("checked in at"), null=True, blank=True)
    by = models.CharField(_("checked in by"), max_length=150, blank=True,
                          help_text=_("The arbiter's account, or 'self' for the player by the QR code."))
    due = models.DecimalField(_("fee due"), max_digits=8, decimal_places=2, null=True, blank=True)
    paid = models.DecimalField(_("fee paid"), max_digits=8, decimal_places=2, null=True, blank=True)

    class Meta:
        constraints = [
            models.CheckConstraint(condition=Q(due__isnull=True) | Q(due__gte=0), name="checkin_due_not_negative"),
            models.CheckConstraint(condition=Q(paid__isnull=True) | Q(paid__gte=0), name="checkin_paid_not_negative"),
        ]

    def __str__(self) -> str:
        return f"{self.player_id}: {'present' if self.present else 'absent'}"


class CategoryKind(models.TextChoices):
    UNDER = "under", _("Age: under (born in or after the event's year minus the age)")
    OVER = "over", _("Age: over (born in or before the event's year minus the age)")
    WOMEN = "women", _("Women")
    UNRATED = "unrated", _("Unrated")
    RATING = "rating", _("Rating band")
    FEDERATION = "fed", _("Federation")
    CLUB = "club", _("Club")


class Category(models.Model):
    """A group of a section's players ranked apart from the same standings: an age group
    (from the birth year), women, unrated players, a rating band, a federation, a club."""

    section = models.ForeignKey(Tournament, on_delete=models.CASCADE, related_name="categories")
    name = models.CharField(_("name"), max_length=40)
    kind = models.CharField(_("kind"), max_length=8, choices=CategoryKind.choices)
    age = models.PositiveSmallIntegerField(_("age"), null=True, blank=True)
    rating_min = models.PositiveSmallIntegerField(_("lowest rating"), null=True, blank=True)
    rating_max = models.PositiveSmallIntegerField(_("highest rating"), null=True, blank=True)
    value = models.CharField(_("federation or club"), max_length=80, blank=True)

    class Meta:
        ordering = ["pk"]
        verbose_name_plural = _("categories")
        constraints = [
            models.UniqueConstraint(fields=["section", "name"], name="category_name_once_per_section"),
            models.CheckConstraint(
                condition=Q(kind__in=["women", "unrated"])
                | Q(kind__in=["under", "over"], age__gte=1, age__lte=120)
                | Q(kind="rating") & (Q(rating_min__isnull=False) | Q(rating_max__isnull=False))
                | Q(kind__in=["fed", "club"]) & ~Q(value=""),
                name="category_kind_has_its_values",
            ),
        ]

    def __str__(self) -> str:
        return self.name


class Sharing(models.TextChoices):
    EQUAL = "equal", _("Shared equally by the players tied on points")
    HORT = "hort", _("Hort system: half shared equally, half by the tie-break order")
    NONE = "none", _("Not shared: the tie-breaks decide")


class OnePrize(models.TextChoices):
    LARGER = "larger", _("The larger prize (a place prize when equal)")
    PLACE_FIRST = "place", _("A place prize before any category prize")


ROUNDING_CHOICES = [("0.01", _("to the cent")), ("1", _("to whole units")), ("5", _("to 5 units")),
                    ("10", _("to 10 units"))]


class PrizeSettings(models.Model):
    """How a section's prizes are given: sharing of ties, one prize per player, rounding,
    the club ranking's number of players, and whether the list is published."""

    section = models.OneToOneField(Tournament, on_delete=models.CASCADE, related_name="prize_settings")
    sharing = models.CharField(_("players tied on points"), max_length=5, choices=Sharing.choices,
                               default=Sharing.EQUAL)
    one_prize = models.CharField(_("a player eligible for two prizes gets"), max_length=6, choices=OnePrize.choices,
                                 default=OnePrize.LARGER)
    rounding = models.CharField(_("shares rounded down"), max_length=4, choices=ROUNDING_CHOICES, default="0.01")
    currency = models.CharField(_("currency"), max_length=8, blank=True, default="EUR")
    club_best = models.PositiveSmallIntegerField(_("club ranking: best players counted"), default=3)
    published_at = models.DateTimeField(_("published at"), null=True, blank=True)

    class Meta:
        constraints = [
            models.CheckConstraint(condition=Q(sharing__in=["equal", "hort", "none"]), name="prize_sharing_valid"),
            models.CheckConstraint(condition=Q(one_prize__in=["larger", "place"]), name="prize_one_prize_valid"),
            models.CheckConstraint(condition=Q(rounding__in=["0.01", "1", "5", "10"]), name="prize_rounding_valid"),
            models.CheckConstraint(condition=Q(club_best__gte=1), name="prize_club_best_positive"),
        ]

    def __str__(self) -> str:
        return f"prizes of {self.section_id}"

    @property
    def unit(self) -> Decimal:
        return Decimal(self.rounding)


class Prize(models.Model):
    """A place prize (``category`` empty) or a category prize: ``place`` 1, 2, 3 ... of
    the general ranking or of the category, ``amount`` of money."""

    section = models.ForeignKey(Tournament, on_delete=models.CASCADE, related_name="prizes")
    category = models.ForeignKey(Category, null=True, blank=True, on_delete=models.CASCADE, related_name="prizes")
    place = models.PositiveSmallIntegerField(_("place"))
    amount = models.DecimalField(_("amount"), max_digits=10, decimal_places=2)

    class Meta:
        ordering = ["category_id", "place"]
        constraints = [
            models.UniqueConstraint(fields=["section", "category", "place"], condition=Q(category__isnull=False),
                                    name="prize_once_per_category_place"),
            models.UniqueConstraint(fields=["section", "place"], condition=Q(category__isnull=True),
                                    name="prize_once_per_place"),
            models.CheckConstraint(condition=Q(place__gte=1), name="prize_place_positive"),
            models.CheckConstraint(condition=Q(amount__gte=0), name="prize_amount_not_negative"),
        ]

    def __str__(self) -> str:
        return f"{self.category or 'place'} {self.place}: {self.amount}"
