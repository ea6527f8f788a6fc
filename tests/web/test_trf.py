"""TRF-16 export (read back identically) and import (also of rounds played elsewhere)."""

from __future__ import annotations

from django.core.files.uploadedfile import SimpleUploadedFile
from django.urls import reverse

from pairing import adapter
from pairing.engine.trf import dump_trf, parse_trf
from pairing.models import Bye, ByeKind, Game, GameResult, Player, Round, Tournament
from tests.web.helpers import play_round


def played_tournament(t, user, rounds=3):
    Player.objects.filter(pk=t.player_set.order_by("tpn")[1].pk).update(title="IM", federation="SLO", sex="f")
    Bye.objects.create(tournament=t, player=t.player_set.order_by("tpn")[4], round_number=2, kind=ByeKind.HALF)
    for _ in range(rounds):
        play_round(t, user, {0: GameResult.DRAW, 1: GameResult.BLACK_FORFEIT_WIN, 2: GameResult.BLACK_WINS})
    return t


def test_export_is_read_back_identically(chief_client, chief, tournament, players):
    played_tournament(tournament, chief)
    response = chief_client.get(reverse("pairing:trf_export", args=[tournament.slug]))
    text = response.content.decode()
    assert response["Content-Disposition"] == 'attachment; filename="spring-open.trf"'
    parsed = parse_trf(text)
    assert dump_trf(parsed) == text
    assert parsed.total_rounds == 5
    assert parsed.rounds_played() == 3
    assert len(parsed.players) == 10


def test_export_leaves_out_a_round_in_play(chief, tournament, players):
    played_tournament(tournament, chief, rounds=2)
    rnd = adapter.pair_next_round(tournament, chief)
    rnd.publish(chief)
    assert parse_trf(adapter.export_trf(tournament)).rounds_played() == 2


def test_import_continues_a_tournament_played_elsewhere(chief_client, chief, tournament, players):
    played_tournament(tournament, chief)
    text = adapter.export_trf(tournament)
    fresh = Tournament.objects.create(slug="continued", name="Continued", owner=chief)
    response = chief_client.post(reverse("pairing:trf_import", args=["continued"]), {"text": text})
    assert response.status_code == 302
    assert fresh.player_set.count() == 10
    assert list(fresh.round_set.values_list("number", "status")) == [(1, "complete"), (2, "complete"), (3, "complete")]
    assert Game.objects.filter(round__tournament=fresh).count() == Game.objects.filter(round__tournament=tournament).count()
    assert Bye.objects.filter(tournament=fresh, kind=ByeKind.HALF).count() == 1
    assert Bye.objects.filter(tournament=fresh, kind=ByeKind.PAIRING).count() == 1
    # the same tournament, as far as TRF can tell (the chief arbiter line differs: the importer owns it)
    fresh.refresh_from_db()
    assert fresh.initial_colour == tournament.initial_colour
    theirs = parse_trf(adapter.export_trf(fresh))
    ours = parse_trf(text)
    assert [(p.id, p.name, p.rating, p.history) for p in theirs.players] == [
        (p.id, p.name, p.rating, p.history) for p in ours.players
    ]
    # and it can be paired on from here
    rnd = adapter.pair_next_round(fresh, chief)
    assert rnd.number == 4


def test_import_of_a_file_upload(chief_client, chief, tournament, players):
    text = adapter.export_trf(tournament).encode()
    Tournament.objects.create(slug="uploaded", name="Uploaded", owner=chief)
    chief_client.post(reverse("pairing:trf_import", args=["uploaded"]), {"file": SimpleUploadedFile("x.trf", text)})
    assert Player.objects.filter(tournament__slug="uploaded").count() == 10


BROKEN = (
    "012 Broken\n"
    "001    1 m    Alpha, Ann                        2x00 SLO     1234567 1990/01/01  1.0    1     2 w 1\n"
    "001    2 m    Beta, Bob                         2000 SLO     1234568 1990/01/01  0.0    2     1 b 7\n"
)


def test_a_broken_file_shows_line_and_column_and_writes_nothing(chief_client, tournament):
    response = chief_client.post(reverse("pairing:trf_import", args=[tournament.slug]), {"text": BROKEN})
    body = response.content.decode()
    assert response.status_code == 400
    assert "Nothing was imported" in body
    assert "<td>2</td><td>49</td>" in body  # the rating field
    assert "<td>3</td>" in body  # the bad result code
    assert Player.objects.count() == 0
    assert Round.objects.count() == 0


def test_import_into_a_tournament_with_players_is_refused(chief_client, tournament, players):
    text = adapter.export_trf(tournament)
    response = chief_client.post(reverse("pairing:trf_import", args=[tournament.slug]), {"text": text})
    assert "already has players" in response.content.decode()
    assert Player.objects.count() == 10


def test_an_empty_import_is_refused(chief_client, tournament):
    response = chief_client.post(reverse("pairing:trf_import", args=[tournament.slug]), {"text": ""})
    assert "Paste the TRF text" in response.content.decode()
    assert Player.objects.count() == 0
