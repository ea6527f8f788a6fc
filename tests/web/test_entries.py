"""Issue 37: online entries.  The public form takes the player's data from the rating
lists, a full section puts the entry on its waiting list, the entrant follows it at a
private link, the arbiters approve, refuse and move entries in bulk (each change in the
audit trail); spam and floods are refused with nothing written and no error page."""

from __future__ import annotations

import pytest
from django.core import mail
from django.urls import reverse

from pairing.models import AuditEntry, Entry, Event, Player
from tests.web.event_helpers import entry_post, fide_list, stamp, two_sections


@pytest.fixture
def weekend(chief, deputy):
    fide_list()
    return two_sections(chief, deputy, limit=2)


def test_an_entry_takes_rating_title_and_federation_from_the_list_not_from_the_player(anon_client, weekend):
    e, open_, rr = weekend
    r = entry_post(anon_client, e, "novak ana", "5000001", open_.slug, title="GM", rating="2900", federation="USA")
    entry = Entry.objects.get()
    assert r.status_code == 302 and r["Location"] == reverse("pairing:entry_status", args=[e.slug, entry.token])
    assert (entry.name, entry.rating, entry.title, entry.federation, entry.state) == (
        "Novak, Ana", 2010, "WFM", "SLO", "pending")
    assert entry.details["birth_year"] == 2012 and entry.details["sex"] == "f"
    assert AuditEntry.objects.get(tournament=open_, action="entry").username == "online entry"
    assert len(mail.outbox) == 1 and entry.token in mail.outbox[0].body and mail.outbox[0].to == ["p@example.org"]


def test_the_entrant_sees_the_state_at_the_private_link_and_a_wrong_token_is_a_404(anon_client, weekend):
    e, open_, rr = weekend
    entry_post(anon_client, e, "Kovac Luka", "5000002", open_.slug)
    entry = Entry.objects.get()
    page = anon_client.get(reverse("pairing:entry_status", args=[e.slug, entry.token]))
    assert page.status_code == 200 and "Waiting for approval" in page.content.decode()
    assert page["Cache-Control"] == "private, no-store"
    assert anon_client.get(reverse("pairing:entry_status", args=[e.slug, entry.token[:-2] + ("xx" if entry.token[-2:] != "xx" else "yy")])).status_code == 404


def test_a_full_section_puts_the_entry_on_the_waiting_list_and_a_refusal_moves_it_up(anon_client, chief_client, weekend):
    e, open_, rr = weekend  # rr: 2 places
    for name, fid, ip in (("Novak Ana", "5000001", "10.0.0.1"), ("Kovac Luka", "5000002", "10.0.0.2"),
                          ("Horvat Mia", "5000003", "10.0.0.3")):
        entry_post(anon_client, e, name, fid, rr.slug, ip=ip)
    states = dict(Entry.objects.values_list("fide_id", "state"))
    assert states == {"5000001": "pending", "5000002": "pending", "5000003": "waiting"}
    waiting = Entry.objects.get(fide_id="5000003")
    page = anon_client.get(reverse("pairing:entry_status", args=[e.slug, waiting.token])).content.decode()
    assert "number 1 on the waiting list" in page
    first = Entry.objects.get(fide_id="5000001")
    r = chief_client.post(reverse("pairing:event_entries", args=[e.slug]),
                          {"action": "refuse", "entry": [first.pk], "note": "Wrong section"})
    assert r.status_code == 302
    assert dict(Entry.objects.values_list("fide_id", "state")) == {
        "5000001": "refused", "5000002": "pending", "5000003": "pending"}
    assert AuditEntry.objects.filter(tournament=rr, detail__contains="moved up from the waiting list").exists()


def test_the_deputy_approves_entries_in_bulk_and_they_become_registered_players(anon_client, deputy_client, weekend):
    e, open_, rr = weekend
    entry_post(anon_client, e, "Carlsen Magnus", "1503014", open_.slug, ip="10.0.0.1")
    entry_post(anon_client, e, "Zupan Jan", "5000004", open_.slug, ip="10.0.0.2")
    ids = list(Entry.objects.values_list("pk", flat=True))
    r = deputy_client.post(reverse("pairing:event_entries", args=[e.slug]), {"action": "approve", "entry": ids})
    assert r.status_code == 302
    players = {p.name: p for p in open_.player_set.all()}
    assert players["Carlsen, Magnus"].tpn == 1 and players["Carlsen, Magnus"].title == "GM"
    assert players["Zupan, Jan"].rating == 2200 and players["Zupan, Jan"].federation == "SLO"
    assert set(Entry.objects.values_list("state", flat=True)) == {"approved"}
    assert AuditEntry.objects.filter(tournament=open_, action="entry", detail__contains="approved").count() == 2
    page = anon_client.get(reverse("pairing:entry_status", args=[e.slug, Entry.objects.first().token])).content.decode()
    assert "Approved" in page


def test_an_unrated_entry_needs_the_provisional_rating_before_approval(anon_client, chief_client, weekend):
    e, open_, rr = weekend
    entry_post(anon_client, e, "Newcomer, Nina", "", open_.slug)
    entry = Entry.objects.get()
    assert entry.rating is None and entry.state == "pending"
    url = reverse("pairing:event_entries", args=[e.slug])
    r = chief_client.post(url, {"action": "approve", "entry": [entry.pk]}, follow=True)
    assert "give a provisional rating" in r.content.decode() and not Player.objects.exists()
    chief_client.post(url, {"action": "approve", "entry": [entry.pk], f"rating-{entry.pk}": "1200"})
    p = Player.objects.get()
    assert (p.rating, p.rating_provisional) == (1200, True)


def test_entries_move_in_bulk_to_another_section(anon_client, chief_client, weekend):
    e, open_, rr = weekend
    entry_post(anon_client, e, "Novak Ana", "5000001", open_.slug, ip="10.0.0.1")
    entry = Entry.objects.get()
    chief_client.post(reverse("pairing:event_entries", args=[e.slug]),
                      {"action": "move", "entry": [entry.pk], "section": rr.slug})
    entry.refresh_from_db()
    assert entry.section == rr and entry.state == "pending"
    assert AuditEntry.objects.filter(tournament=rr, detail__contains="moved from Weekend Open").exists()


def test_another_arbiter_and_visitors_cannot_answer_entries(anon_client, stranger_client, weekend):
    e, open_, rr = weekend
    entry_post(anon_client, e, "Novak Ana", "5000001", open_.slug)
    entry = Entry.objects.get()
    url = reverse("pairing:event_entries", args=[e.slug])
    assert stranger_client.post(url, {"action": "approve", "entry": [entry.pk]}).status_code == 403
    assert anon_client.post(url, {"action": "approve", "entry": [entry.pk]}).status_code == 302  # to the login
    assert Entry.objects.get().state == "pending" and not Player.objects.exists()


def test_entries_closed_or_past_their_closing_time_take_nothing(anon_client, weekend):
    import datetime

    from django.utils import timezone

    e, open_, rr = weekend
    Event.objects.filter(pk=e.pk).update(entries_close=timezone.now() - datetime.timedelta(minutes=1))
    page = anon_client.get(reverse("pairing:entry_form", args=[e.slug]))
    assert page.status_code == 200 and 'id="entries-closed"' in page.content.decode()
    entry_post(anon_client, e, "Novak Ana", "5000001", open_.slug)
    assert not Entry.objects.exists()


@pytest.mark.parametrize("fields, problem", [
    ({"fide_id": "99999999"}, "in none of the rating lists"),
    ({"fide_id": "1503014"}, "belongs to another name"),  # Carlsen's id, Novak's name
    ({"fide_id": "12ab"}, "number of up to 11 digits"),
    ({"fide_id": "١٢٣"}, "number of up to 11 digits"),  # Arabic-Indic digits
    ({"fide_id": "123456789012"}, "at most 11 characters"),
    ({"name": "x" * 40}, "at most 33 characters"),
    ({"name": "   "}, "This field is required"),
    ({"name": "Novak\nAna"}, "line break"),
    ({"email": "not-an-address"}, "valid email"),
    ({"email": "a@" + "b" * 200 + ".org"}, "at most 120 characters"),
    ({"section": "no-such-section"}, "Select a valid choice"),
    ({"leave_empty": "http://spam.example"}, "Leave the last field empty"),
    ({"started": ""}, "too old"),
    ({"started": "forged:stamp"}, "too old"),
])
def test_a_bad_entry_is_refused_with_a_sentence_and_nothing_written(anon_client, weekend, fields, problem):
    e, open_, rr = weekend
    data = {"name": "Novak Ana", "fide_id": "5000001", "section": open_.slug, **fields}
    r = entry_post(anon_client, e, **data)
    assert r.status_code == 400, r.status_code
    assert problem in r.content.decode()
    assert not Entry.objects.exists() and not AuditEntry.objects.filter(action="entry").exists()
    assert not mail.outbox


def test_a_form_sent_faster_than_a_person_fills_it_in_is_refused(anon_client, weekend):
    e, open_, rr = weekend
    r = entry_post(anon_client, e, "Novak Ana", "5000001", open_.slug, started=stamp(0))
    assert r.status_code == 400 and "faster than a person" in r.content.decode() and not Entry.objects.exists()


def test_a_flood_from_one_address_is_stopped_with_nothing_written(anon_client, weekend, settings):
    e, open_, rr = weekend
    settings.ENTRY_POSTS_PER_ADDRESS = 8
    codes = [entry_post(anon_client, e, f"Flood {i}", "", open_.slug, email=f"f{i}@example.org", ip="10.9.9.9",
                        name_extra="").status_code for i in range(12)]
    written = Entry.objects.count()
    assert written == 5  # DJANGO_ENTRIES_PER_ADDRESS: at most 5 entries an hour from one address
    assert codes[:5] == [302] * 5 and set(codes[5:]) == {429}
    assert "Too many entries or attempts" in entry_post(anon_client, e, "X", "", open_.slug, ip="10.9.9.9").content.decode()
    # another address is not held up
    assert entry_post(anon_client, e, "Other, Player", "", open_.slug, ip="10.8.8.8").status_code == 302


def test_the_same_fide_id_twice_in_an_event_is_refused(anon_client, weekend):
    e, open_, rr = weekend
    entry_post(anon_client, e, "Novak Ana", "5000001", open_.slug, ip="10.0.0.1")
    r = entry_post(anon_client, e, "Novak Ana", "5000001", rr.slug, ip="10.0.0.2")
    assert r.status_code == 400 and "has been sent already" in r.content.decode()
    assert Entry.objects.count() == 1
