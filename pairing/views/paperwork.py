"""The hall's paperwork, printed from the browser on A4 (print CSS, no PDF library):
result slips (8 a page), table numbers, the starting rank list (by pairing number or by
rating), the alphabetical list with board numbers, the check-in list (with the QR code of
self check-in), and wall charts of the pairings in large type (with the QR code of the
public round page)."""

from __future__ import annotations

from django.contrib.auth.decorators import login_required
from django.http import Http404, HttpRequest, HttpResponse
from django.shortcuts import render
from django.urls import reverse
from django.views.decorators.http import require_GET

from ..access import get_tournament_for_arbiter
from ..models import Bye, CheckIn, Player, Round

KINDS = ("slips", "tables", "ranks", "alpha", "checkin", "wall")
SLIPS_A_PAGE = 8


def _round(t, request: HttpRequest) -> Round | None:
    """``?round=N``, else the last round published, else the draft."""
    rounds = t.round_set.order_by("number")
    raw = request.GET.get("round")
    if raw:
        try:
            return rounds.get(number=int(raw))
        except (ValueError, Round.DoesNotExist):
            raise Http404("No such round.") from None
    return t.published_rounds().last() or t.draft_round()


@login_required
@require_GET
def print_sheet(request: HttpRequest, slug: str, kind: str) -> HttpResponse:
    t = get_tournament_for_arbiter(request, slug)
    if kind not in KINDS:
        raise Http404("No such sheet.")
    ctx: dict = {"t": t, "kind": kind, "e": t.event}
    if kind in ("slips", "tables", "alpha", "wall"):
        rnd = _round(t, request)
        if rnd is None:
            return render(request, "pairing/print/sheet.html", {**ctx, "no_round": True})
        games = list(rnd.games())
        # players not paired in the round (a requested bye, absent at check-in): on the
        # wall chart and the alphabetical list too, so that they find their name
        byes = list(Bye.objects.requested().filter(tournament=t, round_number=rnd.number).select_related("player")
                    .order_by("player__name"))
        ctx.update(round=rnd, games=games, pab=rnd.pab(), byes=byes)
        if kind == "slips":
            ctx["pages"] = [games[i:i + SLIPS_A_PAGE] for i in range(0, len(games), SLIPS_A_PAGE)]
        elif kind == "alpha":
            rows = [(g.white, g.board, "white", g.black) for g in games] + [(g.black, g.board, "black", g.white) for g in games]
            if ctx["pab"] is not None:
                rows.append((ctx["pab"].player, None, "U", None))
            rows += [(b.player, None, b.kind, None) for b in byes]
            ctx["rows"] = sorted(rows, key=lambda r: (r[0].name.casefold(), r[0].tpn or 0))
        elif kind == "wall" and t.public and not rnd.is_draft:
            ctx["public_url"] = request.build_absolute_uri(rnd.get_absolute_url())
    elif kind == "ranks":
        by = "rating" if request.GET.get("by") == "rating" else "tpn"
        players = list(t.player_set.all())
        key = (lambda p: (-p.rating, p.name.casefold())) if by == "rating" else (lambda p: (p.tpn or 10**6, p.name))
        ctx.update(players=sorted(players, key=key), by=by)
    elif kind == "checkin":
        present = dict(CheckIn.objects.filter(player__tournament=t).values_list("player_id", "present"))
        ctx["players"] = [(p, present.get(p.pk, False)) for p in Player.objects.filter(tournament=t).order_by("name", "tpn")]
        e = t.event
        if e is not None and e.self_checkin and e.checkin_secret:
            ctx["self_url"] = request.build_absolute_uri(reverse("pairing:self_checkin", args=[e.slug, e.checkin_secret]))
    return render(request, "pairing/print/sheet.html", ctx)
