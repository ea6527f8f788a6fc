"""Pasted lists and CSV files: every line is checked; any error writes nothing."""

from __future__ import annotations

from django.core.files.uploadedfile import SimpleUploadedFile
from django.db import transaction
from django.urls import reverse
from hypothesis import HealthCheck, given, settings
from hypothesis import strategies as st

from pairing.forms import PlayerListForm
from pairing.models import Player
from pairing.services.players import add_players


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


def test_old_mac_line_endings_are_lines_too(chief_client, tournament):
    """A lone carriage return (found by the property test below) made the CSV reader
    raise, a server error; it now ends a line like any other line ending."""
    response = chief_client.post(import_url(tournament), {"text": "Kovac, Tina; 2210\rHorvat, Luka; 2305\r"})
    assert response.status_code == 302
    assert Player.objects.count() == 2


def test_a_rating_in_other_digits_is_refused_with_its_line(chief_client, tournament):
    """'²' and '٣' are digits to str.isdigit() but not to int(): a server error before."""
    response = chief_client.post(import_url(tournament), {"text": "Kovac, Tina; 2210\nHorvat, Luka; ²\n"})
    assert response.status_code == 400
    assert "Line 2: rating" in response.content.decode()
    assert Player.objects.count() == 0


class _Undo(Exception):
    pass


_FIELD = st.one_of(
    st.text(max_size=40),
    st.sampled_from(["GM", "im", "", "2830", "0", "-5", "99999", "NOR", "nor", "1503014", "123456789012",
                     "2001-02-03", "2001-02-30", "m", "F", "x", "1.5", "١٢٣", "\"Quoted, Name\""]),
)
_LIST = st.lists(st.lists(_FIELD, min_size=1, max_size=9).map("; ".join), min_size=1, max_size=6).map("\n".join)


@settings(max_examples=400, deadline=None, suppress_health_check=[HealthCheck.function_scoped_fixture])
@given(text=_LIST)
def test_any_pasted_list_is_registered_whole_or_refused_with_line_numbers(chief, tournament, text):
    """Whatever is pasted: every player is added, or the form lists what is wrong line
    by line and nothing is written.  Never an exception."""
    try:
        with transaction.atomic():  # each example rolls back what it wrote
            form = PlayerListForm({"text": text}, tournament=tournament)
            if form.is_valid():
                added = add_players(tournament, [row.values for row in form.cleaned_data["players"]], chief)
                assert len(added) == tournament.player_set.count() == len(form.cleaned_data["players"])
            else:
                assert form.non_field_errors()
                assert tournament.player_set.count() == 0
            raise _Undo
    except _Undo:
        pass


def test_an_uploaded_file_with_a_nul_character_is_refused(chief_client, tournament):
    """PostgreSQL stores no NUL in text: such a file reached the database (a server
    error there).  It is refused, with its line, on every database."""
    upload = SimpleUploadedFile("players.csv", b"Kovac, Tina; 2210\nHor\x00vat, Luka; 2305\n")
    response = chief_client.post(import_url(tournament), {"file": upload})
    assert response.status_code == 400
    assert "Line 2: the file contains a NUL character" in response.content.decode()
    assert Player.objects.count() == 0


def test_a_quote_left_open_is_an_error_on_its_line_not_a_merged_player(chief_client, tournament):
    """Line 1 opens a quote and never closes it: once the csv reader ran on through
    line 2 and registered one player named 'Kos, Ana;1900 X;2000'.  Now line 1 is
    refused, with the hint about quotes, and nothing is written."""
    response = chief_client.post(import_url(tournament), {"text": '"Kos, Ana;1900\nX;2000\nY;1950'})
    page = response.content.decode()
    assert response.status_code == 400
    assert "Line 1: a quote is not closed" in page
    assert "Line 2" not in page and "Line 3" not in page
    assert not Player.objects.filter(tournament=tournament).exists()


def test_quoted_names_with_the_separator_still_work(chief_client, tournament):
    chief_client.post(import_url(tournament), {"text": '"Kos, Ana", 1900\n"Berg, Ida", 2000'})
    assert sorted(Player.objects.filter(tournament=tournament).values_list("name", flat=True)) == [
        "Berg, Ida", "Kos, Ana",
    ]


def test_a_birth_date_in_the_future_is_a_line_error(chief_client, tournament):
    response = chief_client.post(import_url(tournament), {"text": "Kos, Ana; 1900; ; ; ; 2099-01-01\nX; 2000"})
    assert "Line 1: birth date 2099-01-01 is not between 1900 and today." in response.content.decode()
    assert not Player.objects.filter(tournament=tournament).exists()


def test_an_unquoted_surname_comma_name_gets_one_hint_not_a_chain_of_column_errors(chief_client, tournament):
    """Rough edge 14 (issue 21): ``Zupan, Ana, 2105, , SLO`` shifted every column
    (rating 'Ana', title '2105', ...); the line now says to quote the name."""
    response = chief_client.post(import_url(tournament), {"text": "Zupan, Ana, 2105, , SLO\nKos, Bor, 1900"})
    page = response.content.decode()
    assert response.status_code == 400
    assert ("Line 1: the name looks like &#x27;Zupan&#x27; and &#x27;Ana&#x27; split at a comma; "
            "quote names that contain a comma") in page
    assert "rating &#x27;Ana&#x27;" not in page and "unknown title" not in page
    assert "Line 2: the name looks like &#x27;Kos&#x27; and &#x27;Bor&#x27;" in page
    assert not Player.objects.filter(tournament=tournament).exists()


def test_a_plain_bad_rating_with_commas_is_still_a_rating_error(chief_client, tournament):
    response = chief_client.post(import_url(tournament), {"text": "Zupan Ana, 2x05"})
    assert "rating &#x27;2x05&#x27; is not a number between 1 and 3500" in response.content.decode()


def test_audit_finding_4_a_control_character_in_a_pasted_column_is_a_line_error(chief_client, tournament):
    response = chief_client.post(import_url(tournament), {"text": "Kos, Ana; 1900; ; SLO\x01\nNovak\x1fBor; 2000"})
    page = response.content.decode()
    assert "Line 1: the federation contains a line break or another control character" in page
    assert "Line 2: the name contains a line break or another control character" in page
    assert not Player.objects.filter(tournament=tournament).exists()


def test_rough_edge_1_names_already_registered_or_repeated_are_asked_about_before_adding(chief_client, tournament):
    """Issue 21, rough edge 1: "2 players added" for the same name twice, and "1 players
    added" for a name already registered.  Now nothing is added until the arbiter says
    they are different players."""
    from pairing.models import Player

    Player.objects.create(tournament=tournament, name="Kos, Bor", rating=1900, tpn=1)
    text = "Kos, Bor; 1900\nNovak, Ana; 2000\nnovak, ana; 1990\nZupan, Eva; 1800"
    response = chief_client.post(import_url(tournament), {"text": text})
    page = response.content.decode()
    assert response.status_code == 400
    assert "Nothing was added yet." in page
    assert "Line 1: Kos, Bor is already registered (number 1)." in page
    assert "Line 3: novak, ana is also on line 2." in page
    assert 'name="same_names"' in page
    assert Player.objects.filter(tournament=tournament).count() == 1
    response = chief_client.post(import_url(tournament), {"text": text, "same_names": "on"}, follow=True)
    assert "4 players added" in response.content.decode()
    assert Player.objects.filter(tournament=tournament).count() == 5


def test_rough_edge_1_an_uploaded_list_with_a_namesake_comes_back_as_text_to_confirm(chief_client, tournament):
    from django.core.files.uploadedfile import SimpleUploadedFile

    from pairing.models import Player

    upload = SimpleUploadedFile("list.csv", b"Novak, Ana; 2000\nNovak, Ana; 1990\n", content_type="text/csv")
    page = chief_client.post(import_url(tournament), {"file": upload}).content.decode()
    assert "Line 2: Novak, Ana is also on line 1." in page and "Novak, Ana; 1990" in page
    assert not Player.objects.filter(tournament=tournament).exists()


def test_rough_edge_8_one_player_added_is_singular(chief_client, tournament):
    response = chief_client.post(import_url(tournament), {"text": "Kos, Bor; 1900"}, follow=True)
    page = response.content.decode()
    assert "1 player added." in page and "1 players" not in page and "1 player. * provisional rating;" in page
