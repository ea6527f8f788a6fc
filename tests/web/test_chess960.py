"""Chess960 (VCL4THP Q222): a per-tournament setting, a uniformly random starting position
drawn for each round as it is published, shown on the pairing list (public too) and in
the audit trail; the standard numbering (518 is the classical array)."""

from __future__ import annotations

import pytest
from django.urls import reverse

from pairing.chess960 import position
from pairing.models import AuditEntry, Round, Tournament
from pairing.services.rounds import pair_next_round, publish
from tests.web.helpers import add_players


def test_the_numbering_maps_518_to_the_classical_array_and_covers_all_960_positions():
    assert position(518) == "RNBQKBNR"
    assert position(0) == "BBQNNRKR"  # the first of the standard table
    arrays = {position(n) for n in range(960)}
    assert len(arrays) == 960
    for a in arrays:
        assert sorted(a) == sorted("RNBQKBNR")
        bishops = [i for i, p in enumerate(a) if p == "B"]
        assert bishops[0] % 2 != bishops[1] % 2  # opposite colours
        rooks = [i for i, p in enumerate(a) if p == "R"]
        assert rooks[0] < a.index("K") < rooks[1]  # the king between the rooks
    with pytest.raises(ValueError):
        position(960)


def test_vcl_q222_a_chess960_tournament_draws_a_position_per_round_at_publication(anon_client, tournament):
    Tournament.objects.filter(pk=tournament.pk).update(chess960=True, public=True)
    tournament.refresh_from_db()
    add_players(tournament, 6)
    rnd = pair_next_round(tournament)
    assert rnd.chess960_position is None  # not while a draft
    publish(rnd)
    rnd.refresh_from_db()
    assert 0 <= rnd.chess960_position <= 959
    page = anon_client.get(reverse("pairing:round", args=[tournament.slug, 1])).content.decode()
    assert f"Chess960 starting position <strong>{rnd.chess960_position} {position(rnd.chess960_position)}</strong>" in page
    entry = AuditEntry.objects.filter(action="publish").latest("pk")
    assert f"Chess960 position {rnd.chess960_position} {position(rnd.chess960_position)}." in entry.detail


def test_a_standard_tournament_draws_no_position(tournament):
    add_players(tournament, 4)
    rnd = pair_next_round(tournament)
    publish(rnd)
    assert Round.objects.get(pk=rnd.pk).chess960_position is None


def test_the_chief_arbiter_turns_chess960_on_in_the_settings(chief_client, tournament):
    from tests.web.helpers import shown_version
    from tests.web.test_tournament_setup import GOOD

    page = chief_client.get(reverse("pairing:settings", args=[tournament.slug])).content.decode()
    assert 'name="chess960"' in page
    response = chief_client.post(reverse("pairing:settings", args=[tournament.slug]),
                                 {**GOOD, "slug": tournament.slug, "seen": shown_version(tournament), "chess960": "on"})
    assert response.status_code == 302
    tournament.refresh_from_db()
    assert tournament.chess960
