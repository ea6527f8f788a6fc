"""The shared standings (``reports.standings.ranked``) read the players as plain rows of the
fields the ranking uses (``RankedPlayer``), not as model instances: the same table as the
standings computed from the models, with everything that reads a player's fields -- an
expelled player, the chief arbiter's order and the drawing of lots, the typed tie-break
(EXT), FIDE, national and provisional ratings (TPR, the average rating, the Rtg ± column)."""

from __future__ import annotations

from decimal import Decimal

import pytest

from pairing import tiebreaks as tb
from pairing.models import GameResult, Player, Tournament
from pairing.models.tournament import bump_revision
from pairing.reports import rating_change
from pairing.reports import standings as st
from tests.web.helpers import play_round


@pytest.mark.django_db
@pytest.mark.parametrize("final_ties", ["share", "lots"])
def test_the_ranking_of_plain_rows_is_the_ranking_of_the_models(tournament, chief, players, final_ties):
    Tournament.objects.filter(pk=tournament.pk).update(
        tiebreaks="EXT, BH-C1, ARO, TPR, SB", final_ties=final_ties, lots_seed=7,
        unrated_tiebreaks="lowest")  # the provisional rating is no rating here: counted at the lowest
    tournament.refresh_from_db()
    draws = {0: GameResult.DRAW, 2: GameResult.BLACK_WINS, 3: GameResult.DRAW}
    for _ in range(3):
        play_round(tournament, chief, draws)
    by_tpn = list(tournament.player_set.order_by("tpn"))
    Player.objects.filter(pk=by_tpn[0].pk).update(fide_rating=2301)
    Player.objects.filter(pk=by_tpn[1].pk).update(national_rating=2105, fide_rating=None)
    Player.objects.filter(pk=by_tpn[2].pk).update(rating_provisional=True)
    Player.objects.filter(pk=by_tpn[3].pk).update(external_tiebreak=Decimal("1.5"))
    Player.objects.filter(pk=by_tpn[4].pk).update(withdrawn_from_round=3, expelled=True)
    Player.objects.filter(pk__in=[p.pk for p in by_tpn[5:8]]).update(hand_rank=None)
    Player.objects.filter(pk=by_tpn[8].pk).update(hand_rank=1)
    bump_revision(tournament.pk)
    tournament.refresh_from_db()

    ranked = st._ranked(tournament, 3, True)
    models = st.standings_table(tournament, 3, True, extra=(tb.TieBreak.TPR,))

    def line(r):
        return (r.player.pk, r.rank, r.points, tuple(r.tiebreaks), tuple(r.no_value))

    assert [tuple(r) for r in ranked.rows] == [line(r) for r in models.rows]
    assert [tuple(r) for r in ranked.expelled] == [line(r) for r in models.expelled] != []
    assert ranked.labels == ("EXT", "BH-C1", "ARO", "TPR", "SB")
    assert ranked.tpr == {pk: int(v[0]) if v[0] is not None else None for pk, v in models.extra.items()}
    assert ranked.average_rating == rating_change.average_rating(models.players)
    assert ranked.rated == rating_change.any_rated(models.players, models.hist) is True
    assert isinstance(models.players[0], Player) and isinstance(ranked.rows[0].player_id, int)
