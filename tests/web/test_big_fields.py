"""Big fields (issue 38): long tables in pages of 200 lines, a box that finds a player in
them, and the standings computed once for every page -- kept across the results of the
round in play, which change nothing in them, and computed again after anything else."""

from __future__ import annotations

import re

import pytest
from django.urls import reverse

from pairing.models import Game, GameResult, Tournament, bump_revision
from pairing.reports import standings as standings_report
from pairing.services.results import record_result
from tests.web.public_data import field

N = 450  # three pages of standings


@pytest.fixture
def big(chief, tournament):
    """450 players, rounds 1-2 complete, round 3 in play (no result yet), public."""
    Tournament.objects.filter(pk=tournament.pk).update(public=True, fide_mode=False, fide_mode_left_round=0)
    tournament.refresh_from_db()
    field(tournament, N)
    tournament.refresh_from_db()
    return tournament


def ranks(html: str, table: str = "standings") -> list[str]:
    body = re.search(rf'<table[^>]*id="{table}".*?<tbody>(.*?)</tbody>', html, re.S).group(1)
    return [re.sub(r"<[^>]+>", "", row.split("</td>", 1)[0]).strip() for row in re.findall(r"<tr[^>]*>(.*?)</tr>", body, re.S)]


def test_the_standings_of_450_players_are_three_pages_of_200_lines(anon_client, big):
    url = reverse("pairing:standings", args=[big.slug])
    first = anon_client.get(url).content.decode()
    assert len(ranks(first)) == 200 and 'rel="next" ' not in first and 'href="?page=2" rel="next"' in first
    assert "Lines 1–200 of 450" in first
    third = anon_client.get(url + "?page=3").content.decode()
    assert len(ranks(third)) == 50 and "Lines 401–450 of 450" in third
    assert anon_client.get(url + "?page=4").status_code == 404
    assert anon_client.get(url + "?page=x").status_code == 404
    # the same ranks as one table would give, page after page
    pages = [ranks(anon_client.get(url + f"?page={n}").content.decode()) for n in (1, 2, 3)]
    table = standings_report.standings_table(big)
    assert sum(pages, []) == [str(r.rank) for r in table.rows]


def test_a_small_field_stays_one_page(anon_client, tournament):
    Tournament.objects.filter(pk=tournament.pk).update(public=True)
    field(tournament, 20)
    html = anon_client.get(reverse("pairing:standings", args=[tournament.slug])).content.decode()
    assert len(ranks(html)) == 20 and 'class="pages' not in html and 'name="find"' not in html


def test_find_a_player_goes_to_his_page_and_line(anon_client, big):
    url = reverse("pairing:standings", args=[big.slug])
    table = standings_report.standings_table(big)
    last = table.rows[-1].player
    response = anon_client.get(url, {"find": last.name})
    assert response.status_code == 302 and response["Location"] == f"{url}?page=3#p-{last.tpn}"
    by_number = anon_client.get(url, {"find": str(table.rows[250].player.tpn), "round": "2"})
    assert by_number["Location"] == f"{url}?round=2&page=2#p-{table.rows[250].player.tpn}" or \
        by_number["Location"].startswith(f"{url}?round=2&page=")
    missing = anon_client.get(url, {"find": "Nobody of that name"}, follow=True)
    assert "No player found" in missing.content.decode()


def test_the_crosstable_names_opponents_by_their_line_in_the_whole_table(anon_client, big):
    url = reverse("pairing:crosstable", args=[big.slug])
    table = standings_report.standings_table(big)
    line = {r.player.pk: i for i, r in enumerate(table.rows, start=1)}
    page = anon_client.get(url + "?page=2").content.decode()
    body = re.search(r'<table[^>]*id="crosstable".*?<tbody>(.*?)</tbody>', page, re.S).group(1)
    first = re.findall(r"<td[^>]*>(.*?)</td>", re.findall(r"<tr[^>]*>(.*?)</tr>", body, re.S)[0], re.S)
    player = table.rows[200].player
    assert first[0] == "201"
    opponent = Game.objects.get(round__tournament=big, round__number=1, white=player) \
        if Game.objects.filter(round__tournament=big, round__number=1, white=player).exists() \
        else Game.objects.get(round__tournament=big, round__number=1, black=player)
    other = opponent.black_id if opponent.white_id == player.pk else opponent.white_id
    assert first[4].startswith(str(line[other]))


def test_results_of_the_round_in_play_do_not_recompute_the_standings(anon_client, chief, big, monkeypatch):
    """Standings count complete rounds only: a result of round 3 (in play) changes no
    figure in them, so they are not worked out again; the page is rendered again (its
    revision moved) from the same figures."""
    calls = []
    real = standings_report._ranking
    monkeypatch.setattr(standings_report, "_ranking", lambda *a, **k: calls.append(1) or real(*a, **k))
    url = reverse("pairing:standings", args=[big.slug])
    before = anon_client.get(url).content
    assert calls == [1]
    for g in Game.objects.filter(round__tournament=big, round__number=3).order_by("board")[:5]:
        record_result(g, GameResult.WHITE_WINS, chief)
        again = anon_client.get(url)
        assert again["X-Cache"] == "miss"  # a new revision: the page is rendered again
    assert calls == [1]  # from the same standings
    assert ranks(again.content.decode()) == ranks(before.decode())


def test_a_correction_in_a_complete_round_recomputes_the_standings(anon_client, chief, big):
    url = reverse("pairing:standings", args=[big.slug])
    table = standings_report.standings_table(big)
    leader = table.rows[0].player
    assert anon_client.get(url).content.decode().count(f'id="p-{leader.tpn}"') == 1
    game = Game.objects.filter(round__tournament=big, round__number=2).filter(white=leader).first() or \
        Game.objects.filter(round__tournament=big, round__number=2, black=leader).first()
    loses = GameResult.BLACK_WINS if game.white_id == leader.pk else GameResult.WHITE_WINS
    record_result(game, loses, chief, confirmations=2)
    html = anon_client.get(url).content.decode()
    assert ranks(html) == [str(r.rank) for r in standings_report.standings_table(big).rows[:200]]
    assert f'<tr id="p-{leader.tpn}"><td>1</td>' not in html


def test_any_change_but_a_later_result_recomputes_them(anon_client, chief, big, monkeypatch):
    """A player renamed, a round's revision moved without an audit entry: computed again."""
    calls = []
    real = standings_report._ranking
    monkeypatch.setattr(standings_report, "_ranking", lambda *a, **k: calls.append(1) or real(*a, **k))
    url = reverse("pairing:standings", args=[big.slug])
    anon_client.get(url)
    bump_revision(big.pk)  # a change the audit trail does not tell
    assert "Renamed" not in anon_client.get(url).content.decode()
    assert len(calls) == 2
    from pairing.services.players import change_player

    p = big.player_set.order_by("tpn").first()

    def save():
        p.name = "Renamed, Player"
        p.save()
        return p

    change_player(big, p, save, chief, p.audit_values())
    assert "Renamed, Player" in anon_client.get(url, {"find": "Renamed"}, follow=True).content.decode()
    assert len(calls) == 3


def white_points(html: str, board: int) -> str:
    """The Pts cell of White on ``board`` of a pairing list (the fifth cell of the row)."""
    row = html.split(f'id="board-{board}"', 1)[1].split("</tr>", 1)[0]
    return re.sub(r"<[^>]+>", "", row.split("<td")[5].split("</td>", 1)[0].split(">", 1)[1]).strip()


def test_the_pairing_lists_points_are_read_once_a_round_for_every_page(anon_client, chief, big, monkeypatch):
    """The points before round 3 on its pairing list: counted once for every page of the
    list (when round 3 was paired, or by the first page), kept across the results of
    round 3, counted again after a correction in round 2 (whose points they show)."""
    calls = []
    real = standings_report.points_through
    monkeypatch.setattr(standings_report, "points_through", lambda *a, **k: calls.append(a[1]) or real(*a, **k))
    url = reverse("pairing:round", args=[big.slug, 3])
    first = anon_client.get(url).content.decode()
    assert anon_client.get(url + "?page=2").status_code == 200
    for g in Game.objects.filter(round__tournament=big, round__number=3).order_by("board")[:3]:
        record_result(g, GameResult.DRAW, chief)
    assert anon_client.get(url)["X-Cache"] == "miss" and calls in ([], [2])
    counted = len(calls)
    board = Game.objects.get(round__tournament=big, round__number=3, board=1)
    earlier = Game.objects.filter(round__tournament=big, round__number=2).filter(white=board.white_id).first() or \
        Game.objects.get(round__tournament=big, round__number=2, black=board.white_id)
    wins = GameResult.WHITE_WINS if earlier.white_id == board.white_id else GameResult.BLACK_WINS
    loses = GameResult.BLACK_WINS if wins == GameResult.WHITE_WINS else GameResult.WHITE_WINS
    record_result(earlier, loses if earlier.result == wins else wins, chief, confirmations=2)
    after = anon_client.get(url).content.decode()
    assert len(calls) == counted + 1 and calls[-1] == 2 and white_points(after, 1) != white_points(first, 1)


# ------------------------------------------------------------------ the arbiter's pages


@pytest.fixture
def registered(chief, tournament):
    """450 players registered, nothing paired yet."""
    from tests.web.helpers import add_players

    add_players(tournament, N, step=4)
    return tournament


def test_the_players_list_of_450_is_three_pages(chief_client, registered):
    url = reverse("pairing:players", args=[registered.slug])
    first = chief_client.get(url).content.decode()
    assert first.count("/players/") >= 200 and "Lines 1–200 of 450" in first and "450 players." in first
    third = chief_client.get(url + "?page=3").content.decode()
    assert "Lines 401–450 of 450" in third and "Player 450" in third and "Player 01<" not in third


def test_a_page_of_the_byes_posts_and_changes_its_own_players_only(chief_client, registered):
    from pairing.models import Bye

    url = reverse("pairing:absences", args=[registered.slug])
    page = chief_client.get(url + "?round=1&page=2").content.decode()
    shown = re.findall(r'name="kind-(\d+)"', page)
    assert len(shown) == 200
    target = registered.player_set.order_by("tpn")[250]
    assert str(target.pk) in shown
    form = {f"kind-{pk}": "" for pk in shown} | {f"kind-{target.pk}": "H", "round": "1", "seen": "", "page": "2"}
    response = chief_client.post(url, form)
    assert response.status_code == 302 and response["Location"].endswith("?round=1&page=2")
    assert list(Bye.objects.filter(tournament=registered).values_list("player_id", "kind")) == [(target.pk, "H")]


def test_a_forbidden_pair_of_a_big_field_is_typed_by_pairing_numbers(chief_client, registered):
    from pairing.models import ForbiddenPair

    url = reverse("pairing:forbidden_pairs", args=[registered.slug])
    page = chief_client.get(url).content.decode()
    assert page.count("<option") < 10 and 'type="number" name="a"' in page
    assert chief_client.post(url, {"a": "7", "b": "451"}).status_code == 400
    assert not ForbiddenPair.objects.exists()
    assert chief_client.post(url, {"a": "7", "b": "300"}).status_code == 302
    pair = ForbiddenPair.objects.get()
    assert {pair.player_a.tpn, pair.player_b.tpn} == {7, 300}


def test_the_arbiter_lists_the_boards_still_without_a_result(chief_client, anon_client, chief, big):
    """225 boards in round 3: entering 30 leaves 195, one page; visitors get every board."""
    games = list(Game.objects.filter(round__tournament=big, round__number=3).order_by("board"))
    for g in games[:30]:
        record_result(g, GameResult.DRAW, chief)
    url = reverse("pairing:round", args=[big.slug, 3])
    page = chief_client.get(url + "?pending=1").content.decode()
    shown = [int(b) for b in re.findall(r'id="board-(\d+)"', page)]
    assert shown == [g.board for g in games[30:]] and 'class="pages' not in page
    assert 'href="?pending=1" id="pending-only"' in chief_client.get(url).content.decode()
    public = anon_client.get(url + "?pending=1").content.decode()
    assert len(re.findall(r'id="board-(\d+)"', public)) == 200  # a visitor's page is the pairing list
