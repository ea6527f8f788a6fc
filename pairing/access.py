"""Access rules, one helper per rule.  Views call these first; each raises Http404 or
PermissionDenied instead of returning a flag, so a forgotten check cannot fall through.
"""

from __future__ import annotations

from django.core.exceptions import PermissionDenied
from django.http import Http404, HttpRequest
from django.shortcuts import get_object_or_404
from django.utils.translation import gettext

from .models import DeputyInvitation, Event, Game, Job, Player, Round, Tournament


def get_tournament_for_arbiter(request: HttpRequest, slug: str) -> Tournament:
    """The tournament, if the user is its chief arbiter or a deputy.

    404 for an unknown slug, and for a private tournament of someone else (its existence
    is not disclosed: the same answer as an unknown one); 403 for a public tournament of
    someone else.  (Anonymous users never get here: arbiter views are ``@login_required``.)
    """
    tournament = get_object_or_404(Tournament.objects.select_related("owner"), slug=slug)
    if not tournament.is_arbiter(request.user):
        _refuse(tournament, gettext("You are not an arbiter of this tournament."))
    return tournament


def get_tournament_for_owner(request: HttpRequest, slug: str) -> Tournament:
    """Only the chief arbiter (the owner) may change the arbiter team or delete.  A
    deputy is told so (403); a stranger is answered as for the arbiter pages."""
    tournament = get_object_or_404(Tournament, slug=slug)
    if not request.user.is_authenticated or tournament.owner_id != request.user.pk:
        if not tournament.is_arbiter(request.user):
            _refuse(tournament, gettext("Only the chief arbiter can do this."))
        raise PermissionDenied("Only the chief arbiter can do this.")
    return tournament


def _refuse(tournament: Tournament, reason: str):
    if not tournament.public:
        raise Http404("No such tournament.")
    raise PermissionDenied(reason)


def get_tournament_for_viewer(request: HttpRequest, slug: str) -> Tournament:
    """Read-only pages: public tournaments for everyone, others for their arbiters.

    A private tournament is a 404 for strangers (its existence is not disclosed).
    """
    tournament = get_object_or_404(Tournament, slug=slug)
    if tournament.public or tournament.is_arbiter(request.user):
        return tournament
    raise Http404("No such tournament.")


def get_public_tournament(slug: str) -> Tournament | None:
    """The tournament if it is public (anyone may read it), else None."""
    return Tournament.objects.public().filter(slug=slug).first()


def get_round(tournament: Tournament, number: int) -> Round:
    return get_object_or_404(Round, tournament=tournament, number=number)


def get_player(tournament: Tournament, pk: int) -> Player:
    return get_object_or_404(Player, tournament=tournament, pk=pk)


def get_game(round_: Round, pk: int) -> Game:
    return get_object_or_404(Game.objects.select_related("white", "black", "round"), round=round_, pk=pk)


def get_invitation_for(request: HttpRequest, pk: int) -> DeputyInvitation:
    """An invitation to the signed-in account; anyone else's is a 404."""
    return get_object_or_404(
        DeputyInvitation.objects.select_related("tournament"), pk=pk, username=request.user.get_username()
    )


def get_job_for_viewer(request: HttpRequest, pk: int) -> Job:
    """A background job: for whoever asked for it, the arbiters of its tournament, and
    (a site-wide job: the rating lists) staff accounts.  A 404 for anyone else, as for a
    job that does not exist."""
    job = get_object_or_404(Job.objects.select_related("tournament", "user"), pk=pk)
    user = request.user
    if not user.is_authenticated:
        raise Http404("No such task.")
    if job.user_id == user.pk:
        return job
    if job.tournament is not None and job.tournament.is_arbiter(user):
        return job
    if job.tournament is None and user.is_staff:
        return job
    raise Http404("No such task.")


def get_event_for_arbiter(request: HttpRequest, slug: str) -> Event:
    """The event, if the user is its chief arbiter or an arbiter of one of its sections.
    Anyone else: 403 for a public event, 404 for another (its existence is not
    disclosed), as for a tournament."""
    event = get_object_or_404(Event.objects.select_related("owner"), slug=slug)
    if not event.is_arbiter(request.user):
        if Event.objects.public().filter(pk=event.pk).exists():
            raise PermissionDenied(gettext("You are not an arbiter of this event."))
        raise Http404("No such event.")
    return event


def get_event_for_owner(request: HttpRequest, slug: str) -> Event:
    """Only the event's chief arbiter changes its settings and its sections; an arbiter
    of a section is told so (403), anyone else gets a 404."""
    event = get_event_for_arbiter(request, slug)
    if event.owner_id != request.user.pk:
        raise PermissionDenied(gettext("Only the event's chief arbiter can do this."))
    return event


def get_public_event(slug: str) -> Event:
    """An event a visitor may see (a public section, or entries open); else a 404."""
    return get_object_or_404(Event.objects.public(), slug=slug)


def get_section(event: Event, slug: str) -> Tournament:
    """One of the event's sections (404 for another's)."""
    return get_object_or_404(Tournament, event=event, slug=slug)
