"""Rankings by category, the club ranking and the prize list of a section: the arbiters
set categories, prizes and rules and publish the list; visitors see it once published."""

from __future__ import annotations

from django.contrib import messages
from django.contrib.auth.decorators import login_required
from django.http import Http404, HttpRequest, HttpResponse
from django.shortcuts import redirect, render
from django.utils.translation import gettext as _
from django.views.decorators.http import require_GET, require_http_methods

from ..access import get_tournament_for_arbiter, get_tournament_for_viewer
from ..forms import PrizeForm
from ..models import PrizeSettings
from ..reports import prizes as prize_report
from ..services import prizes as service
from .public_cache import public_page


@require_GET
def prizes(request: HttpRequest, slug: str) -> HttpResponse:
    """The prize list and the rankings by category: for visitors once published; the
    arbiters see it before (their editor is :func:`prizes_edit`)."""
    t = get_tournament_for_viewer(request, slug)
    arbiter = t.is_arbiter(request.user)
    if not arbiter and not PrizeSettings.objects.filter(section=t, published_at__isnull=False).exists():
        raise Http404("No prize list published.")
    return public_page(request, t, lambda: render(request, "pairing/prizes.html", {
        "t": t, "r": prize_report.report(t), "is_arbiter": arbiter}))


@login_required
@require_http_methods(["GET", "POST"])
def prizes_edit(request: HttpRequest, slug: str) -> HttpResponse:
    t = get_tournament_for_arbiter(request, slug)
    s = prize_report.settings_of(t)
    status = 200
    if request.method == "POST" and "publish" in request.POST:
        on = request.POST["publish"] == "1"
        service.publish(t, request.user, on)
        messages.success(request, _("Prize list published.") if on else _("Prize list withdrawn from the public pages."))
        return redirect("pairing:prizes_edit", slug=t.slug)
    initial = {**service.as_text(t), **{f: getattr(s, f) for f in service.RULES}}
    form = PrizeForm(request.POST or None, initial=initial)
    if request.method == "POST":
        if form.is_valid():
            service.save(t, form.cleaned_data, request.user)
            messages.success(request, _("Prizes saved."))
            return redirect("pairing:prizes_edit", slug=t.slug)
        status = 400
    return render(request, "pairing/prizes.html", {"t": t, "r": prize_report.report(t), "form": form,
                                                    "is_arbiter": True, "editing": True}, status=status)
