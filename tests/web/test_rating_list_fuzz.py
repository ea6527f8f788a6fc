"""Damaged and hostile rating-list files (issue 33, findings 3 and 4): every one loads or
is refused with a message that says what and where, and a refusal writes nothing.
Never a server error; a zip bomb is refused with the cap named.

The suite runs a few hundred derandomised files of each format; the campaign of 3,000
per format is ``scripts/fuzz_rating_files.py`` (its figures: /work notes, docs/ratings.md).
"""

from __future__ import annotations

import io
import random
import zipfile

import pytest
from django.contrib.auth import get_user_model
from django.core.files.uploadedfile import SimpleUploadedFile
from django.urls import reverse

from pairing.models import RatingEntry, RatingList
from pairing.rating_files import (
    MAX_CSV_BYTES,
    MAX_FIELD_CHARS,
    MAX_LINE_CHARS,
    MAX_PLAYER_FIELDS,
    MAX_UNZIPPED_BYTES,
    RatingFileError,
)
from pairing.services.rating_lists import delete_list, load_list
from tests.web import rating_fuzz
from tests.web.rating_fuzz import FORMATS, fide_txt, fide_xml, national_csv, zipped

PER_FORMAT = 120


def attempt(data: bytes, filename: str, kind: str) -> str:
    """Load one file: 'loaded' or 'refused' (and nothing written); any other exception fails."""
    lists, entries = RatingList.objects.count(), RatingEntry.objects.count()
    try:
        rl = load_list(io.BytesIO(data), filename, kind=kind, name="Fuzz" if kind != "fide" else "")
    except RatingFileError as exc:
        assert str(exc), "a refusal says what is wrong"
        assert (RatingList.objects.count(), RatingEntry.objects.count()) == (lists, entries), "a refusal wrote rows"
        return "refused"
    assert rl.players == RatingEntry.objects.filter(rating_list=rl).count()
    for e in RatingEntry.objects.filter(rating_list=rl):
        assert not any(c in e.name for c in "\x00\n\r"), e.name
    delete_list(rl)
    return "loaded"


@pytest.mark.parametrize("fmt", FORMATS)
def test_damaged_files_of_every_format_load_or_are_refused_and_a_refusal_writes_nothing(fmt, db):
    """The audit: 189 of 3,000 fuzzed files were a server error (damaged zips, line breaks or
    NUL in cells, oversized cells, a birth year '199²').  Derandomised: the same files each run."""
    rng = random.Random(f"rating-fuzz-{fmt}")
    seen = {"loaded": 0, "refused": 0}
    for _ in range(PER_FORMAT):
        data, filename, kind = rating_fuzz.sample(fmt, rng)
        seen[attempt(data, filename, kind)] += 1
    assert seen["refused"] > PER_FORMAT // 10 and seen["loaded"] > 0, seen


@pytest.mark.parametrize(("fmt", "cell", "said"), [
    ("csv", b"Novak,\nAna", "control character (U+000A)"),
    ("csv", b"Novak, A\x00na", "control character (U+0000)"),
    ("xml", b"Novak,&#10;Ana", "control character (U+000A)"),
    ("txt", b"Novak,\x00Ana", "control character (U+0000)"),
])
def test_a_line_break_or_nul_in_a_name_is_refused_with_the_line(fmt, cell, said, db):
    data = {"csv": national_csv(), "xml": fide_xml(), "txt": fide_txt()}[fmt].replace(b"Novak, Ana", cell)
    kind = "national" if fmt == "csv" else "fide"
    with pytest.raises(RatingFileError) as exc:
        load_list(io.BytesIO(data), f"list.{fmt}", kind=kind, name="N")
    assert said in str(exc.value)
    assert "line" in str(exc.value) or "player 4" in str(exc.value)
    assert not RatingList.objects.exists()


@pytest.mark.parametrize("fmt", ["csv", "xml", "txt"])
def test_a_birth_year_199_squared_is_not_a_server_error(fmt, db):
    """'199²' passes str.isdigit() but not int(): the audit's crash."""
    data = {"csv": national_csv(), "xml": fide_xml(), "txt": fide_txt()}[fmt].replace(b"1999", "199²".encode())
    kind = "national" if fmt == "csv" else "fide"
    rl = load_list(io.BytesIO(data), f"list.{fmt}", kind=kind, name="N")  # the year is not read: no birth year
    assert RatingEntry.objects.get(rating_list=rl, name="Novak, Ana").birth_year is None


def test_a_csv_cell_past_the_csv_modules_limit_is_refused_with_the_line(db):
    data = national_csv().replace(b"Novak, Ana", b"N" * 200_000)
    with pytest.raises(RatingFileError) as exc:
        load_list(io.BytesIO(data), "list.csv", kind="national", name="N")
    assert "line 5" in str(exc.value)


def test_an_oversized_name_is_refused_not_cut(db):
    data = fide_xml().replace(b"Novak, Ana", b"A" * 81)
    with pytest.raises(RatingFileError) as exc:
        load_list(io.BytesIO(data), "players_list_xml.xml", kind="fide")
    assert "the name is 81 characters long; it may have at most 80" in str(exc.value)


def test_a_k_factor_too_large_for_its_column_is_refused(db):
    data = fide_xml().replace(b"<k>10</k>", b"<k>99999</k>", 1)
    with pytest.raises(RatingFileError) as exc:
        load_list(io.BytesIO(data), "players_list_xml.xml", kind="fide")
    assert "K factor 99999 out of range" in str(exc.value)


@pytest.mark.parametrize("damage", ["truncated", "bad-crc", "not-a-zip-inside"])
def test_a_damaged_zip_is_refused_as_damaged(damage, db):
    good = zipped("players_list_xml_foa.xml", fide_xml())
    if damage == "truncated":
        data = good[: len(good) // 2]
    elif damage == "bad-crc":
        body = bytearray(good)
        body[60] ^= 0xFF  # inside the compressed data
        data = bytes(body)
    else:
        data = zipped("readme.md", b"nothing")
    with pytest.raises(RatingFileError) as exc:
        load_list(io.BytesIO(data), "players_list_xml.zip", kind="fide")
    assert "zip" in str(exc.value) or "XML" in str(exc.value)
    assert not RatingList.objects.exists()


# ---------------------------------------------------------------- zip bombs and caps


def _bomb(inner_name: str, chunks) -> bytes:
    """A zip of ``chunks`` written as one member (deflate squeezes repetition ~1000:1)."""
    buf = io.BytesIO()
    with zipfile.ZipFile(buf, "w", zipfile.ZIP_DEFLATED, compresslevel=9) as z, z.open(inner_name, "w", force_zip64=True) as f:
        for chunk in chunks:
            f.write(chunk)
    return buf.getvalue()


def test_a_zip_that_unzips_past_the_cap_is_refused_with_the_cap_named(db):
    """The audit's bomb: 1.17 MB of zip holding one 1.2 GB line.  Refused from the zip's
    directory, before anything is unzipped."""
    line = b"1" * (1024 * 1024)
    data = _bomb("players_list_foa.txt", [TXT_LINE, *(line for _ in range(MAX_UNZIPPED_BYTES // len(line) + 1))])
    assert len(data) < 1_000_000
    with pytest.raises(RatingFileError) as exc:
        load_list(io.BytesIO(data), "players_list.zip", kind="fide")
    assert f"more than {MAX_UNZIPPED_BYTES:,} bytes" in str(exc.value)


TXT_LINE = fide_txt().split(b"\n")[0] + b"\n"


def test_one_endless_line_of_the_txt_list_is_refused_with_the_cap_named(db):
    data = _bomb("players_list_foa.txt", [TXT_LINE, b"1" * (50 * 1024 * 1024)])
    with pytest.raises(RatingFileError) as exc:
        load_list(io.BytesIO(data), "players_list.zip", kind="fide")
    assert f"longer than {MAX_LINE_CHARS:,} characters" in str(exc.value) and "line 2" in str(exc.value)


def test_an_endless_xml_field_is_refused_with_the_cap_named(db):
    head = b'<?xml version="1.0"?><playerslist><player><fideid>1</fideid><name>'
    data = _bomb("players_list_xml_foa.xml", [head, b"A" * (8 * 1024 * 1024), b"</name></player></playerslist>"])
    with pytest.raises(RatingFileError) as exc:
        load_list(io.BytesIO(data), "players_list_xml.zip", kind="fide")
    assert f"a field holds at most {MAX_FIELD_CHARS}" in str(exc.value)


def test_a_player_of_endless_elements_is_refused_with_the_cap_named(db):
    head = b'<?xml version="1.0"?><playerslist><player><fideid>1</fideid>'
    data = _bomb("players_list_xml_foa.xml", [head, b"<x/>" * 200_000, b"</player></playerslist>"])
    with pytest.raises(RatingFileError) as exc:
        load_list(io.BytesIO(data), "players_list_xml.zip", kind="fide")
    assert f"more than {MAX_PLAYER_FIELDS} elements" in str(exc.value)


def test_a_csv_list_past_its_size_cap_is_refused(db):
    data = national_csv() + b"N-9,x,1500\n" * (MAX_CSV_BYTES // 11 + 1)
    with pytest.raises(RatingFileError) as exc:
        load_list(io.BytesIO(data), "list.csv", kind="national", name="N")
    assert f"larger than {MAX_CSV_BYTES:,} bytes" in str(exc.value)


# ---------------------------------------------------------------- over HTTP


@pytest.fixture
def staff_client(client, db):
    admin = get_user_model().objects.create_user("admin", password="x", is_staff=True)
    client.force_login(admin)
    return client


def test_damaged_uploads_are_a_page_that_says_what_never_a_server_error(staff_client):
    """The audit reproduced six of its crashes over HTTP: the same kinds, through the page."""
    rng = random.Random("rating-fuzz-http")
    cases = [
        (national_csv().replace(b"Novak, Ana", b'Novak,\nAna'), "national.csv", "national"),
        (national_csv().replace(b"1999", "199²".encode()), "national.csv", "national"),
        (national_csv().replace(b"Novak, Ana", b"N" * 200_000), "national.csv", "national"),
        (zipped("players_list_xml_foa.xml", fide_xml())[:300], "players_list_xml.zip", "fide"),
        (fide_xml().replace(b"Novak, Ana", b"Novak,\x00Ana"), "players_list_xml.xml", "fide"),
        (_bomb("players_list_foa.txt", [TXT_LINE, b"1" * (8 * 1024 * 1024)]), "players_list.zip", "fide"),
    ] + [rating_fuzz.sample(fmt, rng) for fmt in FORMATS for _ in range(4)]
    for data, filename, kind in cases:
        response = staff_client.post(reverse("pairing:rating_lists"), {
            "kind": kind, "name": "" if kind == "fide" else "SLO national", "month": "2026-11",
            "file": SimpleUploadedFile(filename, data),
        })
        assert response.status_code in (302, 400), (filename, response.status_code)
        if response.status_code == 400:
            assert filename in response.content.decode()
    assert RatingEntry.objects.count() == sum(rl.players for rl in RatingList.objects.all())
