"""A round's draft, for the tournament's arbiters: pairing the next round, what the draft's
page shows of it (the engine's explanation with players for ids, each board's colour rule,
the rule warnings, the forms of a swap and of a manual session), swapping two players,
publishing and discarding.  The round's page itself, for drafts and published rounds
alike, is in rounds.py."""

from __future__ import annotations

from decimal import Decimal

from django.contrib import messages
from django.contrib.auth.decorators import login_required
from django.http import Http404, HttpRequest, HttpResponse
from django.shortcuts import redirect
from django.urls import reverse
from django.utils.translation import gettext as _
from django.utils.translation import ngettext
from django.views.decorators.http import require_POST

from ..access import get_round, get_tournament_for_arbiter
from ..forms import OnePlayerForm, PoolPairForm, SwapForm
from ..forms.rounds import by_number
from ..models import Conflict, Round
from ..reports.standings import adjourned_text, figure, open_adjourned
from ..services import manual
from ..services.draft_checks import draft_warnings
from ..services.rounds import (
    PairingRefused,
    adjourn_open_boards,
    discard_draft,
    named_in,
    pair_next_round,
    publish,
    readable,
    swap_players,
)
from ..warning_levels import NeedsConfirmation
from .confirm import ask, confirmable, given
from .paging import Page, page_holding


@login_required
@require_POST
@confirmable
def pair_next(request: HttpRequest, slug: str) -> HttpResponse:
    t = get_tournament_for_arbiter(request, slug)
    try:
        if request.POST.get("adjourn_open") == "1":
            adjourn_open_boards(t, request.user, given(request))
        rnd = pair_next_round(t, request.user)
    except NeedsConfirmation as exc:
        return ask(request, exc, t=t, back=reverse("pairing:tournament", args=[slug]))
    except PairingRefused as exc:
        messages.error(request, str(exc))
        return redirect("pairing:tournament", slug=t.slug)
    pending = open_adjourned(t, rnd.number - 1)
    if pending:  # Level 2: the arbiter sees which games were paired as draws
        messages.warning(request, _("Paired with adjourned games still open, counted as draws: %(games)s.") % {"games": adjourned_text(pending)})
    return redirect(rnd.get_absolute_url())


def draft_context(rnd: Round, games: list, page: Page | None = None) -> dict:
    """What a draft's page adds for its arbiters: the engine's explanation, the colour rule
    of each of ``games`` (or "by hand"), the rule warnings of the whole draft (computed
    once per state, :func:`~pairing.services.draft_checks.draft_warnings`) and, in a manual
    session, its forms.

    With the boards in pages (``page``), the explanation gives the brackets of the
    boards on this page: a 9,999-player draft's brackets name every player three times
    (600 KB of HTML); each page explains its own boards, and a bracket that made no board
    (its players all moved down) is explained on the last page."""
    paged = page is not None and page.split
    # every board of the draft (white, black), read once for the brackets of the page and
    # the boards changed by hand
    boards = list(rnd.game_set.order_by("board").values_list("board", "white_id", "black_id")) \
        if paged or rnd.manual_changes else []
    ex = _explanation(rnd, _brackets_on(rnd, boards, page) if paged else None,
                      {(g.white_id, g.black_id) for g in games} if paged else None)
    for g in games:
        g.colour_rule = ex["colours"].get((g.white_id, g.black_id))
        # a board the engine did not make (changed by a swap) has no rule of its own
        g.by_hand = bool(ex["has_colours"] and g.colour_rule is None)
    # every board changed by hand, on this page or another
    made = {(c["white"], c["black"]) for c in (rnd.explanation or {}).get("colours", [])}
    ex["boards_by_hand"] = [board for board, white, black in boards if (white, black) not in made] \
        if made and rnd.manual_changes else []
    ctx = {"ex": ex, "warnings": draft_warnings(rnd)}
    if rnd.manual_session:  # the forms of a session (the page shows them in one only)
        in_pool = manual.pool(rnd)
        paired = paired_players(rnd)
        numbers = by_number(rnd.tournament)
        ctx["swap_form"] = SwapForm(players=paired, numbers=numbers)
        ctx["pool"] = in_pool
        ctx["pool_form"] = PoolPairForm(players=in_pool, numbers=numbers)
        ctx["pab_form"] = OnePlayerForm(players=in_pool, label=_("PAB to"), numbers=numbers)
        ctx["unpair_form"] = OnePlayerForm(players=paired, label=_("To the pool"), numbers=numbers) if paired else None
    return ctx


def _names(rnd: Round, ids: set[int]) -> dict[int, object]:
    """The players of ``ids`` (of the round's tournament), by key."""
    return {p.pk: p for p in rnd.tournament.player_set.filter(pk__in=ids)} if ids else {}


def paired_players(rnd: Round) -> list:
    """The players of the draft's boards and its PAB, by pairing number (a swap's choices)."""
    ids = set()
    for g in rnd.game_set.all():
        ids |= {g.white_id, g.black_id}
    pab = rnd.pab()
    if pab:
        ids.add(pab.player_id)
    return list(rnd.tournament.player_set.filter(pk__in=ids).order_by("tpn").only("pk", "tpn", "name", "tournament_id"))


# The players eligible for the PAB named on a draft's page, in the order they were
# considered (the rest counted): at 9,999 players nearly all of them are eligible.
ELIGIBLE_SHOWN = 30


def _bracket_players(b: dict) -> set[int]:
    """Every player a stored bracket names, whatever the system (its lists of ids; not the
    Dutch exchange's BSNs)."""
    found: set[int] = set()
    for key, value in b.items():
        if isinstance(value, list) and key != "exchanged":
            for item in value:
                if isinstance(item, int):
                    found.add(item)
                elif isinstance(item, list) and item and isinstance(item[0], int):  # Burstein's (id, index...) rows
                    found.add(item[0])
    return found


def _brackets_on(rnd: Round, boards: list[tuple[int, int, int]], page: Page) -> list[int]:
    """The indexes of the stored brackets that hold a player of a board on ``page``
    (``boards``: the draft's (board, white, black) in the page's order, PAGE_ROWS a page);
    on the last page, also those that hold no player of any board."""
    page_of_player: dict[int, int] = {}
    for index, (_board, white, black) in enumerate(boards):
        page_of_player[white] = page_of_player[black] = page_holding(index)
    shown = []
    for index, b in enumerate((rnd.explanation or {}).get("brackets", [])):
        pages = {page_of_player[i] for i in _bracket_players(b) if i in page_of_player}
        if page.number in pages or (not pages and page.number == page.pages):
            shown.append(index)
    return shown


def _explanation(rnd: Round, shown: list[int] | None = None, boards: set[tuple[int, int]] | None = None) -> dict:
    """The stored Explanation with ids resolved to players; ``shown``: only the brackets
    of these indexes, ``boards``: only the colour rules of these (white, black) boards
    (all without them)."""
    ex = rnd.explanation or {}
    rules = [c for c in ex.get("colours", []) if boards is None or (c["white"], c["black"]) in boards]
    stored = list(enumerate(ex.get("brackets", []), start=1))
    if shown is not None:
        keep = set(shown)
        stored = [(n, b) for n, b in stored if n - 1 in keep]
    bye = ex.get("bye", {})
    eligible = bye.get("eligible", [])
    # the players named: those of the brackets shown, the PAB's, and no others
    wanted = set().union(*(_bracket_players(b) for _, b in stored)) if stored else set()
    wanted |= set(eligible[:ELIGIBLE_SHOWN]) | set(bye.get("rejected_incomplete", []))
    if bye.get("player") is not None:
        wanted.add(bye["player"])
    sentences = [bye.get("why", bye.get("reason", ""))]
    for c in rules:
        wanted |= {c["white"], c["black"]}
        sentences.append(c["reason"])
    for _n, b in stored:
        sentences += [b["upfloater_reason"], *b["notes"]]
    for text in sentences:
        wanted |= named_in(text)
    players = _names(rnd, wanted)

    def ps(ids):
        return [players[i] for i in ids if i in players]

    brackets = [
        {
            **b,
            "number": n,
            "score": figure(Decimal(b["score"]), 1),
            "upfloater_reason": readable(b["upfloater_reason"], players),
            "notes": [readable(n, players) for n in b["notes"]],
            "residents": ps(b["residents"]),
            "upfloaters": ps(b["upfloaters"]),
            "g1": ps(b["g1"]),
            "g2": ps(b["g2"]),
            "shifted_from_smaller": ps(b["shifted_from_smaller"]),
            "shifted_from_larger": ps(b["shifted_from_larger"]),
            "s1": ps(b["s1"]),
            "t2": ps(b["t2"]),
            **(_dutch_bracket(b, players) if ex.get("system") == "dutch" else {}),
            **(_burstein_bracket(b, players) if ex.get("system") == "burstein" else {}),
        }
        for n, b in stored
    ]
    colours = {
        (c["white"], c["black"]): {**c, "reason": readable(c["reason"], players)} for c in rules
    }
    return {
        "system": ex.get("system", "dubov"),
        "seeding": ex.get("seeding"),  # a Burstein seeding round (1.6), paired by the Dutch rules
        "bye_player": players.get(bye.get("player")),
        # drafts stored before "why" existed show the whole reason
        "bye_reason": readable(bye.get("why", bye.get("reason", "")), players),
        "bye_eligible": ps(eligible[:ELIGIBLE_SHOWN]),
        "bye_eligible_count": len(eligible),
        "bye_eligible_more": max(0, len(eligible) - ELIGIBLE_SHOWN),
        "bye_rejected": ps(bye.get("rejected_incomplete", [])),
        "brackets": brackets,
        "brackets_all": len(ex.get("brackets", [])),
        "colours": colours,
        "has_colours": bool(ex.get("colours")),
    }


def _dutch_bracket(b: dict, players: dict) -> dict:
    """A Dutch bracket (C.04.3 Articles 3-4) in players: the MDPs paired here and those
    left in the Limbo, the bracket's pairs, the remainder's S1 and S2 and the residents
    its exchange (4.3) moved, named from their BSNs (the remainder in the order of 1.2:
    one score, so by pairing number), and the downfloaters."""

    def ps(ids):
        return [players[i] for i in ids if i in players]

    limbo = set(b["limbo"])
    remainder = sorted(ps(b["remainder_s1"] + b["remainder_s2"]), key=lambda p: (p.tpn or 0, p.pk))
    by_bsn = dict(enumerate(remainder, start=1))
    to_s2, to_s1 = b.get("exchanged", [[], []])
    return {
        "mdps_paired": ps([i for i in b["moved_down"] if i not in limbo]),
        "limbo": ps(b["limbo"]),
        "pairs": [{"first": players[x], "second": players[y], "mdp": x in b["moved_down"]}
                  for x, y in zip(b["s1"], b["t2"], strict=False) if x in players and y in players],
        "remainder_s1": ps(b["remainder_s1"]),
        "remainder_s2": ps(b["remainder_s2"]),
        "moved_to_s2": [by_bsn[n] for n in to_s2 if n in by_bsn],
        "moved_to_s1": [by_bsn[n] for n in to_s1 if n in by_bsn],
        "downfloaters": ps(b["downfloaters"]),
    }


def _burstein_bracket(b: dict, players: dict) -> dict:
    """A Burstein bracket (C.04.4.2 1.8, 3.2, 4) in players: every player of the bracket in
    BSN order with their Index (Buchholz, Sonneborn-Berger; exact, as the engine computed
    them) and whether they came in as a floater, the pairs with both BSNs, and the
    outgoing floaters."""

    def exact(value: str) -> str:
        return format(Decimal(value).normalize(), "f")

    incoming = set(b["moved_down"])
    bsn = {pid: n for n, (pid, _, _) in enumerate(b.get("index", []), start=1)}
    return {
        "incoming": [players[i] for i in b["moved_down"] if i in players],
        "ranked": [{"bsn": n, "player": players[pid], "buchholz": exact(bh), "sonneborn_berger": exact(sb),
                    "incoming": pid in incoming}
                   for n, (pid, bh, sb) in enumerate(b.get("index", []), start=1) if pid in players],
        "pairs": [{"first": players[x], "second": players[y], "bsns": (bsn.get(x), bsn.get(y))}
                  for x, y in zip(b["s1"], b["t2"], strict=False) if x in players and y in players],
        "downfloaters": [players[i] for i in b["downfloaters"] if i in players],
    }


def _round_or_gone_draft(t, number: int) -> Round | None:
    """Round ``number``; None if it is the next round, whose draft went away while its
    page was open (the action then says so); 404 for any other round that does not exist."""
    rnd = t.round_set.filter(number=number).first()
    if rnd is None and number != t.next_round_number():
        raise Http404(_("No such round."))
    return rnd


@login_required
@require_POST
def round_publish(request: HttpRequest, slug: str, number: int) -> HttpResponse:
    t = get_tournament_for_arbiter(request, slug)
    rnd = _round_or_gone_draft(t, number)
    try:
        if rnd is None:  # the preview was open while the draft went away
            raise Conflict(Round.discarded_message(number))
        published = publish(rnd, request.user)
    except Conflict as exc:
        messages.error(request, str(exc))
        return redirect("pairing:tournament", slug=t.slug)
    if published:
        messages.success(request, _("Round %(n)s published. Enter the results as they come in.") % {"n": rnd.number})
    else:
        messages.info(request, _("Round %(n)s was already published.") % {"n": rnd.number})
    return redirect(rnd.get_absolute_url())


@login_required
@require_POST
def round_discard(request: HttpRequest, slug: str, number: int) -> HttpResponse:
    t = get_tournament_for_arbiter(request, slug)
    rnd = _round_or_gone_draft(t, number)
    if rnd is not None and not rnd.is_draft:
        messages.error(request, _("Round %(n)s is published; it cannot be discarded.") % {"n": rnd.number})
        return redirect(rnd.get_absolute_url())
    if discard_draft(t, request.user):
        messages.success(request, _("Draft of round %(n)s discarded.") % {"n": number})
    else:
        messages.info(request, _("Round %(n)s is no longer a draft (another arbiter published or discarded it).") % {"n": number})
    return redirect("pairing:tournament", slug=t.slug)


@login_required
@require_POST
@confirmable
def round_swap(request: HttpRequest, slug: str, number: int) -> HttpResponse:
    t = get_tournament_for_arbiter(request, slug)
    rnd = get_round(t, number)
    if not rnd.is_draft:
        messages.error(request, _("Only a draft can be changed."))
        return redirect(rnd.get_absolute_url())
    form = SwapForm(request.POST, players=paired_players(rnd), numbers=by_number(t))
    if not form.is_valid():
        messages.error(request, " ".join(e for errs in form.errors.values() for e in errs))
        return redirect(rnd.get_absolute_url())
    a = t.player_set.get(pk=form.cleaned_data["a"])
    b = t.player_set.get(pk=form.cleaned_data["b"])
    try:
        warnings = swap_players(rnd, a, b, request.user, given(request))
    except NeedsConfirmation as exc:
        return ask(request, exc, t=t, back=rnd.get_absolute_url())
    except ValueError as exc:
        messages.error(request, str(exc))
        return redirect(rnd.get_absolute_url())
    # the warnings themselves are on the draft's page (they stand until the draft changes)
    found = " " + ngettext("Confirmed despite %(n)s rule warning: see the list above the boards.", "Confirmed despite %(n)s rule warnings: see the list above the boards.", len(warnings)) % {"n": len(warnings)} if warnings else ""
    messages.success(request, _("Swapped %(a)s and %(b)s.") % {"a": a.shown_name, "b": b.shown_name} + found)
    return redirect(rnd.get_absolute_url())
