"""Pasted lists and CSV files: every line is checked; any error writes nothing."""

from __future__ import annotations

from django.core.files.uploadedfile import SimpleUploadedFile
from django.urls import reverse

from pairing.models import Player


def import_url(t):
    return reverse("pairing:players_import", args=[t.slug])


GOOD = """name;rating;title;federation;fide_id;birth_date;sex;club
Kovac, Tina; 2210; WFM; CRO; 14500001; 1999-01-02; f; ŠK Rijeka
Horvat, Luka; 2305; FM; CRO
Novak, Eva;;;SLO
"""


def test_a_pasted_list_registers_every_player(chief_client, tournament):
    response = chief_client.post(import_url(tournament), {"text": GOOD})
    assert response.status_code == 302
    assert list(tournament.player_set.order_by("tpn").values_list("name", "tpn")) == [
        ("Horvat, Luka", 1), ("Kovac, Tina", 2), ("Novak, Eva", 3)
    ]
    eva = Player.objects.get(name="Novak, Eva")
    assert eva.rating_provisional and eva.rating == 1000


def test_a_csv_file_works_too(chief_client, tournament):
    upload = SimpleUploadedFile("players.csv", b'"Kovac, Tina",2210,WFM\n"Horvat, Luka",2305,FM\n')
    chief_client.post(import_url(tournament), {"file": upload})
    assert Player.objects.count() == 2


def test_bad_lines_are_listed_and_nothing_is_written(chief_client, tournament, players):
    text = "Good, One; 2000\nBad, Two; 99999\n; 2000\nBad, Three; 2000; XM; Slovenia\nBad, Four; 1900; ; ; 12x\n"
    response = chief_client.post(import_url(tournament), {"text": text})
    body = response.content.decode()
    assert response.status_code == 400
    assert "Nothing was added" in body
    assert "Line 2: rating &#x27;99999&#x27; is not a number between 1 and 3500." in body
    assert "Line 3: no name." in body
    assert "Line 4: unknown title" in body and "federation" in body
    assert "Line 5: FIDE id" in body
    assert Player.objects.count() == 10


def test_a_fide_id_twice_in_the_list_is_refused(chief_client, tournament):
    response = chief_client.post(import_url(tournament), {"text": "A; 2000; ; ; 5\nB; 2000; ; ; 5\n"})
    assert "also on line 1" in response.content.decode()
    assert Player.objects.count() == 0


def test_an_empty_list_is_refused(chief_client, tournament):
    response = chief_client.post(import_url(tournament), {"text": "  \n"})
    assert "Paste a list" in response.content.decode()
    assert Player.objects.count() == 0


def test_a_binary_file_is_refused(chief_client, tournament):
    upload = SimpleUploadedFile("players.csv", b"\xff\xfe\x00\x01garbage")
    response = chief_client.post(import_url(tournament), {"file": upload})
    assert "not UTF-8" in response.content.decode()
    assert Player.objects.count() == 0
