"""Builders for the web tests."""

from __future__ import annotations

from pairing.services.numbering import renumber
from pairing.services.results import record_result
from pairing.services.rounds import publish


def add_players(t, n: int, start_rating: int = 2400):
    """``n`` players with distinct falling ratings; returns them by TPN."""
    from pairing.models import Player

    for i in range(n):
        Player.objects.create(tournament=t, name=f"Player {i + 1:02d}", rating=start_rating - 10 * i)
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
