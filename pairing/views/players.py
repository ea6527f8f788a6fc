from __future__ import annotations

import time

from django.conf import settings
from django.contrib import messages
from django.contrib.auth.decorators import login_required
from django.http import HttpRequest, HttpResponse
from django.shortcuts import redirect, render
from django.urls import reverse
from django.utils.translation import gettext as _
from django.utils.translation import gettext_lazy, ngettext
from django.views.decorators.http import require_http_methods, require_POST

from .. import tasks
from ..access import get_player, get_tournament_for_arbiter, get_tournament_for_owner
from ..forms import ForbiddenPairForm, PlayerForm, PlayerListForm, TrfImportForm, WithdrawForm
from ..models import REQUESTED_BYES, ByeKind, Conflict, ForbiddenPair, JobKind, stale_form
from ..services import import_check, numbering, player_ratings
from ..services.forbidden_pairs import allow_pair, forbid_pair
from ..services.late_entries import missed_rounds, set_missed_rounds
from ..services.players import add_player, add_players, change_player, delete_player, withdraw
from ..services.trf_import import IMPORT_CHECK_LIMIT, ImportRefused, import_trf, not_checked, player_rounds
from ..warning_levels import NeedsConfirmation
from .confirm import ask, confirmable, given
from .notices import tells_of_a_discarded_draft
from .paging import page_of


def _players_context(t, form, found=None, request: HttpRequest | None = None) -> dict:
    """The page's context; the list of players a page of 200 at a time (``?page=N``; the
    first page after a player is added)."""
    page = page_of(request, t.player_set.by_tpn(), number=None if request is not None else 1)
    return {
        "t": t, "form": form, "players": page.items, "page": page, "found": found,
        "lists": player_ratings.searched_lists(t), "newer_lists": player_ratings.newer_lists(t),
    }


def _picked_form(request: HttpRequest, t) -> tuple[PlayerForm, object]:
    """The register form filled from a row picked in the look-up (``?pick=``), with the
    rating of another list when the arbiter chose one (``&use=n``, VCL4THP Q129)."""
    from .ratings import picked_entry

    entry = picked_entry(t, request.GET.get("pick", ""))
    if entry is None:
        return PlayerForm(tournament=t), None
    initial, found = player_ratings.initial_from(t, entry)
    use = request.GET.get("use", "")
    if use.isdigit() and int(use) < len(found.others):
        label, rating, fide = found.others[int(use)]
        initial |= {"fide_rating": rating} if fide else {"national_rating": rating}
        chosen = player_ratings.Found(
            fide_rating=initial["fide_rating"], national_rating=initial["national_rating"],
            fide_source=label if fide else found.fide_source, national_source=found.national_source if fide else label,
        )
        initial["rating"], initial["rating_source"] = chosen.tournament_rating(t.rating_method)
        initial["list_rating"] = initial["rating"]
        initial["rating_provisional"] = initial["rating"] is None
    return PlayerForm(tournament=t, initial=initial), found


@login_required
@require_http_methods(["GET", "POST"])
@tells_of_a_discarded_draft
def players(request: HttpRequest, slug: str) -> HttpResponse:
    """The player list and the add-one form.

    With HTMX the form validates as the arbiter types (``validate=1``: errors only,
    nothing saved) and adding swaps in the new list and an empty form.
    """
    t = get_tournament_for_arbiter(request, slug)
    if request.method == "GET":
        form, found = _picked_form(request, t)
        return render(request, "pairing/players.html", _players_context(t, form, found, request))
    form = PlayerForm(request.POST, tournament=t)
    if request.POST.get("validate"):
        # Inline validation while typing: report what is wrong, not what is still empty.
        if not form.is_valid():
            for name in list(form.errors):
                if name != "__all__" and not request.POST.get(name):
                    # ticking Unrated asks for the provisional rating at once, in words
                    if name == "rating" and request.POST.get("rating_provisional"):
                        continue
                    del form.errors[name]
        return render(request, "pairing/players.html#player-form", _players_context(t, form))
    if form.is_valid():
        try:
            player = add_player(t, form.save, request.user)
        except Conflict as exc:
            form.add_error("fide_id", str(exc))
            if request.htmx:  # 200 so that htmx swaps in the form with its message
                return render(request, "pairing/players.html#player-area", _players_context(t, form))
            return render(request, "pairing/players.html", _players_context(t, form), status=409)
        messages.success(request, _("%(name)s registered as number %(tpn)s.") % {"name": player.shown_name, "tpn": player.tpn})
        if request.htmx:
            # the picked player's rating panel goes with the form it filled, and the
            # address loses its ?pick= (a reload would fill the form again)
            response = render(request, "pairing/players.html#player-area",
                              {**_players_context(t, PlayerForm(tournament=t)), "clear_found": True})
            response["HX-Replace-Url"] = reverse("pairing:players", args=[t.slug])
            return response
        return redirect("pairing:players", slug=t.slug)
    if request.htmx:  # 200 so that htmx swaps in the form with its messages
        return render(request, "pairing/players.html#player-area", _players_context(t, form))
    return render(request, "pairing/players.html", _players_context(t, form), status=400)


@login_required
@require_http_methods(["GET", "POST"])
@tells_of_a_discarded_draft
@confirmable
def player_edit(request: HttpRequest, slug: str, pk: int) -> HttpResponse:
    t = get_tournament_for_arbiter(request, slug)
    player = get_player(t, pk)
    before = player.audit_values()
    # the version the form was made from: a save over another arbiter's change is refused
    seen = request.POST.get("seen", "") if request.method == "POST" else player.version()
    form = PlayerForm(request.POST if request.method == "POST" else None, instance=player, tournament=t)
    status = 400 if request.method == "POST" else 200
    if request.method == "POST" and not seen:
        form.is_valid()
        form.add_error(None, stale_form(_("player's details")))
    elif request.method == "POST" and form.is_valid():
        try:
            change_player(t, player, form.save, request.user, before, seen, given(request))
        except NeedsConfirmation as exc:
            return ask(request, exc, t=t, back=reverse("pairing:player_edit", args=[slug, pk]))
        except Conflict as exc:
            form.add_error(None, str(exc))
            seen, status = get_player(t, pk).version(), 409
        else:
            # a rating, a name or a federation moves what the pages show: the worker
            # computes the figures of the complete rounds again before a visitor asks
            tasks.figures_moved(t)
            messages.success(request, _("%(name)s saved.") % {"name": player.shown_name})
            return redirect("pairing:players", slug=t.slug)
    return render(
        request,
        "pairing/player_edit.html",
        {"t": t, "player": player, "form": form, "seen": seen,
         "withdraw_form": WithdrawForm(initial={"from_round": player.withdrawn_from_round, "expelled": player.expelled}),
         "missed": missed_rounds(player), "bye_kinds": MISSED_ROUND_CHOICES},
        status=status,
    )


@login_required
@require_http_methods(["GET", "POST"])
@tells_of_a_discarded_draft
def player_delete(request: HttpRequest, slug: str, pk: int) -> HttpResponse:
    """Only a player who was never paired can be deleted (otherwise: withdraw).  The
    arbiter confirms first: a GET (or a POST without ``confirm``) shows the question and
    deletes nothing."""
    t = get_tournament_for_arbiter(request, slug)
    player = get_player(t, pk)
    if request.method == "GET" or request.POST.get("confirm") != "yes":
        return render(request, "pairing/player_delete.html", {"t": t, "player": player},
                      status=200 if request.method == "GET" else 400)
    name = player.name
    try:
        delete_player(t, player, request.user)
    except ValueError as exc:
        messages.error(request, str(exc))
        return redirect("pairing:player_edit", slug=t.slug, pk=player.pk)
    messages.success(request, _("%(name)s deleted.") % {"name": name})
    return redirect("pairing:players", slug=t.slug)


@login_required
@require_POST
@tells_of_a_discarded_draft
@confirmable
def player_missed_rounds(request: HttpRequest, slug: str, pk: int) -> HttpResponse:
    """The requested byes of the rounds a late entry missed (``round_N``: H, Z, F or
    empty), after a Level-3 confirmation."""
    t = get_tournament_for_arbiter(request, slug)
    player = get_player(t, pk)
    back = reverse("pairing:player_edit", args=[slug, pk])
    wanted = {}
    for key, value in request.POST.items():
        if key.startswith("round_") and key[6:].isdigit():
            wanted[int(key[6:])] = value
    try:
        changes = set_missed_rounds(player, wanted, request.user, given(request))
    except NeedsConfirmation as exc:
        return ask(request, exc, t=t, back=back)
    except ValueError as exc:
        messages.error(request, str(exc))
        return redirect(back)
    if changes:
        tasks.figures_moved(t)  # the standings of the rounds he missed move
        messages.success(request, _("%(name)s: the rounds missed before entry are saved.") % {"name": player.shown_name})
    return redirect(back)


@login_required
@require_POST
@tells_of_a_discarded_draft
def player_withdraw(request: HttpRequest, slug: str, pk: int) -> HttpResponse:
    """Withdraw from a round on (empty: the player returns)."""
    t = get_tournament_for_arbiter(request, slug)
    player = get_player(t, pk)
    form = WithdrawForm(request.POST)
    if not form.is_valid():
        messages.error(request, _("Give the round number (1 to %(rounds)s) the withdrawal starts with.") % {"rounds": t.rounds})
        return redirect("pairing:player_edit", slug=t.slug, pk=player.pk)
    try:
        messages.success(request, withdraw(player, form.cleaned_data["from_round"], request.user,
                                           expelled=form.cleaned_data["expelled"]))
    except ValueError as exc:
        messages.error(request, str(exc))
        return redirect("pairing:player_edit", slug=t.slug, pk=player.pk)
    tasks.figures_moved(t)  # an expulsion takes him out of the standings
    return redirect("pairing:players", slug=t.slug)


# what a round missed before entry can hold: nothing (0 points) or a requested bye
MISSED_ROUND_CHOICES = [("", gettext_lazy("nothing (0)"))] + [(k.value, ByeKind(k).label) for k in REQUESTED_BYES]


# A refused text longer than this is not sent back in the page (audit finding 10: a 9 MB
# input was echoed in full); the arbiter corrects the file and sends it again.
ECHO_LIMIT = 200_000
# Problems listed on the page; the rest are counted.
SHOWN_PROBLEMS = 100


def _drop_long_echo(form) -> str:
    """Empty the refused form's text box when its text is too long to send back; returns
    the text's length in characters, written out ('' when it is shown again)."""
    text = form.data.get("text", "") if form.is_bound else ""
    if len(text) <= ECHO_LIMIT:
        return ""
    form.data = form.data.copy()
    form.data["text"] = ""
    return f"{len(text):,}"


@login_required
@require_http_methods(["GET", "POST"])
@tells_of_a_discarded_draft
def players_import(request: HttpRequest, slug: str) -> HttpResponse:
    """A pasted list or CSV file: every line checked first, nothing written on any error."""
    t = get_tournament_for_arbiter(request, slug)
    form = PlayerListForm(request.POST or None, request.FILES or None, tournament=t)
    status = 400 if request.method == "POST" else 200
    if request.method == "POST" and form.is_valid():
        try:
            count = len(add_players(t, [row.values for row in form.cleaned_data["players"]], request.user))
        except Conflict as exc:
            form.add_error(None, str(exc))
            status = 409
        else:
            messages.success(request, ngettext("%(n)s player added.", "%(n)s players added.", count) % {"n": count})
            return redirect("pairing:players", slug=t.slug)
    errors = list(form.non_field_errors()) if form.is_bound else []
    return render(
        request,
        "pairing/players_import.html",
        {"t": t, "form": form, "dropped": _drop_long_echo(form), "errors": errors[:SHOWN_PROBLEMS],
         "more_errors": max(0, len(errors) - SHOWN_PROBLEMS)},
        status=status,
    )


@login_required
@require_http_methods(["GET", "POST"])
@tells_of_a_discarded_draft
@confirmable
def trf_import(request: HttpRequest, slug: str) -> HttpResponse:
    t = get_tournament_for_arbiter(request, slug)
    form = TrfImportForm(request.POST or None, request.FILES or None)
    problems: list[tuple[int, int, str]] = []
    from_parser = False
    if request.method == "POST" and form.is_valid() and t.import_pending is not None:
        messages.error(request, _("An import into this tournament is being checked already."))
        return redirect("pairing:job", pk=t.import_pending.pk)
    if request.method == "POST" and form.is_valid() and player_rounds(form.cleaned_data["trf"]) > IMPORT_CHECK_LIMIT:
        if t.player_set.exists() or t.round_set.exists():
            problems = [(0, 0, _("This tournament already has players or rounds; import into a new one."))]
        else:  # too large to re-pair while the page waits: the worker imports it and checks every round
            job = import_check.keep_text(form.cleaned_data["trf"], lambda params: tasks.start(
                JobKind.IMPORT_CHECK, user=request.user, tournament=t, params=params))
            messages.info(request, _("The file is large: it is imported and each of its rounds is re-paired by the "
                                     "engine in the background. The tournament waits for that check (and for your "
                                     "answer, if the engine pairs a round differently)."))
            return redirect("pairing:job", pk=job.pk)
    elif request.method == "POST" and form.is_valid():
        try:
            report: list[str] = []
            count = import_trf(t, form.cleaned_data["trf"], request.user, confirmations=given(request), report=report,
                               deadline=time.monotonic() + settings.REQUEST_WORK_SECONDS)
        except NeedsConfirmation as exc:
            # the confirming form sends the file's text (a file cannot be sent again)
            return ask(request, exc, t=t, back=reverse("pairing:trf_import", args=[t.slug]),
                       fields=[("text", form.cleaned_data["trf"])])
        except ImportRefused as exc:
            problems, from_parser = exc.problems, exc.from_parser
        else:
            played = t.rounds_published()
            messages.success(request, _("Imported: %(players)s, %(rounds)s.") % {
                "players": ngettext("%(n)s player", "%(n)s players", count) % {"n": count},
                "rounds": ngettext("%(n)s round", "%(n)s rounds", played) % {"n": played}})
            for line in report:  # VCL4THP Q48, Q50: every adjustment, also in the audit trail
                messages.info(request, line)
            if count * played > IMPORT_CHECK_LIMIT:  # Level 2: say what was not done
                messages.warning(request, not_checked(t))
            return redirect("pairing:tournament", slug=t.slug)
    failed = request.method == "POST"
    return render(
        request,
        "pairing/trf_import.html",
        {"t": t, "form": form, "dropped": _drop_long_echo(form), "problems": problems[:SHOWN_PROBLEMS],
         "problem_count": len(problems), "from_parser": from_parser, "more_problems": max(0, len(problems) - SHOWN_PROBLEMS)},
        status=400 if failed else 200,
    )


def _forbidden_context(t, form) -> dict:
    pairs = ForbiddenPair.objects.filter(tournament=t).select_related("player_a", "player_b")
    return {"t": t, "form": form, "pairs": pairs, "draft": t.draft_round()}


@login_required
@require_http_methods(["GET", "POST"])
@tells_of_a_discarded_draft
@confirmable
def forbidden_pairs(request: HttpRequest, slug: str) -> HttpResponse:
    """The forbidden pairs (players who must not be paired with each other) and the form
    that adds one.  Adding one discards the draft round, if any."""
    t = get_tournament_for_arbiter(request, slug)
    form = ForbiddenPairForm(request.POST or None, tournament=t)
    if request.method == "POST":
        if form.is_valid():
            a, b = form.cleaned_data["player_a"], form.cleaned_data["player_b"]
            try:
                forbid_pair(t, a, b, request.user, given(request))
            except NeedsConfirmation as exc:
                return ask(request, exc, t=t, back=reverse("pairing:forbidden_pairs", args=[t.slug]))
            except ValueError as exc:  # e.g. another arbiter added the same pair meanwhile
                form.add_error(None, str(exc))
            else:
                messages.success(request, _("%(a)s and %(b)s will not be paired with each other.") % {"a": a.shown_name, "b": b.shown_name})
                return redirect("pairing:forbidden_pairs", slug=t.slug)
        return render(request, "pairing/forbidden_pairs.html", _forbidden_context(t, form), status=400)
    return render(request, "pairing/forbidden_pairs.html", _forbidden_context(t, form))


@login_required
@require_POST
@tells_of_a_discarded_draft
@confirmable
def forbidden_pair_delete(request: HttpRequest, slug: str, pk: int) -> HttpResponse:
    t = get_tournament_for_arbiter(request, slug)
    try:
        messages.success(request, allow_pair(t, pk, request.user, given(request)))
    except NeedsConfirmation as exc:
        return ask(request, exc, t=t, back=reverse("pairing:forbidden_pairs", args=[t.slug]))
    except ValueError as exc:
        messages.error(request, str(exc))
    return redirect("pairing:forbidden_pairs", slug=t.slug)


@login_required
@require_POST
@tells_of_a_discarded_draft
@confirmable
def pairing_numbers(request: HttpRequest, slug: str) -> HttpResponse:
    """The chief arbiter exchanges two pairing numbers or regenerates the list from the
    ratings (VCL4THP Q147-154), each after a Level-3 confirmation."""
    t = get_tournament_for_owner(request, slug)
    action = request.POST.get("action", "")
    try:
        if action == "exchange":
            a_txt, b_txt = request.POST.get("a", "").strip(), request.POST.get("b", "").strip()
            if not (a_txt.isdigit() and b_txt.isdigit()):
                raise numbering.NumbersRefused(_("Type two pairing numbers to exchange."))
            players = {p.tpn: p for p in t.player_set.filter(tpn__in=[int(a_txt), int(b_txt)])}
            missing = [n for n in (int(a_txt), int(b_txt)) if n not in players]
            if missing:
                raise numbering.NumbersRefused(_("No player has pairing number %(n)s.") % {"n": missing[0]})
            numbering.exchange(t, players[int(a_txt)], players[int(b_txt)], request.user, given(request))
            messages.success(request, _("Pairing numbers %(a)s and %(b)s exchanged.") % {"a": a_txt, "b": b_txt})
        elif action == "regenerate":
            n = numbering.regenerate(t, request.user, given(request))
            messages.success(request, ngettext(
                "Pairing numbers regenerated from the ratings: %(n)s player renumbered.",
                "Pairing numbers regenerated from the ratings: %(n)s players renumbered.", n) % {"n": n})
        else:
            raise numbering.NumbersRefused(_("Choose to exchange two numbers or to regenerate the list."))
    except NeedsConfirmation as exc:
        return ask(request, exc, t=t, back=reverse("pairing:players", args=[slug]))
    except numbering.NumbersRefused as exc:
        messages.error(request, str(exc))
    return redirect("pairing:players", slug=t.slug)
