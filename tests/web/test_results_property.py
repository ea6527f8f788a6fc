"""Issue 16, property: any sequence of result entries, corrections and adjournments
leaves the standings equal to a recomputation from the stored results, done here
independently (a literal table of what each result is worth to each side)."""

from __future__ import annotations

from decimal import Decimal

import pytest
from django.db import transaction
from hypothesis import HealthCheck, given, settings
from hypothesis import strategies as st

from pairing.models import Bye, Game, Tournament
from pairing.reports.standings import standings
from pairing.services.results import record_result
from pairing.services.rounds import pair_next_round, publish
from tests.web.helpers import add_players, play_round

H = Decimal("0.5")
# what each stored result gives White and Black (win 1, draw ½; adjourned: a draw until it ends)
WORTH = {
    "1-0": (1, 0), "1/2-1/2": (H, H), "0-1": (0, 1), "+-": (1, 0), "-+": (0, 1), "--": (0, 0),
    "1/2-0": (H, 0), "0-1/2": (0, H), "0-0": (0, 0), "W-L": (1, 0), "D-D": (H, H), "L-W": (0, 1),
    "adj": (H, H),
}


class _Undo(Exception):
    pass


def recomputed(t: Tournament) -> dict[int, Decimal]:
    """Points after the last round whose every board has a result, from the rows."""
    complete = [r.number for r in t.round_set.order_by("number")
                if r.game_set.exists() and not r.game_set.filter(result="").exists()]
    last = 0
    for n in complete:
        if n == last + 1:
            last = n
    points = {p.pk: Decimal(0) for p in t.player_set.all()}
    for g in Game.objects.filter(round__tournament=t, round__number__lte=last):
        w, b = WORTH[g.result]
        points[g.white_id] += w
        points[g.black_id] += b
    for bye in Bye.objects.filter(tournament=t, round_number__lte=last, kind="U"):
        points[bye.player_id] += 1
    return points


@settings(max_examples=25, deadline=None, suppress_health_check=[HealthCheck.function_scoped_fixture])
@given(ops=st.lists(st.tuples(st.integers(1, 2), st.integers(1, 3), st.sampled_from(sorted(WORTH))),
                    min_size=1, max_size=14))
@pytest.mark.django_db
def test_issue_16_standings_always_equal_a_recomputation_from_the_stored_results(chief, ops):
    try:
        with transaction.atomic():
            t = Tournament.objects.create(slug="prop", name="Prop", rounds=5, owner=chief)
            add_players(t, 7)  # odd: a PAB every round
            play_round(t, chief)
            second = pair_next_round(t, chief)
            publish(second, chief)
            for number, board, result in ops:
                game = Game.objects.filter(round__tournament=t, round__number=number, board=board).first()
                if game is None:
                    continue
                # corrections of round 1 after round 2 is out, and adjourned games ending,
                # ask at Level 3: the arbiter confirms
                record_result(game, result, chief, confirmations=1)
                shown = {row.player.pk: row.points for row in standings(t)[1]}
                assert shown == recomputed(t), (number, board, result)
            raise _Undo
    except _Undo:
        pass
