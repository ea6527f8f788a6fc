"""The public pages of a tournament: player card, standings after any round, ARO list
per round, and what visitors may not do.  Figures are worked out by hand on the
six-player tournament of :func:`tests.web.public_data.six_player_tournament`."""

from __future__ import annotations

import re
from decimal import Decimal

import pytest
from django.urls import reverse

from pairing.services.numbering import renumber
from tests.web.public_data import six_player_tournament


@pytest.fixture
def six(tournament):
    tournament.public = True
    tournament.save(update_fields=["public"])
    return six_player_tournament(tournament)


def cells(html: str, table_id: str) -> list[list[str]]:
    """The text of every body cell of table ``table_id``, row by row."""
    table = re.search(rf'<table[^>]*id="{table_id}".*?<tbody>(.*?)</tbody>', html, re.S).group(1)
    rows = re.findall(r"<tr[^>]*>(.*?)</tr>", table, re.S)
    return [
        [re.sub(r"\s+", " ", re.sub(r"<[^>]+>", "", c)).strip() for c in re.findall(r"<td[^>]*>(.*?)</td>", r, re.S)]
        for r in rows
    ]


def card_url(t, tpn: int) -> str:
    return reverse("pairing:player_card", args=[t.slug, tpn])


# ---------------------------------------------------------------- player card


def test_a_player_card_shows_each_round_with_opponent_result_and_running_score(anon_client, tournament, six):
    """F (No 6, 1500): R1 Black against C (1800), draw -> ½; R2 the pairing-allocated
    bye -> 1½; R3 White against B (1900), lost -> 1½."""
    html = anon_client.get(card_url(tournament, 6)).content.decode()
    assert cells(html, "card") == [
        ["1", "3", "Black", "Clayer, C", "1800", "½", "0.5"],
        ["2", "", "", "", "", "bye", "1.5"],
        ["3", "2", "White", "Blayer, B", "1900", "0", "1.5"],
    ]
    assert f'href="{card_url(tournament, 3)}"' in html  # the opponent's card


def test_a_player_card_gives_points_rank_aro_performance_and_colours(anon_client, tournament, six):
    """F: 1½ points, 4th (tied on points with D, who has the better BH-C1, 4 to 3½).
    Played games: C 1800 and B 1900, so ARO = 1850; ½ of 2 over the board is 25 %,
    dp(25 %) = -193, so TPR = 1850 - 193 = 1657.  Colours Black, White: difference 0."""
    card = anon_client.get(card_url(tournament, 6)).context["card"]
    assert (card.points, card.rank, card.games_played) == (1.5, 4, 2)
    assert (card.aro, card.tpr, card.colours, card.colour_difference) == (1850, 1657, "BW", 0)
    html = anon_client.get(card_url(tournament, 6)).content.decode()
    for figure, value in [("points", "1.5"), ("rank", "4"), ("games", "2"), ("aro", "1850"), ("tpr", "1657")]:
        assert re.search(rf'<dd id="{figure}">{value}</dd>', html), figure


def test_a_forfeit_counts_for_points_but_not_for_aro_or_colours(anon_client, tournament, six):
    """E (No 5, 1600): lost to B (1900) with White, won by forfeit against C, lost to D
    (1700) with Black.  1 point; games played 2; ARO (1900 + 1700) / 2 = 1800; 0 of 2
    over the board, dp(0 %) = -800, TPR 1000."""
    response = anon_client.get(card_url(tournament, 5))
    card = response.context["card"]
    assert (card.points, card.games_played, card.aro, card.tpr, card.colours) == (1, 2, 1800, 1000, "WB")
    assert cells(response.content.decode(), "card")[1] == ["2", "2", "White", "Clayer, C", "1800", "+ (forfeit)", "1"]


def test_a_round_in_play_is_on_the_card_without_a_result(anon_client, tournament, six):
    from tests.web.public_data import add_round

    add_round(tournament, 4, [(1, six["A"], six["B"], "")], byes=[(six["C"], "H")], status="published")
    rows = cells(anon_client.get(card_url(tournament, 1)).content.decode(), "card")
    assert rows[-1] == ["4", "1", "White", "Blayer, B", "1900", "in play", ""]
    assert cells(anon_client.get(card_url(tournament, 3)).content.decode(), "card")[-1][-2] == "half-point bye"


def test_an_unknown_pairing_number_is_404(anon_client, tournament, six):
    assert anon_client.get(card_url(tournament, 99)).status_code == 404


def test_names_on_every_public_list_link_to_the_player_card(anon_client, tournament, six):
    a_card = f'href="{card_url(tournament, 1)}"'
    for name, query in [("standings", ""), ("crosstable", ""), ("aro", "")]:
        html = anon_client.get(reverse(f"pairing:{name}", args=[tournament.slug]) + query).content.decode()
        assert a_card in html, name
    rnd = tournament.round_set.get(number=1)
    assert a_card in anon_client.get(rnd.get_absolute_url()).content.decode()
    assert a_card in anon_client.get(rnd.get_absolute_url() + "?by=name").content.decode()


# ---------------------------------------------------------------- standings: every number


def test_every_number_on_the_standings_page(anon_client, tournament, six):
    """Default tie-breaks BH-C1, BH, SB (C.07, here the 2023 text, chosen in the settings).  No requested bye is left unfollowed by a
    game, so every player's score as an opponent is their own score (16.3).  Own
    unplayed rounds count as a game against a dummy with the player's own score (16.4):
    C's forfeit loss (½, a VUR), D's half-point bye (1½, a VUR), E's forfeit win (1,
    not a VUR) and F's PAB (1½, not a VUR).

    BH:   A 1½+2+½ = 4      B 1+3+1½ = 5½    C 1½+½+3 = 5
          D 3+1½+1 = 5½     E 2+1+1½ = 4½    F ½+1½+2 = 4
    BH-C1 cuts a VUR first, else the lowest value:
          A 4-½ = 3½  B 5½-1 = 4½  C 5-½ = 4½  D 5½-1½ = 4  E 4½-1 = 3½  F 4-½ = 3½
    SB (opponent's score x points scored):
          A 1½+2+½ = 4   B 1+0+1½ = 2½   C 1½·½+0+0 = ¾
          D 0+1½·½+1 = 1¾   E 0+1+0 = 1   F ½·½+1½+0 = 1¾
    D and F share 1½ points; D's BH-C1 (4) beats F's (3½).
    """
    tournament.tiebreak_rules = 2023
    tournament.save()
    html = anon_client.get(reverse("pairing:standings", args=[tournament.slug])).content.decode()
    assert "after round 3" in html
    assert re.search(r"<th>Pts</th><th>BH-C1</th><th>BH</th><th>SB</th>", html)
    # Rk, No, Title, Name, Rtg, Fed, Pts, BH-C1, BH, SB (then Rtg ±, below)
    assert [row[:10] for row in cells(html, "standings")] == [
        ["1", "1", "", "Alayer, A", "2000", "", "3", "3.5", "4.0", "4.00"],
        ["2", "2", "", "Blayer, B", "1900", "", "2", "4.5", "5.5", "2.50"],
        ["3", "4", "", "Dlayer, D", "1700", "", "1.5", "4.0", "5.5", "1.75"],
        ["4", "6", "", "Flayer, F", "1500", "", "1.5", "3.5", "4.0", "1.75"],
        ["5", "5", "", "Elayer, E", "1600", "", "1", "3.5", "4.5", "1.00"],
        ["6", "3", "", "Clayer, C", "1800", "", "0.5", "4.5", "5.0", "0.75"],
    ]
    # rough edge 8 (issue 21): each tie-break column has one number of decimals, the
    # fewest that show all its values ("4.0" beside "5.5", never "4" beside "3.50")
    # Rating change (K 20 assumed): A (2000) beat D (1700), B (1900), C (1800):
    # 20 x ((1 - 0.85) + (1 - 0.64) + (1 - 0.76)) = +15.0
    assert cells(html, "standings")[0][10] == "+15.0"
    assert "Tie-breaks of C.07 of 2023" in html


def test_c07_2026_the_standings_of_a_tournament_without_a_start_date_follow_the_2026_text(
    anon_client, tournament, six
):
    """The same tournament under the 1 March 2026 text (the default: no start date before
    March 2026).  Only E changes: his round-2 forfeit win counts a dummy capped at the
    scheduled opponent C's score (16.4.1), ½ instead of E's own 1.  BH 2 + ½ + 1½ = 4,
    BH-C1 cuts the ½ (not a VUR, the lowest value): 3½, SB 0 + 1 × ½ + 0 = ½.  F's PAB
    (own 1½, cap 3 × ½ = 1½), D's half-point bye (1½) and C's forfeit loss (½, below E's
    1) are at or under their caps."""
    assert tournament.effective_tiebreak_rules() == 2026
    html = anon_client.get(reverse("pairing:standings", args=[tournament.slug])).content.decode()
    rows = {row[3]: row[6:10] for row in cells(html, "standings")}
    assert rows["Elayer, E"] == ["1", "3.5", "4.0", "0.50"]
    assert rows["Alayer, A"] == ["3", "3.5", "4.0", "4.00"]
    assert rows["Flayer, F"] == ["1.5", "3.5", "4.0", "1.75"]
    assert "Tie-breaks of C.07 of 1 March 2026" in html
    tournament.start_date = __import__("datetime").date(2026, 2, 28)
    tournament.save()
    assert tournament.effective_tiebreak_rules() == 2023


def test_standings_after_an_earlier_round(anon_client, tournament, six):
    """After round 1: A, B 1 (wins); C, F ½ (draw); D, E 0.  BH after one round is the
    opponent's round-1 score: A (D 0) 0, B (E 0) 0, C (F ½) ½, F (C ½) ½, D (A 1) 1,
    E (B 1) 1; BH-C1 cuts the only value: 0 for all.  SB: A 0, B 0, C ½·½ = ¼, F ¼, D 0, E 0.
    Ties on everything share a rank: A and B 1st, C and F 3rd, D and E 5th."""
    url = reverse("pairing:standings", args=[tournament.slug])
    html = anon_client.get(url + "?round=1").content.decode()
    assert "after round 1" in html
    rows = [[r[0], r[3], r[6], r[7], r[8], r[9]] for r in cells(html, "standings")]
    assert rows == [
        ["1", "Alayer, A", "1", "0", "0.0", "0.00"],
        ["1", "Blayer, B", "1", "0", "0.0", "0.00"],
        ["3", "Clayer, C", "0.5", "0", "0.5", "0.25"],
        ["3", "Flayer, F", "0.5", "0", "0.5", "0.25"],
        ["5", "Dlayer, D", "0", "0", "1.0", "0.00"],
        ["5", "Elayer, E", "0", "0", "1.0", "0.00"],
    ]
    for n in (1, 2, 3):
        assert f'href="?round={n}"' in html
    assert reverse("pairing:standings_csv", args=[tournament.slug]) + "?round=1" in html


def test_the_csv_follows_the_round_asked_for(anon_client, tournament, six):
    """After round 2: A 1+1 = 2, F ½+1 (PAB) = 1½, B 1+0 = 1, E 0+1 (forfeit) = 1,
    C ½+0 = ½, D 0+½ (half-point bye) = ½."""
    import csv

    url = reverse("pairing:standings_csv", args=[tournament.slug])
    response = anon_client.get(url + "?round=2")
    assert 'filename="spring-open-standings-round-2.csv"' in response["Content-Disposition"]
    rows = list(csv.reader(response.content.decode().splitlines()))[1:]
    assert {r[3][0]: r[6] for r in rows} == {"A": "2.0", "F": "1.5", "B": "1.0", "E": "1.0", "C": "0.5", "D": "0.5"}


@pytest.mark.parametrize("asked", ["9", "0", "x", "-1"])
def test_a_round_that_does_not_exist_is_404(anon_client, tournament, six, asked):
    for name in ("standings", "standings_csv", "crosstable", "aro"):
        url = reverse(f"pairing:{name}", args=[tournament.slug])
        assert anon_client.get(url + f"?round={asked}").status_code == 404, name


def test_standings_need_a_complete_round_the_aro_list_the_next_one(anon_client, tournament, six):
    """Three rounds complete: standings exist after rounds 1-3; ARO lists before rounds 1-4."""
    assert anon_client.get(reverse("pairing:standings", args=[tournament.slug]) + "?round=4").status_code == 404
    aro = reverse("pairing:aro", args=[tournament.slug])
    assert anon_client.get(aro + "?round=5").status_code == 404
    assert anon_client.get(aro + "?round=4").context["number"] == 4


def test_the_aro_list_before_an_earlier_round(anon_client, tournament, six):
    """Before round 3: A (2 points) met D 1700 and B 1900: ARO 1800; White then Black,
    colour difference 0, so a mild preference for White, (w).  F (1½) met only C (1800):
    ARO 1800; one game with Black: strong preference for White, w."""
    response = anon_client.get(reverse("pairing:aro", args=[tournament.slug]) + "?round=3")
    assert "ARO list for round 3" in response.content.decode()
    rows = {r.player.name[0]: r for g in response.context["groups"] for r in g.white_seekers + g.black_seekers}
    assert (rows["A"].score, rows["A"].aro, rows["A"].preference) == (2, 1800, "(w)")
    assert (rows["F"].score, rows["F"].aro, rows["F"].preference) == (Decimal("1.5"), 1800, "w")


def spread_url(t) -> str:
    return reverse("pairing:aro_spread", args=[t.slug])


def test_the_aro_spread_page_pictures_the_aro_spread_per_scoregroup(anon_client, tournament, six):
    """After round 1: 1 point A (met D 1700) and B (met E 1600): 1600-1700, spread 100;
    ½ point C (met F 1500) and F (met C 1800): 1500-1800; 0 points D (met A 2000) and
    E (met B 1900): 1900-2000."""
    html = anon_client.get(spread_url(tournament)).content.decode()
    assert '<svg class="chart"' in html and "<title id=\"spread-title\">" in html and "<desc" in html
    rows = cells(html, "spread-table")
    assert rows[:3] == [
        ["1", "1", "2", "1600", "1700", "100"],
        ["1", "0.5", "2", "1500", "1800", "300"],
        ["1", "0", "2", "1900", "2000", "100"],
    ]
    assert "After round 1, scoregroup 0.5: 2 players, ARO 1500–1800 (spread 300)" in html


@pytest.mark.parametrize("persona", ["anon_client", "chief_client", "stranger_client"])
def test_issue_38_the_aro_spread_is_a_public_page_of_its_own(request, tournament, six, persona):
    """Anyone reads it: a visitor, the chief arbiter, another signed-in user; the chart,
    its legend and the figures of the three rounds, under the page's own title."""
    response = request.getfixturevalue(persona).get(spread_url(tournament))
    assert response.status_code == 200
    html = response.content.decode()
    assert f"<title>How the AROs draw together · {tournament.name}" in html
    assert 'id="aro-spread"' in html and '<svg class="chart"' in html and 'id="spread-legend"' in html
    assert {row[0] for row in cells(html, "spread-table")} == {"1", "2", "3"}
    assert "hx-trigger" not in html  # round 3 complete, none in play: nothing to refresh


def test_issue_38_the_aro_list_links_to_the_spread_and_draws_no_chart(anon_client, tournament, six):
    html = anon_client.get(reverse("pairing:aro", args=[tournament.slug])).content.decode()
    assert f'href="{spread_url(tournament)}">How the AROs draw together</a>' in html
    assert 'id="aro-spread"' not in html and "<svg" not in html and "spread-table" not in html


def test_issue_38_a_dutch_tournament_has_no_aro_spread_page(anon_client, chief_client, tournament, six):
    """404 for everyone, with the ARO list's reason."""
    from django.contrib.auth.models import AnonymousUser
    from django.http import Http404
    from django.test import RequestFactory

    from pairing import views
    from pairing.models import Tournament

    Tournament.objects.filter(pk=tournament.pk).update(system="dutch")
    assert anon_client.get(spread_url(tournament)).status_code == 404
    assert chief_client.get(spread_url(tournament)).status_code == 404
    reasons = []
    for view in (views.aro_list, views.aro_spread_page):
        request = RequestFactory().get("/")
        request.user = AnonymousUser()
        with pytest.raises(Http404) as refused:
            view(request, tournament.slug)
        reasons.append(str(refused.value))
    assert reasons[0] == reasons[1] and reasons[0].startswith("This tournament has no ARO list: the ")


def test_the_aro_spread_page_before_a_round_is_complete_says_when_the_chart_comes(anon_client, tournament):
    """No round complete: no chart and no table, the sentence instead; with round 1 in
    play the page refreshes itself like the ARO list."""
    from pairing.models import Tournament
    from tests.web.helpers import add_players
    from tests.web.public_data import add_round

    Tournament.objects.filter(pk=tournament.pk).update(public=True)
    html = anon_client.get(spread_url(tournament)).content.decode()
    assert "The chart appears once a round is complete." in html and "<svg class" not in html
    a, b = add_players(tournament, 2)
    add_round(tournament, 1, [(1, a, b, "")], status="published")
    html = anon_client.get(spread_url(tournament)).content.decode()
    assert "The chart appears once a round is complete." in html
    assert 'hx-trigger="every 30s"' in html and f'hx-get="{spread_url(tournament)}?since=' in html


def test_a_result_of_the_round_in_play_shows_on_the_card_before_the_round_is_complete(anon_client, tournament, six):
    """Round 4 in play: A-B already 1-0, C-D still playing.  A's card shows the win but
    the score column and the points stay as after round 3 (3) until the round is complete."""
    from pairing.models import GameResult
    from tests.web.public_data import add_round

    add_round(
        tournament, 4, [(1, six["A"], six["B"], GameResult.WHITE_WINS), (2, six["C"], six["D"], "")],
        status="published",
    )
    response = anon_client.get(card_url(tournament, 1))
    assert cells(response.content.decode(), "card")[-1] == ["4", "1", "White", "Blayer, B", "1900", "1", ""]
    assert response.context["card"].points == 3
    assert 'hx-trigger="every 30s"' in response.content.decode()
    assert cells(anon_client.get(card_url(tournament, 2)).content.decode(), "card")[-1][5] == "0"


@pytest.mark.parametrize("name", ["crosstable", "aro"])
def test_crosstable_and_aro_list_refresh_only_while_a_round_is_in_play(anon_client, tournament, six, name):
    from tests.web.public_data import add_round

    url = reverse(f"pairing:{name}", args=[tournament.slug])
    assert "hx-trigger" not in anon_client.get(url).content.decode()
    assert anon_client.get(url, headers={"HX-Request": "true"}).status_code == 286
    add_round(tournament, 4, [(1, six["A"], six["B"], "")], status="published")
    assert 'hx-trigger="every 30s"' in anon_client.get(url).content.decode()
    assert "hx-trigger" not in anon_client.get(url + "?round=2").content.decode()


@pytest.mark.parametrize(
    "value, places, shown",
    [(Decimal(3), 1, "3"), (Decimal("2.5"), 1, "2.5"), (Decimal("3.5"), 2, "3.50"), (Decimal("0.75"), 2, "0.75"),
     (Decimal("12.345"), 2, "12.35"), (Decimal("-1.5"), 1, "-1.5"), (1657, 2, "1657"), (Decimal("4.0"), 2, "4")],
)
def test_figures_are_shown_like_floatformat(value, places, shown):
    from django.template.defaultfilters import floatformat

    from pairing.reports.standings import figure

    assert figure(value, places) == shown == floatformat(value, -places)


@pytest.mark.parametrize("with_players", [False, True])
def test_a_new_public_tournament_has_every_page_before_round_1(anon_client, tournament, with_players):
    from tests.web.helpers import add_players

    tournament.public = True
    tournament.save(update_fields=["public"])
    if with_players:
        add_players(tournament, 5)
    pages = ["tournament", "standings", "standings_csv", "crosstable", "aro"]
    for name in pages:
        assert anon_client.get(reverse(f"pairing:{name}", args=[tournament.slug])).status_code == 200, name
    if with_players:
        response = anon_client.get(card_url(tournament, 1))
        assert response.status_code == 200 and "No rounds yet." in response.content.decode()
        assert response.context["card"].aro == 0 and "<dd id=\"tpr\">—</dd>" in response.content.decode()


def test_a_requested_zero_point_bye_is_z_and_a_round_before_a_late_entry_is_a_dash(anon_client, tournament):
    """Four players; round 1: A-B 1-0, C asked for a zero-point bye, D was not yet
    registered (late entry); round 2: A-D 1-0, B-C 1-0.  Both C's and D's round 1 give
    0 points, but the crosstable and the cards say which was which."""
    from pairing.models import ByeKind, GameResult, Player
    from tests.web.public_data import add_round

    tournament.public = True
    tournament.save(update_fields=["public"])
    for letter, rating in {"A": 2000, "B": 1900, "C": 1800}.items():
        Player.objects.create(tournament=tournament, name=f"{letter}layer", rating=rating)
    renumber(tournament)
    p = {pl.name[0]: pl for pl in tournament.player_set.all()}
    W = GameResult.WHITE_WINS
    add_round(tournament, 1, [(1, p["A"], p["B"], W)], byes=[(p["C"], ByeKind.ZERO)])
    p["D"] = Player.objects.create(tournament=tournament, name="Dlayer", rating=1700)
    renumber(tournament)
    add_round(tournament, 2, [(1, p["A"], p["D"], W), (2, p["B"], p["C"], W)])
    html = anon_client.get(reverse("pairing:crosstable", args=[tournament.slug])).content.decode()
    rows = {row[2]: row for row in cells(html, "crosstable") if len(row) > 2}
    assert [c for c in rows["Clayer"] if c in ("Z", "–")] == ["Z"]
    assert [c for c in rows["Dlayer"] if c in ("Z", "–")] == ["–"]
    card_c = anon_client.get(card_url(tournament, p["C"].tpn)).content.decode()
    card_d = anon_client.get(card_url(tournament, Player.objects.get(pk=p["D"].pk).tpn)).content.decode()
    assert "zero-point bye" in card_c and "not paired" not in card_c
    assert "not paired" in card_d and "zero-point bye" not in card_d


def test_a_player_without_a_game_has_no_aro_or_performance_rather_than_zero(anon_client, tournament, six):
    """A late entry after round 3 has played nobody: ARO, TPR and APRO have nothing to
    average ("—" on the page, empty in the CSV), while the others keep their figures;
    the late entry still ranks last (0 points)."""
    import csv

    from pairing.models import Player

    tournament.tiebreaks = "ARO, TPR, APRO, BH"
    tournament.save(update_fields=["tiebreaks"])
    Player.objects.create(tournament=tournament, name="Glayer, G", rating=1400)
    renumber(tournament)
    rows = cells(anon_client.get(reverse("pairing:standings", args=[tournament.slug])).content.decode(), "standings")
    assert rows[-1][3] == "Glayer, G" and rows[-1][7:10] == ["—", "—", "—"] and rows[-1][10] != "—"
    assert all("—" not in r[7:] for r in rows[:-1])
    csv_rows = list(csv.reader(anon_client.get(reverse("pairing:standings_csv", args=[tournament.slug])).content.decode().splitlines()))
    assert csv_rows[-1][3] == "Glayer, G" and csv_rows[-1][7:10] == ["", "", ""]
    assert all(r[7] for r in csv_rows[1:-1])


def test_a_name_a_spreadsheet_would_run_as_a_formula_is_text_in_the_csv(anon_client, tournament, six):
    import csv

    from pairing.models import Player

    Player.objects.filter(pk=six["A"].pk).update(name='=HYPERLINK("http://x")')
    text = anon_client.get(reverse("pairing:standings_csv", args=[tournament.slug])).content.decode()
    names = [r[3] for r in csv.reader(text.splitlines())][1:]
    assert "'=HYPERLINK(\"http://x\")" in names
    assert not any(n.startswith(("=", "+", "-", "@")) for n in names)


@pytest.mark.parametrize("name", ["a;=1+1;", "Kos;  +SUM(A1)", "x,@cmd", "x\t-2+3", 'a;"=1+1'])
def test_audit_finding_8_a_formula_after_a_separator_is_text_in_every_split(anon_client, tournament, six, name):
    """``a;=1+1;`` was written unquoted; a spreadsheet that splits on semicolons (the
    default list separator in much of Europe) made a cell ``=1+1`` of it."""
    import csv

    from pairing.models import Player

    Player.objects.filter(pk=six["A"].pk).update(name=name)
    text = anon_client.get(reverse("pairing:standings_csv", args=[tournament.slug])).content.decode()
    for separator in (",", ";", "\t", "|"):
        for row in csv.reader(text.splitlines(), delimiter=separator):
            for cell in row:
                assert cell.lstrip(' \t"')[:1] not in ("=", "+", "-", "@"), (separator, cell)


def test_rough_edge_12_the_aro_chart_says_what_a_line_and_a_dot_are(anon_client, tournament, six):
    html = anon_client.get(spread_url(tournament)).content.decode()
    assert 'class="axis-title"' in html and ">ARO</text>" in html
    legend = html.split('id="spread-legend"')[1].split("</p>")[0]
    assert "One line for each scoregroup after each round" in legend
    assert "upper dot is the" in legend and "highest ARO" in legend and "lower dot the lowest" in legend
