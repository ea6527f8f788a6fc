"""Builders for the web tests."""

from __future__ import annotations

from pairing.engine.version import VERSION
from pairing.services.numbering import renumber
from pairing.services.results import record_result
from pairing.services.rounds import publish


def add_players(t, n: int, start_rating: int = 2400, step: int = 10):
    """``n`` players with distinct falling ratings (``step`` apart); returns them by TPN."""
    from pairing.models import Player

    for i in range(n):
        Player.objects.create(tournament=t, name=f"Player {i + 1:02d}", rating=start_rating - step * i)
    renumber(t)
    return list(t.player_set.order_by("tpn"))


def play_round(t, user=None, results=None):
    """Pair, publish and fill in every result (White wins unless ``results`` says)."""
    from pairing.models import GameResult
    from pairing.services import rounds

    rnd = rounds.pair_next_round(t, user)
    publish(rnd, user)
    for i, g in enumerate(rnd.games()):
        record_result(g, (results or {}).get(i, GameResult.WHITE_WINS), user)
    rnd.refresh_from_db()
    return rnd


def shown_byes(t, number: int) -> str:
    """The ``seen`` field of the byes page for round ``number`` as it would be sent now."""
    from pairing.models import Bye

    return ",".join(f"{b.player_id}:{b.kind}" for b in Bye.objects.filter(tournament=t, round_number=number))


def shown_version(row) -> str:
    """The ``seen`` field of a settings or player form opened now."""
    return type(row).objects.get(pk=row.pk).version()


def out_of_fide_mode(t, since: int = 0) -> None:
    """Take ``t`` out of FIDE mode directly (the tests of what only that allows)."""
    type(t).objects.filter(pk=t.pk).update(fide_mode=False, fide_mode_left_round=since)
    t.refresh_from_db()


def confirmation_page(response) -> dict:
    """The confirmation page of a warning level: ``{"action", "fields", "level", "second"}``
    (fields as a dict of lists, the signed token included); fails if it is not one."""
    import html
    import re

    page = response.content.decode()
    assert response.status_code == 200 and 'id="confirm"' in page, page[:2000]
    form = page[page.index('<section class="card confirm'):]
    action = html.unescape(re.search(r'<form method="post" action="([^"]*)"', form).group(1))
    fields: dict[str, list[str]] = {}
    for name, value in re.findall(r'<input type="hidden" name="([^"]*)" value="([^"]*)">', form):
        if name != "csrfmiddlewaretoken":
            fields.setdefault(html.unescape(name), []).append(html.unescape(value))
    level = int(re.search(r"Level (\d) warning", form).group(1))
    return {"action": action, "fields": fields, "level": level, "second": "second of two" in form}


def confirm(client, response, times: int | None = None):
    """Answer the confirmation page(s) of ``response`` as the arbiter would (once for
    Level 3, twice for Level 4, or ``times``); returns the last response."""
    page = confirmation_page(response)
    times = times if times is not None else page["level"] - 2
    for _ in range(times):
        page = confirmation_page(response)
        response = client.post(page["action"], page["fields"])
    return response


def open_session(client, t, number: int = 1):
    """Start a manual-pairing session on the draft of round ``number`` through the page."""
    from django.urls import reverse

    return client.post(reverse("pairing:round_manual", args=[t.slug, number]), {"op": "start"})


def hand_changed_round(t):
    """Pair the next round, reverse the colours of board 1 in a manual-pairing session
    (confirmed), publish it and enter White wins everywhere; returns board 1 as it
    stood before the change."""
    from pairing.services import manual
    from pairing.services.rounds import pair_next_round, swap_players

    rnd = pair_next_round(t)
    manual.start_session(rnd)
    g = rnd.games().first()
    swap_players(rnd, g.white, g.black, confirmations=1)
    manual.end_session(rnd, confirmations=1)
    publish(rnd)
    for game in rnd.games():
        record_result(game, "1-0")
    return g


def rating_file_comments(last_round: int, system: str = "FIDE Dubov system, C.04.4.1") -> list[str]:
    """The ``###`` lines of the file for rating of a tournament whose rounds 1..last_round the
    engine paired: the C.07 text and who paired the rounds (never an integrity line)."""
    return ["### Tie-break regulations (C.07): 2026 text",
            f"### Paired by: Dubov arbiter {VERSION} ({system}): rounds 1-{last_round}"]
