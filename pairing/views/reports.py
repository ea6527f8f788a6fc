from __future__ import annotations

import csv

from django.contrib.auth.decorators import login_required
from django.http import HttpRequest, HttpResponse
from django.shortcuts import render
from django.views.decorators.http import require_GET

from .. import adapter
from ..access import get_tournament_for_arbiter, get_tournament_for_viewer
from ..tiebreaks import parse_order


@require_GET
def standings(request: HttpRequest, slug: str) -> HttpResponse:
    """Points, then the tournament's tie-breaks (FIDE C.07), after the last complete round."""
    t = get_tournament_for_viewer(request, slug)
    labels, rows, rounds = adapter.standings(t)
    try:
        legend = [(tb.label, tb.description) for tb in parse_order(t.tiebreaks)]
    except ValueError:
        legend = []
    return render(
        request,
        "pairing/standings.html",
        {"t": t, "labels": labels, "rows": rows, "rounds": rounds, "legend": legend,
         "is_arbiter": t.is_arbiter(request.user)},
    )


@require_GET
def crosstable(request: HttpRequest, slug: str) -> HttpResponse:
    t = get_tournament_for_viewer(request, slug)
    labels, rows, rounds = adapter.crosstable(t)
    return render(
        request,
        "pairing/crosstable.html",
        {"t": t, "labels": labels, "rows": rows, "rounds": rounds, "round_numbers": range(1, rounds + 1),
         "is_arbiter": t.is_arbiter(request.user)},
    )


@require_GET
def standings_csv(request: HttpRequest, slug: str) -> HttpResponse:
    """Standings as CSV (UTF-8), for spreadsheets and other programs."""
    t = get_tournament_for_viewer(request, slug)
    labels, rows, rounds = adapter.standings(t)
    response = HttpResponse(content_type="text/csv; charset=utf-8")
    response["Content-Disposition"] = f'attachment; filename="{t.slug}-standings-round-{rounds}.csv"'
    writer = csv.writer(response)
    writer.writerow(["Rk", "No", "Title", "Name", "Rtg", "Fed", "Pts", *labels])
    for r in rows:
        p = r.player
        writer.writerow([r.rank, p.tpn, p.title, p.name, p.rating, p.federation, r.points, *r.tiebreaks])
    return response


@require_GET
def aro_list(request: HttpRequest, slug: str) -> HttpResponse:
    """Dubov 9: the ARO list, per scoregroup, before the next round."""
    t = get_tournament_for_viewer(request, slug)
    number, groups = adapter.aro_list(t)
    return render(
        request,
        "pairing/aro.html",
        {"t": t, "number": number, "groups": groups, "is_arbiter": t.is_arbiter(request.user)},
    )


@login_required
@require_GET
def trf_export(request: HttpRequest, slug: str) -> HttpResponse:
    """Arbiters only: the file carries birth dates and FIDE ids for the rating report."""
    t = get_tournament_for_arbiter(request, slug)
    text = adapter.export_trf(t)
    response = HttpResponse(text, content_type="text/plain; charset=utf-8")
    response["Content-Disposition"] = f'attachment; filename="{t.slug}.trf"'
    return response
