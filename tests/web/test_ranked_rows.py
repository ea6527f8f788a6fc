"""The shared standings (``reports.standings.ranked``) read the players as plain rows of the
fields the ranking uses (``RankedPlayer``), not as model instances, and a Swiss
tournament's rounds straight into the tie-breaks' columns (``history_table``), not as
history entries: the same table as the standings computed from the models and their
histories, with everything that reads a player's fields -- an expelled player, the chief
arbiter's order and the drawing of lots, the typed tie-break (EXT), FIDE, national and
provisional ratings (TPR, the average rating, the Rtg ± column) -- and every kind of
round: a PAB, requested byes, a forfeit, the next round's draft with its PAB (not counted),
for every tie-break that reads the rounds (colours, wins, forfeits, the last round)."""

from __future__ import annotations

from decimal import Decimal

import pytest

from pairing import tiebreaks as tb
from pairing.models import GameResult, Player, Tournament
from pairing.models.tournament import bump_revision
from pairing.reports import rating_change
from pairing.reports import standings as st
from tests.web.helpers import play_round

ORDERS = {
    "EXT, BH-C1, ARO, TPR, SB": ("EXT", "BH-C1", "ARO", "TPR", "SB"),
    "BWG, BPG, WON, WIN, GE, FB, AOB, KS, PS, STD": ("BWG", "BPG", "WON", "WIN", "GE", "FB", "AOB", "KS", "PS", "STD"),
    "DE, BH-M1, APRO, PTP, APPO, RTNG": ("DE", "BH-M1", "APRO", "PTP", "APPO", "RTNG"),
}


@pytest.mark.django_db
@pytest.mark.parametrize("final_ties", ["share", "lots"])
@pytest.mark.parametrize("order", list(ORDERS))
def test_the_ranking_of_plain_rows_is_the_ranking_of_the_models(tournament, chief, players, final_ties, order):
    from pairing.services import players as player_services
    from pairing.services import rounds
    from tests.web.helpers import add_players

    add_players(tournament, 1, start_rating=1500)  # 11: a PAB each round
    Tournament.objects.filter(pk=tournament.pk).update(
        tiebreaks=order, final_ties=final_ties, lots_seed=7,
        unrated_tiebreaks="lowest")  # the provisional rating is no rating here: counted at the lowest
    tournament.refresh_from_db()
    by_tpn = list(tournament.player_set.order_by("tpn"))
    player_services.set_byes(tournament, 2, {by_tpn[5].pk: "H", by_tpn[6].pk: "Z"}, chief)
    results = {0: GameResult.DRAW, 1: GameResult.WHITE_FORFEIT_WIN, 2: GameResult.BLACK_WINS, 3: GameResult.DRAW}
    for _ in range(3):
        play_round(tournament, chief, results)
    rounds.pair_next_round(tournament, chief)  # round 4 in draft, its PAB not counted
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
    assert models.hist is not None and models.data.columns is None  # the models: entries
    codes = {e.result.value for h in models.hist.values() for e in h}
    rows = tournament.player_set.order_by("tpn").values_list(*st.RankedPlayer._fields)
    light = st.standings_table(tournament, 3, True, extra=(tb.TieBreak.TPR,), players=[st.RankedPlayer(*r) for r in rows])
    assert light.hist is None and light.data.columns is not None  # the ranking's: columns
    assert {"U", "H", "Z", "+", "-", "="} <= codes

    def line(r):
        return (r.player.pk, r.rank, r.points, tuple(r.tiebreaks), tuple(r.no_value))

    assert [tuple(r) for r in ranked.rows] == [line(r) for r in models.rows]
    assert [tuple(r) for r in ranked.expelled] == [line(r) for r in models.expelled] != []
    assert ranked.labels == ORDERS[order]
    assert ranked.tpr == {pk: int(v[0]) if v[0] is not None else None for pk, v in models.extra.items()}
    assert ranked.average_rating == rating_change.average_rating(models.players)
    assert ranked.rated == rating_change.any_rated(models.players, models.hist) is True
    assert isinstance(models.players[0], Player) and isinstance(ranked.rows[0].player_id, int)
