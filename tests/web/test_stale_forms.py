"""Audit finding 10: a changing form must say what it was made from (``seen``,
``expected``), and a refused big input is not sent back in full."""

from __future__ import annotations

from django.urls import reverse

from pairing.models import AuditEntry, Bye, ByeKind, Player
from tests.web.helpers import shown_byes, shown_version
from tests.web.test_tournament_setup import GOOD


def test_audit_finding_10_settings_sent_without_seen_change_nothing(chief_client, deputy_client, tournament):
    url = reverse("pairing:settings", args=[tournament.slug])
    deputy_client.post(url, {**GOOD, "slug": tournament.slug, "rounds": "9", "seen": shown_version(tournament)})
    audit = AuditEntry.objects.count()
    response = chief_client.post(url, {**GOOD, "slug": tournament.slug, "rounds": "7"})
    assert response.status_code == 400
    assert "did not say which settings it showed" in response.content.decode()
    tournament.refresh_from_db()
    assert tournament.rounds == 9 and AuditEntry.objects.count() == audit


def test_audit_finding_10_a_player_edit_without_seen_changes_nothing(chief_client, tournament, players):
    p = players[0]
    url = reverse("pairing:player_edit", args=[tournament.slug, p.pk])
    response = chief_client.post(url, {"name": p.name, "rating": "1234"})
    assert response.status_code == 400
    assert "did not say which player&#x27;s details it showed" in response.content.decode()
    assert Player.objects.get(pk=p.pk).rating == p.rating
    # with it, the same edit saves
    chief_client.post(url, {"name": p.name, "rating": "1234", "seen": shown_version(p)})
    assert Player.objects.get(pk=p.pk).rating == 1234


def test_audit_finding_10_byes_sent_without_seen_change_nothing(chief_client, deputy_client, tournament, players):
    url = reverse("pairing:absences", args=[tournament.slug])
    deputy_client.post(url, {"round": 1, "seen": shown_byes(tournament, 1), f"kind-{players[0].pk}": ByeKind.ZERO})
    response = chief_client.post(url, {"round": 1, f"kind-{players[0].pk}": ByeKind.HALF}, follow=True)
    assert "did not say which byes it showed" in response.content.decode()
    assert Bye.objects.get().kind == ByeKind.ZERO


def test_audit_finding_10_a_huge_refused_list_is_not_echoed_back(chief_client, tournament):
    """9 MB of bad lines: the page names the first 100 problems and counts the rest, and the
    text box comes back empty with a sentence, instead of 9 MB sent back."""
    line = "Bad, Line; not-a-rating\n"
    text = line * (9 * 1024 * 1024 // len(line))
    response = chief_client.post(reverse("pairing:players_import", args=[tournament.slug]), {"text": text})
    page = response.content.decode()
    assert response.status_code == 400
    assert len(page) < 100_000
    assert "is too long to show again here" in page and f"{len(text):,} characters" in page
    assert "the first 100 problems are listed" in page and "more.</p>" in page
    assert not tournament.player_set.exists()


def test_audit_finding_10_a_huge_refused_trf_text_is_not_echoed_back(chief_client, tournament):
    text = "012 Open\r\n" + "001 bad line\r\n" * 700_000
    response = chief_client.post(reverse("pairing:trf_import", args=[tournament.slug]), {"text": text})
    page = response.content.decode()
    assert response.status_code == 400
    assert len(page) < 100_000 and "is too long to show again here" in page


def test_a_short_refused_list_comes_back_for_correction(chief_client, tournament):
    text = "Good, Gina; 2000\nBad, Bob; abc\n"
    response = chief_client.post(reverse("pairing:players_import", args=[tournament.slug]), {"text": text})
    page = response.content.decode()
    assert "Bad, Bob; abc" in page and "too long to show again" not in page
