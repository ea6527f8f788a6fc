"""Builders for the event tests: an event of two sections, a FIDE list, the entry form."""

from __future__ import annotations

import io
import time
import zipfile

from django.core import signing
from django.urls import reverse

# fideid, name, fed, sex, title, std, rapid, blitz, born, flag (tests/web/test_rating_lists.py's layout)
LIST = [
    ("1503014", "Carlsen, Magnus", "NOR", "M", "GM", 2833, 2820, 2880, 1990, ""),
    ("5000001", "Novak, Ana", "SLO", "F", "WFM", 2010, 2050, "", 2012, "w"),
    ("5000002", "Kovac, Luka", "SLO", "M", "", 1710, "", "", 1970, ""),
    ("5000003", "Horvat, Mia", "CRO", "F", "", 1650, "", "", 2014, ""),
    ("5000004", "Zupan, Jan", "SLO", "M", "FM", 2200, "", "", 1980, ""),
]


def fide_list(players=LIST):
    import datetime

    from pairing.services.rating_lists import load_list

    rows = []
    for fid, name, fed, sex, title, std, rapid, blitz, born, flag in players:
        rows.append(
            f"<player><fideid>{fid}</fideid><name>{name}</name><country>{fed}</country><sex>{sex}</sex>"
            f"<title>{title}</title><w_title></w_title><o_title></o_title><foa_title></foa_title>"
            f"<rating>{std}</rating><games>0</games><k>{20 if std else ''}</k><rapid_rating>{rapid}</rapid_rating>"
            f"<rapid_games>0</rapid_games><rapid_k>20</rapid_k><blitz_rating>{blitz}</blitz_rating>"
            f"<blitz_games>0</blitz_games><blitz_k>20</blitz_k><birthday>{born}</birthday><flag>{flag}</flag></player>"
        )
    xml = ('<?xml version="1.0" encoding="utf-8"?>\n<playerslist>\n' + "\n".join(rows) + "\n</playerslist>\n").encode()
    buf = io.BytesIO()
    with zipfile.ZipFile(buf, "w") as z:
        z.writestr("players_list_xml_foa.xml", xml)
    buf.seek(0)
    return load_list(buf, "players_list_xml.zip", kind="fide", month=datetime.date(2026, 11, 1))


def two_sections(chief, deputy, entries_open: bool = True, limit: int | None = None):
    """The event 'Club Weekend' with an Open (public, Dubov) and a Rapid (public, round
    robin; ``limit`` places), both with ``deputy`` as deputy; entries open."""
    from pairing.models import Event, Tournament

    e = Event.objects.create(slug="club-weekend", name="Club Weekend", place="Bled", owner=chief,
                             entries_open=entries_open)
    open_ = Tournament.objects.create(slug="weekend-open", name="Weekend Open", rounds=5, owner=chief, event=e,
                                      public=True)
    rapid = Tournament.objects.create(slug="weekend-rr", name="Weekend Round Robin", rounds=5, owner=chief, event=e,
                                      public=True, system="round-robin", entry_limit=limit)
    for t in (open_, rapid):
        t.deputies.add(deputy)
    return e, open_, rapid


def stamp(seconds_ago: int = 60) -> str:
    """The hidden field of an entry form opened ``seconds_ago``."""
    return signing.TimestampSigner(salt="pairing.entry-form").sign(str(int(time.time()) - seconds_ago))


def entry_post(client, event, name: str, fide_id: str, section: str, email: str = "p@example.org", ip: str = "10.1.1.1",
               **extra):
    data = {"name": name, "fide_id": fide_id, "section": section, "email": email, "started": stamp(),
            "leave_empty": ""}
    data.update(extra)
    return client.post(reverse("pairing:entry_form", args=[event.slug]), data, REMOTE_ADDR=ip)
