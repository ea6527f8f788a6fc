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
from ..reports.aro import aro_groups, aro_lines, aro_rounds, aro_spread
from ..reports.crosstable import crosstable_lines
from ..reports.crosstable import square as square_crosstable
from ..reports.player_card import player_card as card_of
from ..reports.standings import (
    adjourned_text,
    complete_rounds,
    long_event_advice,
    open_adjourned,
    ranked,
)
from ..reports.tiebreak_legend import describe
from ..services.interchange import export_trf, export_trf16
from ..tiebreaks import parse_order
from .paging import page_holding, page_of
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
    response.polling = ctx["polling"]  # for the shared copy (public_cache)
    if request.htmx and not ctx["polling"]:
        response.status_code = 286
    return response


@require_GET
def standings(request: HttpRequest, slug: str) -> HttpResponse:
    """Points, then the tournament's tie-breaks (FIDE C.07), after the last complete
    round or after ``?round=N`` (any complete round)."""
    t = get_tournament_for_viewer(request, slug)
    return public_page(request, t, lambda: _standings(request, t), params=("round", "page", "find"))


def _standings(request: HttpRequest, t) -> HttpResponse:
    done = complete_rounds(t)
    asked = _round_asked(request, list(range(1, done + 1)))
    table = ranked(t, asked)  # computed once for every page, the CSV and the cards
    found = _found(request, t, table.rows)
    if found is not None:
        return found
    page = page_of(request, table.rows)
    players = Player.objects.in_bulk([r.player_id for r in page.items])
    rows = table.standing_rows(page.items, players)
    try:
        legend = [(tb.label, describe(tb)) for tb in parse_order(t.tiebreaks)]
    except ValueError:
        legend = []
    changes = rating_change.shown_changes(t, table.rounds, players) if table.rated else {}
    return _render_live(
        request,
        "pairing/standings.html",
        {"t": t, "labels": table.labels, "rows": rows, "rounds": table.rounds, "legend": legend, "page": page,
         "changes": [changes.get(r.player.pk) for r in rows], "average_rating": table.average_rating,
         "rated": table.rated,
         "round_choices": range(1, done + 1), "asked": asked, "polling": _polling(t, asked),
         "poll_url": poll_url(request, t),
         "is_arbiter": t.is_arbiter(request.user), "adjourned": adjourned_text(open_adjourned(t, table.rounds)),
         "dropped": table.dropped, "rules": t.effective_tiebreak_rules(),
         "long_event_advice": long_event_advice(t)},
    )


def _found(request: HttpRequest, t, lines) -> HttpResponse | None:
    """``?find=<name or No>``: to the page of the first line (of ``lines``, which have a
    ``player_id``) whose player has that pairing number or a name containing the text;
    back to the first page with a message when none has.  None without ``find``."""
    if "find" not in request.GET:
        return None
    text = request.GET.get("find", "").strip()[:60]
    query = request.GET.copy()
    query.pop("find")
    query.pop("page", None)
    wanted = t.player_set.filter(tpn=int(text)) if text.isascii() and text.isdigit() else \
        t.player_set.filter(name__icontains=text)
    ids = set(wanted.values_list("pk", flat=True)[:1000]) if text else set()
    index = next((i for i, line in enumerate(lines) if line.player_id in ids), None)
    if index is None:
        messages.info(request, _("No player found for “%(text)s”.") % {"text": text})
        return redirect(f"{request.path}?{query.urlencode()}")
    query["page"] = str(page_holding(index))
    tpn = Player.objects.filter(pk=lines[index].player_id).values_list("tpn", flat=True).first()
    return redirect(f"{request.path}?{query.urlencode()}#p-{tpn}")


@require_GET
def crosstable(request: HttpRequest, slug: str) -> HttpResponse:
    """The crosstable after the last complete round, or after ``?round=N``."""
    t = get_tournament_for_viewer(request, slug)
    return public_page(request, t, lambda: _crosstable(request, t), params=("round", "page", "find"))


def _crosstable(request: HttpRequest, t) -> HttpResponse:
    done = complete_rounds(t)
    asked = _round_asked(request, list(range(1, done + 1)))
    table = ranked(t, asked)
    listed = (*table.rows, *table.expelled)  # expelled players at the foot, without a rank
    found = _found(request, t, listed)
    if found is not None:
        return found
    page = page_of(request, listed)
    rows = crosstable_lines(t, table, page.items)
    square_rows = square_crosstable(t, asked)[1] if t.round_robin else None
    return _render_live(
        request,
        "pairing/crosstable.html",
        {"t": t, "labels": table.labels, "rows": rows, "rounds": table.rounds, "page": page,
         "round_numbers": range(1, table.rounds + 1),
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


def _publishing_aro(request: HttpRequest, slug: str):
    """The tournament, for a page that only a tournament publishing an ARO list has."""
    t = get_tournament_for_viewer(request, slug)
    if not t.publishes_aro_list:  # the Dutch system and round robins pair without AROs
        raise Http404(_("This tournament has no ARO list: the %(system)s does not use one.") % {"system": t.system_label})
    return t


@require_GET
def aro_list(request: HttpRequest, slug: str) -> HttpResponse:
    """Dubov 9: the ARO list, per scoregroup, before the next round (or ``?round=N``:
    the list published before round N)."""
    t = _publishing_aro(request, slug)
    return public_page(request, t, lambda: _aro_list(request, t), params=("round", "page"))


def _aro_list(request: HttpRequest, t) -> HttpResponse:
    choices = aro_rounds(t)
    asked = _round_asked(request, choices)
    number, lines = aro_lines(t, asked)
    page = page_of(request, lines)
    return _render_live(
        request,
        "pairing/aro.html",
        {"t": t, "number": number, "groups": aro_groups(t, page.items), "page": page, "round_choices": choices,
         "polling": _polling(t, asked), "poll_url": poll_url(request, t), "is_arbiter": t.is_arbiter(request.user)},
    )


@require_GET
def aro_spread_page(request: HttpRequest, slug: str) -> HttpResponse:
    """How the AROs draw together: the range of AROs per scoregroup after each complete
    round, as a chart and a table (a page of its own: at 10,000 players x 40 rounds it is
    most of what the ARO list's pages would weigh)."""
    t = _publishing_aro(request, slug)
    return public_page(request, t, lambda: _aro_spread_page(request, t))


def _aro_spread_page(request: HttpRequest, t) -> HttpResponse:
    spread = aro_spread(t)
    return _render_live(
        request,
        "pairing/aro_spread.html",
        {"t": t, "spread": spread, "chart": aro_chart.chart(spread), "polling": _polling(t, None),
         "poll_url": poll_url(request, t), "is_arbiter": t.is_arbiter(request.user)},
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
