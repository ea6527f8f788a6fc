"""A tournament's rating lists: their order, the ratings a list gives a player, the
tournament rating by the tournament's method, and the consistency check.

List keys (``Tournament.rating_lists``, comma-separated, first list first):

* ``fide-standard``, ``fide-rapid``, ``fide-blitz``: FIDE's list, one rate of play;
* ``fide-rapid-effective``: the rapid rating, or the standard one when the player has no
  rapid rating; ``fide-blitz-effective``: blitz, else rapid, else standard (docs/ratings.md);
* ``list:<name>``: a national or custom list loaded under that name (its one rating).

Default order per rate of play (VCL4THP Q123): standard - FIDE standard, rapid, blitz;
rapid - effective rapid, blitz; blitz - effective blitz.  The FIDE rating of a player is
the first FIDE list in the order that rates him; the national rating the first national
or custom list that has him (by FIDE id, or the id picked); the tournament rating
follows the tournament's method (FIDON ...).  Nothing here changes a player: the
consistency check proposes, :func:`apply_differences` changes what the arbiter ticks.
"""

from __future__ import annotations

import datetime
from dataclasses import dataclass

from django.db import transaction
from django.utils import timezone
from django.utils.formats import date_format
from django.utils.translation import gettext as _
from django.utils.translation import gettext_lazy

from ..models import (
    DEFAULT_ORDER,
    FIDE_KEYS,
    FIDE_LABELS,
    AuditAction,
    AuditEntry,
    ListKind,
    Player,
    RatingEntry,
    RatingList,
    RatingMethod,
    RatingSource,
    Tournament,
    tournament_rating,
)
from ..wording import in_english
from .numbering import renumber

STALE_AFTER_DAYS = 30  # C.04.2: over 30 days, the check uses the list valid on the day of the check


def order(t: Tournament) -> list[str]:
    """The tournament's list keys, first list first."""
    keys = [k.strip() for k in t.rating_lists.split(",") if k.strip()]
    return keys or list(DEFAULT_ORDER[t.rate_of_play])


def reference_day(t: Tournament, today: datetime.date | None = None) -> datetime.date:
    """The day whose lists count (VCL4THP Q137): the start of the tournament, or today
    for an event over 30 days long that has started."""
    today = today or datetime.date.today()
    start = t.start_date or today
    if t.end_date and (t.end_date - start).days > STALE_AFTER_DAYS and today > start:
        return today
    return start


@dataclass(frozen=True)
class Source:
    key: str
    label: str
    rating_list: RatingList | None
    fide: bool


def sources(t: Tournament, day: datetime.date | None = None) -> list[Source]:
    """The lists of the tournament's order as loaded (a list not loaded has none)."""
    day = day or reference_day(t)
    fide_list = RatingList.objects.valid_on("FIDE", day)
    owners = t.list_owners()
    out = []
    for key in order(t):
        if key in FIDE_KEYS:
            out.append(Source(key, FIDE_LABELS[key], fide_list, True))
        elif key.startswith("list:"):
            name = key[5:].strip()
            out.append(Source(key, name, RatingList.objects.valid_on(name, day, owners), False))
    return out


def searched_lists(t: Tournament) -> list[RatingList]:
    seen: dict[int, RatingList] = {}
    for s in sources(t):
        if s.rating_list is not None:
            seen.setdefault(s.rating_list.pk, s.rating_list)
    if not seen:  # no list in the order is loaded: FIDE's, if any
        fide = RatingList.objects.valid_on("FIDE", reference_day(t))
        if fide is not None:
            seen[fide.pk] = fide
    return list(seen.values())


def rating_in(entry: RatingEntry, key: str) -> int | None:
    for field in FIDE_KEYS.get(key, ("standard",)):
        value = getattr(entry, field)
        if value:
            return value
    return None


@dataclass
class Found:
    """What the lists say about one player."""

    fide_rating: int | None = None
    fide_source: str = ""
    national_rating: int | None = None
    national_source: str = ""
    national_id: str = ""
    entry: RatingEntry | None = None  # the FIDE list's row, else the national one
    others: list[tuple[str, int, bool]] | None = None  # (list label, rating, FIDE list?) of every list rating him

    def tournament_rating(self, method: str) -> tuple[int | None, str]:
        rating = tournament_rating(method, self.fide_rating, self.national_rating)
        if rating is None:
            return None, ""
        if method in (RatingMethod.NRO, RatingMethod.NIDOF):
            national_first = self.national_rating is not None and rating == self.national_rating
            return rating, self.national_source if national_first else self.fide_source
        return rating, self.fide_source if rating == self.fide_rating else self.national_source


def _entry_for(rating_list: RatingList, fide_id: str, ident: str = "") -> RatingEntry | None:
    if fide_id:
        found = RatingEntry.objects.filter(rating_list=rating_list, fide_id=fide_id).first()
        if found is not None or rating_list.kind == ListKind.FIDE:
            return found
    if ident:
        return RatingEntry.objects.filter(rating_list=rating_list, ident=ident).first()
    return None


def look_up(t: Tournament, fide_id: str = "", national_id: str = "", picked: RatingEntry | None = None,
            day: datetime.date | None = None) -> Found:
    """The player's ratings in the tournament's lists (by FIDE id and national id, or
    the row picked in a search)."""
    if picked is not None:
        fide_id = fide_id or picked.fide_id
        if picked.rating_list.kind != ListKind.FIDE:
            national_id = national_id or picked.ident
    found = Found(others=[])
    fide_rows: dict[int, RatingEntry | None] = {}
    for s in sources(t, day):
        if s.rating_list is None:
            continue
        if s.rating_list.pk not in fide_rows:
            if picked is not None and picked.rating_list_id == s.rating_list.pk:
                fide_rows[s.rating_list.pk] = picked
            else:
                fide_rows[s.rating_list.pk] = _entry_for(s.rating_list, fide_id, "" if s.fide else national_id)
        entry = fide_rows[s.rating_list.pk]
        if entry is None:
            continue
        rating = rating_in(entry, s.key)
        if rating is None:
            continue
        label = f"{s.label}, {s.rating_list.month:%b %Y}"
        found.others.append((label, rating, s.fide))
        if s.fide and found.fide_rating is None:
            found.fide_rating, found.fide_source, found.entry = rating, label, entry
        elif not s.fide and found.national_rating is None:
            found.national_rating, found.national_source, found.national_id = rating, label, entry.ident
            found.entry = found.entry or entry
    if found.entry is None and picked is not None:
        found.entry = picked
    return found


def initial_from(t: Tournament, picked: RatingEntry) -> dict:
    """Initial values of the player form for a row picked in a search."""
    found = look_up(t, picked=picked)
    e = found.entry or picked
    rating, source = found.tournament_rating(t.rating_method)
    return {
        "name": e.name[:33], "title": e.title, "federation": e.federation, "sex": e.sex,
        "fide_id": e.fide_id, "birth_year": e.birth_year, "fide_rating": found.fide_rating,
        "national_rating": found.national_rating, "national_id": found.national_id,
        "rating": rating, "rating_source": source, "list_rating": rating,
        "k_factor": getattr(e, {"standard": "standard_k", "rapid": "rapid_k", "blitz": "blitz_k"}[t.rate_of_play]),
        "rating_provisional": rating is None,
    }, found


def apply_method(t: Tournament) -> int:
    """Every player's tournament rating by the tournament's method, where the method
    defines one (the caller renumbers).  Returns how many changed."""
    changed = []
    for p in t.player_set.all():
        rating = tournament_rating(t.rating_method, p.fide_rating, p.national_rating)
        if rating is not None and (rating != p.rating or p.rating_provisional):
            p.rating, p.rating_provisional = rating, False
            changed.append(p)
    Player.objects.bulk_update(changed, ["rating", "rating_provisional"])
    return len(changed)


# ---------------------------------------------------------------- consistency check


@dataclass
class Difference:
    player: Player
    field: str
    label: str
    old: object
    new: object

    @property
    def key(self) -> str:
        return f"{self.player.pk}:{self.field}"


CHECKED = (("fide_rating", gettext_lazy("FIDE rating")), ("national_rating", gettext_lazy("National rating")),
           ("title", gettext_lazy("Title")), ("federation", gettext_lazy("Federation")), ("name", gettext_lazy("Name")))


def differences(t: Tournament, day: datetime.date | None = None) -> list[Difference]:
    """Every registered player compared with the lists valid on ``day`` (default: the
    tournament's reference day, VCL4THP Q137): FIDE and national rating, title,
    federation, name.  Players without a FIDE or national id are not checked."""
    out: list[Difference] = []
    for p in t.player_set.order_by("tpn"):
        if not p.fide_id and not p.national_id:
            continue
        found = look_up(t, fide_id=p.fide_id, national_id=p.national_id, day=day)
        new = {"fide_rating": found.fide_rating, "national_rating": found.national_rating}
        if found.entry is not None and found.entry.rating_list.kind == ListKind.FIDE:
            new |= {"title": found.entry.title, "federation": found.entry.federation}
            if search_name(found.entry.name) != search_name(p.name):
                new["name"] = found.entry.name[:33]
        for field, label in CHECKED:
            if field not in new:
                continue
            if field in ("fide_rating", "national_rating") and new[field] is None and getattr(p, field) is None:
                continue
            if getattr(p, field) != new[field]:
                out.append(Difference(p, field, label, getattr(p, field), new[field]))
    return out


def search_name(name: str) -> str:
    from ..rating_files import normalise

    return normalise(name)


def apply_differences(t: Tournament, chosen: set[str], user, day: datetime.date | None = None) -> int:
    """Apply the differences whose key is in ``chosen`` (nothing else changes); the
    tournament rating follows the method; pairing numbers follow before round 4.
    Returns how many values changed."""
    from ..rating_files import printable

    with transaction.atomic():
        t = t.lock()
        todo = [d for d in differences(t, day) if d.key in chosen]
        bad = [d for d in todo if isinstance(d.new, str) and printable(d.new) != d.new]
        if bad:  # a list loaded before its reader refused them (issue 33)
            raise ValueError(_("The rating list gives %(who)s a value with a control character (a line break or the "
                               "like); nothing was applied. Load a corrected list, or untick it.") % {
                "who": ", ".join(f"{d.player.name} ({d.label})" for d in bad[:5])})
        by_player: dict[int, list[Difference]] = {}
        for d in todo:
            by_player.setdefault(d.player.pk, []).append(d)
        for diffs in by_player.values():
            p = diffs[0].player
            before = p.audit_values()
            for d in diffs:
                setattr(p, d.field, d.new)
            rating = tournament_rating(t.rating_method, p.fide_rating, p.national_rating)
            if rating is not None:
                p.rating, p.rating_provisional = rating, False
            p.save()
            after = p.audit_values()
            AuditEntry.log(
                t, user, AuditAction.PLAYER,
                f"Rating check: {p.name} " + ", ".join(f"{in_english(d.label).lower()} {d.old or '—'} → {d.new or '—'}" for d in diffs),
                obj=p, label=p.audit_label(),
                before={k: before[k] for k in before if before[k] != after[k]},
                after={k: after[k] for k in before if before[k] != after[k]},
            )
        if todo:
            renumber(t)
    return len(todo)


def mark_checked(t: Tournament) -> None:
    """The arbiter has seen the differences with the lists loaded now."""
    Tournament.objects.filter(pk=t.pk).update(ratings_checked_at=timezone.now())


def newer_lists(t: Tournament) -> list[RatingList]:
    """Lists of the tournament's order loaded since its last check (the automatic
    check after a list update, VCL4THP Q139: the overview asks to review them).

    Never checked, "since" is since the first player was registered (issue 32, item
    12): a list loaded before that was there when the players were entered, looked up
    in it or typed beside it, and is no update; the tournament's creation stands in
    when the audit trail records no registration."""
    if not t.consistency_checks or not t.player_set.exists():
        return []
    since = t.ratings_checked_at
    if since is None:
        first = (AuditEntry.objects.filter(tournament=t, action__in=[AuditAction.PLAYER, AuditAction.IMPORT])
                 .order_by("at").values_list("at", flat=True).first())
        since = first or t.created
    loaded = [s.rating_list for s in sources(t) if s.rating_list is not None]
    seen: dict[int, RatingList] = {}
    for rl in loaded:
        if rl.loaded_at > since:
            seen.setdefault(rl.pk, rl)
    return list(seen.values())


FRESH_FOR = datetime.timedelta(hours=26)  # a daily check, with slack for its time of day


def list_is_behind(now: datetime.datetime | None = None, *, for_staff: bool = False) -> str:
    """A notice when the local FIDE list may be older than the one FIDE publishes now,
    '' otherwise (VCL4THP Q135, Q141).  Decided by what FIDE's site served at the last
    check (the daily refresh, or *Update all lists now*), not by the calendar: the list
    is behind when that check failed, or when FIDE's site has not been asked for over a
    day.  ``for_staff``: the reader can load lists; others are told who can."""
    now = now or timezone.now()
    newest = RatingList.objects.active().site().filter(name="FIDE").order_by("-month").first()
    source = RatingSource.objects.filter(name="FIDE", owner__isnull=True).first()
    how = (_("Use Update all lists now on the Rating lists page, or upload FIDE's file there.") if for_staff else
           _("The site's administrator (a staff account) loads FIDE's list; ask them, or see the manual's "
             "chapter on rating lists."))
    if newest is None:
        return _("No FIDE list is loaded.") + " " + how
    local = date_format(newest.month, "YEAR_MONTH_FORMAT")
    if source is not None and source.ok is False and source.checked_at is not None:
        return _("The last check of FIDE's list (%(when)s) failed: %(why)s") % {
            "when": date_format(timezone.localtime(source.checked_at), "DATETIME_FORMAT"), "why": source.result} + " " + how
    if source is None or source.checked_at is None:
        return _("The local FIDE list (%(local)s) has not been checked against FIDE's site: FIDE may have published "
                 "a newer one.") % {"local": local} + " " + how
    if now - source.checked_at > FRESH_FOR:
        return _("FIDE's site was last asked for its list %(when)s, more than a day ago (the local list is of "
                 "%(local)s): FIDE may have published a newer one.") % {
            "when": date_format(timezone.localtime(source.checked_at), "DATETIME_FORMAT"), "local": local} + " " + how
    return ""
