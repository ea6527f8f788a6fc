"""A TRF import either finishes while the arbiter waits or not at all (issue 33, finding
5): the audit's 9,999 x 40 file was a 504 at the proxy and committed minutes later.  Past
the request's working time the import stops and rolls back with a message; the speed of
the large import itself is measured by benchmarks/bench_import.py (docs and notes)."""

from __future__ import annotations

from pathlib import Path

from django.urls import reverse

from pairing.models import AuditEntry, Player, Round, Tournament
from pairing.services.trf_import import ImportRefused, import_trf

GOOD = (Path(__file__).parent / "data" / "generated-10-players.trf").read_text()


def test_an_import_past_the_pages_working_time_saves_nothing_and_says_so(chief_client, tournament, settings):
    settings.REQUEST_WORK_SECONDS = 0
    response = chief_client.post(reverse("pairing:trf_import", args=[tournament.slug]), {"text": GOOD})
    assert response.status_code == 400
    page = response.content.decode()
    assert "took longer than a page may wait" in page and "nothing was imported" in page
    assert not Player.objects.exists() and not Round.objects.exists()
    assert not AuditEntry.objects.filter(tournament=tournament).exists()
    assert Tournament.objects.get(pk=tournament.pk).revision == tournament.revision


def test_an_import_in_time_is_saved(chief_client, tournament, settings):
    settings.REQUEST_WORK_SECONDS = 600
    response = chief_client.post(reverse("pairing:trf_import", args=[tournament.slug]), {"text": GOOD})
    assert response.status_code == 302
    assert Player.objects.filter(tournament=tournament).count() == 10


def test_the_service_checks_its_deadline_before_it_commits(chief, tournament):
    """Without rounds to import the loop's check never runs: the last check still does."""
    players_only = "\n".join(line for line in GOOD.splitlines() if not line.startswith("001")
                             ) + "\n" + "\n".join(line[:89] for line in GOOD.splitlines() if line.startswith("001"))
    try:
        import_trf(tournament, players_only, chief, deadline=0.0)
    except ImportRefused as exc:
        assert "took longer than a page may wait" in str(exc.problems)
    else:
        raise AssertionError("an import past its deadline was saved")
    assert not Player.objects.exists()
