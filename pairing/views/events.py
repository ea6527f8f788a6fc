"""Events: the public front page, an event's page (the arbiters' overview or the visitors'
page), its settings, a section created inside it, and its one player list (with the move
of a player to another section)."""

from __future__ import annotations

from django.contrib import messages
from django.contrib.auth.decorators import login_required
from django.db import IntegrityError, transaction
from django.http import HttpRequest, HttpResponse
from django.shortcuts import get_object_or_404, redirect, render
from django.utils.translation import gettext as _
from django.views.decorators.http import require_GET, require_http_methods, require_POST

from ..access import get_event_for_arbiter, get_event_for_owner
from ..forms import EventForm
from ..models import Event, Player, Tournament
from ..reports import events as event_reports
from ..services import sections
from .public_cache import versioned_page


@require_GET
def front_page(request: HttpRequest) -> HttpResponse:
    """The public events (on now, coming, recent) and a search by name: no login."""
    return versioned_page(
        request, lambda variant: f"page:{event_reports.front_page_version()}:{variant}", lambda: _front(request),
        params=("q",),
    )


def _front(request: HttpRequest) -> HttpResponse:
    query = " ".join(request.GET.get("q", "").split())[:60]
    return render(request, "pairing/front_page.html", {
        "front": event_reports.front_page(), "query": query,
        "found": event_reports.search(query) if query else None,
    })


@login_required
@require_http_methods(["GET", "POST"])
def event_create(request: HttpRequest) -> HttpResponse:
    form = EventForm(request.POST or None, instance=Event(owner=request.user))
    if request.method == "POST" and form.is_valid():
        try:
            with transaction.atomic():
                event = form.save()
        except IntegrityError:
            form.add_error("slug", _("The address %(slug)r is taken; choose another. Nothing was saved.") % {
                "slug": form.cleaned_data.get("slug")})
        else:
            messages.success(request, _("%(name)s created. Now add its sections.") % {"name": event.name})
            return redirect(event.get_absolute_url())
    return render(request, "pairing/event_form.html", {"form": form, "creating": True})


@require_GET
def event(request: HttpRequest, slug: str) -> HttpResponse:
    """The arbiters get the event's overview; visitors the public page (a 404 for an
    event with nothing public)."""
    found = get_object_or_404(Event, slug=slug)
    if found.is_arbiter(request.user):
        return _overview(request, found)
    found = get_object_or_404(Event.objects.public(), pk=found.pk)
    return versioned_page(
        request, lambda variant: f"page:{event_reports.event_version(found)}:{variant}", lambda: _public(request, found),
    )


def _public(request: HttpRequest, e: Event) -> HttpResponse:
    return render(request, "pairing/event_public.html", {
        "e": e, "line": event_reports.event_line(e, public_only=True), "accepts": e.entries_accepted(),
    })


def _overview(request: HttpRequest, e: Event) -> HttpResponse:
    return render(request, "pairing/event.html", {
        "e": e, "line": event_reports.event_line(e, public_only=False), "is_owner": e.owner_id == request.user.pk,
        "public": Event.objects.public().filter(pk=e.pk).exists(),
    })


@login_required
@require_http_methods(["GET", "POST"])
def event_settings(request: HttpRequest, slug: str) -> HttpResponse:
    e = get_event_for_owner(request, slug)
    before = sections.event_values(e)
    form = EventForm(request.POST or None, instance=e)
    if request.method == "POST" and form.is_valid():
        try:
            e = sections.save_event(e, form.save, request.user, before)
        except IntegrityError:
            form.add_error("slug", _("The address %(slug)r is taken; choose another. Nothing was saved.") % {
                "slug": form.cleaned_data.get("slug")})
        else:
            messages.success(request, _("Event saved."))
            return redirect(e.get_absolute_url())
    return render(request, "pairing/event_form.html", {"form": form, "e": e}, status=400 if form.errors else 200)


@login_required
@require_GET
def event_players(request: HttpRequest, slug: str) -> HttpResponse:
    """One list of the event's players, each with the section; a player can be moved to
    another section before round 1."""
    e = get_event_for_arbiter(request, slug)
    all_sections = list(e.sections.order_by("name"))
    started = {t.pk for t in all_sections if t.rounds_published()}
    return render(request, "pairing/event_players.html", {
        "e": e, "players": event_reports.event_players(e), "sections": all_sections, "started": started,
    })


@login_required
@require_POST
def event_player_move(request: HttpRequest, slug: str, pk: int) -> HttpResponse:
    e = get_event_for_arbiter(request, slug)
    player = get_object_or_404(Player.objects.select_related("tournament"), pk=pk, tournament__event=e)
    target = Tournament.objects.filter(event=e, slug=request.POST.get("section", "")).first()
    if not player.tournament.is_arbiter(request.user) or (target is not None and not target.is_arbiter(request.user)):
        messages.error(request, _("Only an arbiter of both sections can move a player between them."))
    elif target is None:
        messages.error(request, _("Choose the section to move the player to."))
    else:
        try:
            sections.move_player(player, target, request.user)
        except sections.MoveRefused as exc:
            messages.error(request, _("%(problem)s Nothing was changed.") % {"problem": exc})
        else:
            messages.success(request, _("%(name)s moved to %(section)s.") % {"name": player.shown_name, "section": target.name})
    return redirect("pairing:event_players", slug=e.slug)
