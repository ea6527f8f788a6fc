"""Online entries: the public form (no account; spam kept out by a field people leave
empty, the time a person needs to fill it in, and limits per address), the entrant's
private page, and the arbiters' list where entries are approved, refused or moved in bulk."""

from __future__ import annotations

import hashlib
import hmac
import time

from django.conf import settings
from django.contrib import messages
from django.contrib.auth.decorators import login_required
from django.core import signing
from django.core.cache import cache
from django.http import HttpRequest, HttpResponse
from django.shortcuts import get_object_or_404, redirect, render
from django.utils import timezone
from django.utils.translation import gettext as _
from django.views.decorators.http import require_GET, require_http_methods

from arbiter_site.lockout import client_ip

from ..access import get_event_for_arbiter
from ..forms import EntryActionForm, EntryForm
from ..models import Entry, EntryState, Event, Tournament
from ..services import entries as service

_SALT = "pairing.entry-form"
_FORM_HOURS = 6
_WINDOW = 3600


def address_of(request: HttpRequest) -> str:
    """A keyed digest of the visitor's address: limits per address without keeping it."""
    raw = (client_ip(request) or "unknown").encode()
    return hmac.new(settings.SECRET_KEY.encode(), raw, hashlib.sha256).hexdigest()


def count_post(key: str) -> int:
    """One more post from an address in the current hour; the count."""
    key = f"throttle:{key}:{int(time.time()) // _WINDOW}"
    cache.add(key, 0, _WINDOW + 60)
    try:
        return cache.incr(key)
    except ValueError:  # expired between add and incr
        cache.set(key, 1, _WINDOW + 60)
        return 1


def _stamp() -> str:
    return signing.TimestampSigner(salt=_SALT).sign(str(int(time.time())))


def _form_age(raw: str) -> float | None:
    """Seconds since the form was opened, None for a form we did not give (or too old)."""
    try:
        opened = int(signing.TimestampSigner(salt=_SALT).unsign(raw or "", max_age=_FORM_HOURS * 3600))
    except (signing.BadSignature, ValueError):
        return None
    return time.time() - opened


@require_http_methods(["GET", "POST"])
def entry_form(request: HttpRequest, slug: str) -> HttpResponse:
    event = get_object_or_404(Event, slug=slug)
    sections = service.open_sections(event)
    if not event.entries_accepted() or not sections:
        return render(request, "pairing/entry_form.html", {"e": event, "closed": True})
    form = EntryForm(request.POST or None, sections=sections, initial={"started": _stamp()})
    status = 200
    if request.method == "POST":
        address = address_of(request)
        since = timezone.now() - timezone.timedelta(seconds=_WINDOW)
        if (count_post(f"entry:{address}") > settings.ENTRY_POSTS_PER_ADDRESS
                or service.entries_from_address(address, since) >= settings.ENTRIES_PER_ADDRESS):
            form = EntryForm(sections=sections, initial={"started": _stamp()})
            blocked = _("Too many entries or attempts from your address in the last hour: nothing was sent. Try "
                        "again later, or ask the organiser.")
            return render(request, "pairing/entry_form.html", {"e": event, "form": form, "blocked": blocked},
                          status=429)
        age = _form_age(request.POST.get("started", ""))
        if form.is_valid() and age is None:
            form.add_error(None, _("This form is too old (or was not opened here): check it and send it again."))
        elif form.is_valid() and age < settings.ENTRY_FORM_MIN_SECONDS:
            form.add_error(None, _("The form was sent a moment after it was opened, faster than a person fills it "
                                   "in: check it and send it again."))
        if form.is_valid():
            data = form.cleaned_data
            section = next(t for t in sections if t.slug == data["section"])
            try:
                entry = service.submit(event, section, data["name"], data["fide_id"], data["email"], address,
                                       site=request.build_absolute_uri("/"))
            except service.EntryRefused as exc:
                form.add_error(exc.field, str(exc))
            else:
                messages.success(request, _("Your entry is sent. Keep this page's address: it always shows the "
                                            "state of your entry."))
                return redirect("pairing:entry_status", slug=event.slug, token=entry.token)
        status = 400
        form.data = form.data.copy()
        form.data["started"] = _stamp()
    return render(request, "pairing/entry_form.html", {"e": event, "form": form}, status=status)


@require_GET
def entry_status(request: HttpRequest, slug: str, token: str) -> HttpResponse:
    """The entrant's private page: the state of the entry (the link is the key)."""
    entry = get_object_or_404(Entry.objects.select_related("event", "section", "player"), event__slug=slug, token=token)
    waiting_place = None
    if entry.state == EntryState.WAITING:
        waiting_place = entry.section.entries.filter(state=EntryState.WAITING, created__lte=entry.created).count()
    response = render(request, "pairing/entry_status.html", {"e": entry.event, "entry": entry,
                                                             "waiting_place": waiting_place})
    response["Cache-Control"] = "private, no-store"
    response["Referrer-Policy"] = "no-referrer"
    response["X-Robots-Tag"] = "noindex"
    return response


@login_required
@require_http_methods(["GET", "POST"])
def event_entries(request: HttpRequest, slug: str) -> HttpResponse:
    """The event's entries by section; tick some, then approve, refuse or move them."""
    event = get_event_for_arbiter(request, slug)
    entries = list(Entry.objects.filter(event=event).select_related("section", "player").order_by("section__name",
                                                                                                  "created", "pk"))
    if request.method == "POST":
        form = EntryActionForm(request.POST, entries=entries)
        if not form.is_valid():
            for errors in form.errors.values():
                for e in errors:
                    messages.error(request, e)
            return redirect("pairing:event_entries", slug=event.slug)
        chosen = [e for e in entries if e.pk in set(form.cleaned_data["entry"])]
        if any(not e.section.is_arbiter(request.user) for e in chosen):
            messages.error(request, _("Only an arbiter of its section can answer an entry."))
            return redirect("pairing:event_entries", slug=event.slug)
        action = form.cleaned_data["action"]
        site = request.build_absolute_uri("/")
        try:
            if action == "approve":
                ratings = {}
                for e in chosen:
                    raw = request.POST.get(f"rating-{e.pk}", "").strip()
                    if raw.isascii() and raw.isdigit():
                        ratings[e.pk] = int(raw)
                done = service.approve(chosen, request.user, ratings, site=site)
            elif action == "refuse":
                done = service.refuse(chosen, request.user, form.cleaned_data["note"], site=site)
            else:
                target = Tournament.objects.filter(event=event, slug=form.cleaned_data["section"]).first()
                if target is None or not target.is_arbiter(request.user):
                    raise service.EntryRefused(_("Choose the section to move the entries to."))
                done = service.move(chosen, target, request.user)
        except service.EntryRefused as exc:
            messages.error(request, str(exc))
        else:
            messages.success(request, " ".join(done) or _("No changes."))
        return redirect("pairing:event_entries", slug=event.slug)
    groups: dict[Tournament, list[Entry]] = {}
    for e in entries:
        groups.setdefault(e.section, []).append(e)
    sections = list(event.sections.order_by("name"))
    return render(request, "pairing/event_entries.html", {
        "e": event, "groups": [(t, groups.get(t, []), service.places_taken(t)) for t in sections],
        "targets": service.open_sections(event), "public_form": event.entries_accepted(),
    })
