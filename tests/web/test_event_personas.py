"""Issue 37: every page of events, entries, check-in, paperwork, prizes and the event's
audit trail, for each persona: the event's chief arbiter, a deputy of its sections,
another arbiter, an anonymous visitor, and an entrant holding the private link of an
entry.  Read (GET) with the answer each should get, for a public and a private event; and
sent (POST) by each persona who may not, with nothing changed."""

from __future__ import annotations

import pytest
from django.test import Client
from django.urls import reverse

from pairing.models import Entry, Event, PrizeSettings, Tournament
from tests.web.event_helpers import entry_post, fide_list, two_sections
from tests.web.helpers import add_players
from tests.web.test_security import everything

PERSONAS = ("chief", "deputy", "stranger", "anonymous", "entrant")
LOGIN = "login"  # a redirect to the login page


@pytest.fixture
def scene(chief, deputy, stranger):
    """Club Weekend: two public sections with players, self check-in on, one entry sent by
    the entrant (whose browser holds its private link)."""
    fide_list()
    e, open_, rr = two_sections(chief, deputy)
    Event.objects.filter(pk=e.pk).update(self_checkin=True, checkin_secret="hall-secret")
    add_players(open_, 4)
    add_players(rr, 3)
    entrant = Client()
    assert entry_post(entrant, e, "Novak Ana", "5000001", open_.slug).status_code == 302
    clients = {"anonymous": Client(), "entrant": entrant}
    for name, user in (("chief", chief), ("deputy", deputy), ("stranger", stranger)):
        clients[name] = Client()
        clients[name].force_login(user)
    return e, open_, rr, Entry.objects.get(), clients


def _pages(e, open_, entry) -> dict[str, tuple[str, tuple]]:
    """Page -> (address, answers of chief, deputy, stranger, anonymous, entrant) for a public event."""
    player = open_.player_set.order_by("tpn").first()
    return {
        "front page": (reverse("pairing:front_page"), (200, 200, 200, 200, 200)),
        "event": (reverse("pairing:event", args=[e.slug]), (200, 200, 200, 200, 200)),
        "new event": (reverse("pairing:event_create"), (200, 200, 200, LOGIN, LOGIN)),
        "new section": (reverse("pairing:tournament_create") + f"?event={e.slug}", (200, 403, 403, LOGIN, LOGIN)),
        "event settings": (reverse("pairing:event_settings", args=[e.slug]), (200, 403, 403, LOGIN, LOGIN)),
        "event players": (reverse("pairing:event_players", args=[e.slug]), (200, 200, 403, LOGIN, LOGIN)),
        "move (GET)": (reverse("pairing:event_player_move", args=[e.slug, player.pk]), (405, 405, 405, LOGIN, LOGIN)),
        "entries": (reverse("pairing:event_entries", args=[e.slug]), (200, 200, 403, LOGIN, LOGIN)),
        "event audit": (reverse("pairing:event_audit", args=[e.slug]), (200, 200, 403, LOGIN, LOGIN)),
        "entry form": (reverse("pairing:entry_form", args=[e.slug]), (200, 200, 200, 200, 200)),
        # the private link is the key: whoever holds it reads the entry; a wrong one is a 404
        "entry (its link)": (reverse("pairing:entry_status", args=[e.slug, entry.token]), (200,) * 5),
        "entry (a wrong link)": (reverse("pairing:entry_status", args=[e.slug, _other(entry.token)]), (404,) * 5),
        "self check-in (its link)": (reverse("pairing:self_checkin", args=[e.slug, "hall-secret"]), (200,) * 5),
        "self check-in (a guess)": (reverse("pairing:self_checkin", args=[e.slug, "hall-secreT"]), (404,) * 5),
        "check-in": (reverse("pairing:checkin", args=[open_.slug]), (200, 200, 403, LOGIN, LOGIN)),
        "close check-in (GET)": (reverse("pairing:checkin_close", args=[open_.slug]), (405, 405, 405, LOGIN, LOGIN)),
        **{f"print {kind}": (reverse("pairing:print_sheet", args=[open_.slug, kind]), (200, 200, 403, LOGIN, LOGIN))
           for kind in ("slips", "tables", "ranks", "alpha", "checkin", "wall")},
        "prizes (not published)": (reverse("pairing:prizes", args=[open_.slug]), (200, 200, 404, 404, 404)),
        "prizes editor": (reverse("pairing:prizes_edit", args=[open_.slug]), (200, 200, 403, LOGIN, LOGIN)),
    }


def _other(token: str) -> str:
    """``token`` with its last character changed (a guess one character off)."""
    return token[:-1] + ("A" if token[-1] != "A" else "B")


def _answer(response) -> int | str:
    if response.status_code == 302 and response["Location"].startswith(reverse("login")):
        return LOGIN
    return response.status_code


def test_every_event_page_answers_each_persona_as_it_should(scene):
    e, open_, rr, entry, clients = scene
    wrong = []
    for page, (url, expected) in _pages(e, open_, entry).items():
        for persona, want in zip(PERSONAS, expected, strict=True):
            got = _answer(clients[persona].get(url))
            if got != want:
                wrong.append(f"{page} as {persona}: {got}, expected {want}")
    assert not wrong, "\n".join(wrong)
    # the event's arbiters get its overview (their tools), everyone else its public page
    event_url = reverse("pairing:event", args=[e.slug])
    tools = ['id="event-tools"' in clients[p].get(event_url).content.decode() for p in PERSONAS]
    assert tools == [True, True, False, False, False]


def test_a_private_event_is_not_disclosed_to_another_arbiter_nor_to_visitors(scene):
    """No public section and entries closed: another arbiter's 403s become 404s, and the
    event's page is a 404 for visitors; its arbiters keep every page."""
    e, open_, rr, entry, clients = scene
    Tournament.objects.filter(event=e).update(public=False)
    Event.objects.filter(pk=e.pk).update(entries_open=False)
    pages = _pages(e, open_, entry)
    for page in ("event settings", "event players", "entries", "event audit", "check-in", "print slips",
                 "prizes editor", "new section"):
        url = pages[page][0]
        assert _answer(clients["stranger"].get(url)) == 404, page
        assert _answer(clients["chief"].get(url)) == 200, page
    event_url = pages["event"][0]
    assert [_answer(clients[p].get(event_url)) for p in PERSONAS] == [200, 200, 404, 404, 404]
    front = clients["anonymous"].get(pages["front page"][0]).content.decode()
    assert "Club Weekend" not in front


def test_a_published_prize_list_is_read_by_everyone(scene):
    e, open_, rr, entry, clients = scene
    PrizeSettings.objects.create(section=open_, published_at="2026-11-20T12:00Z")
    url = reverse("pairing:prizes", args=[open_.slug])
    assert [clients[p].get(url).status_code for p in PERSONAS] == [200] * 5


def _posts(e, open_, rr, entry) -> dict[str, tuple[str, dict]]:
    player = open_.player_set.order_by("tpn").first()
    return {
        "event settings": (reverse("pairing:event_settings", args=[e.slug]),
                           {"name": "Taken Over", "slug": e.slug, "place": "Elsewhere"}),
        "new section": (reverse("pairing:tournament_create") + f"?event={e.slug}",
                        {"name": "Intruder", "rounds": "5", "system": "dubov"}),
        "move": (reverse("pairing:event_player_move", args=[e.slug, player.pk]), {"section": rr.slug}),
        "approve": (reverse("pairing:event_entries", args=[e.slug]), {"action": "approve", "entry": [entry.pk]}),
        "refuse": (reverse("pairing:event_entries", args=[e.slug]), {"action": "refuse", "entry": [entry.pk]}),
        "check-in": (reverse("pairing:checkin", args=[open_.slug]), {"player": player.pk, "present": "1"}),
        "close check-in": (reverse("pairing:checkin_close", args=[open_.slug]), {}),
        "prizes": (reverse("pairing:prizes_edit", args=[open_.slug]),
                   {"prizes": "place: 100", "categories": "", "sharing": "equal", "one_prize": "larger",
                    "rounding": "1", "currency": "EUR", "club_best": "3"}),
        "publish prizes": (reverse("pairing:prizes_edit", args=[open_.slug]), {"publish": "1"}),
        "event audit": (reverse("pairing:event_audit", args=[e.slug]), {}),
        "entry page": (reverse("pairing:entry_status", args=[e.slug, entry.token]), {"state": "approved"}),
    }


# who may not send each form: (persona, the answer)
REFUSED = {
    "event settings": [("deputy", 403), ("stranger", 403), ("anonymous", LOGIN), ("entrant", LOGIN)],
    "new section": [("deputy", 403), ("stranger", 403), ("anonymous", LOGIN), ("entrant", LOGIN)],
    "move": [("stranger", 403), ("anonymous", LOGIN), ("entrant", LOGIN)],
    "approve": [("stranger", 403), ("anonymous", LOGIN), ("entrant", LOGIN)],
    "refuse": [("stranger", 403), ("anonymous", LOGIN), ("entrant", LOGIN)],
    "check-in": [("stranger", 403), ("anonymous", LOGIN), ("entrant", LOGIN)],
    "close check-in": [("stranger", 403), ("anonymous", LOGIN), ("entrant", LOGIN)],
    "prizes": [("stranger", 403), ("anonymous", LOGIN), ("entrant", LOGIN)],
    "publish prizes": [("stranger", 403), ("anonymous", LOGIN), ("entrant", LOGIN)],
    "event audit": [(p, 405) for p in ("chief", "deputy", "stranger")] + [("anonymous", LOGIN), ("entrant", LOGIN)],
    "entry page": [(p, 405) for p in PERSONAS],
}


@pytest.mark.parametrize("form", sorted(REFUSED))
def test_a_persona_who_may_not_send_a_form_changes_nothing(scene, form):
    e, open_, rr, entry, clients = scene
    url, data = _posts(e, open_, rr, entry)[form]
    before = everything()
    for persona, want in REFUSED[form]:
        assert _answer(clients[persona].post(url, data)) == want, persona
        assert everything() == before, persona


def test_the_deputy_answers_entries_and_checks_players_in_but_the_entrant_only_reads_his_entry(scene):
    """The allowed side of the same forms: a deputy of both sections approves the entry and
    marks a player present; the entrant's page shows the approval."""
    e, open_, rr, entry, clients = scene
    posts = _posts(e, open_, rr, entry)
    assert clients["deputy"].post(*posts["approve"]).status_code == 302
    assert clients["deputy"].post(*posts["check-in"]).status_code == 302
    assert Entry.objects.get().state == "approved" and open_.player_set.filter(checkin__present=True).count() == 1
    page = clients["entrant"].get(posts["entry page"][0]).content.decode()
    assert "Approved: registered" in page and "Player 01" not in page  # nobody else's data
