"""Rating lists: the lists page (staff accounts load the site's lists, every arbiter
their own national and custom lists; loads run in the background), the look-up while
registering, and a tournament's rating consistency check."""

from __future__ import annotations

import datetime
from dataclasses import dataclass

from django.conf import settings
from django.contrib import messages
from django.contrib.auth.decorators import login_required
from django.core.exceptions import PermissionDenied
from django.http import Http404, HttpRequest, HttpResponse
from django.shortcuts import redirect, render
from django.urls import reverse
from django.utils.translation import gettext as _
from django.utils.translation import ngettext
from django.views.decorators.http import require_http_methods, require_POST

from .. import tasks
from ..access import get_tournament_for_arbiter
from ..forms import RatingListUploadForm
from ..models import Job, JobKind, ListKind, RatingEntry, RatingList, RatingSource, Tournament
from ..services import jobs, player_ratings, rating_sources
from ..services.rating_lists import delete_list, search

SHOWN_DIFFERENCES = 500


@dataclass
class ListRow:
    """A line of the lists page: a name's newest list and what its source last did."""

    name: str
    kind: str
    current: RatingList | None
    source: RatingSource | None
    older: list[RatingList]


def _rows(lists: list[RatingList], sources: list[RatingSource]) -> list[ListRow]:
    by_name: dict[str, list[RatingList]] = {}
    for rl in lists:
        by_name.setdefault(rl.name, []).append(rl)
    found = {s.name: s for s in sources}
    names = sorted(set(by_name) | set(found), key=lambda n: (n != "FIDE", n.casefold()))
    rows = []
    for name in names:
        mine = sorted(by_name.get(name, []), key=lambda rl: rl.month, reverse=True)
        source = found.get(name)
        kind = mine[0].kind if mine else source.kind
        rows.append(ListRow(name, ListKind(kind).label, mine[0] if mine else None, source, mine[1:]))
    return rows


def _page(request: HttpRequest, form: RatingListUploadForm, status: int = 200) -> HttpResponse:
    staff = request.user.is_staff
    jobs_open = Job.objects.open().filter(kind__in=[JobKind.RATING_REFRESH, JobKind.RATING_FILE], tournament=None)
    if not staff:
        jobs_open = jobs_open.filter(user=request.user)
    if staff:
        rating_sources.fide_source()  # FIDE's row shows its address before its first download
    site = _rows(list(RatingList.objects.active().site()), list(RatingSource.objects.filter(owner__isnull=True)))
    own = _rows(list(RatingList.objects.active().filter(owner=request.user)),
                list(RatingSource.objects.filter(owner=request.user)))
    running = list(jobs_open.select_related("user"))
    return render(request, "pairing/rating_lists.html", {
        "form": form, "site_rows": site, "own_rows": own, "behind": player_ratings.list_is_behind(for_staff=staff),
        "can_load": staff, "running_jobs": running, "worker_alive": jobs.worker_alive() if running else True,
        "refresh_at": settings.RATING_REFRESH_AT, "upload_action": reverse(
            "pairing:rating_list_upload" if staff else "pairing:rating_lists"),
        "max_upload_mb": form.max_bytes // (1024 * 1024),
    }, status=status)


@login_required
@require_http_methods(["GET", "POST"])
def rating_lists(request: HttpRequest) -> HttpResponse:
    """The site's lists (staff accounts load them) and the arbiter's own national and
    custom lists (any arbiter loads them, for the tournaments they are an arbiter of).
    A load runs in the background: the page goes to the job's progress."""
    form = RatingListUploadForm(request.POST or None, request.FILES or None, staff=request.user.is_staff)
    if request.method == "POST":
        if form.is_valid():
            return _start_load(request, form)
        return _page(request, form, status=400)
    return _page(request, form)


@login_required
@require_POST
def rating_list_upload(request: HttpRequest) -> HttpResponse:
    """A staff account's upload: the one address that takes FIDE's whole list (the
    request limit is raised for it, arbiter_site/request_limits.py, and so is the proxy's)."""
    if not request.user.is_staff:
        raise PermissionDenied("Only an administrator loads the site's rating lists.")
    form = RatingListUploadForm(request.POST, request.FILES, staff=True)
    if form.is_valid():
        return _start_load(request, form)
    return _page(request, form, status=400)


def _start_load(request: HttpRequest, form: RatingListUploadForm) -> HttpResponse:
    data = form.cleaned_data
    staff = request.user.is_staff
    if staff and data.get("url"):
        source = rating_sources.source_for(data["name"], data["kind"])
        RatingSource.objects.filter(pk=source.pk).update(url=data["url"])
        if not data.get("file"):
            job = tasks.start(JobKind.RATING_REFRESH, user=request.user, params={"sources": [source.pk]})
            return redirect("pairing:job", pk=job.pk)
    job = rating_sources.keep_upload(
        data["file"], user=request.user, kind=data["kind"], name=data["name"], month=data["month"], own=not staff,
        start=lambda params: tasks.start(JobKind.RATING_FILE, user=request.user, params=params),
    )
    return redirect("pairing:job", pk=job.pk)


@login_required
@require_POST
def rating_list_update(request: HttpRequest) -> HttpResponse:
    """Update all lists now (staff): FIDE's list and every site list with a download
    address, checked and loaded again where their source has a newer one."""
    if not request.user.is_staff:
        raise PermissionDenied("Only an administrator updates the site's rating lists.")
    job = Job.objects.open().filter(kind=JobKind.RATING_REFRESH, tournament=None).first()
    if job is None:
        job = tasks.start(JobKind.RATING_REFRESH, user=request.user)
    return redirect("pairing:job", pk=job.pk)


@login_required
@require_POST
def rating_list_delete(request: HttpRequest, pk: int) -> HttpResponse:
    """A site list (staff), or one of the arbiter's own lists (its owner)."""
    rl = RatingList.objects.filter(pk=pk, active=True).first()
    if rl is None or (rl.owner_id is not None and rl.owner_id != request.user.pk):
        raise Http404("No such list.")
    if rl.owner_id is None and not request.user.is_staff:
        raise PermissionDenied("Only an administrator deletes the site's rating lists.")
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
        "sources": player_ratings.sources(t, day),
        "behind": player_ratings.list_is_behind(for_staff=request.user.is_staff),
        "long_event": day != (t.start_date or datetime.date.today()),
    })
