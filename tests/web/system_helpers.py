"""What the tests of the Dutch and the Burstein tournaments share: a round's pairs by TPN,
an engine's pairing of the same snapshot, rounds written by hand, a page's visible text."""

from __future__ import annotations

import re
from dataclasses import replace

from pairing import engine
from pairing.models import Game, Round, RoundStatus, Tournament
from pairing.services.snapshot import build_snapshot
from tests.web.helpers import add_players, play_round


def with_system(t: Tournament, system: str) -> Tournament:
    """``t`` switched to ``system`` directly (no round yet, so nothing to lock)."""
    Tournament.objects.filter(pk=t.pk).update(system=system)
    t.refresh_from_db()
    return t


def pairs(rnd: Round) -> list[tuple[int, int]]:
    """The boards of ``rnd`` as (White's TPN, Black's TPN)."""
    return [(g.white.tpn, g.black.tpn) for g in rnd.games()]


def engine_pairs(t: Tournament, number: int, system: engine.System) -> list[tuple[int, int]]:
    """Round ``number`` as ``system``'s engine pairs it from the tournament's state now."""
    snapshot = replace(build_snapshot(t, number), system=system)
    tpn = dict(t.player_set.values_list("pk", "tpn"))
    return [(tpn[b.white], tpn[b.black]) for b in engine.pair_round(snapshot).boards]


def play_rounds(t: Tournament, players: int, results: list[dict]) -> None:
    """``players`` players, then one round paired, published and played per item of
    ``results`` (board index to result; White wins elsewhere)."""
    add_players(t, players)
    for round_results in results:
        play_round(t, results=round_results)


def played(t: Tournament, number: int, boards: list[tuple]) -> None:
    """Round ``number`` complete with ``boards`` (white, black, result)."""
    from django.utils import timezone

    rnd = Round.objects.create(tournament=t, number=number, status=RoundStatus.COMPLETE, published_at=timezone.now())
    Game.objects.create_boards(rnd, ((i, w.pk, b.pk, r) for i, (w, b, r) in enumerate(boards, start=1)))


def draft(t: Tournament, number: int, boards: list[tuple]) -> Round:
    """A draft of round ``number`` with ``boards`` (white, black)."""
    rnd = Round.objects.create(tournament=t, number=number, status=RoundStatus.DRAFT)
    Game.objects.create_boards(rnd, ((i, w.pk, b.pk, "") for i, (w, b) in enumerate(boards, start=1)))
    return rnd


def visible_text(page: str) -> str:
    """The words a reader sees on ``page`` (no scripts, styles, titles, options, the system
    radio buttons or the product's name "Dubov arbiter")."""
    page = re.sub(r"<(script|style|title|option)[^>]*>.*?</\1>", " ", page, flags=re.S)
    page = re.sub(r"<label[^>]*><input type=\"radio\" name=\"system\".*?</label>", " ", page, flags=re.S)
    page = re.sub(r"<[^>]+>", " ", page)
    return re.sub(r"\s+", " ", page).replace("Dubov arbiter", "")
