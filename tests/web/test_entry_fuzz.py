"""Issue 37: the public entry form fuzzed.  Hostile values in every field (bad and foreign
FIDE ids, oversized fields, control, invisible and unicode characters, header injection
in the address, forged form stamps, missing and repeated fields), a huge body, and floods
from one address (also behind forged X-Forwarded-For headers): never an error page, and
a refused post writes nothing (no entry, no audit entry, no mail); what is taken is clean."""

from __future__ import annotations

import itertools
import re

import pytest
from django.core import mail
from django.core.cache import cache
from django.db import transaction
from django.urls import reverse
from hypothesis import HealthCheck, event, given, settings
from hypothesis import strategies as st

from pairing.models import AuditEntry, Entry
from tests.web.event_helpers import LIST, entry_post, fide_list, stamp, two_sections

LISTED = {fid: name for fid, name, *_ in LIST}
CONTROL = re.compile("[\x00-\x1f\x7f-\x9f\u2028\u2029]")
TEXT = st.text(alphabet=st.characters(exclude_categories=("Cs",)), max_size=40)  # no lone surrogates: not UTF-8

NAMES = st.one_of(TEXT, st.sampled_from([
    "Novak Ana", "novak, ana", "Carlsen Magnus", "x" * 33, "x" * 34, "x" * 5000, "", "   ", "\t", "Novak\x00Ana",
    "Novak\nAna", "Novak\u2028Ana", "Novak\u202eanA", "No\u200bvak", "\u200b", "\ufeffNovak", "Nov\u00adak",
    "Ћирић, Драгољуб", "محمد\u200cرضا", "李 小龙", "😀 Smile", "<script>alert(1)</script>", "'; DROP TABLE x; --",
    "Zupan Jan\r\nBcc: x@example.org",
]))
FIDE_IDS = st.one_of(st.text(max_size=14), st.sampled_from([
    "", *LISTED, "0", "-1", "1e5", "٥٠٠٠٠٠١", "５０００００１", "99999999999", "123456789012", " 5000001", "5000001 ",
    "5000001\n", "0x10", "5000001; 5000002", "00005000001",
]))
SECTIONS = st.sampled_from(["weekend-open", "weekend-rr", "", "no-such", "weekend-open\x00", "WEEKEND-OPEN", "x" * 500])
EMAILS = st.one_of(TEXT, st.sampled_from([
    "p@example.org", "not-an-address", "a@" + "b" * 200 + ".org", "p@example.org\r\nBcc: victim@example.org",
    "p@example.org\nSubject: hi", "\u202ep@example.org", "ünï@exämple.org", "p@localhost", "",
]))
STAMPS = st.sampled_from(["fresh", "instant", "old", "", "forged", "1:2:3"])
ADDRESSES = (f"10.77.{a}.{b}" for a, b in itertools.product(range(256), repeat=2))


@pytest.fixture
def weekend(chief, deputy):
    fide_list()
    return two_sections(chief, deputy, limit=2)


class _Undo(Exception):
    pass


def _stamp(kind: str) -> str:
    return {"fresh": stamp(60), "instant": stamp(0), "old": stamp(7 * 3600)}.get(kind, kind)


def _counts() -> tuple[int, int, int]:
    return Entry.objects.count(), AuditEntry.objects.count(), len(mail.outbox)


GOOD = [  # (name, FIDE id) a person would send: the list's players, and unrated newcomers
    ("Novak Ana", "5000001"), ("kovac, luka", "5000002"), ("Zupan Jan", "5000004"), ("Carlsen", "1503014"),
    ("New, Player", ""), ("Ћирић, Драгољуб", ""), ("O'Brien, Seán", ""),
]


@settings(max_examples=150, deadline=None, suppress_health_check=[HealthCheck.function_scoped_fixture])
@given(data=st.data())
def test_the_entry_form_never_fails_and_a_refused_post_writes_nothing(anon_client, weekend, data):
    """A good entry with none, one or several fields replaced by hostile values."""
    e = weekend[0]
    name, fide_id = data.draw(st.sampled_from(GOOD))
    form = {"name": name, "fide_id": fide_id, "section": data.draw(st.sampled_from(["weekend-open", "weekend-rr"])),
            "email": "p@example.org", "started": stamp(60), "leave_empty": ""}
    hostile = {"name": NAMES, "fide_id": FIDE_IDS, "section": SECTIONS, "email": EMAILS,
               "started": STAMPS.map(_stamp), "leave_empty": st.sampled_from(["http://spam.example", " ", "x" * 300])}
    for key in data.draw(st.lists(st.sampled_from(sorted(hostile)), max_size=3, unique=True)):
        form[key] = data.draw(hostile[key])
    if data.draw(st.integers(0, 4)) == 0:  # a field left out
        form.pop(data.draw(st.sampled_from(sorted(form))))
    if data.draw(st.integers(0, 4)) == 0:  # a field sent twice (the last value counts)
        key = data.draw(st.sampled_from(sorted(form)))
        form[key] = [form[key], data.draw(TEXT)]
    mail.outbox.clear()
    try:
        with transaction.atomic():  # each example rolls back what it wrote
            before = _counts()
            r = anon_client.post(reverse("pairing:entry_form", args=[e.slug]), form, REMOTE_ADDR=next(ADDRESSES))
            assert r.status_code in (302, 400), r.status_code
            event(f"status {r.status_code}")
            if r.status_code != 302:
                assert _counts() == before
            else:
                entry = Entry.objects.latest("pk")
                assert _counts() == (before[0] + 1, before[1] + 1, before[2] + 1)
                assert not CONTROL.search(entry.name + entry.email + entry.fide_id) and 0 < len(entry.name) <= 33
                assert entry.section.slug in ("weekend-open", "weekend-rr")
                if entry.fide_id:  # the list's values, never the typed ones
                    assert entry.name == LISTED[entry.fide_id] and entry.rating is not None
                message = mail.outbox[0].message()
                assert message["To"] == entry.email and "Bcc" not in message
            raise _Undo
    except _Undo:
        pass


def test_a_huge_body_or_too_many_fields_is_refused_with_nothing_written(anon_client, weekend, settings):
    e = weekend[0]
    url = reverse("pairing:entry_form", args=[e.slug])
    settings.DATA_UPLOAD_MAX_MEMORY_SIZE = 100_000
    settings.DATA_UPLOAD_MAX_NUMBER_FIELDS = 50
    big = anon_client.post(url, {"name": "x" * 200_000, "fide_id": "", "section": "weekend-open",
                                 "email": "p@example.org", "started": stamp()})
    many = anon_client.post(url, {f"f{i}": "1" for i in range(60)} | {"name": "Many, Fields", "section": "weekend-open",
                                                                      "email": "p@example.org", "started": stamp()})
    assert (big.status_code, many.status_code) == (413, 400)  # too large; a bad request
    assert "Traceback" not in big.content.decode() + many.content.decode()
    assert not Entry.objects.exists() and not AuditEntry.objects.exists() and not mail.outbox


def test_a_flood_of_bad_posts_from_one_address_is_stopped_and_forged_forwarding_headers_do_not_help(anon_client,
                                                                                                    weekend, settings):
    """Each post counts, refused or not (30 an hour by default); an address behind a
    forged X-Forwarded-For header is still the connection's (no trusted proxy)."""
    cache.clear()
    e = weekend[0]
    settings.ENTRY_POSTS_PER_ADDRESS = 30
    url = reverse("pairing:entry_form", args=[e.slug])
    codes = [anon_client.post(url, {"name": f"Bot {i}", "fide_id": "12ab", "section": "weekend-open",
                                    "email": "bot@example.org", "started": stamp()},
                              REMOTE_ADDR="10.66.0.1", HTTP_X_FORWARDED_FOR=f"192.0.2.{i}").status_code
             for i in range(35)]
    assert codes[:30] == [400] * 30 and codes[30:] == [429] * 5
    # now even a good entry from that address waits an hour; nothing was written
    good = entry_post(anon_client, e, "Novak Ana", "5000001", "weekend-open", ip="10.66.0.1")
    assert good.status_code == 429 and "Too many entries or attempts" in good.content.decode()
    assert not Entry.objects.exists() and not AuditEntry.objects.exists() and not mail.outbox


@pytest.mark.parametrize("name", ["Novak\u202eanA", "No\u200bvak, Ana", "\ufeffNovak", "Nov\u00adak, Ana"])
def test_a_name_with_an_invisible_formatting_character_is_refused(anon_client, weekend, name):
    e = weekend[0]
    r = entry_post(anon_client, e, name, "", "weekend-open")
    assert r.status_code == 400 and "invisible formatting character" in r.content.decode()
    assert not Entry.objects.exists()


@pytest.mark.parametrize("name", ["Ћирић, Драгољуб", "محمد\u200cرضا, Ali", "李, 小龙", "O'Brien-Smith, Seán"])
def test_names_in_any_script_are_taken(anon_client, weekend, name):
    e = weekend[0]
    assert entry_post(anon_client, e, name, "", "weekend-open").status_code == 302
    assert Entry.objects.get().name == name
