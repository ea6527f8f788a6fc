"""Rating lists: the lists page (administrators load and delete lists), the look-up
while registering, and a tournament's rating consistency check."""

from __future__ import annotations

import datetime

from django.contrib import messages
from django.contrib.auth.decorators import login_required
from django.core.exceptions import PermissionDenied
from django.http import Http404, HttpRequest, HttpResponse
from django.shortcuts import redirect, render
from django.utils.translation import gettext as _
from django.utils.translation import ngettext
from django.views.decorators.http import require_http_methods, require_POST

from ..access import get_tournament_for_arbiter
from ..forms import RatingListUploadForm
from ..models import RatingEntry, RatingList, Tournament
from ..rating_files import RatingFileError
from ..services import player_ratings
from ..services.rating_lists import delete_list, load_list, search

SHOWN_DIFFERENCES = 500


@login_required
@require_http_methods(["GET", "POST"])
def rating_lists(request: HttpRequest) -> HttpResponse:
    """Every loaded list; administrators (staff accounts) load a file here."""
    form = RatingListUploadForm(request.POST or None, request.FILES or None)
    status = 200
    if request.method == "POST":
        if not request.user.is_staff:
            raise PermissionDenied("Only an administrator loads rating lists.")
        if form.is_valid():
            upload = form.cleaned_data["file"]
            try:
                rl = load_list(upload.file, upload.name, kind=form.cleaned_data["kind"], name=form.cleaned_data["name"],
                               month=form.cleaned_data["month"], source=upload.name)
            except RatingFileError as exc:
                form.add_error("file", [f"{upload.name}: {p}" for p in _problems(exc)])
                status = 400
            else:
                messages.success(request, ngettext("Loaded %(list)s: %(n)s player.", "Loaded %(list)s: %(n)s players.", rl.players) % {"list": rl.label, "n": f"{rl.players:,}"})
                return redirect("pairing:rating_lists")
        else:
            status = 400
    return render(request, "pairing/rating_lists.html", {
        "form": form, "lists": RatingList.objects.active(), "behind": player_ratings.list_is_behind(),
        "can_load": request.user.is_staff,
    }, status=status)


def _problems(exc: RatingFileError) -> list[str]:
    out = []
    for line, col, msg in exc.problems:
        where = f"line {line}" + (f", column {col}" if col else "") + ": " if line else ""
        out.append(where + msg)
    return out


@login_required
@require_POST
def rating_list_delete(request: HttpRequest, pk: int) -> HttpResponse:
    if not request.user.is_staff:
        raise PermissionDenied("Only an administrator deletes rating lists.")
    rl = RatingList.objects.filter(pk=pk, active=True).first()
    if rl is None:
        raise Http404("No such list.")
    delete_list(rl)
    messages.success(request, _("Deleted %(list)s.") % {"list": rl.label})
    return redirect("pairing:rating_lists")


@login_required
def player_lookup(request: HttpRequest, slug: str) -> HttpResponse:
    """Suggestions for the register form (HTMX swaps them in as the arbiter types;
    without JavaScript the search form opens this page)."""
    t = get_tournament_for_arbiter(request, slug)
    query = request.GET.get("q", "")[:80]
    lists = player_ratings.searched_lists(t)
    found = search(query, lists) if query.strip() else []
    ctx = {"t": t, "q": query, "found": found, "lists": lists}
    if request.htmx:
        return render(request, "pairing/player_lookup.html#suggestions", ctx)
    return render(request, "pairing/player_lookup.html", ctx)


def picked_entry(t: Tournament, pk: str) -> RatingEntry | None:
    """A row of one of the tournament's lists, by id from the query string."""
    if not pk.isdigit():
        return None
    lists = [rl.pk for rl in player_ratings.searched_lists(t)]
    return RatingEntry.objects.select_related("rating_list").filter(pk=int(pk), rating_list_id__in=lists).first()


@login_required
@require_http_methods(["GET", "POST"])
def rating_check(request: HttpRequest, slug: str) -> HttpResponse:
    """The consistency check (VCL4THP Q133-144): every difference between the registered
    players and the lists valid on the reference day, old -> new; the arbiter applies the
    ticked ones, or all."""
    t = get_tournament_for_arbiter(request, slug)
    day = player_ratings.reference_day(t)
    if request.method == "POST":
        if request.POST.get("all"):
            chosen = {d.key for d in player_ratings.differences(t, day)}
        else:
            chosen = set(request.POST.getlist("apply"))
        try:
            count = player_ratings.apply_differences(t, chosen, request.user, day)
        except ValueError as exc:
            messages.error(request, str(exc))
            return redirect("pairing:rating_check", slug=t.slug)
        if count:
            messages.success(request, ngettext("%(n)s value updated from the rating lists.", "%(n)s values updated from the rating lists.", count) % {"n": count})
        else:
            messages.info(request, _("Nothing was ticked; nothing changed."))
        return redirect("pairing:rating_check", slug=t.slug)
    diffs = player_ratings.differences(t, day)
    player_ratings.mark_checked(t)
    return render(request, "pairing/rating_check.html", {
        "t": t, "day": day, "diffs": diffs[:SHOWN_DIFFERENCES], "more": max(0, len(diffs) - SHOWN_DIFFERENCES),
        "sources": player_ratings.sources(t, day), "behind": player_ratings.list_is_behind(),
        "long_event": day != (t.start_date or datetime.date.today()),
    })
