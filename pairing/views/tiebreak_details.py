"""The page where the chief arbiter orders players tied on everything, types tie-break
values computed elsewhere (EXT) and, for events over 30 days, ratings per round."""

from __future__ import annotations

from django.contrib import messages
from django.contrib.auth.decorators import login_required
from django.core.exceptions import PermissionDenied
from django.http import HttpRequest, HttpResponse
from django.shortcuts import redirect, render
from django.utils.translation import gettext as _
from django.views.decorators.http import require_http_methods

from ..access import get_tournament_for_arbiter
from ..reports.standings import round_rating_grid, tied_groups
from ..services import tiebreak_details as details
from ..tiebreaks import parse_order


def _has_ext(t) -> bool:
    try:
        return any(tb.base == "EXT" for tb in parse_order(t.tiebreaks))
    except ValueError:
        return False


def _pk(text: str) -> int | None:
    return int(text) if text.isdigit() else None


@login_required
@require_http_methods(["GET", "POST"])
def tie_details(request: HttpRequest, slug: str) -> HttpResponse:
    t = get_tournament_for_arbiter(request, slug)
    is_owner = t.owner_id == request.user.pk
    groups = tied_groups(t)
    problem = ""
    if request.method == "POST":
        section = request.POST.get("section", "")
        # the order of tied players and external values are the chief arbiter's decisions
        if section in ("order", "external") and not is_owner:
            raise PermissionDenied("Only the chief arbiter can do this.")
        try:
            if section == "order":
                ranks = {pk: v for k, v in request.POST.items()
                         if k.startswith("rank-") and (pk := _pk(k[5:])) is not None}
                n = details.set_hand_ranks(t, ranks, [[r.player.pk for r in g] for g in groups], request.user)
                messages.success(request, _("Order among tied players saved (%(n)s changed).") % {"n": n})
            elif section == "external":
                values = {pk: v for k, v in request.POST.items()
                          if k.startswith("ext-") and (pk := _pk(k[4:])) is not None}
                n = details.set_external_values(t, values, request.user)
                messages.success(request, _("External tie-break values saved (%(n)s changed).") % {"n": n})
            elif section == "ratings":
                grid = {}
                for k, v in request.POST.items():
                    parts = k.split("-")
                    if len(parts) == 3 and parts[0] == "rr" and parts[1].isdigit() and parts[2].isdigit():
                        grid[(int(parts[1]), int(parts[2]))] = v
                n = details.set_round_ratings(t, grid, request.user)
                messages.success(request, _("Ratings per round saved (%(n)s changed).") % {"n": n})
            else:
                raise details.DetailsRefused(_("Nothing to save: use one of the page's buttons."))
        except details.DetailsRefused as exc:
            problem = str(exc)
        else:
            return redirect("pairing:tie_details", slug=t.slug)
    rounds, grid = round_rating_grid(t) if t.long_event else ([], [])
    return render(request, "pairing/tie_details.html", {
        "t": t, "is_owner": is_owner, "groups": groups, "problem": problem, "posted": request.POST,
        "has_ext": _has_ext(t), "players": list(t.player_set.order_by("tpn", "name")) if _has_ext(t) else [],
        "rr_rounds": rounds, "rr_grid": grid,
    }, status=400 if problem else 200)
