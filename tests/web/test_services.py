"""The services that talk to the engine: models -> Snapshot, Pairing -> draft rows, swaps, warnings."""

from __future__ import annotations

from decimal import Decimal

import pytest
from django.db.models import Q

from pairing.engine import Colour, Result, RoundEntry
from pairing.models import Bye, ByeKind, Game, GameResult, Player, Round, RoundStatus
from pairing.reports import aro, standings
from pairing.services import manual, rounds, snapshot
from pairing.services.rounds import publish
from tests.web.helpers import play_round


def test_engine_ids_are_player_pks_and_tpns_come_from_the_model(tournament, players):
    snap = snapshot.build_snapshot(tournament)
    assert [(p.id, p.tpn, p.rating, p.name) for p in snap.players] == [
        (p.pk, p.tpn, p.rating, p.name) for p in players
    ]
    assert snap.round_number == 1 and snap.total_rounds == 5
    assert snap.initial_colour is Colour(tournament.initial_colour)


def test_the_point_system_comes_from_the_tournament(tournament):
    tournament.point_win, tournament.point_draw, tournament.point_pab = Decimal(3), Decimal(1), Decimal(1)
    tournament.save()
    ps = snapshot.point_system(tournament)
    assert (ps.win, ps.draw, ps.loss, ps.pairing_bye, ps.forfeit_win) == (3, 1, 0, 1, 3)


def test_history_comes_from_games_and_byes(chief, tournament, players):
    Bye.objects.create(tournament=tournament, player=players[9], round_number=1, kind=ByeKind.HALF)
    rnd = play_round(tournament, chief, {0: GameResult.DRAW, 1: GameResult.WHITE_FORFEIT_WIN})
    snap = snapshot.build_snapshot(tournament)
    by_id = {p.id: p for p in snap.players}
    g0, g1 = list(rnd.games())[:2]
    assert by_id[g0.white_id].history == (RoundEntry(g0.black_id, Colour.WHITE, Result.DRAW),)
    assert by_id[g0.black_id].history == (RoundEntry(g0.white_id, Colour.BLACK, Result.DRAW),)
    assert by_id[g1.white_id].history == (RoundEntry(g1.black_id, Colour.WHITE, Result.FORFEIT_WIN),)
    assert by_id[g1.black_id].history == (RoundEntry(g1.white_id, Colour.BLACK, Result.FORFEIT_LOSS),)
    assert by_id[players[9].pk].history == (RoundEntry(None, None, Result.HALF_BYE),)
    pab = rnd.pab()
    assert by_id[pab.player_id].history == (RoundEntry(None, None, Result.PAIRING_BYE),)


def test_a_double_forfeit_is_a_forfeit_loss_for_both(chief, tournament, players):
    rnd = play_round(tournament, chief, {0: GameResult.DOUBLE_FORFEIT})
    g = rnd.games().first()
    by_id = {p.id: p for p in snapshot.build_snapshot(tournament).players}
    assert by_id[g.white_id].history[0].result is Result.FORFEIT_LOSS
    assert by_id[g.black_id].history[0].result is Result.FORFEIT_LOSS


def test_a_late_entry_has_zero_point_rounds_before_arrival(chief, tournament, players):
    play_round(tournament, chief)
    late = Player.objects.create(tournament=tournament, name="Late", rating=1500)
    by_id = {p.id: p for p in snapshot.build_snapshot(tournament).players}
    assert by_id[late.pk].history == (RoundEntry(None, None, Result.ZERO_BYE),)


def test_requested_byes_and_withdrawals_are_absent(tournament, players):
    Bye.objects.create(tournament=tournament, player=players[0], round_number=1, kind=ByeKind.HALF)
    Bye.objects.create(tournament=tournament, player=players[1], round_number=2, kind=ByeKind.ZERO)
    Player.objects.filter(pk=players[2].pk).update(withdrawn_from_round=1)
    Player.objects.filter(pk=players[3].pk).update(withdrawn_from_round=3)
    assert snapshot.build_snapshot(tournament).absent == {players[0].pk, players[2].pk}


def test_pairing_writes_a_draft_with_games_and_the_pab(chief, tournament, players):
    Player.objects.create(tournament=tournament, name="Eleventh", rating=1000)
    rnd = rounds.pair_next_round(tournament, chief)
    assert rnd.status == RoundStatus.DRAFT and rnd.number == 1
    assert rnd.game_set.count() == 5
    assert rnd.pab().player.name == "Eleventh"
    assert rnd.explanation["bye"]["player"] == rnd.pab().player_id
    assert len(rnd.explanation["colours"]) == 5


def test_a_draft_is_not_history(chief, tournament, players):
    rounds.pair_next_round(tournament, chief)
    snap = snapshot.build_snapshot(tournament, 1)
    assert all(p.history == () for p in snap.players)


def test_pairing_twice_returns_the_same_draft(chief, tournament, players):
    first = rounds.pair_next_round(tournament, chief)
    assert rounds.pair_next_round(tournament, chief).pk == first.pk
    assert Round.objects.count() == 1


def test_pairing_is_refused_while_results_are_missing(chief, tournament, players):
    rnd = rounds.pair_next_round(tournament, chief)
    publish(rnd, chief)
    with pytest.raises(rounds.PairingRefused, match="5 result"):
        rounds.pair_next_round(tournament, chief)


def test_pairing_is_refused_after_the_last_round(chief, tournament, players):
    tournament.rounds = 1
    tournament.save()
    play_round(tournament, chief)
    with pytest.raises(rounds.PairingRefused, match="All 1 rounds"):
        rounds.pair_next_round(tournament, chief)


def test_too_few_players_present_is_refused(chief, tournament, players):
    for p in players[1:]:
        Bye.objects.create(tournament=tournament, player=p, round_number=1, kind=ByeKind.ZERO)
    with pytest.raises(rounds.PairingRefused, match="Only 1 player"):
        rounds.pair_next_round(tournament, chief)


def test_no_legal_pairing_is_explained(chief, tournament):
    """Two players who have met: round 2 cannot be paired.  The message names them by
    name and pairing number (their database ids differ from those: players of another
    tournament were registered first) and says what the arbiter can do (1.8.3)."""
    from pairing.models import Tournament
    from tests.web.helpers import add_players

    add_players(Tournament.objects.create(slug="other", name="Other", owner=chief), 3)
    tournament.rounds = 3
    tournament.save()
    add_players(tournament, 2)
    play_round(tournament, chief)
    with pytest.raises(rounds.PairingRefused, match="No legal pairing") as refused:
        rounds.pair_next_round(tournament, chief)
    assert Round.objects.count() == 1
    message = str(refused.value)
    assert "Player 01 (No 1)" in message and "Player 02 (No 2)" in message
    assert "TPN" not in message
    assert "Byes" in message and "Forbidden pairs" in message and "end the tournament after round 1" in message


def test_swap_in_a_draft_warns_about_a_rematch(chief, tournament, players):
    play_round(tournament, chief)
    first = Game.objects.filter(round__number=1).order_by("board").first()
    rnd = rounds.pair_next_round(tournament, chief)
    # put the two players of round 1's first board on the same board again
    g = rnd.game_set.filter(white=first.white).first() or rnd.game_set.get(black=first.white)
    partner = g.black if g.white_id == first.white_id else g.white
    manual.start_session(rnd, chief)
    warnings = rounds.swap_players(rnd, partner, first.black, chief, confirmations=1)
    assert any("met before" in w for w in warnings)
    assert Game.objects.filter(round=rnd).count() == 5
    rnd.refresh_from_db()
    assert rnd.manual_changes == 1


def test_swapping_players_on_one_board_swaps_colours(chief, tournament, players):
    rnd = rounds.pair_next_round(tournament, chief)
    g = rnd.games().first()
    manual.start_session(rnd, chief)
    rounds.swap_players(rnd, g.white, g.black, chief, confirmations=1)
    g2 = rnd.games().first()
    assert (g2.white_id, g2.black_id) == (g.black_id, g.white_id)


def test_moving_an_ineligible_player_into_the_pab_warns(chief, tournament, players):
    Player.objects.create(tournament=tournament, name="Eleventh", rating=1000)
    play_round(tournament, chief)  # Eleventh has the PAB in round 1
    rnd = rounds.pair_next_round(tournament, chief)
    eleventh = Player.objects.get(name="Eleventh")
    pab = rnd.pab().player
    assert pab != eleventh
    manual.start_session(rnd, chief)
    warnings = rounds.swap_players(rnd, pab, eleventh, chief, confirmations=1)
    assert rnd.pab().player == eleventh
    assert any("not eligible" in w for w in warnings)


def test_a_published_round_cannot_be_swapped(chief, tournament, players):
    rnd = rounds.pair_next_round(tournament, chief)
    publish(rnd, chief)
    with pytest.raises(ValueError, match="Only a draft"):
        rounds.swap_players(rnd, players[0], players[1], chief)


def test_aro_list_groups_by_score_with_preferences(chief, tournament, players):
    play_round(tournament, chief)
    number, groups = aro.aro_list(tournament)
    assert number == 2
    assert [g.score for g in groups] == [Decimal(1), Decimal(0)]
    winners = groups[0]
    # winners had White: they now seek Black
    assert len(winners.black_seekers) == 5 and not winners.white_seekers
    assert all(r.preference == "b" for r in winners.black_seekers)
    ratings = [r.player.rating for r in winners.black_seekers]
    assert ratings == sorted(ratings, reverse=True)
    aros = [r.aro for r in groups[1].white_seekers]
    assert aros == sorted(aros)


def test_standings_use_points_then_tiebreaks(chief, tournament, players):
    play_round(tournament, chief)
    labels, rows, rounds = standings.standings(tournament)
    assert labels == ["BH-C1", "BH", "SB"] and rounds == 1
    assert [r.points for r in rows[:5]] == [1] * 5
    assert rows[0].rank == 1


def test_history_of_some_players_only(chief, tournament, players):
    play_round(tournament, chief)
    play_round(tournament, chief)
    full = snapshot.histories(tournament, 2)
    some = snapshot.histories(tournament, 2, players[:2])
    assert some == {p.pk: full[p.pk] for p in players[:2]}


def test_an_engine_failure_is_reported_not_a_server_error(chief, tournament, players, monkeypatch):
    from pairing import engine

    def broken(snapshot):
        raise engine.EngineError("internal error: something went wrong")

    monkeypatch.setattr(engine, "pair_round", broken)
    with pytest.raises(rounds.PairingRefused, match="engine failed"):
        rounds.pair_next_round(tournament, chief)
    assert Round.objects.count() == 0


def test_a_swap_that_breaks_colour_limits_warns(chief, tournament, players):
    """Players who had White twice get a warning when a swap gives them White again."""
    a, b, c, d = players[:4]
    for number, boards in ((1, [(1, a.pk, b.pk, "1-0"), (2, c.pk, d.pk, "1-0")]),
                           (2, [(1, a.pk, c.pk, "0-1"), (2, d.pk, b.pk, "1-0")])):
        rnd = Round.objects.create(tournament=tournament, number=number, status=RoundStatus.COMPLETE)
        Game.objects.create_boards(rnd, boards)
    for p in players[4:]:
        Player.objects.filter(pk=p.pk).update(withdrawn_from_round=1)
    draft = rounds.pair_next_round(tournament, chief)
    game_a = draft.game_set.get(Q(white=a) | Q(black=a))
    assert game_a.black_id == a.pk  # the engine respects the absolute preference
    manual.start_session(draft, chief)
    warnings = rounds.swap_players(draft, a, game_a.white, chief, confirmations=1)
    assert any("three times in a row" in w or "colour difference" in w for w in warnings)
