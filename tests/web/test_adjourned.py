"""Adjourned (postponed) games (VCL4THP Q157–169): a draw for pairing and standings
until the result comes, which may be entered in any later round."""

from __future__ import annotations

from django.urls import reverse

from pairing.engine.trf import parse_trf
from pairing.models import GameResult, IntegrityEvent
from pairing.reports.standings import standings
from pairing.services import interchange
from tests.web.helpers import add_players, confirm, confirmation_page, play_round


def enter(client, game, key, **headers):
    r = game.round
    return client.post(reverse("pairing:game_result", args=[r.tournament.slug, r.number, game.pk]),
                       {"result": key, "expected": game.result}, **headers)


def test_vcl_q157_q168_a_game_is_adjourned_counts_as_a_draw_and_the_next_round_is_paired_with_a_notice(chief_client, tournament):
    add_players(tournament, 6)
    rnd = play_round(tournament)
    g = rnd.games().first()
    enter(chief_client, g, "?")
    g.refresh_from_db()
    assert g.result == GameResult.ADJOURNED
    points = {row.player.pk: row.points for row in standings(tournament)[1]}
    assert points[g.white_id] == points[g.black_id] == tournament.point_draw
    page = chief_client.get(reverse("pairing:standings", args=[tournament.slug])).content.decode()
    assert 'id="not-final"' in page and f"round 1 board {g.board}" in page
    # the next round is paired with it open (Level 2 notice), the two never meet again
    response = chief_client.post(reverse("pairing:pair_next", args=[tournament.slug]), follow=True)
    assert "Paired with adjourned games still open, counted as draws: round 1 board 1" in response.content.decode()
    second = tournament.round_set.get(number=2)
    assert not second.game_set.filter(white__in=[g.white, g.black], black__in=[g.white, g.black]).exists()


def test_vcl_q162_q163_a_final_result_other_than_a_draw_needs_level_3_once_later_rounds_were_paired(
    chief_client, tournament
):
    add_players(tournament, 6)
    g = play_round(tournament).games().first()
    enter(chief_client, g, "?")
    for _ in range(3):
        play_round(tournament)
    g.refresh_from_db()
    # round 1 is closed in FIDE mode now, but the adjourned game still takes its result
    response = enter(chief_client, g, "1")
    assert confirmation_page(response)["level"] == 3
    assert "were made with this game as a draw" in response.content.decode()
    confirm(chief_client, response)
    g.refresh_from_db()
    assert g.result == GameResult.WHITE_WINS
    line = IntegrityEvent.objects.get().line
    assert line == f"Adjourned game finished @ Round 1: board 1 {g.white.tpn}-{g.black.tpn} 1-0 (paired as a draw)"


def test_vcl_q167_the_provisional_score_is_a_draw_so_a_final_draw_asks_nothing(chief_client, tournament):
    add_players(tournament, 6)
    g = play_round(tournament).games().first()
    enter(chief_client, g, "?")
    play_round(tournament)
    g.refresh_from_db()
    assert enter(chief_client, g, "=").status_code == 302
    g.refresh_from_db()
    assert g.result == GameResult.DRAW and not IntegrityEvent.objects.exists()


def test_vcl_q164_q165_q169_no_rating_report_while_a_game_is_open_and_the_copy_writes_a_question_mark(
    chief_client, tournament
):
    add_players(tournament, 6)
    g = play_round(tournament).games().first()
    enter(chief_client, g, "?")
    url = reverse("pairing:trf_export", args=[tournament.slug])
    response = chief_client.get(url, follow=True)
    assert "The file for rating waits for the adjourned games: round 1 board 1" in response.content.decode()
    copy = chief_client.get(url + "?copy=1").content.decode()
    by_id = {p.id: p for p in parse_trf(copy).players}
    assert by_id[g.white.tpn].history[0].result.value == "?"
    # and the copy imports back with the game still adjourned
    from pairing.models import Game, Tournament

    fresh = Tournament.objects.create(slug="again", name="Again", owner=tournament.owner)
    interchange.import_trf(fresh, copy)
    assert Game.objects.filter(round__tournament=fresh, result=GameResult.ADJOURNED).count() == 1


def _published(t):
    """Round 1 paired and published, no result entered."""
    from pairing.services.rounds import pair_next_round, publish

    rnd = pair_next_round(t)
    publish(rnd)
    return rnd


def test_vcl_q158_open_boards_become_adjourned_at_pairing_time_after_level_3(chief_client, tournament):
    """Round 1 has two boards without a result: the overview offers to adjourn them and
    pair round 2; the arbiter confirms at Level 3 (nothing changes before), then both are
    adjourned (draws for now) and round 2 is paired with the Level-2 notice."""
    from tests.web.helpers import add_players as _add

    _add(tournament, 6)
    rnd = _published(tournament)
    games = list(rnd.games())
    for g in games[2:]:
        enter(chief_client, g, "1")
    overview = chief_client.get(reverse("pairing:tournament", args=[tournament.slug])).content.decode()
    assert 'id="adjourn-open"' in overview and "Adjourn the 2 open boards and pair round 2" in overview
    response = chief_client.post(reverse("pairing:pair_next", args=[tournament.slug]), {"adjourn_open": "1"})
    page = confirmation_page(response)
    assert page["level"] == 3 and "board 1 (" in response.content.decode() and "board 2 (" in response.content.decode()
    assert not rnd.game_set.filter(result=GameResult.ADJOURNED).exists()
    response = confirm(chief_client, response)
    assert response.status_code == 302
    assert rnd.game_set.filter(result=GameResult.ADJOURNED).count() == 2
    assert tournament.round_set.filter(number=2).exists()
    follow = chief_client.get(response["Location"]).content.decode()
    assert "Paired with adjourned games still open" in follow


def test_without_the_confirmation_open_boards_still_block_the_pairing(chief_client, tournament):
    from tests.web.helpers import add_players as _add

    _add(tournament, 6)
    _published(tournament)
    response = chief_client.post(reverse("pairing:pair_next", args=[tournament.slug]), follow=True)
    assert "still has 3 results to enter (boards 1, 2, 3)" in response.content.decode()
    assert not tournament.round_set.filter(number=2).exists()
