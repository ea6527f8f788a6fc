"""Public pages cost the same number of database queries for 10 players as for 60:
nothing is fetched per player, per board or per row."""

from __future__ import annotations

import pytest
from django.db import connection
from django.test.utils import CaptureQueriesContext
from django.urls import reverse

from tests.web.public_data import field

PAGES = [
    ("home", lambda slug: reverse("pairing:tournament", args=[slug])),
    ("round 2 by board", lambda slug: reverse("pairing:round", args=[slug, 2])),
    ("round 3 (in play) by board", lambda slug: reverse("pairing:round", args=[slug, 3])),
    ("round 3 by name", lambda slug: reverse("pairing:round", args=[slug, 3]) + "?by=name"),
    ("standings", lambda slug: reverse("pairing:standings", args=[slug])),
    ("standings after round 1", lambda slug: reverse("pairing:standings", args=[slug]) + "?round=1"),
    ("standings CSV", lambda slug: reverse("pairing:standings_csv", args=[slug])),
    ("crosstable", lambda slug: reverse("pairing:crosstable", args=[slug])),
    ("ARO list", lambda slug: reverse("pairing:aro", args=[slug])),
    ("ARO list before round 2", lambda slug: reverse("pairing:aro", args=[slug]) + "?round=2"),
    ("ARO spread", lambda slug: reverse("pairing:aro_spread", args=[slug])),
    ("player card", lambda slug: reverse("pairing:player_card", args=[slug, 1])),
]


def public_tournament(owner, slug: str, n: int):
    from pairing.models import Tournament

    t = Tournament.objects.create(slug=slug, name=slug, rounds=5, owner=owner, public=True)
    field(t, n)
    return t


def queries(client, url: str) -> int:
    client.get(url)  # warm caches that do not depend on the field (content types, ...)
    with CaptureQueriesContext(connection) as ctx:
        response = client.get(url)
    assert response.status_code == 200, url
    return len(ctx.captured_queries)


@pytest.mark.parametrize("name, url", PAGES, ids=[p[0] for p in PAGES])
def test_a_public_page_makes_as_many_queries_for_60_players_as_for_10(anon_client, chief, name, url):
    small = public_tournament(chief, "small", 10)
    large = public_tournament(chief, "large", 60)
    assert queries(anon_client, url(small.slug)) == queries(anon_client, url(large.slug))


@pytest.mark.parametrize("name, url", PAGES, ids=[p[0] for p in PAGES])
def test_a_public_page_needs_few_queries(anon_client, chief, name, url):
    """An upper bound, so that a new per-page query is noticed too."""
    t = public_tournament(chief, "large", 60)
    assert queries(anon_client, url(t.slug)) <= 18
