from __future__ import annotations

import csv

from django.contrib import messages
from django.contrib.auth.decorators import login_required
from django.http import Http404, HttpRequest, HttpResponse
from django.shortcuts import get_object_or_404, redirect, render
from django.utils.translation import gettext as _
from django.views.decorators.http import require_GET

from ..access import get_tournament_for_arbiter, get_tournament_for_viewer
from ..models import Player, RoundStatus
from ..reports import aro_chart, rating_change, spreadsheet
from ..reports.aro import aro_list as aro_groups
from ..reports.aro import aro_rounds, aro_spread
from ..reports.crosstable import crosstable as crosstable_rows
from ..reports.crosstable import square as square_crosstable
from ..reports.player_card import player_card as card_of
from ..reports.standings import (
    adjourned_text,
    complete_rounds,
    long_event_advice,
    open_adjourned,
    standings_table,
)
from ..reports.tiebreak_legend import describe
from ..services.interchange import export_trf, export_trf16
from ..tiebreaks import parse_order
from .public_cache import poll_url, public_page


def _round_asked(request: HttpRequest, allowed: list[int]) -> int | None:
    """``?round=N`` when N is one of ``allowed``; None without it; 404 otherwise."""
    raw = request.GET.get("round")
    if raw is None or raw == "":
        return None
    try:
        number = int(raw)
    except ValueError:
        raise Http404("No such round.") from None
    if number not in allowed:
        raise Http404("No such round.")
    return number


def _polling(t, asked: int | None) -> bool:
    """Refresh the page while a round is in play, on the default view only (a page
    about an earlier round does not change)."""
    if asked is not None:
        return False
    last = t.published_rounds().last()
    return last is not None and last.status != RoundStatus.COMPLETE


def _render_live(request: HttpRequest, template: str, ctx: dict) -> HttpResponse:
    """A page that may poll itself: once nothing is in play, an htmx poll is answered
    with 286, which tells htmx to stop polling (the content is still swapped in)."""
    response = render(request, template, ctx)
    if request.htmx and not ctx["polling"]:
        response.status_code = 286
    return response


@require_GET
def standings(request: HttpRequest, slug: str) -> HttpResponse:
    """Points, then the tournament's tie-breaks (FIDE C.07), after the last complete
    round or after ``?round=N`` (any complete round)."""
    t = get_tournament_for_viewer(request, slug)
    return public_page(request, t, lambda: _standings(request, t), params=("round",))


def _standings(request: HttpRequest, t) -> HttpResponse:
    done = complete_rounds(t)
    asked = _round_asked(request, list(range(1, done + 1)))
    table = standings_table(t, asked)  # once: the rows and the rating changes come from it
    labels, rows, rounds = table.labels, table.rows, table.rounds
    try:
        legend = [(tb.label, describe(tb)) for tb in parse_order(t.tiebreaks)]
    except ValueError:
        legend = []
    changes = rating_change.changes(table.players, table.hist)
    average = rating_change.average_rating(table.players)
    rated = any(c.games for c in changes.values())
    return _render_live(
        request,
        "pairing/standings.html",
        {"t": t, "labels": labels, "rows": rows, "rounds": rounds, "legend": legend,
         "changes": [changes.get(r.player.pk) for r in rows], "average_rating": average, "rated": rated,
         "round_choices": range(1, done + 1), "asked": asked, "polling": _polling(t, asked),
         "poll_url": poll_url(request, t),
         "is_arbiter": t.is_arbiter(request.user), "adjourned": adjourned_text(open_adjourned(t, rounds)),
         "dropped": table.dropped, "rules": t.effective_tiebreak_rules(),
         "long_event_advice": long_event_advice(t)},
    )


@require_GET
def crosstable(request: HttpRequest, slug: str) -> HttpResponse:
    """The crosstable after the last complete round, or after ``?round=N``."""
    t = get_tournament_for_viewer(request, slug)
    return public_page(request, t, lambda: _crosstable(request, t), params=("round",))


def _crosstable(request: HttpRequest, t) -> HttpResponse:
    done = complete_rounds(t)
    asked = _round_asked(request, list(range(1, done + 1)))
    labels, rows, rounds = crosstable_rows(t, asked)
    square_rows = square_crosstable(t, asked)[1] if t.round_robin else None
    return _render_live(
        request,
        "pairing/crosstable.html",
        {"t": t, "labels": labels, "rows": rows, "rounds": rounds, "round_numbers": range(1, rounds + 1),
         "round_choices": range(1, done + 1), "asked": asked, "polling": _polling(t, asked),
         "poll_url": poll_url(request, t), "is_arbiter": t.is_arbiter(request.user), "square": square_rows},
    )


@require_GET
def standings_csv(request: HttpRequest, slug: str) -> HttpResponse:
    """Standings as CSV (UTF-8), for spreadsheets and other programs; ``?round=N`` too."""
    t = get_tournament_for_viewer(request, slug)
    return public_page(request, t, lambda: _standings_csv(request, t), params=("round",))


def _standings_csv(request: HttpRequest, t) -> HttpResponse:
    asked = _round_asked(request, list(range(1, complete_rounds(t) + 1)))
    filename, rows = spreadsheet.standings_csv(t, asked)
    response = HttpResponse(content_type="text/csv; charset=utf-8")
    response["Content-Disposition"] = f'attachment; filename="{filename}"'
    csv.writer(response).writerows(rows)
    return response


@require_GET
def aro_list(request: HttpRequest, slug: str) -> HttpResponse:
    """Dubov 9: the ARO list, per scoregroup, before the next round (or ``?round=N``:
    the list published before round N)."""
    t = get_tournament_for_viewer(request, slug)
    return public_page(request, t, lambda: _aro_list(request, t), params=("round",))


def _aro_list(request: HttpRequest, t) -> HttpResponse:
    choices = aro_rounds(t)
    asked = _round_asked(request, choices)
    number, groups = aro_groups(t, asked)
    spread = aro_spread(t)
    return _render_live(
        request,
        "pairing/aro.html",
        {"t": t, "number": number, "groups": groups, "round_choices": choices, "polling": _polling(t, asked),
         "poll_url": poll_url(request, t),
         "spread": spread, "chart": aro_chart.chart(spread), "is_arbiter": t.is_arbiter(request.user)},
    )


@require_GET
def player_card(request: HttpRequest, slug: str, tpn: int) -> HttpResponse:
    """One player's rounds, points, ARO, performance and colours."""
    t = get_tournament_for_viewer(request, slug)

    def page() -> HttpResponse:
        player = get_object_or_404(Player, tournament=t, tpn=tpn)
        return _render_live(
            request,
            "pairing/player_card.html",
            {"t": t, "card": card_of(t, player), "polling": _polling(t, None), "poll_url": poll_url(request, t),
             "is_arbiter": t.is_arbiter(request.user)},
        )

    return public_page(request, t, page)


@login_required
@require_GET
def trf_export(request: HttpRequest, slug: str) -> HttpResponse:
    """Arbiters only: the file carries birth dates and FIDE ids for the rating report.
    ``?copy=1``: the arbiters' copy, with the ``###`` lines of the pairing-integrity events;
    ``?format=trf16``: TRF-16 for other programs (the TRF-2026 records left out)."""
    t = get_tournament_for_arbiter(request, slug)
    if t.import_pending is not None:  # an imported file not yet checked (or answered) writes no report
        messages.error(request, _("The imported file is still being checked in the background or waits for your "
                                  "answer: no file is written until then."))
        return redirect("pairing:job", pk=t.import_pending.pk)
    copy = request.GET.get("copy") == "1"
    trf16 = request.GET.get("format") == "trf16" and not copy
    pending = open_adjourned(t)
    if pending and not copy:
        messages.error(request, _("The file for rating waits for the adjourned games: %(games)s. "
                                 "The copy (with ? for those games) can be exported now.") % {"games": adjourned_text(pending)})
        return redirect("pairing:tournament", slug=t.slug)
    text = export_trf16(t) if trf16 else export_trf(t, integrity=copy)
    response = HttpResponse(text, content_type="text/plain; charset=utf-8")
    name = f"{t.slug}-copy.trf" if copy else f"{t.slug}-trf16.trf" if trf16 else f"{t.slug}.trf"
    response["Content-Disposition"] = f'attachment; filename="{name}"'
    return response
