"""Check-in before round 1: the arbiters' list (from a phone too), entry fees, the close of
check-in (Level 3), and the players' own check-in from the QR code of the printed list."""

from __future__ import annotations

from decimal import Decimal, InvalidOperation

from django.conf import settings
from django.contrib import messages
from django.contrib.auth.decorators import login_required
from django.http import Http404, HttpRequest, HttpResponse
from django.shortcuts import get_object_or_404, redirect, render
from django.urls import reverse
from django.utils.translation import gettext as _
from django.views.decorators.http import require_http_methods, require_POST

from ..access import get_player, get_tournament_for_arbiter
from ..models import CheckIn, Event, Player
from ..services import checkin as service
from ..warning_levels import NeedsConfirmation
from .confirm import ask, confirmable, given
from .entries import address_of, count_post


def _rows(t) -> list[tuple[Player, CheckIn | None]]:
    rows = {c.player_id: c for c in CheckIn.objects.filter(player__tournament=t)}
    return [(p, rows.get(p.pk)) for p in t.player_set.order_by("name", "tpn")]


def _fee(raw: str) -> Decimal | None:
    raw = (raw or "").strip().replace(",", ".")
    if not raw:
        return None
    try:
        value = Decimal(raw)
    except InvalidOperation:
        raise ValueError(_("A fee is an amount such as 25 or 12.50.")) from None
    if not value.is_finite() or value < 0 or value >= 10**6:
        raise ValueError(_("A fee is an amount such as 25 or 12.50."))
    return value.quantize(Decimal("0.01"))


@login_required
@require_http_methods(["GET", "POST"])
def checkin(request: HttpRequest, slug: str) -> HttpResponse:
    """The check-in list of a section: present or not, fees (with ``?fees=1``)."""
    t = get_tournament_for_arbiter(request, slug)
    fees = request.GET.get("fees") == "1" or request.POST.get("fees") == "1"
    if request.method == "POST":
        player = get_player(t, _int(request.POST.get("player")))
        try:
            if "present" in request.POST:
                service.set_present(player, request.POST["present"] == "1", request.user)
            if "due" in request.POST or "paid" in request.POST:
                service.set_fee(player, _fee(request.POST.get("due", "")), _fee(request.POST.get("paid", "")),
                                request.user)
        except ValueError as exc:
            messages.error(request, _("%(problem)s Nothing was saved.") % {"problem": exc})
        if request.htmx:
            row = CheckIn.objects.filter(player=player).first()
            return render(request, "pairing/checkin.html#checkin-row", {"t": t, "p": player, "c": row, "fees": fees})
        return redirect(reverse("pairing:checkin", args=[t.slug]) + ("?fees=1" if fees else "") + f"#p{player.pk}")
    rows = _rows(t)
    present = sum(1 for _p, c in rows if c and c.present)
    return render(request, "pairing/checkin.html", {
        "t": t, "rows": rows, "fees": fees, "present": present, "open": not t.rounds_published(),
        "self_link": _self_link(request, t.event),
    })


def _int(raw) -> int:
    try:
        return int(raw)
    except (TypeError, ValueError):
        raise Http404("No such player.") from None


def _self_link(request: HttpRequest, event: Event | None) -> str:
    if event is None or not event.self_checkin or not event.checkin_secret:
        return ""
    return request.build_absolute_uri(reverse("pairing:self_checkin", args=[event.slug, event.checkin_secret]))


@login_required
@require_POST
@confirmable
def checkin_close(request: HttpRequest, slug: str) -> HttpResponse:
    t = get_tournament_for_arbiter(request, slug)
    back = reverse("pairing:checkin", args=[t.slug])
    try:
        missing = service.close(t, request.user, given(request))
    except NeedsConfirmation as exc:
        return ask(request, exc, t=t, back=back)
    except ValueError as exc:
        messages.error(request, str(exc))
        return redirect(back)
    messages.success(request, _("Check-in closed: %(n)s players not present get a zero-point bye in round 1.") % {
        "n": len(missing)})
    return redirect(back)


@require_http_methods(["GET", "POST"])
def self_checkin(request: HttpRequest, slug: str, secret: str) -> HttpResponse:
    """A player checks in from the QR code on the printed list: finds his name, says he
    is here.  The event's secret link, only while the arbiters allow it; rate-limited per
    address; each check-in in the audit trail."""
    event = get_object_or_404(Event, slug=slug, self_checkin=True)
    if not event.checkin_secret or secret != event.checkin_secret:
        raise Http404("No such page.")
    query = " ".join(request.GET.get("q", "").split())[:40]
    found = []
    status = 200
    if request.method == "POST":
        if count_post(f"checkin:{address_of(request)}") > settings.ENTRY_POSTS_PER_ADDRESS:
            messages.error(request, _("Too many check-ins from your address: ask an arbiter."))
            status = 429
        else:
            player = Player.objects.filter(pk=_int(request.POST.get("player")), tournament__event=event).select_related(
                "tournament").first()
            if player is None:
                raise Http404("No such player.")
            try:
                service.set_present(player, True, by_self=True)
            except ValueError as exc:
                messages.error(request, str(exc))
            else:
                messages.success(request, _("%(name)s: you are checked in for %(section)s. Good luck!") % {
                    "name": player.shown_name, "section": player.tournament.name})
            return redirect(request.path)
    elif len(query) >= 2:
        found = list(Player.objects.filter(tournament__event=event, name__icontains=query)
                     .select_related("tournament", "checkin").order_by("name")[:20])
    response = render(request, "pairing/self_checkin.html", {"e": event, "query": query, "found": found},
                      status=status)
    response["Cache-Control"] = "private, no-store"
    # The secret link goes to no other site; "no-referrer" would also make browsers send
    # "Origin: null" with the page's own form, which the CSRF check refuses (403).
    response["Referrer-Policy"] = "same-origin"
    return response
