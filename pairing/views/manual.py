"""Manual-pairing sessions on a draft (VCL4THP Q62–69): start, edit, end; and a round
made by hand when the engine finds no legal pairing.  The services check and log."""

from __future__ import annotations

from django.contrib import messages
from django.contrib.auth.decorators import login_required
from django.http import HttpRequest, HttpResponse
from django.shortcuts import redirect
from django.utils.translation import gettext as _
from django.utils.translation import ngettext
from django.views.decorators.http import require_POST

from ..access import get_round, get_tournament_for_arbiter
from ..forms import OnePlayerForm, PoolPairForm
from ..forms.rounds import by_number
from ..services import manual
from ..services.rounds import PairingRefused
from ..warning_levels import NeedsConfirmation
from .confirm import ask, confirmable, given


def _choices(t) -> dict:
    """What a session's form chooses from: every player of the tournament (the service
    says when one is not in the pool), by list or by pairing number as the page showed."""
    return {"players": list(t.player_set.all()), "numbers": by_number(t)}


def _form_error(form) -> str:
    return " ".join(e for errs in form.errors.values() for e in errs)


@login_required
@require_POST
def pair_by_hand(request: HttpRequest, slug: str) -> HttpResponse:
    t = get_tournament_for_arbiter(request, slug)
    try:
        rnd = manual.pair_by_hand(t, request.user)
    except PairingRefused as exc:
        messages.error(request, str(exc))
        return redirect("pairing:tournament", slug=t.slug)
    messages.info(request, _("Round %(n)s: every player is in the pool. Pair them, give the PAB, then end the session.") % {"n": rnd.number})
    return redirect(rnd.get_absolute_url())


@login_required
@require_POST
@confirmable
def round_manual(request: HttpRequest, slug: str, number: int) -> HttpResponse:
    """One step of a session: ``op`` is start, pool, pair, pab or end."""
    t = get_tournament_for_arbiter(request, slug)
    rnd = get_round(t, number)
    back = rnd.get_absolute_url()
    op = request.POST.get("op", "")
    if not rnd.is_draft:
        messages.error(request, _("Round %(n)s is published; it cannot be changed by hand.") % {"n": rnd.number})
        return redirect(back)
    try:
        if op == "start":
            opened = manual.start_session(rnd, request.user)
            messages.success(request, _("Manual-pairing session started.") if opened else _("The session was open already."))
        elif op == "end":
            messages.success(request, manual.end_session(rnd, request.user, given(request)))
        elif op == "pool":
            form = OnePlayerForm(request.POST, **_choices(t))
            if not form.is_valid():
                raise ValueError(_form_error(form))
            messages.success(request, manual.to_pool(rnd, t.player_set.get(pk=form.cleaned_data["player"]), request.user))
        elif op == "pair":
            form = PoolPairForm(request.POST, **_choices(t))
            if not form.is_valid():
                raise ValueError(_form_error(form))
            white = t.player_set.get(pk=form.cleaned_data["a"])
            black = t.player_set.get(pk=form.cleaned_data["b"])
            found = manual.pair_from_pool(rnd, white, black, request.user, given(request))
            messages.success(request, _("Paired %(white)s – %(black)s.") % {"white": white.shown_name, "black": black.shown_name} + _warned(found))
        elif op == "pab":
            form = OnePlayerForm(request.POST, **_choices(t))
            if not form.is_valid():
                raise ValueError(_form_error(form))
            player = t.player_set.get(pk=form.cleaned_data["player"])
            found = manual.give_pab(rnd, player, request.user, given(request))
            messages.success(request, _("PAB given to %(name)s.") % {"name": player.shown_name} + _warned(found))
        else:
            raise ValueError(_("Unknown step; nothing was changed."))
    except NeedsConfirmation as exc:
        return ask(request, exc, t=t, back=back)
    except ValueError as exc:
        messages.error(request, str(exc))
    return redirect(back)


def _warned(found: list[str]) -> str:
    if not found:
        return ""
    return " " + ngettext("Confirmed despite %(n)s rule warning.", "Confirmed despite %(n)s rule warnings.", len(found)) % {"n": len(found)}
