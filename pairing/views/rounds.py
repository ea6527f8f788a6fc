"""A round's page, for drafts (their arbiters only) and published rounds: the boards a page
at a time or the list by name, the progress of the results; entering a result and
correcting one for the rating report; the requested byes of the rounds to come.  What
only a draft has (its explanation, warnings, swap and session forms) and the actions on
it are in drafts.py."""

from __future__ import annotations

from decimal import Decimal

from django.contrib import messages
from django.contrib.auth.decorators import login_required
from django.http import Http404, HttpRequest, HttpResponse
from django.shortcuts import redirect, render
from django.urls import reverse
from django.utils.translation import gettext as _
from django.utils.translation import ngettext
from django.views.decorators.http import require_GET, require_http_methods, require_POST

from .. import tasks
from ..access import get_game, get_round, get_tournament_for_arbiter, get_tournament_for_viewer
from ..models import (
    COMMON_RESULTS,
    RESULT_KEYS,
    Bye,
    Conflict,
    GameResult,
    Player,
    Round,
    RoundStatus,
    stale_form,
)
from ..reports.pairing_list import not_paired
from ..reports.standings import figure, points_before
from ..services import acceleration
from ..services.players import set_byes, set_byes_grid
from ..services.results import closed_before, correct_for_rating, record_result
from ..services.snapshot import histories, point_system
from ..warning_levels import NeedsConfirmation
from .confirm import ask, confirmable, given
from .drafts import draft_context
from .notices import tells_of_a_discarded_draft
from .paging import page_of
from .public_cache import poll_url, public_page


@login_required
@require_http_methods(["GET", "POST"])
@tells_of_a_discarded_draft
@confirmable
def absences(request: HttpRequest, slug: str) -> HttpResponse:
    """Requested byes for a round not yet published (default: the next one)."""
    t = get_tournament_for_arbiter(request, slug)
    first_open = t.rounds_published() + 1
    raw = request.POST.get("round") if request.method == "POST" else request.GET.get("round")
    try:
        number = int(raw) if raw else first_open
    except ValueError:
        number = 0  # refused below: a POST for an unreadable round writes nothing
    if first_open > t.rounds:
        messages.info(request, _("Every round has been paired."))
        return redirect("pairing:tournament", slug=t.slug)
    if not first_open <= number <= t.rounds:
        messages.error(request, _("Byes can be set for rounds %(first)s to %(last)s.") % {"first": first_open, "last": t.rounds})
        return redirect(reverse("pairing:absences", args=[t.slug]))
    players = list(t.player_set.by_tpn())
    byes = {b.player_id: b for b in Bye.objects.filter(tournament=t, round_number=number)}
    if request.method == "POST":
        wanted = {p.pk: request.POST[f"kind-{p.pk}"] for p in players if f"kind-{p.pk}" in request.POST}
        try:
            if "seen" not in request.POST:
                raise Conflict(stale_form("byes"))
            changes = set_byes(t, number, wanted, request.user, _seen_byes(request.POST["seen"]), given(request))
        except NeedsConfirmation as exc:
            return ask(request, exc, t=t, back=reverse("pairing:absences", args=[t.slug]) + f"?round={number}")
        except Conflict as exc:
            messages.error(request, str(exc))
        except ValueError as exc:
            messages.error(request, _("%(problem)s Nothing was saved.") % {"problem": exc})
        else:
            if changes:  # the pages' figures are computed again (see _after_a_result)
                tasks.figures_moved(t)
            messages.success(request, ngettext("Round %(round)s: %(n)s change saved.", "Round %(round)s: %(n)s changes saved.", len(changes)) % {"round": number, "n": len(changes)} if changes else _("No changes."))
        shown = request.POST.get("page", "")
        return redirect(reverse("pairing:absences", args=[t.slug]) + f"?round={number}"
                        + (f"&page={shown}" if shown.isascii() and shown.isdigit() else ""))
    page = page_of(request, players)  # a page posts its own players' byes only
    rows = [(p, byes.get(p.pk)) for p in page.items]
    seen = ",".join(f"{b.player_id}:{b.kind}" for b in byes.values())
    return render(
        request,
        "pairing/absences.html",
        {"t": t, "number": number, "rows": rows, "seen": seen, "page": page,
         "round_numbers": range(first_open, t.rounds + 1)},
    )


@login_required
@require_http_methods(["GET", "POST"])
@tells_of_a_discarded_draft
@confirmable
def byes_grid(request: HttpRequest, slug: str) -> HttpResponse:
    """Requested byes of every round not yet published, players x rounds, saved at once
    (issue 21, rough edge 7).  A field is ``kind-<player>-<round>``; each round carries
    the byes the page showed (``seen-<round>``), as on the one-round page."""
    t = get_tournament_for_arbiter(request, slug)
    first_open = t.rounds_published() + 1
    numbers = list(range(first_open, t.rounds + 1))
    players = list(t.player_set.by_tpn())
    if request.method == "POST" and numbers:
        wanted: dict[int, dict[int, str]] = {}
        seen: dict[int, dict[int, str]] = {}
        try:
            for number in numbers:
                row = {p.pk: request.POST[f"kind-{p.pk}-{number}"] for p in players if f"kind-{p.pk}-{number}" in request.POST}
                if not row:
                    continue
                if f"seen-{number}" not in request.POST:
                    raise Conflict(stale_form("byes"))
                wanted[number] = row
                seen[number] = _seen_byes(request.POST[f"seen-{number}"])
            done = set_byes_grid(t, wanted, request.user, seen, given(request))
        except NeedsConfirmation as exc:
            return ask(request, exc, t=t, back=reverse("pairing:byes_grid", args=[t.slug]))
        except Conflict as exc:
            messages.error(request, str(exc))
        except ValueError as exc:
            messages.error(request, _("%(problem)s Nothing was saved.") % {"problem": exc})
        else:
            total = sum(len(c) for c in done.values())
            if total:
                tasks.figures_moved(t)
            messages.success(request, ngettext("%(n)s change saved.", "%(n)s changes saved.", total) % {"n": total} if total else _("No changes."))
        shown = request.POST.get("page", "")
        return redirect(reverse("pairing:byes_grid", args=[t.slug])
                        + (f"?page={shown}" if shown.isascii() and shown.isdigit() else ""))
    byes = {(b.player_id, b.round_number): b.kind for b in Bye.objects.filter(tournament=t, round_number__gte=first_open)}
    columns = [
        (n, ",".join(f"{pk}:{kind}" for (pk, r), kind in sorted(byes.items()) if r == n and kind != "U"))
        for n in numbers
    ]
    page = page_of(request, players)  # a page posts its own players' byes only
    rows = [
        (p, [(n, byes.get((p.pk, n), ""), bool(p.withdrawn_from_round and p.withdrawn_from_round <= n)) for n in numbers])
        for p in page.items
    ]
    return render(request, "pairing/byes_grid.html", {"t": t, "columns": columns, "rows": rows, "page": page})


def _seen_byes(raw: str) -> dict[int, str]:
    """The byes the page showed, ``"12:H,15:Z"``."""
    seen = {}
    for item in filter(None, raw.split(",")):
        pk, _, kind = item.partition(":")
        if pk.isascii() and pk.isdigit():
            seen[int(pk)] = kind
    return seen


def _annotate_scores(t, rnd: Round, games: list, players: list | None = None) -> None:
    """Points before the round, for the pairing list's Pts columns (``players``: only
    these, when one row is redrawn)."""
    if not games:
        return
    # as text, like every score in the tables: 0, 1, 1.5 (not 0.0 beside 1)
    scores = points_before(t, rnd.number) if len(games) > 1 else None
    if scores is None:  # one row redrawn, or an earlier round unfinished
        hist = histories(t, rnd.number - 1, players)
        ps = point_system(t)
        scores = {pk: figure(sum((ps.points(e.result) for e in h), Decimal(0)), 1) for pk, h in hist.items()}
    # Baku acceleration: the virtual points the round was paired with, beside the points
    virtual = acceleration.round_virtual_points(t, rnd.number)
    for g in games:
        g.white_score = scores.get(g.white_id)
        g.black_score = scores.get(g.black_id)
        g.white_virtual = figure(virtual[g.white_id], 1) if g.white_id in virtual else ""
        g.black_virtual = figure(virtual[g.black_id], 1) if g.black_id in virtual else ""


def _round_context(request: HttpRequest, t, rnd: Round, is_arbiter: bool) -> dict:
    """The round page's context: its boards a page at a time (200 boards of a 5,000-board
    round; the PAB and the players not paired on the last page), each with the points of
    its players before the round, read for those players only."""
    boards = rnd.games()
    pending = is_arbiter and not rnd.is_draft and request.GET.get("pending") == "1"
    if pending:  # the arbiter's list of the boards still without a result
        boards = boards.filter(result=GameResult.PENDING)
    page = page_of(request, boards)
    games = list(page.items)
    last_page = page.number == page.pages
    _annotate_scores(t, rnd, games, [p for g in games for p in (g.white, g.black)])
    ctx = {
        "t": t,
        "round": rnd,
        "games": games,
        "page": page,
        "pending_only": pending,
        "pab": rnd.pab() if last_page and not pending else None,
        "absent": not_paired(t, rnd.number) if last_page and not pending else [],
        **_progress(t, rnd),
        "is_arbiter": is_arbiter,
        "ex": None,
        **_result_choices(),
        "rounds": t.round_set.order_by("number"),
        "closed": closed_before(t),
        "acceleration_note": acceleration.round_note(t, rnd.number),
    }
    if rnd.is_draft and is_arbiter:  # a draft is its arbiters' only
        ctx.update(draft_context(rnd, games, page))
    return ctx


def _progress(t, rnd: Round) -> dict:
    """The progress line of a round's results (issue 32, item 12): how many are in, how
    many of those are adjourned games still to finish (then the round is not called
    complete), whether "Pair the next round" belongs here (the last round published,
    every result in, no draft, rounds left), and whether any board still takes a key
    (a round closed in FIDE mode takes none, but for its adjourned games)."""
    results = list(rnd.game_set.values_list("result", flat=True))
    done, total = sum(1 for r in results if r), len(results)
    adjourned = sum(1 for r in results if r == GameResult.ADJOURNED)
    last = t.rounds_published()
    return {
        "done": done, "total": total, "adjourned": adjourned,
        "pair_next": (not rnd.is_draft and rnd.number == last and done == total and total > 0
                      and last < t.rounds and t.draft_round() is None),
        "keys_apply": not rnd.is_draft and (rnd.number >= closed_before(t) or adjourned > 0),
    }


def _result_choices() -> dict:
    """The result buttons: the common ones in a row, the rest under "more"."""
    more = [c for c in GameResult if c.value and c not in COMMON_RESULTS]
    return {
        "result_choices": list(COMMON_RESULTS),
        "more_results": more,
        "more_values": [c.value for c in more],
        "all_results": [c for c in GameResult if c.value],
    }


@require_GET
def round_detail(request: HttpRequest, slug: str, number: int) -> HttpResponse:
    """A draft (arbiters only): the preview with the engine's reasons.  A published
    round: pairings, and for arbiters the results entry."""
    t = get_tournament_for_viewer(request, slug)
    return public_page(request, t, lambda: _round_page(request, t, number), params=("by", "page", "pending"))


def _round_page(request: HttpRequest, t, number: int) -> HttpResponse:
    rnd = get_round(t, number)
    is_arbiter = t.is_arbiter(request.user)
    if rnd.is_draft and not is_arbiter:
        raise Http404(_("No such round."))
    if request.GET.get("by") == "name" and not rnd.is_draft:
        ctx = _by_name_context(request, t, rnd, is_arbiter)
    else:
        ctx = _round_context(request, t, rnd, is_arbiter)
    # visitors' page refreshes itself while results come in; a poll answered with 286
    # makes htmx stop once the round is complete
    ctx["polling"] = not is_arbiter and rnd.status == RoundStatus.PUBLISHED
    ctx["poll_url"] = poll_url(request, t)
    response = render(request, "pairing/round.html", ctx)
    response.polling = ctx["polling"]  # for the shared copy (public_cache)
    if request.htmx and not is_arbiter and not ctx["polling"]:
        response.status_code = 286
    return response


def _by_name_context(request: HttpRequest, t, rnd: Round, is_arbiter: bool) -> dict:
    """The pairing list by name: board, colour, opponent, result; every player of the
    round sorted by name from one light query, then the players of the page shown."""
    names = dict(t.player_set.values_list("pk", "name"))
    results = dict(GameResult.choices)
    lines = []
    for board, white, black, result in rnd.game_set.values_list("board", "white_id", "black_id", "result"):
        shown = results[result] if result else ""
        lines.append((names[white], white, board, _("White"), black, shown))
        lines.append((names[black], black, board, _("Black"), white, shown))
    pab = rnd.pab()
    if pab is not None:
        lines.append((pab.player.name, pab.player_id, None, "", None, _("bye")))
    for b in not_paired(t, rnd.number):
        lines.append((b.player.name, b.player.pk, None, "", None, b.reason))
    lines.sort(key=lambda line: line[0].casefold())
    page = page_of(request, lines)
    players = Player.objects.in_bulk({pk for line in page.items for pk in (line[1], line[4]) if pk})
    by_name = [
        {"player": players[pk], "board": board, "colour": colour, "opponent": players.get(opponent), "result": result}
        for _name, pk, board, colour, opponent, result in page.items
    ]
    return {"t": t, "round": rnd, "games": [], "by_name": by_name, "page": page, "pab": None, "absent": [],
            **_progress(t, rnd), "is_arbiter": is_arbiter, "ex": None, **_result_choices(),
            "rounds": t.round_set.order_by("number"), "closed": closed_before(t),
            "acceleration_note": acceleration.round_note(t, rnd.number)}


def _after_a_result(t, rnd: Round) -> None:
    """A result that leaves its round complete -- the round's last one, or a correction
    in a round already complete -- moves the standings (and the next round's ARO list):
    the worker computes them before the first visitor asks (pairing.reports.ahead)."""
    if Round.objects.filter(pk=rnd.pk, status=RoundStatus.COMPLETE).exists():
        tasks.figures_moved(t)


@login_required
@require_POST
@tells_of_a_discarded_draft
@confirmable
def game_result(request: HttpRequest, slug: str, number: int, pk: int) -> HttpResponse:
    """One board's result.  ``result`` is a value (``1-0``) or a key (``1 = 0 + - *``);
    ``expected`` is the result the arbiter saw, so a concurrent change is reported."""
    t = get_tournament_for_arbiter(request, slug)
    rnd = get_round(t, number)
    game = get_game(rnd, pk)
    raw = request.POST.get("result", "")
    result = RESULT_KEYS.get(raw, raw)
    error = ""
    expected = request.POST.get("expected")
    needs = None
    try:
        if expected is None:
            raise Conflict(_("Board %(n)s:") % {"n": game.board} + " " + stale_form(_("result")))
        if record_result(game, result, request.user, expected=expected, confirmations=given(request)):
            _after_a_result(t, rnd)
    except NeedsConfirmation as exc:
        if not request.htmx:
            return ask(request, exc, t=t, back=rnd.get_absolute_url() + f"#board-{game.board}")
        # the row offers a plain form that opens the confirmation page
        needs = {"result": result, "expected": expected}
        error = _("Board %(n)s: %(what)s needs a confirmation.") % {"n": game.board, "what": exc.title}
    except Conflict as exc:
        error = str(exc)
    except ValueError as exc:
        error = _("Board %(n)s: %(problem)s.") % {"n": game.board, "problem": exc}
    if request.htmx:
        # 200 even on a refusal: htmx swaps the row, which shows the message and the
        # result now stored.
        rnd.refresh_from_db()
        _annotate_scores(t, rnd, [game], [game.white, game.black])
        return render(
            request,
            "pairing/round.html#board-row",
            {"t": t, "round": rnd, "g": game, "is_arbiter": True, "error": error, "needs": needs,
             **_progress(t, rnd), "oob": True, **_result_choices(), "closed": closed_before(t)},
        )
    if error:
        messages.error(request, error)
    return redirect(rnd.get_absolute_url() + f"#board-{game.board}")


@login_required
@require_POST
@confirmable
def game_rating_result(request: HttpRequest, slug: str, number: int, pk: int) -> HttpResponse:
    """A result corrected for the rating report only (C.04.2 4.3), Level 3."""
    t = get_tournament_for_arbiter(request, slug)
    rnd = get_round(t, number)
    game = get_game(rnd, pk)
    back = rnd.get_absolute_url() + f"#board-{game.board}"
    raw = request.POST.get("result", "")
    try:
        changed = correct_for_rating(game, RESULT_KEYS.get(raw, raw), request.user, given(request))
    except NeedsConfirmation as exc:
        return ask(request, exc, t=t, back=back)
    except ValueError as exc:
        messages.error(request, _("Board %(n)s: %(problem)s.") % {"n": game.board, "problem": exc})
    else:
        if changed:
            messages.success(request, _("Board %(n)s: the rating report will carry the corrected result.") % {"n": game.board})
        else:
            messages.info(request, _("No change."))
    return redirect(back)
