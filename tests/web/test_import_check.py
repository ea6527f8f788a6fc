"""An imported tournament is checked against the pairing rules (VCL4THP Q54–56): its
rounds are paired again by the engine; rounds that differ need a Level-3 confirmation
and become pairing-integrity events; the import stays in FIDE mode."""

from __future__ import annotations

from django.core.files.uploadedfile import SimpleUploadedFile
from django.urls import reverse

from pairing.models import IntegrityEvent, Tournament
from pairing.services import interchange
from tests.web.helpers import (
    add_players,
    confirm,
    confirmation_page,
    hand_changed_round,
    out_of_fide_mode,
    play_round,
)


def _file_with_a_hand_made_round(owner) -> str:
    """Round 1 as the engine paired it; round 2 with the colours of board 1 reversed by
    hand, as another program (or an arbiter) might have made it."""
    source = Tournament.objects.create(slug="source", name="Source", rounds=5, owner=owner)
    add_players(source, 6)
    play_round(source)
    hand_changed_round(source)
    return interchange.export_trf(source)  # the file for rating: no ### lines


def _import(client, owner, **data):
    fresh = Tournament.objects.create(slug="continued", name="Continued", owner=owner)
    return fresh, client.post(reverse("pairing:trf_import", args=[fresh.slug]), data)


def test_vcl_q54_q55_imported_rounds_that_break_the_rules_need_level_3_and_become_events(chief_client, chief):
    text = _file_with_a_hand_made_round(chief)
    fresh, response = _import(chief_client, chief, file=SimpleUploadedFile("source.trf", text.encode()))
    page = confirmation_page(response)
    assert page["level"] == 3 and page["fields"]["text"] == [text]  # the file comes back as its text
    assert "Round 2:" in response.content.decode() and "Round 1:" not in response.content.decode()
    assert not fresh.player_set.exists()  # nothing written before the confirmation
    response = confirm(chief_client, response)
    assert response.status_code == 302
    fresh.refresh_from_db()
    assert fresh.player_set.count() == 6 and fresh.rounds_published() == 2 and fresh.fide_mode
    (event,) = IntegrityEvent.objects.filter(tournament=fresh)
    assert event.kind == "import" and event.line.startswith("Import @ Round 2: ")
    assert event.report_line in interchange.export_trf(fresh, integrity=True).splitlines()


def test_vcl_q54_an_import_that_follows_the_rules_asks_nothing(chief_client, chief):
    source = Tournament.objects.create(slug="source", name="Source", rounds=5, owner=chief)
    add_players(source, 6)
    play_round(source)
    play_round(source)
    fresh, response = _import(chief_client, chief, text=interchange.export_trf(source))
    assert response.status_code == 302
    assert fresh.rounds_published() == 2 and not IntegrityEvent.objects.filter(tournament=fresh).exists()


def test_vcl_q56_an_import_into_fide_mode_refuses_points_fide_mode_does_not_allow(chief_client, chief):
    source = Tournament.objects.create(slug="source", name="Source", rounds=5, owner=chief, point_draw="0.9")
    out_of_fide_mode(source)
    add_players(source, 4)
    fresh, response = _import(chief_client, chief, text=interchange.export_trf(source))
    assert response.status_code == 400
    assert "FIDE mode does not allow that. Leave FIDE mode first to import this file." in response.content.decode()
    assert not fresh.player_set.exists()


def test_a_file_too_large_to_re_pair_during_an_upload_is_imported_with_a_notice(chief_client, chief, monkeypatch):
    """Above IMPORT_CHECK_LIMIT player-rounds the upload does not re-pair (it would outlast
    the request timeout); the arbiter is told and pointed to the engine's checker."""
    import importlib

    from pairing.services import interchange as module

    monkeypatch.setattr(module, "IMPORT_CHECK_LIMIT", 5)
    monkeypatch.setattr(importlib.import_module("pairing.views.players"), "IMPORT_CHECK_LIMIT", 5)
    text = _file_with_a_hand_made_round(chief)
    fresh, response = _import(chief_client, chief, text=text)
    assert response.status_code == 302
    page = chief_client.get(response.url).content.decode()
    assert "were not re-paired against the rules" in page and "python -m pairing.engine --dubov -c" in page
    assert fresh.rounds_published() == 2 and not IntegrityEvent.objects.filter(tournament=fresh).exists()
