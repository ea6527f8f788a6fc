"""Players of the same name told apart wherever a page names them (issue 32, item 10):
Player.name_among and the template filter ``name_in`` add the federation, else the
rating, else the pairing number, to the names that collide, and to no other."""

from __future__ import annotations

import html
import re

import pytest
from django.urls import reverse

from pairing.models import Player, Tournament
from pairing.services.numbering import renumber
from pairing.services.rounds import pair_next_round, publish
from tests.web.helpers import confirmation_page, shown_byes

NAGY_4, NAGY_5 = "Nagy, Dmitri (No 4)", "Nagy, Dmitri (No 5)"
KIM_KOR, KIM_PRK = "Kim, Ji (KOR)", "Kim, Ji (PRK)"


@pytest.fixture
def namesakes(tournament):
    """Eight players: two Nagy, Dmitri of one federation and rating (numbers 4 and 5:
    the last of Baku group A and the first after it), two Kim, Ji of two federations;
    round 1 published."""
    Tournament.objects.filter(pk=tournament.pk).update(acceleration="baku", public=True)
    tournament.refresh_from_db()
    for name, rating, fed in [
        ("Alpha, Ann", 2400, "SLO"), ("Bravo, Ben", 2350, "SLO"), ("Charlie, Cid", 2300, "CRO"),
        ("Nagy, Dmitri", 2200, "HUN"), ("Nagy,  dmitri", 2200, "HUN"), ("Kim, Ji", 2100, "KOR"),
        ("Kim, Ji", 2050, "PRK"), ("Zulu, Zed", 2000, "SLO"),
    ]:
        Player.objects.create(tournament=tournament, name=name, rating=rating, federation=fed)
    Player.objects.filter(tournament=tournament, name="Nagy,  dmitri").update(name="Nagy, Dmitri")
    renumber(tournament)
    publish(pair_next_round(tournament))
    return tournament


def _text(response) -> str:
    page = re.sub(r"<(script|style|option)[^>]*>.*?</\1>", " ", response.content.decode(), flags=re.S)
    return html.unescape(re.sub(r"\s+", " ", re.sub(r"<[^>]+>", " ", page)))


def test_issue32_item10_the_pairing_list_tells_namesakes_apart(chief_client, anon_client, namesakes):
    for client in (chief_client, anon_client):
        for url in (reverse("pairing:round", args=[namesakes.slug, 1]),
                    reverse("pairing:round", args=[namesakes.slug, 1]) + "?by=name"):
            text = _text(client.get(url))
            assert all(n in text for n in (NAGY_4, NAGY_5, KIM_KOR, KIM_PRK)), (url, text)
            assert "Alpha, Ann (" not in text  # a name nobody shares stays as it is


def test_issue32_item10_the_public_lists_tell_namesakes_apart(anon_client, namesakes):
    slug = namesakes.slug
    for name in ("standings", "crosstable", "tournament"):
        text = _text(anon_client.get(reverse(f"pairing:{name}", args=[slug])))
        assert all(n in text for n in (NAGY_4, NAGY_5, KIM_KOR, KIM_PRK)), (name, text)
    assert NAGY_5 in _text(anon_client.get(reverse("pairing:player_card", args=[slug, 5])))


def test_issue32_item10_the_baku_group_line_tells_namesakes_apart(chief_client, namesakes):
    text = _text(chief_client.get(reverse("pairing:settings", args=[namesakes.slug])))
    assert f"the last one, {NAGY_4}, was fixed" in text


def test_issue32_item10_a_confirmation_page_tells_namesakes_apart(chief_client, namesakes):
    """Full-point byes for both Nagy in round 2 (a Level-3 question naming them)."""
    nagys = namesakes.player_set.filter(name="Nagy, Dmitri")
    response = chief_client.post(reverse("pairing:absences", args=[namesakes.slug]), {
        "round": 2, "seen": shown_byes(namesakes, 2), **{f"kind-{p.pk}": "F" for p in nagys}})
    confirmation_page(response)
    text = _text(response)
    assert f"{NAGY_4}, {NAGY_5}: a full-point bye" in text


def test_issue32_item10_the_registration_message_and_player_page_tell_namesakes_apart(chief_client, namesakes):
    zulu = namesakes.player_set.get(name="Zulu, Zed")
    response = chief_client.post(reverse("pairing:players", args=[namesakes.slug]), {
        "name": "Zulu, Zed", "rating": "1900", "federation": "SLO", "same_name": "on"}, follow=True)
    text = _text(response)
    assert "Zulu, Zed (2000)" in text and "Zulu, Zed (1900) registered as number 9" in text, text
    assert "Zulu, Zed (2000)" in _text(chief_client.get(reverse("pairing:player_edit", args=[namesakes.slug, zulu.pk])))


@pytest.mark.parametrize(("group", "shown"), [
    ([("A, B", "HUN", 2000, 1), ("A, B", "SLO", 2000, 2)], ["A, B (HUN)", "A, B (SLO)"]),
    ([("A, B", "HUN", 2000, 1), ("a,  b", "", 1900, 2)], ["A, B (2000)", "a,  b (1900)"]),
    ([("A, B", "HUN", 2000, 1), ("A, B", "HUN", 2000, 2)], ["A, B (No 1)", "A, B (No 2)"]),
    ([("A, B", "HUN", 2000, 1), ("A, C", "HUN", 2000, 2)], ["A, B", "A, C"]),
])
def test_issue32_item10_what_tells_namesakes_apart(tournament, group, shown):
    """Federation if theirs all differ, else rating if theirs all differ, else number;
    case and spacing do not make two names different."""
    from pairing.models import namesakes as clashes_of

    for name, fed, rating, tpn in group:
        Player.objects.create(tournament=tournament, name=name, federation=fed, rating=rating, tpn=tpn)
    clashes = clashes_of(tournament.pk)
    assert [p.name_among(clashes) for p in tournament.player_set.order_by("tpn")] == shown
    assert [p.shown_name for p in tournament.player_set.order_by("tpn")] == shown
