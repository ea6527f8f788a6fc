"""Issue 37: the event's audit trail.  Online entries and every change of their state,
check-in (by an arbiter and by the QR code) and its close, a player moved between
sections, the prize list published, and the event's own settings, on one page of the
event; an act written in two sections' trails shown once; who may read it."""

from __future__ import annotations

import re

import pytest
from django.contrib.auth import get_user_model
from django.test import Client
from django.urls import reverse

from pairing.models import Entry, Event, Tournament
from pairing.services import checkin, entries, prizes, sections
from pairing.services.players import add_players as register
from tests.conftest import PASSWORD
from tests.web.event_helpers import entry_post, fide_list, two_sections
from tests.web.helpers import add_players


@pytest.fixture
def history(anon_client, chief, deputy):
    """Club Weekend (Open and Round Robin of 2 places) with one of everything: three
    entries (one to the waiting list), one refused, the waiting one moved up and two
    approved; self check-in and an arbiter's check-in; the close; a move; prizes."""
    fide_list()
    e, open_, rr = two_sections(chief, deputy, limit=2)
    Event.objects.filter(pk=e.pk).update(self_checkin=True, checkin_secret="qr-secret")
    for name, fid, ip in (("Novak Ana", "5000001", "10.0.0.1"), ("Kovac Luka", "5000002", "10.0.0.2"),
                          ("Horvat Mia", "5000003", "10.0.0.3")):
        assert entry_post(anon_client, e, name, fid, rr.slug, ip=ip).status_code == 302
    novak, kovac, horvat = (Entry.objects.get(fide_id=f) for f in ("5000001", "5000002", "5000003"))
    assert horvat.state == "waiting"
    entries.refuse([novak], chief, "Wrong section")  # Horvat moves up
    entries.approve([kovac, Entry.objects.get(pk=horvat.pk)], deputy)
    a, b, c = add_players(open_, 3)
    register(open_, [{"name": "Late, Lara", "rating": 1500}], chief)  # a section's own change
    anon_client.post(reverse("pairing:self_checkin", args=[e.slug, "qr-secret"]), {"player": a.pk})
    checkin.set_present(b, True, deputy)
    sections.move_player(c, rr, chief)
    checkin.close(open_, chief, confirmations=3)
    prizes.save(open_, {"categories": [], "prize_lists": [("", [100, 50])], "sharing": "equal",
                        "one_prize": "larger", "rounding": "1", "currency": "EUR", "club_best": 3}, chief)
    prizes.publish(open_, chief, True)
    e.refresh_from_db()
    sections.log_event(e, chief, "Event changed: place", before={"place": "Bled"}, after={"place": "Lesce"})
    return e, open_, rr


def _rows(page: str) -> list[str]:
    body = page[page.index('id="event-audit"'):page.index("</table>", page.index('id="event-audit"'))]
    return [re.sub(r"<[^>]+>", " ", row) for row in body.split("<tr>")[2:]]


def test_the_chief_arbiter_reads_every_kind_of_the_events_changes_on_one_page(chief_client, history):
    e, open_, rr = history
    page = chief_client.get(reverse("pairing:event_audit", args=[e.slug]))
    assert page.status_code == 200
    text = page.content.decode()
    for sentence in (
        "Online entry of Novak, Ana (FIDE id 5000001): waiting for approval.",
        "Online entry of Horvat, Mia (FIDE id 5000003): on the waiting list (section full).",
        "Online entry of Novak, Ana refused. Wrong section",
        "Online entry of Horvat, Mia moved up from the waiting list: waiting for approval.",
        "Online entry of Kovac, Luka approved: registered with TPN",
        "Player 01 checked in by the QR code.",
        "Player 02 checked in.",
        "Check-in closed: 1 not present, zero-point bye in round 1: Late, Lara.",
        "Player 03 moved to the section Weekend Round Robin.",
        "Player 03 moved in from the section Weekend Open",
        "Prize list published.",
        "Event changed: place",
    ):
        assert sentence in text, sentence
    assert "Late, Lara registered" not in text  # a section's own change stays in its own trail
    rows = _rows(text)
    # who acted: the entrant, the player by the QR code, the arbiters
    assert any("online entry" in r and "Novak, Ana (FIDE id" in r for r in rows)
    assert any("self check-in" in r and "Player 01 checked in" in r for r in rows)
    # the event's settings change is in both sections' trails and shown once, naming both
    changed = [r for r in rows if "Event changed: place" in r]
    assert len(changed) == 1 and "Weekend Open" in changed[0] and "Weekend Round Robin" in changed[0]
    assert 'id="own-sections"' not in text


def test_the_event_trail_filters_by_kind(chief_client, history):
    e, open_, rr = history
    url = reverse("pairing:event_audit", args=[e.slug])
    moves = chief_client.get(url, {"kind": "move"}).content.decode()
    assert "moved to the section" in moves and "checked in" not in moves and "Online entry" not in moves
    checks = chief_client.get(url, {"kind": "checkin"}).content.decode()
    assert "checked in by the QR code" in checks and "Prize list" not in checks
    prize_rows = chief_client.get(url, {"kind": "prizes"}).content.decode()
    assert "Prize list published." in prize_rows and "Prizes changed" in prize_rows
    assert "Online entry" not in prize_rows
    # an unknown kind is the whole event trail, not an error
    assert "Prize list published." in chief_client.get(url, {"kind": "<script>"}).content.decode()


def test_a_deputy_of_one_section_reads_that_sections_changes_only(history):
    e, open_, rr = history
    only_open = get_user_model().objects.create_user(username="openonly", password=PASSWORD)
    open_.deputies.add(only_open)
    client = Client()
    client.force_login(only_open)
    text = client.get(reverse("pairing:event_audit", args=[e.slug])).content.decode()
    assert 'id="own-sections"' in text
    assert "Player 01 checked in by the QR code." in text and "Prize list published." in text
    assert "Online entry of" not in text  # the entries were all in the Round Robin


def test_the_deputy_of_both_sections_reads_them_both(deputy_client, history):
    e, open_, rr = history
    text = deputy_client.get(reverse("pairing:event_audit", args=[e.slug])).content.decode()
    assert "Online entry of Kovac, Luka approved" in text and "Prize list published." in text


def test_another_arbiter_anonymous_visitors_and_entrants_cannot_read_it(chief_client, stranger_client, anon_client,
                                                                        history):
    e, open_, rr = history
    url = reverse("pairing:event_audit", args=[e.slug])
    assert stranger_client.get(url).status_code == 403  # a public event: it exists
    anon = anon_client.get(url)
    assert anon.status_code == 302 and anon["Location"].startswith(reverse("login"))
    # the entrant's private link opens the entry's own page, and nothing of the trail
    token = Entry.objects.get(fide_id="5000002").token
    own = anon_client.get(reverse("pairing:entry_status", args=[e.slug, token])).content.decode()
    assert "Approved" in own and "Novak" not in own and "audit" not in own.lower()
    Tournament.objects.filter(event=e).update(public=False)
    Event.objects.filter(pk=e.pk).update(entries_open=False)
    assert stranger_client.get(url).status_code == 404  # a private event is not disclosed
    assert chief_client.get(url).status_code == 200 and chief_client.post(url).status_code == 405


def test_the_events_page_links_its_audit_trail_for_its_arbiters_only(chief_client, anon_client, history):
    e, open_, rr = history
    assert 'id="event-audit-link"' in chief_client.get(e.get_absolute_url()).content.decode()
    assert 'id="event-audit-link"' not in anon_client.get(e.get_absolute_url()).content.decode()


def test_the_event_trail_is_read_without_writing(chief, history):
    from pairing.reports import event_audit
    from tests.web.test_reports_read_only import writes_refused

    e, open_, rr = history
    with writes_refused():
        shown = event_audit.lines(event_audit.entries(e, chief))
    assert len(shown) >= 12 and all(line.sections for line in shown)
