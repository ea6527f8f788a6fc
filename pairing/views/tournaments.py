from __future__ import annotations

import logging

from django.contrib import messages
from django.contrib.auth.decorators import login_required
from django.db import DatabaseError, IntegrityError, connection, transaction
from django.db.models import Count
from django.http import HttpRequest, HttpResponse, JsonResponse
from django.shortcuts import redirect, render
from django.urls import reverse
from django.utils.translation import gettext as _
from django.views.decorators.cache import never_cache
from django.views.decorators.http import require_GET, require_http_methods, require_POST

from arbiter_site.accounts import device_pass_path

from .. import tasks
from ..access import (
    get_event_for_owner,
    get_invitation_for,
    get_public_tournament,
    get_tournament_for_arbiter,
    get_tournament_for_owner,
)
from ..forms import DeputyForm, TournamentForm
from ..models import Conflict, Event, Job, RoundStatus, Tournament, stale_form
from ..reports.standings import adjourned_text, long_event_advice, open_adjourned, open_boards
from ..services import deputies as team
from ..services import jobs, sections, tournament_check
from ..services.tournaments import log_created, save_settings, too_many_rounds
from ..warning_levels import NeedsConfirmation
from .confirm import ask, confirmable, given
from .events import front_page
from .notices import tells_of_a_discarded_draft
from .paging import page_of
from .public_cache import poll_url, public_page

logger = logging.getLogger(__name__)


@never_cache
@require_GET
def health(request: HttpRequest) -> HttpResponse:
    """For the container healthcheck: the process answers and the database runs a query.

    200 ``{"status": "ok", "database": "ok"}``, or 503 with ``"database": "error"`` and
    the kind of failure (the exception's class name only: no connection details leak).
    """
    try:
        with connection.cursor() as cursor:
            cursor.execute("SELECT 1")
            row = cursor.fetchone()
        if not row or row[0] != 1:
            raise DatabaseError(f"SELECT 1 returned {row!r}")
    except Exception as exc:  # any failure means "not healthy", never a 500 page
        logger.warning("health check: database failed: %s", exc)
        return JsonResponse(
            {"status": "error", "database": "error", "error": type(exc).__name__}, status=503
        )
    return JsonResponse({"status": "ok", "database": "ok"})


@require_GET
def dashboard(request: HttpRequest) -> HttpResponse:
    """An arbiter's events and tournaments; a visitor who is not signed in gets the
    public front page (issue 37)."""
    if not request.user.is_authenticated:
        return front_page(request)
    tournaments = Tournament.objects.for_arbiter(request.user).select_related("owner", "event")
    invitations = team.invitations_for(request.user)
    events = Event.objects.for_arbiter(request.user).annotate(n=Count("sections")).filter(n__gt=1).order_by("-start_date", "name")
    return render(request, "pairing/dashboard.html", {"tournaments": tournaments, "invitations": invitations,
                                                      "events": events})


@login_required
@require_http_methods(["GET", "POST"])
def tournament_create(request: HttpRequest) -> HttpResponse:
    """A new tournament: an event of its own, or with ``?event=<slug>`` a section of that
    event (its chief arbiter only), starting from the event's place and dates."""
    event_slug = request.GET.get("event", "")
    event = get_event_for_owner(request, event_slug) if event_slug else None
    instance = Tournament(owner=request.user)
    initial = {}
    if event is not None:
        instance = Tournament(owner=event.owner, event=event, place=event.place, start_date=event.start_date,
                              end_date=event.end_date)
        initial = {"place": event.place, "start_date": event.start_date, "end_date": event.end_date}
    form = TournamentForm(request.POST or None, instance=instance, initial=initial)
    if request.method == "POST" and form.is_valid():
        try:
            if event is not None:
                t = sections.add_section(event, form.save, request.user)
            else:
                with transaction.atomic():
                    t = form.save()
                    log_created(t, request.user)
        except IntegrityError:
            # another arbiter took the same address between the form's check and the save
            form.add_error("slug", _slug_taken(form))
        else:
            messages.success(request, _("%(name)s created. Now register the players.") % {"name": t.name})
            return redirect("pairing:players", slug=t.slug)
    return render(request, "pairing/tournament_form.html", {"form": form, "creating": True, "event": event})


def _slug_taken(form: TournamentForm) -> str:
    return _("The address %(slug)r is taken; choose another. Nothing was saved.") % {"slug": form.cleaned_data.get("slug")}


@require_GET
def tournament(request: HttpRequest, slug: str) -> HttpResponse:
    """Arbiters get the overview; visitors of a public tournament its public home."""
    public = get_public_tournament(slug)
    if public is not None and not public.is_arbiter(request.user):
        return public_page(request, public, lambda: _public_home(request, public), params=("page",))
    return _overview(request, slug)


def _public_home(request: HttpRequest, t: Tournament) -> HttpResponse:
    rounds = list(t.published_rounds())
    polling = bool(rounds) and rounds[-1].status != RoundStatus.COMPLETE
    players = page_of(request, t.player_set.order_by("name", "tpn").only("name", "tpn", "rating", "tournament_id"))
    response = render(
        request,
        "pairing/public_home.html",
        {"t": t, "rounds": rounds, "page": players, "players": players.items,
         "schedule": t.schedule.filter(number__lte=t.rounds), "polling": polling, "poll_url": poll_url(request, t),
         "is_arbiter": False},
    )
    response.polling = polling  # for the shared copy (public_cache)
    if request.htmx and not polling:
        response.status_code = 286  # htmx stops polling: no round in play
    return response


@login_required
def _overview(request: HttpRequest, slug: str) -> HttpResponse:
    t = get_tournament_for_arbiter(request, slug)
    rounds = list(t.round_set.order_by("number"))
    running = list(Job.objects.open().filter(tournament=t).select_related("user"))
    return render(
        request,
        "pairing/tournament.html",
        {
            "t": t,
            "rounds": rounds,
            "player_count": t.player_set.count(),
            "blocker": t.pairing_blocker(),
            "open_boards": open_boards(t),
            "draft": t.draft_round(),
            "next_number": t.next_round_number(),
            "audit": t.auditentry_set.select_related("user")[:12],
            "too_many_rounds": too_many_rounds(t),
            "adjourned": adjourned_text(open_adjourned(t)),
            "running_jobs": running,
            "worker_alive": jobs.worker_alive() if running else True,
            "cannot_check": tournament_check.can_check(t),
        },
    )


@login_required
@require_http_methods(["GET", "POST"])
@tells_of_a_discarded_draft
@confirmable
def tournament_settings(request: HttpRequest, slug: str) -> HttpResponse:
    t = get_tournament_for_arbiter(request, slug)
    before = t.audit_values()
    # the version the form was made from: a save over another arbiter's change is refused
    seen = request.POST.get("seen", "") if request.method == "POST" else t.version()
    form = TournamentForm(request.POST if request.method == "POST" else None, instance=t)
    status = 200
    if request.method == "POST" and not seen:
        form.is_valid()
        form.add_error(None, stale_form("settings"))
        status = 400
    elif request.method == "POST" and form.is_valid():
        try:
            t = save_settings(t, form.save, request.user, before, seen, form.fixed_changes(), given(request))
        except NeedsConfirmation as exc:
            return ask(request, exc, t=Tournament.objects.get(pk=t.pk), back=reverse("pairing:settings", args=[slug]))
        except ValueError as exc:
            form.add_error(None, str(exc))
            status = 400
        except Conflict as exc:
            form.add_error(None, str(exc))
            seen, status = Tournament.objects.get(pk=t.pk).version(), 409
        except IntegrityError:
            # the new address was taken by another tournament after the form's check
            form.add_error("slug", _slug_taken(form))
            t = Tournament.objects.get(pk=t.pk)
        else:
            # the tie-breaks, the point system or the rule for unrated players move the
            # standings: the worker computes the figures again before a visitor asks
            tasks.figures_moved(t)
            messages.success(request, _("Settings saved."))
            advice = long_event_advice(t)
            if advice:  # VCL4THP Q211: a Level-2 notice
                messages.warning(request, advice)
            return redirect("pairing:tournament", slug=t.slug)
    return render(
        request,
        "pairing/tournament_form.html",
        {"form": form, "t": t, "seen": seen, "deputy_form": DeputyForm(), "is_owner": t.owner_id == request.user.pk,
         "long_event_advice": long_event_advice(t)},
        status=status,
    )


@login_required
@require_POST
def deputies(request: HttpRequest, slug: str) -> HttpResponse:
    """The arbiter team, chief arbiter only: invite a username (the default), or with
    ``remove`` take a deputy away, or with ``withdraw`` take an invitation back."""
    t = get_tournament_for_owner(request, slug)
    form = DeputyForm(request.POST)
    if form.is_valid():
        username = form.cleaned_data["username"]
        try:
            if "device_pass" in request.POST:
                deputy = t.deputies.filter(username=username).first()
                if deputy is None:
                    raise team.Refused(_("%(name)s is not a deputy of this tournament.") % {"name": username})
                text = _("A one-time device pass for %(name)s, valid for an hour: %(url)s — give it to them by a way "
                         "only they read; opened on their new device, it lets that device log in past a lock-out.") % {
                    "name": username, "url": request.build_absolute_uri(device_pass_path(deputy))}
            elif "remove" in request.POST:
                text = team.remove(t, request.user, username)
            elif "withdraw" in request.POST:
                text = team.withdraw_invitation(t, request.user, username)
            else:
                text = team.invite(t, request.user, username)
        except team.Refused as exc:
            messages.error(request, str(exc))
        else:
            messages.success(request, text)
    else:
        messages.error(request, " ".join(e for errs in form.errors.values() for e in errs))
    return redirect("pairing:settings", slug=t.slug)


@login_required
@require_POST
def invitation_answer(request: HttpRequest, pk: int) -> HttpResponse:
    """The invited account accepts (``accept``) or declines an invitation to a team.
    Someone else's invitation is a 404, like one that does not exist."""
    invitation = get_invitation_for(request, pk)
    try:
        text = team.answer(invitation, request.user, accept="accept" in request.POST)
    except team.Refused as exc:
        messages.error(request, str(exc))
    else:
        messages.success(request, text)
    return redirect("pairing:dashboard")
