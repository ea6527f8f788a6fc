"""Issue 37: categories, clubs and prizes of a section from its standings; the prize list
public once the arbiters publish it."""

from __future__ import annotations

from decimal import Decimal

import pytest
from django.urls import reverse

from pairing.models import AuditEntry, Player
from tests.web.helpers import add_players, play_round

FORM = {"categories": "U12: under 12\nWomen: women\nU2350: rating -2350", "prizes": "place: 100, 60, 40\nU12: 50",
        "sharing": "equal", "one_prize": "larger", "rounding": "0.01", "currency": "EUR", "club_best": "2"}


@pytest.fixture
def played(tournament):
    players = add_players(tournament, 6)
    Player.objects.filter(pk=players[3].pk).update(birth_year=2015, club="Bled")
    Player.objects.filter(pk=players[4].pk).update(sex="f", club="Bled")
    Player.objects.filter(pk=players[0].pk).update(club="Bled")
    Player.objects.filter(tournament=tournament).exclude(pk__in=[players[3].pk]).update(birth_year=1990)
    tournament.public = True
    tournament.save()
    for _ in range(3):
        play_round(tournament)
    return tournament


def test_the_chief_sets_categories_and_prizes_and_the_list_follows_the_standings(chief_client, played):
    r = chief_client.post(reverse("pairing:prizes_edit", args=[played.slug]), FORM)
    assert r.status_code == 302
    page = chief_client.get(reverse("pairing:prizes_edit", args=[played.slug])).content.decode()
    assert "U12" in page and "Women" in page and 'id="clubs"' in page
    assert "Paid in all" in page and "EUR" in page
    assert AuditEntry.objects.filter(tournament=played, action="prizes", detail__startswith="Prizes changed").exists()
    total = sum(Decimal(x) for x in ("100", "60", "40", "50"))
    from pairing.reports.prizes import report

    r = report(played)
    assert r.total + r.unpaid <= total and {line.title for line in r.lines} <= {"", "U12"}


def test_a_bad_prize_line_is_refused_with_its_line_and_nothing_saved(chief_client, played):
    r = chief_client.post(reverse("pairing:prizes_edit", args=[played.slug]),
                          {**FORM, "prizes": "place: 100, abc"})
    assert r.status_code == 400 and "Line 1" in r.content.decode()
    r = chief_client.post(reverse("pairing:prizes_edit", args=[played.slug]), {**FORM, "categories": "U12 under"})
    assert r.status_code == 400 and not AuditEntry.objects.filter(action="prizes").exists()


def test_the_prize_list_is_public_only_once_published(chief_client, deputy_client, anon_client, stranger_client, played):
    url = reverse("pairing:prizes", args=[played.slug])
    chief_client.post(reverse("pairing:prizes_edit", args=[played.slug]), FORM)
    assert anon_client.get(url).status_code == 404
    assert deputy_client.get(url).status_code == 200
    deputy_client.post(reverse("pairing:prizes_edit", args=[played.slug]), {"publish": "1"})
    page = anon_client.get(url)
    assert page.status_code == 200 and "Prize list" in page.content.decode()
    assert 'id="prize-form"' not in page.content.decode()
    assert stranger_client.post(reverse("pairing:prizes_edit", args=[played.slug]), FORM).status_code == 403
    assert anon_client.get(reverse("pairing:prizes_edit", args=[played.slug])).status_code == 302


def test_a_published_prize_list_is_linked_from_the_events_page_and_the_front_page(chief_client, anon_client, played):
    """Visitors find the prize list from the event's page and the front page once it is
    published (and the cached pages follow the publication)."""
    event_url = played.event.get_absolute_url()
    chief_client.post(reverse("pairing:prizes_edit", args=[played.slug]), FORM)
    link = f'href="{reverse("pairing:prizes", args=[played.slug])}"'
    assert link not in anon_client.get(event_url).content.decode()
    assert link not in anon_client.get("/").content.decode()
    chief_client.post(reverse("pairing:prizes_edit", args=[played.slug]), {"publish": "1"})
    assert link in anon_client.get(event_url).content.decode()
    assert link in anon_client.get("/").content.decode()
    chief_client.post(reverse("pairing:prizes_edit", args=[played.slug]), {"publish": "0"})
    assert link not in anon_client.get(event_url).content.decode()
