"""What visitors see and may do: private tournaments stay hidden, nothing can be
changed from a public page, pages refresh while a round is in play and stop when it is
complete, and every printable list has a Print button."""

from __future__ import annotations

import pytest
from django.urls import reverse

from pairing.models import Game, Round, Tournament, bump_revision
from tests.web.public_data import field

PUBLIC_PAGES = [
    ("tournament", ()),
    ("round", (1,)),
    ("standings", ()),
    ("standings_csv", ()),
    ("crosstable", ()),
    ("aro", ()),
    ("aro_spread", ()),
    ("player_card", (1,)),
]


@pytest.fixture
def played(tournament):
    """Spring Open (private) with 10 players, rounds 1-2 complete and round 3 in play."""
    field(tournament, 10)
    return tournament


def make_public(t):
    Tournament.objects.filter(pk=t.pk).update(public=True)


READ_ONLY_PAGES = [p for p in PUBLIC_PAGES if p[0] != "tournament"]


@pytest.mark.parametrize("name, args", READ_ONLY_PAGES, ids=[p[0] for p in READ_ONLY_PAGES])
def test_a_private_tournament_is_404_for_visitors_and_other_arbiters(
    anon_client, stranger_client, chief_client, played, name, args
):
    url = reverse(f"pairing:{name}", args=[played.slug, *args])
    assert chief_client.get(url).status_code == 200
    assert anon_client.get(url).status_code == 404
    assert stranger_client.get(url).status_code == 404


def test_a_private_tournament_home_looks_like_an_unknown_one_to_visitors(anon_client, stranger_client, played):
    """The address is also the arbiters' overview: a visitor is asked to log in, exactly
    as for a tournament that does not exist; another arbiter is refused.  Neither sees
    anything of it."""
    home = anon_client.get(reverse("pairing:tournament", args=[played.slug]))
    unknown = anon_client.get(reverse("pairing:tournament", args=["no-such-event"]))
    assert home.status_code == unknown.status_code == 302
    assert home["Location"].split("?")[0] == unknown["Location"].split("?")[0]
    response = stranger_client.get(reverse("pairing:tournament", args=[played.slug]))
    assert response.status_code in (403, 404) and played.name not in response.content.decode()


@pytest.mark.parametrize("name, args", PUBLIC_PAGES, ids=[p[0] for p in PUBLIC_PAGES])
def test_visitors_cannot_post_to_a_public_page(anon_client, played, name, args):
    make_public(played)
    before = list(Game.objects.order_by("pk").values_list("pk", "result"))
    url = reverse(f"pairing:{name}", args=[played.slug, *args])
    assert anon_client.post(url, {"result": "1-0"}).status_code == 405
    assert list(Game.objects.order_by("pk").values_list("pk", "result")) == before


def test_visitors_cannot_enter_results(anon_client, played):
    make_public(played)
    rnd = played.round_set.get(number=3)
    game = rnd.games().first()
    url = reverse("pairing:game_result", args=[played.slug, 3, game.pk])
    response = anon_client.post(url, {"result": "1-0"})
    assert response.status_code == 302 and "/login" in response["Location"]
    game.refresh_from_db()
    assert game.result == ""


# ---------------------------------------------------------------- refreshing


def test_the_round_in_play_refreshes_itself_for_visitors(anon_client, played):
    make_public(played)
    body = anon_client.get(reverse("pairing:round", args=[played.slug, 3])).content.decode()
    assert 'hx-trigger="every 30s"' in body and "Refresh now" in body


def test_a_complete_round_does_not_poll(anon_client, played):
    make_public(played)
    body = anon_client.get(reverse("pairing:round", args=[played.slug, 2])).content.decode()
    assert "hx-trigger" not in body


def test_the_last_poll_of_a_round_stops_polling(anon_client, played):
    """When the last result is in, the next poll gets the complete list with status 286,
    which makes htmx swap it in and stop polling; the swapped-in list has no poller."""
    make_public(played)
    Game.objects.filter(round__number=3).update(result="1-0")
    Round.objects.filter(tournament=played, number=3).update(status="complete")
    bump_revision(played.pk)  # written straight into the tables: a change, as entering the results is
    url = reverse("pairing:round", args=[played.slug, 3])
    response = anon_client.get(url, headers={"HX-Request": "true"})
    assert response.status_code == 286
    assert "hx-trigger" not in response.content.decode()


def test_a_poll_while_the_round_is_in_play_is_an_ordinary_200(anon_client, played):
    make_public(played)
    response = anon_client.get(reverse("pairing:round", args=[played.slug, 3]), headers={"HX-Request": "true"})
    assert response.status_code == 200 and 'hx-trigger="every 30s"' in response.content.decode()


def test_arbiters_do_not_poll(chief_client, played):
    body = chief_client.get(reverse("pairing:round", args=[played.slug, 3])).content.decode()
    assert "hx-trigger" not in body


def _poll_after_round_3_complete(client, played, url: str) -> str:
    """Round 3's results written and the round completed (straight into the tables, then
    the revision moved, as entering them does); the page's next poll must be 286, telling
    htmx to stop: its body."""
    Game.objects.filter(round__number=3).update(result="1-0")
    Round.objects.filter(tournament=played, number=3).update(status="complete")
    bump_revision(played.pk)
    response = client.get(url, headers={"HX-Request": "true"})
    assert response.status_code == 286
    return response.content.decode()


def test_standings_refresh_while_a_round_is_in_play_and_stop_when_it_is_complete(anon_client, played):
    make_public(played)
    url = reverse("pairing:standings", args=[played.slug])
    body = anon_client.get(url).content.decode()
    assert 'hx-trigger="every 30s"' in body and f'<a href="{url}">Refresh</a>' in body
    assert "after round 2" in body
    assert "hx-trigger" not in anon_client.get(url + "?round=1").content.decode()  # history does not change
    body = _poll_after_round_3_complete(anon_client, played, url)
    assert "after round 3" in body and "hx-trigger" not in body


def test_the_aro_spread_refreshes_while_a_round_is_in_play_and_stops_when_it_is_complete(anon_client, played):
    """Round 3 in play: the chart of rounds 1-2, polling; round 3 complete: the next poll
    gets its chart with 286 and no poller."""
    make_public(played)
    url = reverse("pairing:aro_spread", args=[played.slug])
    body = anon_client.get(url).content.decode()
    assert 'hx-trigger="every 30s"' in body and "After round 2, scoregroup" in body and "After round 3" not in body
    body = _poll_after_round_3_complete(anon_client, played, url)
    assert "After round 3, scoregroup" in body and "hx-trigger" not in body


# ---------------------------------------------------------------- print


@pytest.mark.parametrize(
    "url",
    [
        lambda s: reverse("pairing:round", args=[s, 1]),
        lambda s: reverse("pairing:round", args=[s, 1]) + "?by=name",
        lambda s: reverse("pairing:standings", args=[s]),
        lambda s: reverse("pairing:crosstable", args=[s]),
        lambda s: reverse("pairing:aro", args=[s]),
        lambda s: reverse("pairing:aro_spread", args=[s]),
        lambda s: reverse("pairing:player_card", args=[s, 1]),
    ],
    ids=["pairings", "pairings by name", "standings", "crosstable", "aro", "aro spread", "player card"],
)
def test_printable_pages_have_a_print_button_and_the_print_stylesheet(anon_client, played, url):
    make_public(played)
    body = anon_client.get(url(played.slug)).content.decode()
    assert '<button type="button" class="print-button secondary" data-print hidden>Print</button>' in body
    assert 'href="/static/css/print.css" media="print"' in body
    assert "onclick" not in body  # the button is wired in app.js (no inline script)


def test_the_print_stylesheet_hides_controls_and_repeats_table_headers():
    from pathlib import Path

    css = (Path(__file__).resolve().parents[2] / "static/css/print.css").read_text()
    assert "thead { display: table-header-group; }" in css
    assert "break-inside: avoid" in css and ".print-button" in css and "nav" in css


def test_app_js_prints_on_the_button():
    from pathlib import Path

    js = (Path(__file__).resolve().parents[2] / "static/js/app.js").read_text()
    assert "[data-print]" in js and "window.print()" in js


# ---------------------------------------------------------------- phones


@pytest.mark.parametrize("name, table", [("standings", "standings"), ("crosstable", "crosstable")])
def test_wide_tables_scroll_sideways_on_a_phone(anon_client, played, name, table):
    make_public(played)
    body = anon_client.get(reverse(f"pairing:{name}", args=[played.slug])).content.decode()
    assert f'<div class="scroll">\n<table class="list {table}" id="{table}">' in body


def test_the_public_home_lists_rounds_and_every_players_card_and_refreshes_while_a_round_is_in_play(
    anon_client, played
):
    make_public(played)
    url = reverse("pairing:tournament", args=[played.slug])
    body = anon_client.get(url).content.decode()
    assert "10 players" in body and body.count("in play") >= 1 and 'hx-trigger="every 30s"' in body
    assert reverse("pairing:player_card", args=[played.slug, 10]) in body
    Game.objects.filter(round__number=3).update(result="1-0")
    Round.objects.filter(tournament=played, number=3).update(status="complete")
    bump_revision(played.pk)  # written straight into the tables: a change, as entering the results is
    response = anon_client.get(url, headers={"HX-Request": "true"})
    assert response.status_code == 286 and "hx-trigger" not in response.content.decode()
