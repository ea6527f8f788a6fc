"""Database constraints: the rules hold even if a bug gets past the forms."""

from __future__ import annotations

from decimal import Decimal

import pytest
from django.db import IntegrityError, transaction

from pairing.models import Bye, ByeKind, Game, GameResult, Player, Round, RoundStatus, Tournament


def refused(fn) -> bool:
    try:
        with transaction.atomic():
            fn()
    except IntegrityError:
        return True
    return False


def test_tpn_is_unique_per_tournament(tournament, players):
    assert refused(lambda: Player.objects.create(tournament=tournament, tpn=1, name="Twin", rating=2000))


def test_the_same_tpn_is_fine_in_another_tournament(tournament, players, chief):
    other = Tournament.objects.create(slug="other", name="Other", owner=chief)
    Player.objects.create(tournament=other, tpn=1, name="First", rating=2000)


@pytest.mark.parametrize("rating", [0, 4000])
def test_a_rating_must_be_between_1_and_3500(tournament, rating):
    assert refused(lambda: Player.objects.create(tournament=tournament, name="X", rating=rating))


def test_a_player_needs_a_name(tournament):
    assert refused(lambda: Player.objects.create(tournament=tournament, name="", rating=1500))


def test_an_unknown_title_is_refused(tournament):
    assert refused(lambda: Player.objects.create(tournament=tournament, name="X", rating=1500, title="XX"))


@pytest.mark.parametrize(
    "fields",
    [
        {"point_win": Decimal("0.5"), "point_draw": Decimal("0.5")},  # win must beat a draw
        {"point_loss": Decimal("0.7")},  # draw >= loss
        {"point_pab": Decimal("2")},  # PAB at most a win
        {"point_half_bye": Decimal("-1")},
        {"rounds": 0},
        {"initial_colour": "x"},
        {"initial_colour_method": "guess"},
    ],
)
def test_tournament_checks(tournament, fields):
    assert refused(lambda: Tournament.objects.filter(pk=tournament.pk).update(**fields))


def test_round_numbers_are_unique_per_tournament(tournament):
    Round.objects.create(tournament=tournament, number=1, status=RoundStatus.COMPLETE)
    assert refused(lambda: Round.objects.create(tournament=tournament, number=1, status=RoundStatus.COMPLETE))


def test_a_tournament_has_at_most_one_draft(tournament):
    Round.objects.create(tournament=tournament, number=1)
    assert refused(lambda: Round.objects.create(tournament=tournament, number=2))


def test_a_round_status_must_be_known(tournament):
    assert refused(lambda: Round.objects.create(tournament=tournament, number=1, status="maybe"))


@pytest.fixture
def rnd(tournament):
    return Round.objects.create(tournament=tournament, number=1, status=RoundStatus.PUBLISHED)


def test_one_game_per_board(rnd, players):
    Game.objects.create(round=rnd, board=1, white=players[0], black=players[1])
    assert refused(lambda: Game.objects.create(round=rnd, board=1, white=players[2], black=players[3]))


def test_a_player_has_one_game_with_each_colour_at_most(rnd, players):
    Game.objects.create(round=rnd, board=1, white=players[0], black=players[1])
    assert refused(lambda: Game.objects.create(round=rnd, board=2, white=players[0], black=players[3]))
    assert refused(lambda: Game.objects.create(round=rnd, board=2, white=players[3], black=players[1]))


def test_a_player_cannot_play_themselves(rnd, players):
    assert refused(lambda: Game.objects.create(round=rnd, board=1, white=players[0], black=players[0]))


@pytest.mark.parametrize("result", [c.value for c in GameResult])
def test_every_listed_result_is_accepted(rnd, players, result):
    Game.objects.create(round=rnd, board=1, white=players[0], black=players[1], result=result)


def test_an_unknown_result_is_refused(rnd, players):
    assert refused(
        lambda: Game.objects.create(round=rnd, board=1, white=players[0], black=players[1], result="2-0")
    )


def test_one_bye_per_player_per_round(tournament, players):
    Bye.objects.create(tournament=tournament, player=players[0], round_number=2, kind=ByeKind.HALF)
    assert refused(
        lambda: Bye.objects.create(tournament=tournament, player=players[0], round_number=2, kind=ByeKind.ZERO)
    )


def test_one_pairing_allocated_bye_per_round(tournament, players):
    Bye.objects.create(tournament=tournament, player=players[0], round_number=1, kind=ByeKind.PAIRING)
    assert refused(
        lambda: Bye.objects.create(tournament=tournament, player=players[1], round_number=1, kind=ByeKind.PAIRING)
    )


def test_an_unknown_bye_kind_is_refused(tournament, players):
    assert refused(lambda: Bye.objects.create(tournament=tournament, player=players[0], round_number=1, kind="Q"))


def test_a_player_cannot_have_two_games_in_a_round_whatever_the_colours(rnd, players):
    """The seats table: white on one board and black on another is refused too."""
    Game.objects.create_boards(rnd, [(1, players[0].pk, players[1].pk, "")])
    assert refused(lambda: Game.objects.create_boards(rnd, [(2, players[2].pk, players[0].pk, "")]))
    assert Game.objects.count() == 1


def test_boards_get_one_seat_per_player(rnd, players):
    from pairing.models import Seat

    Game.objects.create_boards(rnd, [(1, players[0].pk, players[1].pk, ""), (2, players[2].pk, players[3].pk, "")])
    assert Seat.objects.filter(round=rnd).count() == 4


def test_a_player_with_games_cannot_be_deleted_but_the_whole_tournament_can(chief, tournament, players):
    """Games hold their players (RESTRICT): deleting one player would tear boards apart;
    deleting the tournament takes games, seats and players together."""
    from django.db.models import RestrictedError

    from tests.web.helpers import play_round

    play_round(tournament, chief)
    with pytest.raises(RestrictedError):
        Player.objects.get(pk=players[0].pk).delete()
    assert Game.objects.count() == 5
    tournament.delete()
    assert not Game.objects.exists() and not Player.objects.exists()
