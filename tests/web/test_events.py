"""Issue 37: events with sections: the event's pages per persona (chief arbiter, deputy,
another arbiter, anonymous), a section created inside an event, the one player list and
a player moved to another section before round 1, the public front page."""

from __future__ import annotations

import pytest
from django.urls import reverse

from pairing.models import AuditEntry, Bye, Event, ForbiddenPair, Player, Tournament
from tests.web.event_helpers import two_sections
from tests.web.helpers import add_players, play_round
from tests.web.test_tournament_setup import GOOD


@pytest.fixture
def weekend(chief, deputy):
    return two_sections(chief, deputy)


def test_the_chief_arbiter_creates_an_event_and_adds_a_section_with_the_events_place_and_deputies(
        chief_client, chief, deputy):
    r = chief_client.post(reverse("pairing:event_create"), {"name": "Club Weekend", "place": "Bled",
                                                            "start_date": "2026-12-05", "end_date": "2026-12-06"})
    e = Event.objects.get(slug="club-weekend")
    assert r.status_code == 302 and r["Location"] == e.get_absolute_url() and e.owner == chief
    page = chief_client.get(reverse("pairing:tournament_create") + "?event=club-weekend")
    assert "New section of Club Weekend" in page.content.decode() and 'value="Bled"' in page.content.decode()
    first = chief_client.post(reverse("pairing:tournament_create") + "?event=club-weekend", {**GOOD, "name": "Open A"})
    assert first.status_code == 302
    a = Tournament.objects.get(slug="open-a")
    assert a.event == e and a.owner == chief
    a.deputies.add(deputy)
    chief_client.post(reverse("pairing:tournament_create") + "?event=club-weekend", {**GOOD, "name": "U1600"})
    b = Tournament.objects.get(slug="u1600")
    assert b.event == e and list(b.deputies.all()) == [deputy]  # the event's arbiter team
    assert AuditEntry.objects.filter(tournament=b, action="section", detail="Section of the event Club Weekend.").exists()
    overview = chief_client.get(e.get_absolute_url()).content.decode()
    assert "Open A" in overview and "U1600" in overview and 'id="add-section"' in overview


def test_a_deputy_sees_the_events_overview_but_neither_adds_sections_nor_changes_the_event(deputy_client, weekend):
    e = weekend[0]
    page = deputy_client.get(e.get_absolute_url()).content.decode()
    assert "Weekend Open" in page and 'id="add-section"' not in page
    assert deputy_client.get(reverse("pairing:event_settings", args=[e.slug])).status_code == 403
    assert deputy_client.get(reverse("pairing:tournament_create") + f"?event={e.slug}").status_code == 403
    assert deputy_client.get(reverse("pairing:event_players", args=[e.slug])).status_code == 200


def test_another_arbiter_gets_the_public_page_and_no_arbiter_page(stranger_client, weekend):
    e = weekend[0]
    page = stranger_client.get(e.get_absolute_url()).content.decode()
    assert 'id="add-section"' not in page and "Weekend Open" in page
    for name in ("event_settings", "event_players", "event_entries"):
        assert stranger_client.get(reverse(f"pairing:{name}", args=[e.slug])).status_code == 403, name
    assert stranger_client.get(reverse("pairing:tournament_create") + f"?event={e.slug}").status_code == 403


def test_anonymous_visitors_see_the_public_sections_only_and_a_private_event_is_a_404(anon_client, weekend, chief):
    e, open_, rr = weekend
    Tournament.objects.filter(pk=rr.pk).update(public=False)
    page = anon_client.get(e.get_absolute_url()).content.decode()
    assert "Weekend Open" in page and "Weekend Round Robin" not in page
    assert anon_client.get(reverse("pairing:event_players", args=[e.slug])).status_code == 302  # login
    Tournament.objects.filter(event=e).update(public=False)
    Event.objects.filter(pk=e.pk).update(entries_open=False)
    assert anon_client.get(e.get_absolute_url()).status_code == 404


def test_event_settings_carry_the_new_place_and_dates_to_the_sections_that_had_the_events(chief_client, weekend):
    e, open_, rr = weekend
    Tournament.objects.filter(pk=open_.pk).update(place="Bled")  # followed the event
    Tournament.objects.filter(pk=rr.pk).update(place="Radovljica")  # its own
    r = chief_client.post(reverse("pairing:event_settings", args=[e.slug]),
                          {"name": "Club Weekend", "slug": "club-weekend", "place": "Ljubljana"})
    assert r.status_code == 302
    assert Tournament.objects.get(pk=open_.pk).place == "Ljubljana"
    assert Tournament.objects.get(pk=rr.pk).place == "Radovljica"
    assert AuditEntry.objects.filter(tournament=open_, action="section", detail__startswith="Event changed: place").exists()


def test_the_event_player_list_shows_each_players_section(deputy_client, weekend):
    e, open_, rr = weekend
    add_players(open_, 2)
    Player.objects.create(tournament=rr, name="Zed, Rr", rating=1500)
    page = deputy_client.get(reverse("pairing:event_players", args=[e.slug])).content.decode()
    assert page.count("Weekend Open</a>") == 2 and page.count("Weekend Round Robin</a>") == 1


def test_a_player_moves_to_another_section_before_round_1_with_the_move_in_both_audit_trails(chief_client, weekend):
    e, open_, rr = weekend
    a, b, c = add_players(open_, 3)
    Bye.objects.create(tournament=open_, player=b, round_number=2, kind="H")
    ForbiddenPair.objects.create(tournament=open_, player_a=a, player_b=b)
    r = chief_client.post(reverse("pairing:event_player_move", args=[e.slug, b.pk]), {"section": rr.slug})
    assert r.status_code == 302
    b.refresh_from_db()
    assert b.tournament == rr and b.tpn == 1 and not b.bye_set.exists()
    assert not ForbiddenPair.objects.filter(tournament=open_).exists()
    assert list(open_.player_set.order_by("tpn").values_list("tpn", flat=True)) == [1, 2]
    out = AuditEntry.objects.get(tournament=open_, action="player", detail__contains="moved to the section")
    assert out.before["byes"] == ["round 2: H"] and out.before["forbidden_pairs"]
    assert AuditEntry.objects.filter(tournament=rr, detail__contains="moved in from the section Weekend Open").exists()


def test_no_move_once_a_section_has_published_round_1(chief_client, weekend):
    e, open_, rr = weekend
    players = add_players(open_, 4)
    play_round(open_)
    r = chief_client.post(reverse("pairing:event_player_move", args=[e.slug, players[0].pk]), {"section": rr.slug},
                          follow=True)
    assert "published round 1" in r.content.decode()
    assert Player.objects.get(pk=players[0].pk).tournament == open_


def test_a_move_needs_an_arbiter_of_both_sections_and_a_post(deputy_client, stranger_client, weekend):
    e, open_, rr = weekend
    p = add_players(open_, 1)[0]
    rr.deputies.remove(rr.deputies.get())
    deputy_client.post(reverse("pairing:event_player_move", args=[e.slug, p.pk]), {"section": rr.slug})
    assert Player.objects.get(pk=p.pk).tournament == open_
    assert stranger_client.post(reverse("pairing:event_player_move", args=[e.slug, p.pk]),
                                {"section": rr.slug}).status_code == 403
    assert deputy_client.get(reverse("pairing:event_player_move", args=[e.slug, p.pk])).status_code == 405


def test_the_front_page_lists_public_events_for_anonymous_visitors_and_finds_players(anon_client, weekend, chief):
    import datetime

    e, open_, rr = weekend
    add_players(open_, 2)
    today = datetime.date.today()
    Event.objects.filter(pk=e.pk).update(start_date=today, end_date=today)
    old = Tournament.objects.create(slug="last-year", name="Last Month Cup", owner=chief, public=True)
    Event.objects.filter(pk=old.event_id).update(start_date=today - datetime.timedelta(days=30),
                                                 end_date=today - datetime.timedelta(days=29))
    Tournament.objects.create(slug="secret", name="Secret Cup", owner=chief)
    page = anon_client.get("/")
    text = page.content.decode()
    assert page.status_code == 200 and "Club Weekend" in text and "Last Month Cup" in text and "Secret Cup" not in text
    assert text.index("Club Weekend") < text.index('id="recent"') < text.index("Last Month Cup")
    assert 'href="/e/club-weekend/enter/"' in text  # entries open
    found = anon_client.get("/?q=player 02").content.decode()
    assert 'id="found"' in found and "Player 02" in found
    assert anon_client.get("/?q=secret").content.decode().count("Secret Cup") == 0


def test_the_front_page_is_served_from_the_cache_until_an_event_changes(anon_client, weekend):
    e, open_, rr = weekend
    assert anon_client.get("/events/")["X-Cache"] == "miss"
    assert anon_client.get("/events/")["X-Cache"] == "hit"
    from pairing.services.players import add_players as register

    register(open_, [{"name": "New, Player", "rating": 1500}])  # a change of a section: a new revision
    assert anon_client.get("/events/")["X-Cache"] == "miss"
    assert anon_client.get(e.get_absolute_url())["X-Cache"] == "miss"
    assert anon_client.get(e.get_absolute_url())["X-Cache"] == "hit"


def test_a_signed_in_arbiter_keeps_the_dashboard_at_the_root(chief_client, weekend):
    page = chief_client.get("/").content.decode()
    assert 'id="new-event"' in page and "Club Weekend" in page


def test_the_front_page_shows_a_bounded_number_of_events_and_says_how_many_more(anon_client, weekend, chief,
                                                                                 monkeypatch):
    """Its time is bounded (it is computed again after any public change): past the limit
    the page says how many more events there are, found by the search."""
    import datetime

    from pairing.reports import events as report

    monkeypatch.setattr(report, "COMING_SHOWN", 2)
    later = datetime.date.today() + datetime.timedelta(days=10)
    for i in range(4):
        t = Tournament.objects.create(slug=f"coming-{i}", name=f"Coming Cup {i}", owner=chief, public=True)
        Event.objects.filter(pk=t.event_id).update(start_date=later + datetime.timedelta(days=i), end_date=later +
                                                   datetime.timedelta(days=i))
    page = anon_client.get("/").content.decode()
    coming = page[page.index('id="coming"'):page.index('id="recent"')]
    assert "Coming Cup 0" in coming and "Coming Cup 1" in coming and "Coming Cup 3" not in coming
    assert "And 2 more events: find them by their name or place above." in coming
    assert "Coming Cup 3" in anon_client.get("/?q=coming cup 3").content.decode()
