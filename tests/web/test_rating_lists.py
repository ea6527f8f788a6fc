"""Rating lists (issue 18; VCL4THP Q116-145): FIDE's combined list (XML zip, TXT),
national and custom CSV lists, the look-up while registering, the tournament-rating
methods, the list order per rate of play, and the consistency check.  Every file here
is written by the test in the real format."""

from __future__ import annotations

import datetime
import http.server
import io
import threading
import zipfile
from decimal import Decimal
from pathlib import Path

import pytest
from django.core.files.uploadedfile import SimpleUploadedFile
from django.core.management import CommandError, call_command
from django.urls import reverse

from pairing.models import (
    AuditEntry,
    Job,
    Player,
    RatingEntry,
    RatingList,
    RatingSource,
    Tournament,
    tournament_rating,
)
from pairing.rating_files import RatingFileError, search_keys
from pairing.services import interchange, player_ratings, rating_sources
from pairing.services.rating_lists import load_list, search
from tests.web.helpers import add_players, play_round, shown_version
from tests.web.test_tournament_setup import GOOD
from tests.web.worker_process import run_queued

PLAYERS = [
    # fideid, name, fed, sex, title, std, rapid, blitz, born, flag
    ("1503014", "Carlsen, Magnus", "NOR", "M", "GM", 2833, 2820, 2880, 1990, ""),
    ("14100010", "Ćirić, Dragoljub", "SRB", "M", "IM", 2290, "", "", 1935, "i"),
    ("24116068", "Rapidov, Ivan", "SLO", "M", "", "", 1900, 1950, 2001, ""),
    ("5000001", "Novak, Ana", "SLO", "F", "WFM", 2010, 2050, "", 1999, "w"),
]


def fide_xml(players=PLAYERS, std_shift: int = 0) -> bytes:
    rows = []
    for fid, name, fed, sex, title, std, rapid, blitz, born, flag in players:
        std = std + std_shift if std else std
        rows.append(
            f"<player><fideid>{fid}</fideid><name>{name}</name><country>{fed}</country><sex>{sex}</sex>"
            f"<title>{title}</title><w_title></w_title><o_title></o_title><foa_title></foa_title>"
            f"<rating>{std}</rating><games>0</games><k>{10 if std else ''}</k><rapid_rating>{rapid}</rapid_rating>"
            f"<rapid_games>0</rapid_games><rapid_k>20</rapid_k><blitz_rating>{blitz}</blitz_rating>"
            f"<blitz_games>0</blitz_games><blitz_k>20</blitz_k><birthday>{born}</birthday><flag>{flag}</flag></player>"
        )
    return ('<?xml version="1.0" encoding="utf-8"?>\n<playerslist>\n' + "\n".join(rows) + "\n</playerslist>\n").encode()


def zipped(name: str, data: bytes) -> bytes:
    buf = io.BytesIO()
    with zipfile.ZipFile(buf, "w", zipfile.ZIP_DEFLATED) as z:
        z.writestr(name, data)
    return buf.getvalue()


def fide_txt() -> bytes:
    header = ("ID Number      Name                                                         Fed Sex Tit  WTit OTit"
              "           FOA SRtng SGm SK RRtng RGm Rk BRtng BGm BK B-day Flag")
    cols = {k: header.index(k) for k in ("Name", "Fed", "Sex", "Tit", "SRtng", "RRtng", "BRtng", "B-day", "Flag")}
    lines = [header]
    for fid, name, fed, sex, title, std, rapid, blitz, born, flag in PLAYERS:
        line = [" "] * (len(header) + 4)
        for col, text in ((0, fid), (cols["Name"], name), (cols["Fed"], fed), (cols["Sex"], sex),
                          (cols["Tit"], title), (cols["SRtng"], std), (cols["RRtng"], rapid),
                          (cols["BRtng"], blitz), (cols["B-day"], born), (cols["Flag"], flag)):
            line[col:col + len(str(text))] = list(str(text))
        lines.append("".join(line).rstrip())
    return ("\n".join(lines) + "\n").encode()


NATIONAL = b"id,name,rating,federation,fide id\nS-1,\"Novak, Ana\",2105,SLO,5000001\nS-2,\"Kovac, Luka\",1710,SLO,\n"


def load(data: bytes, filename: str, kind: str = "fide", name: str = "", month: str = "2026-11") -> RatingList:
    day = datetime.datetime.strptime(month, "%Y-%m").date()
    return load_list(io.BytesIO(data), filename, kind=kind, name=name, month=day)


@pytest.fixture
def fide(db):
    return load(zipped("players_list_xml_foa.xml", fide_xml()), "players_list_xml.zip")


# ---------------------------------------------------------------- loading


def test_vcl_q119_q121_fides_combined_xml_list_loads_with_all_three_ratings(db, tmp_path):
    path = tmp_path / "players_list_xml.zip"
    path.write_bytes(zipped("players_list_xml_foa.xml", fide_xml()))
    out = io.StringIO()
    call_command("import_rating_list", str(path), "--month", "2026-11", stdout=out)
    assert "Loaded FIDE (Nov 2026): 4 players" in out.getvalue()
    carlsen = RatingEntry.objects.get(fide_id="1503014")
    assert (carlsen.standard, carlsen.rapid, carlsen.blitz, carlsen.standard_k) == (2833, 2820, 2880, 10)
    assert (carlsen.title, carlsen.federation, carlsen.sex, carlsen.birth_year) == ("GM", "NOR", "m", 1990)
    assert RatingEntry.objects.get(fide_id="24116068").standard is None


def test_the_fixed_column_txt_list_loads_the_same_players(db):
    rl = load(fide_txt(), "players_list_foa.txt")
    assert rl.players == 4
    ciric = RatingEntry.objects.get(rating_list=rl, fide_id="14100010")
    assert (ciric.name, ciric.standard, ciric.title, ciric.flag) == ("Ćirić, Dragoljub", 2290, "IM", "i")


def test_vcl_q117_a_custom_csv_list_loads_and_a_bad_one_is_refused_with_every_line(db):
    rl = load(NATIONAL, "slo.csv", kind="national", name="SLO national")
    assert rl.players == 2 and RatingEntry.objects.get(rating_list=rl, ident="S-1").standard == 2105
    bad = b"id;name;rating\nA1;Ana;2105\nA2;;1700\nA3;Bor;abc\nA1;Cene;1500\n"
    with pytest.raises(RatingFileError) as exc:
        load(bad, "club.csv", kind="custom", name="Club")
    text = str(exc.value)
    assert "line 3, column 2: no name" in text
    assert "line 4, column 3: expected a rating" in text
    assert "line 5, column 1: id A1 is also on line 2" in text
    assert not RatingList.objects.filter(name="Club").exists()


def test_loading_the_same_month_again_replaces_the_list_at_once_and_a_bad_file_changes_nothing(fide):
    again = load(zipped("x.xml", fide_xml(std_shift=5)), "players_list_xml.zip")
    assert RatingList.objects.active().filter(name="FIDE").get() == again
    assert RatingEntry.objects.filter(fide_id="1503014").get().standard == 2838
    with pytest.raises(RatingFileError):
        load(b"<playerslist><player><fideid>1</fideid><name>A, B</name>", "players_list_xml.xml")
    assert RatingList.objects.active().get() == again
    assert RatingList.objects.count() == 1 and RatingEntry.objects.count() == 4


def test_download_fetches_fides_file_from_the_configured_address(db, settings, tmp_path):
    (tmp_path / "players_list_xml.zip").write_bytes(zipped("players_list_xml_foa.xml", fide_xml()))

    class Handler(http.server.SimpleHTTPRequestHandler):
        def __init__(self, *args, **kwargs):
            super().__init__(*args, directory=str(tmp_path), **kwargs)

        def log_message(self, *args):
            pass

    server = http.server.ThreadingHTTPServer(("127.0.0.1", 0), Handler)
    threading.Thread(target=server.serve_forever, daemon=True).start()
    try:
        settings.FIDE_RATING_LIST_URL = f"http://127.0.0.1:{server.server_port}/players_list_xml.zip"
        call_command("import_rating_list", "--download", stdout=io.StringIO())
        settings.FIDE_RATING_LIST_URL = f"http://127.0.0.1:{server.server_port}/missing.zip"
        with pytest.raises(CommandError, match="The download from .* failed: HTTP 404 File not found. The list of Nov 2026 stays in use."):
            call_command("import_rating_list", "--download", stdout=io.StringIO())
    finally:
        server.shutdown()
    assert RatingList.objects.active().get().players == 4


# ---------------------------------------------------------------- look-up


def test_search_finds_names_in_any_order_without_accents_and_by_fide_id(fide):
    lists = [fide]
    assert [e.fide_id for e in search("carlsen magnus", lists)] == ["1503014"]
    assert [e.fide_id for e in search("mag carl", lists)] == ["1503014"]
    assert [e.fide_id for e in search("ciric", lists)] == ["14100010"]
    assert [e.fide_id for e in search("Dragoljub Ćir", lists)] == ["14100010"]
    assert [e.fide_id for e in search("1503014", lists)] == ["1503014"]
    assert search("c", lists) == []  # one letter is not a search
    assert search_keys("Carlsen, Magnus") == ("carlsen magnus", "magnus carlsen", "carmag")


def test_vcl_q127_picking_a_player_fills_the_form_from_the_main_list(chief_client, tournament, fide):
    page = chief_client.get(reverse("pairing:players", args=[tournament.slug])).content.decode()
    assert 'id="player-lookup"' in page
    found = chief_client.get(reverse("pairing:player_lookup", args=[tournament.slug]), {"q": "carl mag"},
                             headers={"HX-Request": "true"}).content.decode()
    entry = RatingEntry.objects.get(fide_id="1503014")
    assert f"?pick={entry.pk}" in found and "<html" not in found
    page = chief_client.get(reverse("pairing:players", args=[tournament.slug]), {"pick": entry.pk}).content.decode()
    for value in ('value="Carlsen, Magnus"', 'value="2833"', 'value="1503014"', 'value="NOR"', 'value="1990"'):
        assert value in page
    assert "FIDE standard, Nov 2026: <strong>2833</strong>" in page
    assert "FIDE rapid, Nov 2026: <strong>2820</strong>" in page


def test_vcl_q128_q129_a_player_missing_from_the_main_list_shows_the_others_and_one_can_be_picked(
    chief_client, tournament, fide
):
    entry = RatingEntry.objects.get(fide_id="24116068")  # no standard rating
    url = reverse("pairing:players", args=[tournament.slug])
    page = chief_client.get(url, {"pick": entry.pk}).content.decode()
    assert 'name="rating" value="1900"' in page  # FIDE rapid: next in the standard order
    assert "FIDE blitz, Nov 2026: <strong>1950</strong>" in page
    page = chief_client.get(url, {"pick": entry.pk, "use": 1}).content.decode()
    assert 'name="rating" value="1950"' in page


def test_vcl_q134_a_rating_typed_over_the_lists_is_marked_as_typed(chief_client, tournament, fide):
    base = {"name": "Carlsen, Magnus", "fide_id": "1503014", "rating_source": "FIDE standard, Nov 2026",
            "list_rating": "2833", "federation": "NOR"}
    chief_client.post(reverse("pairing:players", args=[tournament.slug]), {**base, "fide_rating": "2833"})
    p = Player.objects.get(fide_id="1503014")
    assert (p.rating, p.fide_rating, p.rating_source) == (2833, 2833, "FIDE standard, Nov 2026")
    Player.objects.all().delete()
    chief_client.post(reverse("pairing:players", args=[tournament.slug]), {**base, "fide_rating": "2800"})
    p = Player.objects.get(fide_id="1503014")
    assert (p.rating, p.rating_source) == (2800, "")
    page = chief_client.get(reverse("pairing:players", args=[tournament.slug])).content.decode()
    assert '<abbr title="typed by hand">†</abbr>' in page


def test_the_player_look_up_needs_an_arbiter_of_the_tournament(client, stranger_client, deputy_client, tournament, fide):
    url = reverse("pairing:player_lookup", args=[tournament.slug])
    assert client.get(url, {"q": "carl"}).status_code == 302  # to the login page
    assert stranger_client.get(url, {"q": "carl"}).status_code == 404
    assert "Carlsen, Magnus" in deputy_client.get(url, {"q": "carl"}).content.decode()


# ---------------------------------------------------------------- methods and order


@pytest.mark.parametrize(
    "method, fide, national, expected",
    [("FIDON", 2000, 2100, 2000), ("FIDON", None, 2100, 2100), ("FIDE", None, 2100, None), ("NRO", 2000, 2100, 2100),
     ("NIDOF", 2000, None, 2000), ("HBFN", 2000, 2100, 2100), ("LBFN", 2000, 2100, 2000), ("OTHER", 2000, 2100, None)],
)
def test_vcl_q145_the_six_trf_2026_methods(method, fide, national, expected):
    assert tournament_rating(method, fide, national) == expected


def test_vcl_q116_q145_the_method_drives_the_tournament_rating_and_the_pairing_numbers(chief_client, tournament):
    url = reverse("pairing:players", args=[tournament.slug])
    chief_client.post(url, {"name": "A, Anna", "fide_rating": "2000", "national_rating": "2200"})
    chief_client.post(url, {"name": "B, Bea", "fide_rating": "2100", "national_rating": "1900"})
    a, b = Player.objects.get(name="A, Anna"), Player.objects.get(name="B, Bea")
    assert (a.rating, b.rating, b.tpn) == (2000, 2100, 1)  # FIDON: FIDE rating first
    response = chief_client.post(reverse("pairing:settings", args=[tournament.slug]), {
        **GOOD, "rounds": "5", "slug": tournament.slug, "seen": shown_version(tournament), "rating_method": "HBFN"})
    assert response.status_code == 302
    a.refresh_from_db()
    b.refresh_from_db()
    assert (a.rating, a.tpn, b.rating, b.tpn) == (2200, 1, 2100, 2)
    assert (a.fide_rating, a.national_rating) == (2000, 2200)  # the official ratings stay as they are
    refused = chief_client.post(url, {"name": "C, Cid", "fide_rating": "2000", "rating": "2300"})
    assert "method (HBFN) this player&#x27;s tournament rating is 2000" in refused.content.decode()


def test_the_method_is_locked_once_round_one_is_published(chief_client, tournament):
    add_players(tournament, 4)
    play_round(tournament)
    page = chief_client.get(reverse("pairing:settings", args=[tournament.slug])).content.decode()
    assert page.count("Locked: round 1 has been published.") >= 1
    chief_client.post(reverse("pairing:settings", args=[tournament.slug]), {
        **GOOD, "rounds": "5", "slug": tournament.slug, "seen": shown_version(tournament), "rating_method": "NRO"})
    assert Tournament.objects.get(pk=tournament.pk).rating_method == "FIDON"


def test_vcl_q123_q126_default_list_order_per_rate_of_play_and_an_edited_order(chief_client, tournament, fide):
    assert player_ratings.order(tournament) == ["fide-standard", "fide-rapid", "fide-blitz"]
    tournament.rate_of_play = "rapid"
    assert player_ratings.order(tournament) == ["fide-rapid-effective", "fide-blitz"]
    tournament.rate_of_play = "blitz"
    assert player_ratings.order(tournament) == ["fide-blitz-effective"]
    load(NATIONAL, "slo.csv", kind="national", name="SLO national")
    settings_url = reverse("pairing:settings", args=[tournament.slug])
    post = {**GOOD, "rounds": "5", "slug": tournament.slug, "seen": shown_version(tournament)}
    bad = chief_client.post(settings_url, {**post, "rating_lists": "fide-blitz, list:Nowhere, elo"})
    assert "No national or custom list is loaded under the name &#x27;Nowhere&#x27;." in bad.content.decode()
    assert "Unknown list &#x27;elo&#x27;" in bad.content.decode()
    chief_client.post(settings_url, {**post, "rating_lists": "list:SLO national, fide-standard"})
    tournament.refresh_from_db()
    assert player_ratings.order(tournament) == ["list:SLO national", "fide-standard"]
    found = player_ratings.look_up(tournament, fide_id="5000001")
    assert (found.national_rating, found.fide_rating) == (2105, 2010)
    assert [label for label, _, _ in found.others] == ["SLO national, Nov 2026", "FIDE standard, Nov 2026"]


def test_effective_rapid_takes_the_standard_rating_of_a_player_without_a_rapid_one(tournament, fide):
    tournament.rate_of_play = "rapid"
    assert player_ratings.look_up(tournament, fide_id="14100010").fide_rating == 2290  # no rapid rating
    assert player_ratings.look_up(tournament, fide_id="1503014").fide_rating == 2820


# ---------------------------------------------------------------- consistency check


def _registered(tournament):
    Player.objects.create(tournament=tournament, name="Carlsen, Magnus", rating=2800, fide_rating=2800,
                          fide_id="1503014", federation="NOR", title="GM")
    Player.objects.create(tournament=tournament, name="Novak, Ana", rating=1990, fide_rating=1990,
                          fide_id="5000001", federation="SLO", title="WFM")
    Player.objects.create(tournament=tournament, name="Typed, Tom", rating=1500)
    from pairing.services.numbering import renumber

    renumber(tournament)


def test_vcl_q133_q142_q144_the_check_shows_each_difference_and_applies_only_the_ticked_ones(
    chief_client, tournament, fide
):
    _registered(tournament)
    url = reverse("pairing:rating_check", args=[tournament.slug])
    page = chief_client.get(url).content.decode()
    assert "<td>Carlsen, Magnus</td><td>FIDE rating</td><td>2800</td><td>2833</td>" in page
    assert "<td>Novak, Ana</td><td>FIDE rating</td><td>1990</td><td>2010</td>" in page
    assert "Typed, Tom" not in page  # no FIDE or national id: not checked
    assert Player.objects.get(name="Carlsen, Magnus").rating == 2800  # Q143: nothing changed by itself
    carlsen = Player.objects.get(name="Carlsen, Magnus")
    chief_client.post(url, {"apply": [f"{carlsen.pk}:fide_rating"]})
    carlsen.refresh_from_db()
    assert (carlsen.fide_rating, carlsen.rating, carlsen.tpn) == (2833, 2833, 1)
    assert Player.objects.get(name="Novak, Ana").fide_rating == 1990
    assert "Rating check: Carlsen, Magnus fide rating 2800 → 2833" in AuditEntry.objects.latest("pk").detail
    chief_client.post(url, {"all": "1"})
    assert Player.objects.get(name="Novak, Ana").fide_rating == 2010
    assert 'id="no-differences"' in chief_client.get(url).content.decode()


def test_vcl_q137_the_check_uses_the_list_valid_at_the_start_or_today_for_a_long_event(tournament, fide):
    load(zipped("x.xml", fide_xml(std_shift=7)), "players_list_xml.zip", month="2026-12")
    _registered(tournament)
    tournament.start_date, tournament.end_date = datetime.date(2026, 11, 20), datetime.date(2026, 11, 28)
    assert player_ratings.reference_day(tournament, datetime.date(2026, 12, 5)) == datetime.date(2026, 11, 20)
    diffs = player_ratings.differences(tournament, datetime.date(2026, 11, 20))
    assert {(d.player.name, d.new) for d in diffs if d.field == "fide_rating"} == {
        ("Carlsen, Magnus", 2833), ("Novak, Ana", 2010)}
    tournament.end_date = datetime.date(2027, 1, 30)  # over 30 days: the day of the check
    day = player_ratings.reference_day(tournament, datetime.date(2026, 12, 5))
    assert day == datetime.date(2026, 12, 5)
    diffs = player_ratings.differences(tournament, day)
    assert {(d.player.name, d.new) for d in diffs if d.field == "fide_rating"} == {
        ("Carlsen, Magnus", 2840), ("Novak, Ana", 2017)}


def test_vcl_q135_q141_the_check_says_when_the_local_fide_list_may_be_older_than_fides(db):
    """Fresh by what FIDE's site served at the last check, not by the calendar: behind
    when never checked, when the check failed, or when it is over a day old."""
    now = datetime.datetime(2026, 11, 24, 12, 0, tzinfo=datetime.UTC)
    assert "No FIDE list is loaded" in player_ratings.list_is_behind(now)
    load(zipped("x.xml", fide_xml()), "players_list_xml.zip", month="2026-10")
    assert "The local FIDE list (Oct 2026) has not been checked against FIDE's site" in player_ratings.list_is_behind(now)
    source = rating_sources.fide_source()
    RatingSource.objects.filter(pk=source.pk).update(checked_at=now - datetime.timedelta(hours=3), ok=True)
    assert player_ratings.list_is_behind(now) == ""  # October's list, and FIDE serves no newer one
    assert "more than a day ago" in player_ratings.list_is_behind(now + datetime.timedelta(days=2))
    RatingSource.objects.filter(pk=source.pk).update(ok=False, result="The download from x failed: timed out.")
    assert "failed: The download from x failed: timed out." in player_ratings.list_is_behind(now)


def test_vcl_q138_q139_after_a_list_update_the_players_page_asks_for_a_check_unless_switched_off(
    chief_client, tournament, fide
):
    _registered(tournament)
    url = reverse("pairing:players", args=[tournament.slug])
    assert 'id="newer-lists"' in chief_client.get(url).content.decode()
    chief_client.get(reverse("pairing:rating_check", args=[tournament.slug]))
    assert 'id="newer-lists"' not in chief_client.get(url).content.decode()
    load(zipped("x.xml", fide_xml(std_shift=1)), "players_list_xml.zip", month="2026-11")  # reloaded
    assert 'id="newer-lists"' in chief_client.get(url).content.decode()
    Tournament.objects.filter(pk=tournament.pk).update(consistency_checks=False)
    assert 'id="newer-lists"' not in chief_client.get(url).content.decode()


def test_the_rating_check_is_for_the_tournaments_arbiters_only(client, stranger_client, deputy_client, tournament, fide):
    url = reverse("pairing:rating_check", args=[tournament.slug])
    assert client.get(url).status_code == 302
    assert stranger_client.get(url).status_code == 404
    assert stranger_client.post(url, {"all": "1"}).status_code == 404
    assert deputy_client.get(url).status_code == 200


# ---------------------------------------------------------------- the lists page


def test_the_lists_page_loads_site_lists_for_staff_and_own_lists_for_any_arbiter(client, chief_client, chief, db):
    url = reverse("pairing:rating_lists")
    assert client.get(url).status_code == 302
    upload = {"kind": "national", "name": "SLO national", "month": "2026-11",
              "file": SimpleUploadedFile("slo.csv", NATIONAL, content_type="text/csv")}
    assert chief_client.get(url).status_code == 200
    response = chief_client.post(url, upload)  # an arbiter: a list of their own
    assert response.status_code == 302 and response["Location"].startswith("/jobs/")
    run_queued()
    own = RatingList.objects.active().get()
    assert (own.name, own.owner, own.players) == ("SLO national", chief, 2)
    chief.is_staff = True
    chief.save()
    upload["file"] = SimpleUploadedFile("slo.csv", NATIONAL, content_type="text/csv")
    assert chief_client.post(reverse("pairing:rating_list_upload"), upload).status_code == 302
    run_queued()
    site = RatingList.objects.active().site().get()
    assert (site.name, site.players) == ("SLO national", 2)
    bad = {**upload, "file": SimpleUploadedFile("bad.csv", b"name,rating\nX,1\n")}
    assert chief_client.post(reverse("pairing:rating_list_upload"), bad).status_code == 302
    [failed] = run_queued()
    assert failed.status == "failed" and "the header needs the columns id" in failed.error
    assert "the header needs the columns id" in chief_client.get(reverse("pairing:job", args=[failed.pk])).content.decode()
    assert RatingList.objects.active().site().get() == site  # the list in use stays
    chief_client.post(reverse("pairing:rating_list_delete", args=[site.pk]))
    chief_client.post(reverse("pairing:rating_list_delete", args=[own.pk]))
    assert not RatingList.objects.exists() and not RatingEntry.objects.exists()


# ---------------------------------------------------------------- the report


def test_the_trf_file_carries_the_official_ratings_and_the_method(tournament):
    Player.objects.create(tournament=tournament, name="Novak, Ana", rating=2010, fide_rating=2010,
                          national_rating=2105, national_id="S-1", federation="SLO")
    Player.objects.create(tournament=tournament, name="Kovac, Luka", rating=1710, national_rating=1710)
    Player.objects.create(tournament=tournament, name="New, Nina", rating=1000, rating_provisional=True)
    from pairing.services.numbering import renumber

    renumber(tournament)
    Tournament.objects.filter(pk=tournament.pk).update(federation="SLO")
    tournament.refresh_from_db()
    text = interchange.export_trf(tournament)
    lines = text.splitlines()
    novak = next(line for line in lines if line.startswith("001") and "Novak" in line)
    kovac = next(line for line in lines if line.startswith("001") and "Kovac" in line)
    nina = next(line for line in lines if line.startswith("001") and "New, Nina" in line)
    assert novak[48:52] == "2010" and kovac[48:52].strip() == "" and nina[48:52].strip() == ""
    assert "172 SLO FIDON" in lines
    assert any(line.startswith("SLO    1") and line[48:52] == "2105" and line.endswith("S-1") for line in lines)


def test_readers_reject_what_is_not_a_list(db):
    with pytest.raises(RatingFileError, match="not well-formed XML"):
        load(b"<playerslist><player>", "players_list_xml.xml")
    with pytest.raises(RatingFileError, match="expected FIDE's header line"):
        load(b"just some text\n1 2 3\n", "players_list_foa.txt")
    with pytest.raises(RatingFileError, match="the zip holds no .xml"):
        load(zipped("readme.md", b"hello"), "players_list_xml.zip")
    assert not RatingList.objects.exists()


def test_a_file_too_large_for_an_upload_is_refused_with_the_limit(chief_client, chief, db, settings):
    settings.MAX_LIST_UPLOAD_BYTES = 10
    chief.is_staff = True
    chief.save()
    page = chief_client.post(reverse("pairing:rating_list_upload"), {
        "kind": "fide", "file": SimpleUploadedFile("players_list_xml.zip", zipped("a.xml", fide_xml()))})
    assert page.status_code == 400
    assert "uploads take up to 0 MB" in page.content.decode()
    assert not Job.objects.exists()


def test_benchmark_generator_writes_a_list_the_loader_reads(db, tmp_path):
    import sys

    sys.path.insert(0, str(Path(__file__).resolve().parents[2] / "benchmarks"))
    from bench_rating_list import queries, write_list

    path = tmp_path / "players_list_xml.zip"
    sample = write_list(path, 3000)
    with path.open("rb") as f:
        rl = load_list(f, path.name, kind="fide")
    assert rl.players == 3000
    assert sum(bool(search(q, [rl])) for q in queries(sample, 40)) >= 35


# ---------------------------------------------------------------- rating change


def test_rating_change_per_game_with_the_400_point_rule_on_the_card_and_in_the_standings(anon_client, tournament):
    """K 20 (a 2000 player): a win against 1800 expects 0.76 -> +4.8; a loss to 2600
    counts the difference as 400 (expects 0.08, not 0.02) -> -1.6.  Total +3.2."""
    from pairing.models import GameResult
    from pairing.reports import rating_change

    Tournament.objects.filter(pk=tournament.pk).update(public=True, rounds=2)
    me = Player.objects.create(tournament=tournament, name="Me, Mo", rating=2000, fide_rating=2000, k_factor=20)
    low = Player.objects.create(tournament=tournament, name="Low, Lu", rating=1800, fide_rating=1800, k_factor=40)
    high = Player.objects.create(tournament=tournament, name="High, Hi", rating=2600, fide_rating=2600)
    new = Player.objects.create(tournament=tournament, name="New, Nu", rating=1000, rating_provisional=True)
    from pairing.services.numbering import renumber
    from pairing.services.results import record_result
    from pairing.services.rounds import pair_next_round, publish

    renumber(tournament)
    hist = {me.pk: [], low.pk: [], high.pk: [], new.pk: []}
    from pairing.engine import Colour, Result, RoundEntry

    hist[me.pk] = [RoundEntry(low.pk, Colour.WHITE, Result.WIN), RoundEntry(high.pk, Colour.BLACK, Result.LOSS)]
    hist[low.pk] = [RoundEntry(me.pk, Colour.BLACK, Result.LOSS), RoundEntry(new.pk, Colour.WHITE, Result.WIN)]
    hist[high.pk] = [RoundEntry(new.pk, Colour.WHITE, Result.FORFEIT_WIN), RoundEntry(me.pk, Colour.WHITE, Result.WIN)]
    hist[new.pk] = [RoundEntry(high.pk, Colour.BLACK, Result.FORFEIT_LOSS), RoundEntry(low.pk, Colour.BLACK, Result.LOSS)]
    got = rating_change.changes([me, low, high, new], hist)
    assert [(g.expected, g.change) for g in got[me.pk].games] == [(Decimal("0.76"), Decimal("4.8")),
                                                                  (Decimal("0.08"), Decimal("-1.6"))]
    assert got[me.pk].total == Decimal("3.2")
    assert [g.change for g in got[low.pk].games] == [Decimal("-9.6")]  # K 40; the unrated opponent's game is not rated
    assert got[high.pk].games == (got[high.pk].games[0],) and got[high.pk].k_assumed  # the forfeit is not rated
    assert got[new.pk].games == () and got[new.pk].rating is None
    assert rating_change.average_rating([me, low, high, new]) == 2133  # (2000 + 1800 + 2600) / 3

    # through the pages: one real round
    rnd = pair_next_round(tournament)
    publish(rnd)
    for g in rnd.games():
        record_result(g, GameResult.WHITE_WINS)
    page = anon_client.get(reverse("pairing:standings", args=[tournament.slug])).content.decode()
    assert "Rtg ±" in page and 'id="average-rating"' in page and "Average rating 2133" in page
    assert [(g.white.name, g.black.name) for g in rnd.games()][0] == ("High, Hi", "Low, Lu")  # 1-3
    card = anon_client.get(reverse("pairing:player_card", args=[tournament.slug, 1])).content.decode()
    assert 'id="rating-change"' in card and "K 20, assumed" in card


def test_audit_33_the_check_refuses_to_apply_a_name_with_a_line_break(chief_client, tournament, fide):
    """A list loaded before its reader refused control characters gives Novak a name with
    a line break: the check shows it and applies nothing of what was ticked with it."""
    _registered(tournament)
    RatingEntry.objects.filter(fide_id="5000001").update(name="Novak,\nAna Maria")
    novak = Player.objects.get(name="Novak, Ana")
    url = reverse("pairing:rating_check", args=[tournament.slug])
    page = chief_client.post(url, {"apply": [f"{novak.pk}:name", f"{novak.pk}:fide_rating"]}, follow=True)
    assert "a value with a control character" in page.content.decode()
    novak.refresh_from_db()
    assert (novak.name, novak.fide_rating) == ("Novak, Ana", 1990)
    assert not AuditEntry.objects.filter(detail__startswith="Rating check").exists()
