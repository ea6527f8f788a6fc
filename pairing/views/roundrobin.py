"""A round robin's Berger numbers, before round 1: by rating, by lot, or by hand."""

from __future__ import annotations

from django.contrib import messages
from django.contrib.auth.decorators import login_required
from django.http import Http404, HttpRequest, HttpResponse
from django.shortcuts import redirect, render
from django.utils.translation import gettext as _
from django.views.decorators.http import require_http_methods

from ..access import get_tournament_for_arbiter
from ..services import roundrobin


@login_required
@require_http_methods(["GET", "POST"])
def berger(request: HttpRequest, slug: str) -> HttpResponse:
    t = get_tournament_for_arbiter(request, slug)
    if not t.round_robin:
        raise Http404("This tournament is not a round robin.")
    players = list(t.player_set.order_by("tpn"))
    problem = ""
    if request.method == "POST":
        action = request.POST.get("action", "")
        try:
            if action == "rating":
                roundrobin.by_rating(t, request.user)
                messages.success(request, _("Berger numbers by rating."))
            elif action == "lot":
                roundrobin.by_lot(t, request.user)
                messages.success(request, _("Berger numbers drawn by lot."))
            elif action == "hand":
                numbers = {}
                for p in players:
                    raw = request.POST.get(f"number-{p.pk}", "").strip()
                    if not raw.isdigit():
                        raise roundrobin.NumbersRefused(_("%(name)s: type a number (1 to %(n)s).") % {"name": p.name, "n": len(players)})
                    numbers[p.pk] = int(raw)
                roundrobin.by_hand(t, numbers, request.user)
                messages.success(request, _("Berger numbers given by hand."))
            else:
                raise roundrobin.NumbersRefused(_("Choose how to number the players."))
        except roundrobin.NumbersRefused as exc:
            problem = str(exc)
        else:
            return redirect("pairing:berger", slug=t.slug)
    locked = t.round_set.exists()
    return render(request, "pairing/berger.html", {
        "t": t, "players": players, "problem": problem, "locked": locked, "posted": request.POST,
        "rounds": roundrobin.rounds_for(len(players), t.rr_cycles),
    }, status=400 if problem else 200)
