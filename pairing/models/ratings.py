"""Rating lists (FIDE's, national and custom ones) and the players in them.

A list is stored per name and month; loading the same name and month again replaces it
atomically (the new rows are written under an inactive list, then one transaction makes
it the active one and retires the old).  Readers see active lists only.
"""

from __future__ import annotations

from django.conf import settings
from django.db import models
from django.db.models import Q
from django.utils.formats import date_format
from django.utils.translation import gettext
from django.utils.translation import gettext_lazy as _


class ListKind(models.TextChoices):
    FIDE = "fide", _("FIDE (standard, rapid and blitz)")
    NATIONAL = "national", _("National list")
    CUSTOM = "custom", _("Custom list")


class RatingListQuerySet(models.QuerySet["RatingList"]):
    def active(self) -> RatingListQuerySet:
        return self.filter(active=True)

    def site(self) -> RatingListQuerySet:
        """The site's lists (loaded by staff accounts), not an arbiter's own."""
        return self.filter(owner__isnull=True)

    def valid_on(self, name: str, day, owners=()) -> RatingList | None:
        """The newest active list of that name published on or before ``day`` (the
        newest of all when ``day`` is None or every list is later).  ``owners``: the
        accounts (user ids) whose own lists count, first one first, before the site's
        list of the same name (a tournament's chief arbiter, then its deputies)."""
        for owner in [*owners, None]:
            lists = self.active().filter(name=name, owner_id=owner).order_by("-month")
            if day is not None:
                found = lists.filter(month__lte=day).first()
                if found is not None:
                    return found
            found = lists.first()
            if found is not None:
                return found
        return None


class RatingList(models.Model):
    name = models.CharField(max_length=60, help_text=_("FIDE, or e.g. 'SLO national', 'Club ladder'."))
    kind = models.CharField(max_length=8, choices=ListKind.choices)
    month = models.DateField(help_text=_("The month the list is valid from (its first day)."))
    source = models.CharField(max_length=300, blank=True, help_text=_("File name or address it was loaded from."))
    loaded_at = models.DateTimeField(auto_now_add=True)
    players = models.PositiveIntegerField(default=0)
    active = models.BooleanField(default=False)
    owner = models.ForeignKey(
        settings.AUTH_USER_MODEL, null=True, blank=True, on_delete=models.CASCADE, related_name="rating_lists",
        help_text=_("An arbiter's own list, for the tournaments they are an arbiter of; empty: a list of the site."),
    )
    # the background job writing it, while it is being loaded (inactive)
    job = models.ForeignKey("pairing.Job", null=True, blank=True, on_delete=models.SET_NULL, related_name="+")

    objects = RatingListQuerySet.as_manager()

    class Meta:
        ordering = ["name", "-month"]
        constraints = [
            models.UniqueConstraint(fields=["name", "month"], condition=Q(active=True, owner__isnull=True),
                                    name="rating_list_one_active"),
            models.UniqueConstraint(fields=["owner", "name", "month"], condition=Q(active=True, owner__isnull=False),
                                    name="rating_list_one_active_own"),
            models.CheckConstraint(condition=Q(kind__in=["fide", "national", "custom"]), name="rating_list_kind_valid"),
        ]

    def __str__(self) -> str:
        return f"{self.name} {self.month:%Y-%m}"

    @property
    def label(self) -> str:
        return f"{self.name} ({date_format(self.month, 'YEAR_MONTH_FORMAT')})"


class RatingEntry(models.Model):
    """One player of a list.  ``standard`` holds the only rating of a national or
    custom list."""

    # no index of its own: every index below starts with it
    rating_list = models.ForeignKey(RatingList, on_delete=models.CASCADE, related_name="entries", db_index=False)
    ident = models.CharField(max_length=20)
    fide_id = models.CharField(max_length=11, blank=True)
    name = models.CharField(max_length=80)
    key_a = models.CharField(max_length=80)  # "surname given", lower-case ASCII
    key_b = models.CharField(max_length=80)  # "given surname"
    key_pair = models.CharField(max_length=6)  # "carmag": 3 letters of each (rating_files.search_keys)
    federation = models.CharField(max_length=3, blank=True)
    sex = models.CharField(max_length=1, blank=True)
    title = models.CharField(max_length=3, blank=True)
    birth_year = models.PositiveSmallIntegerField(null=True)
    standard = models.PositiveSmallIntegerField(null=True)
    rapid = models.PositiveSmallIntegerField(null=True)
    blitz = models.PositiveSmallIntegerField(null=True)
    standard_k = models.PositiveSmallIntegerField(null=True)
    rapid_k = models.PositiveSmallIntegerField(null=True)
    blitz_k = models.PositiveSmallIntegerField(null=True)
    flag = models.CharField(max_length=3, blank=True)

    class Meta:
        indexes = [
            models.Index(fields=["rating_list", "key_a"], name="rating_entry_key_a"),
            models.Index(fields=["rating_list", "key_b"], name="rating_entry_key_b"),
            models.Index(fields=["rating_list", "key_pair"], name="rating_entry_key_pair"),
            models.Index(fields=["rating_list", "ident"], name="rating_entry_ident"),
            models.Index(fields=["rating_list", "fide_id"], name="rating_entry_fide_id"),
        ]

    def __str__(self) -> str:
        return f"{self.name} ({self.ident})"


class RatingSource(models.Model):
    """Where the lists of one name come from and what their last check found: the
    download address (a site list's, FIDE's among them), and the result of the last
    download, upload or check in words.  One per name, for the site and per arbiter."""

    name = models.CharField(max_length=60)
    kind = models.CharField(max_length=8, choices=ListKind.choices)
    owner = models.ForeignKey(settings.AUTH_USER_MODEL, null=True, blank=True, on_delete=models.CASCADE,
                              related_name="+")
    url = models.URLField(_("download address"), max_length=500, blank=True)
    checked_at = models.DateTimeField(null=True, blank=True)
    ok = models.BooleanField(null=True, help_text=_("The last check: loaded or unchanged (yes), failed (no)."))
    result = models.TextField(blank=True)
    # what the download address served when the active list was loaded from it
    etag = models.CharField(max_length=200, blank=True)
    last_modified = models.CharField(max_length=100, blank=True)
    sha256 = models.CharField(max_length=64, blank=True)

    class Meta:
        ordering = ["name"]
        constraints = [
            models.UniqueConstraint(fields=["name"], condition=Q(owner__isnull=True), name="rating_source_site_name"),
            models.UniqueConstraint(fields=["owner", "name"], condition=Q(owner__isnull=False),
                                    name="rating_source_own_name"),
        ]

    def __str__(self) -> str:
        return self.name


# ---------------------------------------------------------------- list order of a tournament
# (keys of Tournament.rating_lists; pairing.services.player_ratings explains them)

FIDE_KEYS = {
    "fide-standard": ("standard",),
    "fide-rapid": ("rapid",),
    "fide-blitz": ("blitz",),
    "fide-rapid-effective": ("rapid", "standard"),
    "fide-blitz-effective": ("blitz", "rapid", "standard"),
}
FIDE_LABELS = {
    "fide-standard": "FIDE standard",
    "fide-rapid": "FIDE rapid",
    "fide-blitz": "FIDE blitz",
    "fide-rapid-effective": "FIDE effective rapid",
    "fide-blitz-effective": "FIDE effective blitz",
}
DEFAULT_ORDER = {
    "standard": ("fide-standard", "fide-rapid", "fide-blitz"),
    "rapid": ("fide-rapid-effective", "fide-blitz"),
    "blitz": ("fide-blitz-effective",),
}


def list_order_problems(text: str, owners=()) -> list[str]:
    """What is wrong with a typed list order ('' is the default).  ``owners``: the
    accounts whose own lists the tournament may use (its arbiters)."""
    problems = []
    keys = [k.strip() for k in text.split(",") if k.strip()]
    for k in keys:
        if k in FIDE_KEYS:
            continue
        if k.startswith("list:") and k[5:].strip():
            name = k[5:].strip()
            visible = Q(owner__isnull=True) | Q(owner_id__in=list(owners))
            if not RatingList.objects.active().filter(visible, name=name).exclude(kind=ListKind.FIDE).exists():
                problems.append(gettext("No national or custom list is loaded under the name %(name)r.") % {"name": name})
            continue
        problems.append(gettext("Unknown list %(key)r: use %(keys)s or list:<name>.") % {"key": k, "keys": ", ".join(FIDE_KEYS)})
    if len(set(keys)) != len(keys):
        problems.append(gettext("A list is named twice."))
    return problems
