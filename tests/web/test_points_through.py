"""The points before a round, counted by the database (reports.standings.points_through),
are the points the histories give (services.snapshot.histories, what the engine and the
standings read): on imported tournaments with every kind of result and bye, a draft's
PAB left out, and None while a board has no result."""

from __future__ import annotations

from decimal import Decimal

import pytest

from pairing.engine import trf
from pairing.engine.generator import GeneratorConfig, generate
from pairing.engine.model import PointSystem
from pairing.models import Game, GameResult, Round
from pairing.reports.standings import points_through
from pairing.services import interchange, rounds
from pairing.services.snapshot import histories, point_system


def _by_histories(t, up_to):
    ps = point_system(t)
    return {pk: sum((ps.points(e.result) for e in h), Decimal(0)) for pk, h in histories(t, up_to).items()}


@pytest.mark.django_db
@pytest.mark.parametrize("seed", [1, 2, 3])
def test_points_counted_by_the_database_are_the_histories(tournament, chief, seed):
    points = PointSystem() if seed != 2 else PointSystem(win=Decimal(3), draw=Decimal(1), forfeit_win=Decimal(3),
                                                          pairing_bye=Decimal(1), full_bye=Decimal(3), half_bye=Decimal(1))
    config = GeneratorConfig(players=13 + seed, rounds=7, seed=seed, bye_rate=0.1, forfeit_rate=0.08,
                             odd_result_rate=0.1, withdrawal_rate=0.02, points=points)
    played = generate(config, rounds_to_play=5)
    text = trf.dump_trf(trf.TrfTournament(
        name=tournament.name, total_rounds=7, initial_colour=played.initial_colour, points=played.points,
        players=tuple(trf.TrfPlayer(id=p.tpn, name=f"Player {p.tpn:02d}", rating=p.rating,
                                    points=sum((played.points.points(e.result) for e in p.history), Decimal(0)),
                                    history=p.history) for p in played.players)))
    interchange.import_trf(tournament, text, chief, confirmations=2)
    tournament.refresh_from_db()
    rnd = rounds.pair_next_round(tournament, chief)  # a draft: its games and PAB count nowhere
    assert rnd.is_draft
    kinds = set(Game.objects.filter(round__tournament=tournament).values_list("result", flat=True))
    assert len(kinds) >= 4  # wins, draws, forfeits, odd results...
    for up_to in range(0, 7):
        assert points_through(tournament, up_to) == _by_histories(tournament, up_to), up_to
    assert any(v % 1 for v in points_through(tournament, 5).values()) or seed == 2


@pytest.mark.django_db
def test_points_through_a_round_with_a_board_still_open_are_not_counted(tournament, chief, players):
    from tests.web.helpers import play_round

    play_round(tournament, chief)
    rnd = rounds.pair_next_round(tournament, chief)
    rounds.publish(rnd, chief)
    assert points_through(tournament, 1) == _by_histories(tournament, 1)
    assert points_through(tournament, 2) is None
    Game.objects.filter(round=rnd).update(result=GameResult.ADJOURNED)  # a draw until its result comes
    assert points_through(tournament, 2) == _by_histories(tournament, 2)
    assert Round.objects.filter(tournament=tournament).count() == 2


@pytest.mark.django_db
def test_histories_name_the_round_and_board_still_without_a_result(tournament, chief, players):
    """The histories read the games without their rounds (the numbers apart); a board
    still open is named by its round and board, and stops only the lines it is on."""
    from tests.web.helpers import play_round

    play_round(tournament, chief)
    rnd = rounds.pair_next_round(tournament, chief)
    rounds.publish(rnd, chief)
    open_board = rnd.game_set.order_by("-board").first()
    rnd.game_set.exclude(pk=open_board.pk).update(result=GameResult.WHITE_WINS)
    with pytest.raises(ValueError, match=rf"^round 2 board {open_board.board} has no result yet$"):
        histories(tournament, 2)
    # several boards open: the first by round and board is named (the games are read unordered)
    second = rnd.game_set.exclude(pk=open_board.pk).order_by("-board").first()
    rnd.game_set.filter(pk=second.pk).update(result=GameResult.PENDING)
    with pytest.raises(ValueError, match=rf"^round 2 board {second.board} has no result yet$"):
        histories(tournament, 2)
    rnd.game_set.filter(pk=second.pk).update(result=GameResult.WHITE_WINS)
    elsewhere = list(tournament.player_set.exclude(pk__in=[open_board.white_id, open_board.black_id]))[:3]
    lines = histories(tournament, 2, elsewhere)
    assert set(lines) == {p.pk for p in elsewhere} and all(len(h) == 2 for h in lines.values())
    assert all(h[1].opponent is not None or h[1].result.is_bye for h in lines.values())
    assert len(histories(tournament, 1)) == tournament.player_set.count()
