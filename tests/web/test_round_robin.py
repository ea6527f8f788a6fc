"""Round robins in the app (issue 20; VCL4THP Q93-105): chosen at creation, Berger numbers
by rating, lot or hand before round 1, rounds from the Berger tables, the double round
robin, standings with round-robin tie-breaks and the 50 % rule, the square crosstable."""

from __future__ import annotations

from django.urls import reverse

from pairing.models import AuditEntry, Bye, GameResult, Player, Tournament
from pairing.services import integrity, roundrobin
from pairing.services.results import record_result
from pairing.services.rounds import pair_next_round, publish
from tests.web.helpers import add_players, play_round, shown_version
from tests.web.test_tournament_setup import GOOD


def _rr(t: Tournament, cycles: int = 1) -> Tournament:
    Tournament.objects.filter(pk=t.pk).update(system="round-robin", rr_cycles=cycles, tiebreaks="DE, SB, WIN, KS")
    t.refresh_from_db()
    return t


def _pairs(rnd) -> list[tuple[int, int]]:
    return [(g.white.tpn, g.black.tpn) for g in rnd.games()]


def test_vcl_q94_a_round_robin_is_chosen_when_the_tournament_is_created(chief_client):
    page = chief_client.get(reverse("pairing:tournament_create")).content.decode()
    assert "Round robin, Berger tables (C.05 Annex 1)" in page
    response = chief_client.post(reverse("pairing:tournament_create"), {
        **GOOD, "system": "round-robin", "rr_cycles": "2", "rr_reverse_last_two": "on", "tiebreaks": "DE, SB, WIN"})
    assert response.status_code == 302
    t = Tournament.objects.get(slug="autumn-open")
    assert (t.system, t.rr_cycles, t.rr_reverse_last_two) == ("round-robin", 2, True)


def test_vcl_q105_buchholz_is_refused_in_a_round_robin_with_a_reason(chief_client):
    response = chief_client.post(reverse("pairing:tournament_create"), {**GOOD, "system": "round-robin"})
    assert response.status_code == 200
    assert "the Buchholz family compares opponents" in response.content.decode()
    assert not Tournament.objects.filter(slug="autumn-open").exists()


def test_vcl_q96_rounds_come_from_the_berger_table(tournament):
    _rr(tournament)
    add_players(tournament, 6)
    rnd = pair_next_round(tournament)
    assert _pairs(rnd) == [(1, 6), (2, 5), (3, 4)]
    tournament.refresh_from_db()
    assert tournament.rounds == 5  # set from the field
    publish(rnd)
    for g in rnd.games():
        record_result(g, GameResult.DRAW)
    assert _pairs(pair_next_round(tournament)) == [(6, 4), (5, 3), (1, 2)]


def test_an_odd_field_gives_the_tables_bye_and_a_discarded_draft_takes_it_back(tournament):
    from pairing.services.rounds import discard_draft

    _rr(tournament)
    players = add_players(tournament, 5)
    rnd = pair_next_round(tournament)
    assert _pairs(rnd) == [(2, 5), (3, 4)]
    assert Bye.objects.get(round_number=1).player == players[0]
    discard_draft(tournament)
    assert not Bye.objects.exists()


def test_vcl_q95_berger_numbers_by_hand_by_lot_and_locked_after_round_one(chief_client, tournament):
    _rr(tournament)
    players = add_players(tournament, 4)
    url = reverse("pairing:berger", args=[tournament.slug])
    numbers = {f"number-{p.pk}": str(5 - p.tpn) for p in players}  # reversed
    assert chief_client.post(url, {**numbers, "action": "hand"}).status_code == 302
    assert [p.name for p in Player.objects.order_by("tpn")] == [p.name for p in reversed(players)]
    bad = chief_client.post(url, {**numbers, f"number-{players[0].pk}": "2", "action": "hand"})
    assert bad.status_code == 400 and "Number 2 is given twice." in bad.content.decode()
    # a new player gets the next number; the hand-given ones stay
    Player.objects.create(tournament=tournament, name="Late, Strong", rating=2900)
    from pairing.services.numbering import renumber

    tournament.refresh_from_db()
    renumber(tournament)
    assert Player.objects.get(name="Late, Strong").tpn == 5
    assert chief_client.post(url, {"action": "lot"}).status_code == 302
    assert sorted(Player.objects.values_list("tpn", flat=True)) == [1, 2, 3, 4, 5]
    assert "Berger numbers drawn by lot." in AuditEntry.objects.latest("pk").detail
    pair_next_round(tournament)
    page = chief_client.get(url).content.decode()
    assert "the numbers are fixed" in page and 'name="action"' not in page
    refused = chief_client.post(url, {"action": "rating"})
    assert refused.status_code == 400 and "Round 1 has been paired" in refused.content.decode()


def test_vcl_q98_the_double_round_robin_reverses_the_last_two_rounds_of_cycle_one(tournament):
    _rr(tournament, cycles=2)
    add_players(tournament, 4)
    seen = []
    for _ in range(6):
        rnd = play_round(tournament)
        seen.append(_pairs(rnd))
    assert seen == [[(1, 4), (2, 3)], [(2, 4), (3, 1)], [(4, 3), (1, 2)],
                    [(4, 1), (3, 2)], [(4, 2), (1, 3)], [(3, 4), (2, 1)]]
    tournament.refresh_from_db()
    assert tournament.rounds == 6 and tournament.pairing_blocker() == "All 6 rounds have been paired."


def test_vcl_q93_the_system_is_locked_after_round_one(chief_client, tournament):
    _rr(tournament)
    add_players(tournament, 4)
    play_round(tournament)
    page = chief_client.get(reverse("pairing:settings", args=[tournament.slug])).content.decode()
    assert page.count("Locked: round 1 has been published.") >= 3
    chief_client.post(reverse("pairing:settings", args=[tournament.slug]), {
        **GOOD, "rounds": "3", "tiebreaks": "DE, SB", "slug": tournament.slug, "seen": shown_version(tournament),
        "system": "dubov"})
    assert Tournament.objects.get(pk=tournament.pk).system == "round-robin"


def test_no_player_joins_a_round_robin_once_round_one_is_paired(chief_client, tournament):
    _rr(tournament)
    add_players(tournament, 4)
    pair_next_round(tournament)
    response = chief_client.post(reverse("pairing:players", args=[tournament.slug]), {"name": "Late, L", "rating": "2000"})
    assert "A round robin takes no new player once round 1 is paired" in response.content.decode()
    assert Player.objects.count() == 4


def test_vcl_q103_a_player_who_withdrew_before_half_his_games_has_his_results_annulled(anon_client, tournament):
    """6 players, 5 rounds each: number 6 lost two games and withdrew (2 < 2.5): his games
    count for nobody; number 1, who beat him, loses that point."""
    from pairing.reports.standings import standings
    from pairing.services.players import withdraw

    _rr(tournament)
    Tournament.objects.filter(pk=tournament.pk).update(public=True)
    players = add_players(tournament, 6)
    play_round(tournament)  # 1-6 2-5 3-4: White wins
    play_round(tournament, results={0: GameResult.BLACK_WINS})  # 6-4 (4 wins) 5-3 1-2
    six = players[5]
    _, rows, _ = standings(tournament)
    assert next(r for r in rows if r.player == players[0]).points == 2
    withdraw(six, 3)
    _, rows, _ = standings(tournament)
    assert six.pk not in {r.player.pk for r in rows}
    assert next(r for r in rows if r.player == players[0]).points == 1  # the win over 6 is gone
    assert next(r for r in rows if r.player == players[3]).points == 0  # so is 4's win over 6
    page = anon_client.get(reverse("pairing:crosstable", args=[tournament.slug])).content.decode()
    assert 'id="square-crosstable"' in page


def test_a_player_who_played_half_keeps_his_results(tournament):
    from pairing.reports.standings import standings
    from pairing.services.players import withdraw

    _rr(tournament)
    players = add_players(tournament, 4)  # 3 games each: 2 played is not fewer than half
    play_round(tournament)
    play_round(tournament)
    withdraw(players[3], 3)
    _, rows, _ = standings(tournament)
    assert players[3].pk in {r.player.pk for r in rows}


def test_vcl_q104_the_square_crosstable_shows_each_result_by_berger_number(anon_client, tournament):
    _rr(tournament)
    Tournament.objects.filter(pk=tournament.pk).update(public=True)
    add_players(tournament, 4)
    play_round(tournament)  # 1-4 1-0, 2-3 1-0
    page = anon_client.get(reverse("pairing:crosstable", args=[tournament.slug])).content.decode()
    row1 = page.split('id="square-crosstable"')[1].split("<tr>")[2]
    assert '<td class="cell self">X</td>' in row1
    assert [c.split(">")[1] for c in row1.split('<td class="cell')[1:5]] == ["X</td", "</td", "</td", "1</td"]


def test_vcl_q100_q101_manual_pairing_is_compared_with_the_berger_table(tournament):
    """A session on a round robin's draft: board 1's colours reversed by hand; at the end
    the round is compared with the Berger table's and the difference is an event."""
    from pairing.models import IntegrityEvent
    from pairing.services import manual
    from pairing.services.rounds import swap_players

    _rr(tournament)
    add_players(tournament, 4)
    rnd = pair_next_round(tournament)
    assert integrity.engine_pairs(tournament, 1) == integrity.Pairs(
        tuple((g.white_id, g.black_id) for g in rnd.games()), None)
    assert roundrobin.table_pairs(tournament, 1)[0] == tuple((g.white_id, g.black_id) for g in rnd.games())
    manual.start_session(rnd)
    g = rnd.games().first()
    swap_players(rnd, g.white, g.black, confirmations=1)
    manual.end_session(rnd, confirmations=1)
    assert IntegrityEvent.objects.get().line == "MPA @ Round 1: 1-4 2-3 => 4-1 2-3"


def test_the_berger_page_is_for_the_tournaments_arbiters(client, stranger_client, deputy_client, tournament):
    _rr(tournament)
    url = reverse("pairing:berger", args=[tournament.slug])
    assert client.get(url).status_code == 302
    assert stranger_client.get(url).status_code == 404
    assert stranger_client.post(url, {"action": "lot"}).status_code == 404
    assert deputy_client.get(url).status_code == 200
    Tournament.objects.filter(pk=tournament.pk).update(system="dubov")
    assert deputy_client.get(url).status_code == 404


def test_a_round_robin_is_exported_and_imported_as_one(chief, tournament):
    """The file says round robin (092); its starting ranks are the Berger numbers (drawn
    by lot here), kept by the import, and the next round is the table's."""
    from pairing.services import interchange

    _rr(tournament, cycles=2)
    add_players(tournament, 5)
    roundrobin.by_lot(tournament)
    tournament.refresh_from_db()
    play_round(tournament)
    play_round(tournament)
    text = interchange.export_trf(tournament)
    assert "092 Individual: round robin (Berger tables)" in text
    assert "192 FIDE_DOUBLEROUNDROBIN" in text.splitlines()
    fresh = Tournament.objects.create(slug="again", name="Again", owner=chief)
    interchange.import_trf(fresh, text)
    fresh.refresh_from_db()
    assert (fresh.system, fresh.rr_cycles, fresh.rr_numbers, fresh.rounds) == ("round-robin", 2, "hand", 10)
    by_name = {p.name: p.tpn for p in Player.objects.filter(tournament=tournament)}
    assert {p.name: p.tpn for p in Player.objects.filter(tournament=fresh)} == by_name
    assert not fresh.integrityevent_set.exists()  # the imported rounds are the table's
    assert _pairs(pair_next_round(fresh)) == _pairs(pair_next_round(tournament))


def _visible_text(page: str) -> str:
    """What a reader sees: no tags, scripts, styles, the app's name ("Dubov arbiter") or
    the choices of a list (the systems one may choose)."""
    import re

    page = re.sub(r"<(script|style|title|option)[^>]*>.*?</\1>", " ", page, flags=re.S)
    page = re.sub(r"<[^>]+>", " ", page)
    page = page.replace("Swiss, FIDE Dubov system (C.04.4.1)", "")  # the settings' choice of system
    return re.sub(r"\s+", " ", page).replace("Dubov arbiter", "")


def test_issue32_item9_a_round_robins_pages_name_the_round_robin_and_never_dubov(
    chief_client, anon_client, tournament
):
    """Every page of a round robin, the arbiter's and the public ones, names its system
    as a round robin; "Dubov" (the Swiss system) appears on none, nor the ARO list
    (Dubov 9), nor "pair by hand when the engine finds no legal pairing"."""
    _rr(tournament)
    Tournament.objects.filter(pk=tournament.pk).update(public=True)
    add_players(tournament, 6)
    play_round(tournament)
    slug = tournament.slug
    overview = _visible_text(chief_client.get(reverse("pairing:tournament", args=[slug])).content.decode())
    assert "5 rounds, round robin" in overview
    assert "engine finds no legal pairing" not in overview and "Dubov" not in overview
    assert "or pair round 2 by hand (a manual-pairing session; at its end the round is compared with the" in overview
    pair_next_round(tournament)  # round 2 a draft
    player = tournament.player_set.order_by("tpn").first()
    arbiter_urls = [reverse(f"pairing:{name}", args=[slug]) for name in (
        "tournament", "settings", "players", "absences", "berger", "standings", "crosstable", "fide_mode")]
    arbiter_urls += [reverse("pairing:round", args=[slug, 1]), reverse("pairing:round", args=[slug, 2]),
                     reverse("pairing:player_edit", args=[slug, player.pk])]
    for url in arbiter_urls:
        text = _visible_text(chief_client.get(url).content.decode())
        assert "Dubov" not in text and "ARO list" not in text, (url, text[text.find("Dubov") - 300:][:400])
    public = _visible_text(anon_client.get(reverse("pairing:tournament", args=[slug])).content.decode())
    assert "5 rounds, round robin" in public and "Dubov" not in public and "ARO list" not in public


def test_issue32_item9_the_system_is_named_in_one_place(tournament):
    """Tournament.system_label: what the pages print for each system."""
    assert tournament.system_label == "FIDE Dubov system"
    _rr(tournament)
    assert tournament.system_label == "round robin"
    tournament.rr_cycles = 2
    assert tournament.system_label == "double round robin"


def test_issue32_item9_the_crosstable_says_which_numbering_each_table_uses(anon_client, tournament):
    """The square goes by Berger number, the round-by-round table by line in standings
    order: the page says so at each table."""
    _rr(tournament)
    Tournament.objects.filter(pk=tournament.pk).update(public=True)
    add_players(tournament, 4)
    play_round(tournament)
    text = _visible_text(anon_client.get(reverse("pairing:crosstable", args=[tournament.slug])).content.decode())
    square, by_round = text.split("Round by round", 1)
    assert "Berger number" in square and "rank" in square.lower()
    assert "standings order" in by_round and "not by Berger number" in by_round


def test_issue32_item9_the_manual_says_round_robins_are_in_this_version(client):
    text = _visible_text(client.get(reverse("pairing:help_chapter", args=["setup"])).content.decode())
    assert "not in this version" not in text
    assert "Round robin" in text or "round robin" in text


def test_vcl_q104_the_koya_limit_variants_are_chosen_shown_exported_and_read_back(chief_client, chief, anon_client):
    """KS/L1, KS/L-1 and KS/L2 (C.07 14.5) chosen when a round robin is created, explained in
    the standings' legend, written in the rating report's 202 as C.07 names them and read
    back by the import."""
    from pairing.services import interchange

    response = chief_client.post(reverse("pairing:tournament_create"), {
        **GOOD, "system": "round-robin", "tiebreaks": "KS/L1, KS/L-1, KS/L2"})
    assert response.status_code == 302
    t = Tournament.objects.get(slug="autumn-open")
    assert t.tiebreaks == "KS-L1, KS-L-1, KS-L2"
    Tournament.objects.filter(pk=t.pk).update(public=True)
    add_players(t, 5)
    play_round(t)
    page = anon_client.get(reverse("pairing:standings", args=[t.slug])).content.decode()
    assert "the limit raised by half a point (Limit modifier, KS/L1)" in page
    assert "the limit lowered by half a point (Limit modifier, KS/L-1)" in page
    text = interchange.export_trf(t)
    assert "202 KS/L1, KS/L-1, KS/L2" in text.splitlines()
    fresh = Tournament.objects.create(slug="again", name="Again", owner=chief)
    interchange.import_trf(fresh, text)
    fresh.refresh_from_db()
    assert fresh.tiebreaks == "KS-L1, KS-L-1, KS-L2"
