"""Pairing numbers of players equal on rating and title follow an order the tournament
announces (VCL4THP Q146, Q155): name, FIDE id, oldest or youngest first."""

from __future__ import annotations

import datetime

import pytest
from django.urls import reverse

from pairing.models import Player, Tournament
from pairing.services.numbering import renumber
from tests.web.helpers import play_round, shown_version
from tests.web.test_tournament_setup import GOOD


def _equal_field(t):
    """Four players at 2000 without titles, and one at 2100 (always number 1)."""
    Player.objects.create(tournament=t, name="Top, Tim", rating=2100)
    rows = [("Adams, Ann", "4000", datetime.date(2001, 5, 1)), ("Brown, Bob", "1500", datetime.date(1960, 1, 1)),
            ("Clark, Cid", "", datetime.date(2010, 3, 3)), ("Dean, Dot", "2500", None)]
    for name, fide_id, born in rows:
        Player.objects.create(tournament=t, name=name, rating=2000, fide_id=fide_id, birth_date=born)


def order(t) -> list[str]:
    return [p.name.split(",")[0] for p in t.player_set.order_by("tpn")]


@pytest.mark.parametrize(("tie_order", "expected"), [
    ("name", ["Top", "Adams", "Brown", "Clark", "Dean"]),
    ("fide-id", ["Top", "Brown", "Dean", "Adams", "Clark"]),  # no FIDE id last
    ("oldest", ["Top", "Brown", "Adams", "Clark", "Dean"]),  # no birth date last
    ("youngest", ["Top", "Clark", "Adams", "Brown", "Dean"]),
])
def test_vcl_q146_equal_ratings_are_numbered_in_the_announced_order(chief_client, tournament, tie_order, expected):
    _equal_field(tournament)
    renumber(tournament)
    response = chief_client.post(reverse("pairing:settings", args=[tournament.slug]),
                                 {**GOOD, "slug": tournament.slug, "seen": shown_version(tournament), "rounds": "5",
                                  "tie_order": tie_order})
    assert response.status_code == 302
    tournament.refresh_from_db()
    assert tournament.tie_order == tie_order
    assert order(tournament) == expected  # renumbered at once, as the player list shows


def test_vcl_q155_the_order_is_locked_with_the_other_fixed_settings_in_fide_mode(chief_client, tournament):
    _equal_field(tournament)
    Tournament.objects.filter(pk=tournament.pk).update(tie_order="oldest")
    tournament.refresh_from_db()
    play_round(tournament)
    chief_client.post(reverse("pairing:settings", args=[tournament.slug]),
                      {**GOOD, "slug": tournament.slug, "seen": shown_version(tournament), "tie_order": "name"})
    tournament.refresh_from_db()
    assert tournament.tie_order == "oldest"
    # a late entry is numbered by the same order
    Player.objects.create(tournament=tournament, name="Aaron, Al", rating=2000, birth_date=datetime.date(1950, 1, 1))
    renumber(tournament)
    assert order(tournament)[:3] == ["Top", "Aaron", "Brown"]
