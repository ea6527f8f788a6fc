"""Issue 37: check-in before round 1 (from a phone, by the arbiters or by the players from
the QR code of the printed list) and its close: the players not present get a zero-point
bye for round 1 after a Level-3 confirmation that names them; the hall's printed sheets."""

from __future__ import annotations

import re

import pytest
from django.urls import reverse

from pairing.models import AuditEntry, Bye, CheckIn, Event
from pairing.services import rounds
from tests.web.event_helpers import two_sections
from tests.web.helpers import add_players, confirm, confirmation_page, play_round


@pytest.fixture
def hall(chief, deputy):
    e, open_, rr = two_sections(chief, deputy)
    Event.objects.filter(pk=e.pk).update(self_checkin=True, checkin_secret="s3cret-link")
    e.refresh_from_db()
    return e, open_, add_players(open_, 5)


def test_the_deputy_marks_players_present_from_a_phone_with_htmx(deputy_client, hall):
    e, t, players = hall
    url = reverse("pairing:checkin", args=[t.slug])
    row = deputy_client.post(url, {"player": players[0].pk, "present": "1"}, HTTP_HX_REQUEST="true")
    assert row.status_code == 200 and row.content.decode().lstrip().startswith("<tr") and "✓" in row.content.decode()
    assert CheckIn.objects.get(player=players[0]).by == "deputy"
    assert AuditEntry.objects.filter(tournament=t, action="checkin", detail="Player 01 checked in.").exists()
    page = deputy_client.get(url).content.decode()
    assert "1 of 5 present" in page


def test_closing_check_in_gives_the_absent_players_a_zero_point_bye_after_a_level_3_confirmation(chief_client, hall):
    e, t, players = hall
    url = reverse("pairing:checkin", args=[t.slug])
    for p in players[:3]:
        chief_client.post(url, {"player": p.pk, "present": "1"})
    asked = chief_client.post(reverse("pairing:checkin_close", args=[t.slug]))
    page = confirmation_page(asked)
    assert page["level"] == 3 and "Player 04, Player 05" in asked.content.decode()
    assert not Bye.objects.exists()
    confirm(chief_client, asked)
    assert set(Bye.objects.filter(round_number=1).values_list("player__name", "kind")) == {
        ("Player 04", "Z"), ("Player 05", "Z")}
    t.refresh_from_db()
    assert t.checkin_closed_at is not None
    rnd = rounds.pair_next_round(t)
    paired = {g.white_id for g in rnd.games()} | {g.black_id for g in rnd.games()}
    assert paired == {p.pk for p in players[:3]} - {rnd.pab().player_id if rnd.pab() else None}


def test_a_confirmation_of_the_close_is_stale_once_another_player_checks_in(chief_client, deputy_client, hall):
    e, t, players = hall
    asked = chief_client.post(reverse("pairing:checkin_close", args=[t.slug]))
    deputy_client.post(reverse("pairing:checkin", args=[t.slug]), {"player": players[0].pk, "present": "1"})
    response = confirm(chief_client, asked)
    assert not Bye.objects.exists()
    assert response.status_code == 302


def test_a_player_checks_in_by_the_qr_link_and_it_is_logged(anon_client, hall):
    e, t, players = hall
    url = reverse("pairing:self_checkin", args=[e.slug, "s3cret-link"])
    found = anon_client.get(url + "?q=player 02").content.decode()
    assert "Player 02" in found and f'id="here-{players[1].pk}"' in found
    anon_client.post(url, {"player": players[1].pk})
    row = CheckIn.objects.get(player=players[1])
    assert row.present and row.by == "self check-in"
    assert AuditEntry.objects.get(tournament=t, action="checkin").username == "self check-in"


def test_the_self_check_in_link_needs_the_secret_and_the_switch(anon_client, hall):
    e, t, players = hall
    assert anon_client.get(reverse("pairing:self_checkin", args=[e.slug, "guess"])).status_code == 404
    Event.objects.filter(pk=e.pk).update(self_checkin=False)
    assert anon_client.post(reverse("pairing:self_checkin", args=[e.slug, "s3cret-link"]),
                            {"player": players[0].pk}).status_code == 404
    assert not CheckIn.objects.exists()


def test_check_in_pages_refuse_another_arbiter_and_anonymous_visitors(stranger_client, anon_client, hall):
    e, t, players = hall
    url = reverse("pairing:checkin", args=[t.slug])
    assert stranger_client.post(url, {"player": players[0].pk, "present": "1"}).status_code == 403
    assert anon_client.post(url, {"player": players[0].pk, "present": "1"}).status_code == 302
    assert stranger_client.post(reverse("pairing:checkin_close", args=[t.slug])).status_code == 403
    assert not CheckIn.objects.exists() and not Bye.objects.exists()


def test_fees_are_kept_to_the_cent_and_a_bad_amount_saves_nothing(chief_client, hall):
    e, t, players = hall
    url = reverse("pairing:checkin", args=[t.slug])
    chief_client.post(url, {"player": players[0].pk, "due": "25", "paid": "12,5", "fees": "1"})
    row = CheckIn.objects.get(player=players[0])
    assert (str(row.due), str(row.paid)) == ("25.00", "12.50")
    r = chief_client.post(url, {"player": players[0].pk, "due": "-3", "paid": "abc", "fees": "1"}, follow=True)
    assert "A fee is an amount" in r.content.decode()
    row.refresh_from_db()
    assert (str(row.due), str(row.paid)) == ("25.00", "12.50")


def test_check_in_is_over_once_round_1_is_published(chief_client, hall):
    e, t, players = hall
    play_round(t)
    r = chief_client.post(reverse("pairing:checkin", args=[t.slug]), {"player": players[0].pk, "present": "1"},
                          follow=True)
    assert "check-in is over" in r.content.decode() and not CheckIn.objects.filter(present=True).exists()


def test_the_printed_sheets(chief_client, hall):
    """Slips (8 a page) with both names and signature lines, table numbers, the rank list by
    number and by rating, the alphabetical list with boards, the check-in list with the QR
    code of self check-in, and the wall chart with the QR code of the public round page."""
    e, t, players = hall
    add_players(t, 13, start_rating=1500)  # 18 players: 9 boards, two pages of slips
    play_round(t)

    def sheet(kind, query=""):
        r = chief_client.get(reverse("pairing:print_sheet", args=[t.slug, kind]) + query)
        assert r.status_code == 200, kind
        return r.content.decode()

    slips = sheet("slips")
    assert slips.count('class="slip-page"') == 2 and slips.count('class="slip"') == 9
    assert slips.count("White&#x27;s signature") == 9 or slips.count("White's signature") == 9
    assert sheet("tables").count('class="number"') == 9
    by_tpn, by_rating = sheet("ranks"), sheet("ranks", "?by=rating")
    assert by_tpn.index("Player 01") < by_tpn.index("Player 02")
    assert "<p>By rating</p>" in by_rating and "<p>By pairing number</p>" in by_tpn
    alpha = sheet("alpha")
    assert len(re.findall(r'<td class="board">', alpha)) == 18
    checkin = sheet("checkin")
    assert "<svg" in checkin and "Check yourself in" in checkin
    wall = sheet("wall")
    assert "<svg" in wall and 'class="wall-list"' in wall
    assert chief_client.get(reverse("pairing:print_sheet", args=[t.slug, "nonsense"])).status_code == 404


def test_the_self_check_in_page_keeps_its_link_to_itself_and_its_form_works_in_browsers(anon_client, hall):
    """Referrer-Policy same-origin: the secret address goes to no other site, and the
    browser still sends the page's origin with its form (with no-referrer it sends
    'Origin: null', which the CSRF check refuses)."""
    e, t, players = hall
    url = reverse("pairing:self_checkin", args=[e.slug, "s3cret-link"])
    page = anon_client.get(url + "?q=player 01")
    assert page["Referrer-Policy"] == "same-origin" and page["Cache-Control"] == "private, no-store"
    from django.test import Client

    browser = Client(enforce_csrf_checks=True)
    form = browser.get(url + "?q=player 01")
    token = re.search(r'name="csrfmiddlewaretoken" value="([^"]+)"', form.content.decode()).group(1)
    sent = browser.post(url, {"player": players[0].pk, "csrfmiddlewaretoken": token},
                        headers={"Origin": "http://testserver"})
    assert sent.status_code == 302 and CheckIn.objects.get(player=players[0]).present


def test_a_player_not_paired_finds_his_name_on_the_wall_chart_and_the_alphabetical_list(chief_client, hall):
    """Absent at the close of check-in (or a requested bye): not on a board, but named
    under the pairings with his bye, and in the alphabetical list without a board."""
    e, t, players = hall
    Bye.objects.create(tournament=t, player=players[4], round_number=1, kind="Z")
    Bye.objects.create(tournament=t, player=players[3], round_number=1, kind="H")
    rnd = rounds.pair_next_round(t)
    rounds.publish(rnd)
    wall = chief_client.get(reverse("pairing:print_sheet", args=[t.slug, "wall"])).content.decode()
    shown = wall[wall.index('id="not-paired"'):]
    assert "Player 04 <span class=\"tpn\">(4, half-point bye)" in shown
    assert "Player 05 <span class=\"tpn\">(5, zero-point bye)" in shown
    alpha = chief_client.get(reverse("pairing:print_sheet", args=[t.slug, "alpha"])).content.decode()
    assert re.search(r"<td>Player 05</td><td>5</td><td class=\"board\">—</td><td>zero-point bye</td>", alpha)
    assert re.search(r"<td>Player 04</td><td>4</td><td class=\"board\">—</td><td>half-point bye</td>", alpha)
