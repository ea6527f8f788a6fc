"""Odd and unrated results (VCL4THP Q180–186): ½-0, 0-½ and 0-0 over the board, and
games under one move (TRF W D L: games for pairing, not rated), from the keyboard keys
to the standings, the engine and the TRF files."""

from __future__ import annotations

import pytest
from django.urls import reverse

from pairing.engine.trf import parse_trf
from pairing.models import Game, GameResult, Tournament
from pairing.reports.standings import standings
from pairing.services import interchange
from pairing.services.rounds import pair_next_round, publish
from tests.web.helpers import add_players


def first_round(t):
    rnd = pair_next_round(t)
    publish(rnd)
    return list(rnd.games())


def enter(client, game, key):
    r = game.round
    return client.post(reverse("pairing:game_result", args=[r.tournament.slug, r.number, game.pk]),
                       {"result": key, "expected": game.result})


def points(t) -> dict[int, str]:
    return {row.player.pk: str(row.points) for row in standings(t)[1]}


@pytest.mark.parametrize(("key", "stored", "white", "black", "codes"), [
    ("a", GameResult.WHITE_HALF, "0.5", "0.0", ("=", "0")),
    ("b", GameResult.BLACK_HALF, "0.0", "0.5", ("0", "=")),
    ("z", GameResult.BOTH_LOSE, "0.0", "0.0", ("0", "0")),
])
def test_vcl_q180_half_zero_zero_half_and_zero_zero_are_entered_scored_and_exported(
    chief_client, tournament, key, stored, white, black, codes
):
    add_players(tournament, 4)
    g1, g2 = first_round(tournament)
    assert enter(chief_client, g1, key).status_code == 302
    enter(chief_client, g2, "1")
    g1.refresh_from_db()
    assert g1.result == stored
    assert (points(tournament)[g1.white_id], points(tournament)[g1.black_id]) == (white, black)
    trf = parse_trf(interchange.export_trf(tournament))
    by_id = {p.id: p for p in trf.players}
    assert (by_id[g1.white.tpn].history[0].result.value, by_id[g1.black.tpn].history[0].result.value) == codes
    # the round is a played game for pairing: the two never meet again
    rnd = pair_next_round(tournament)
    assert not rnd.game_set.filter(white__in=[g1.white, g1.black], black__in=[g1.white, g1.black]).exists()


@pytest.mark.parametrize(("key", "stored", "codes"), [
    ("w", GameResult.WHITE_WINS_UNRATED, ("W", "L")),
    ("d", GameResult.DRAW_UNRATED, ("D", "D")),
    ("l", GameResult.BLACK_WINS_UNRATED, ("L", "W")),
])
def test_vcl_q185_a_game_under_one_move_counts_for_pairing_and_is_exported_unrated(
    chief_client, tournament, key, stored, codes
):
    add_players(tournament, 4)
    g1, g2 = first_round(tournament)
    enter(chief_client, g1, key)
    enter(chief_client, g2, "1")
    g1.refresh_from_db()
    assert g1.result == stored
    text = interchange.export_trf(tournament)
    by_id = {p.id: p for p in parse_trf(text).players}
    assert (by_id[g1.white.tpn].history[0].result.value, by_id[g1.black.tpn].history[0].result.value) == codes
    # and it comes back unrated from the file
    fresh = Tournament.objects.create(slug="again", name="Again", owner=tournament.owner)
    interchange.import_trf(fresh, text)
    assert Game.objects.filter(round__tournament=fresh, result=stored).count() == 1


def test_vcl_q180_the_page_offers_the_other_results_under_more_and_says_their_keys(chief_client, tournament):
    add_players(tournament, 4)
    first_round(tournament)
    page = chief_client.get(reverse("pairing:round", args=[tournament.slug, 1])).content.decode()
    assert '<details class="more-results">' in page
    for value in ("1/2-0", "0-1/2", "0-0", "W-L", "D-D", "L-W"):
        assert f'value="{value}"' in page
    assert "<kbd>a</kbd> ½-0" in page and "<kbd>w</kbd> 1-0" in page


def test_vcl_q181_an_inconsistent_result_is_refused(chief_client, tournament):
    add_players(tournament, 4)
    g1, _ = first_round(tournament)
    enter(chief_client, g1, "1-1")
    g1.refresh_from_db()
    assert g1.result == GameResult.PENDING
