"""What a chief arbiter does with ties and with the rules of the tie-break list (C.07 of
2026; VCL4THP Q203-216), through the pages: the drawing of lots, ordering tied players by
hand, external values, unrated players in rating-based tie-breaks, events over 30 days.
Figures on the six-player tournament of :func:`tests.web.public_data.six_player_tournament`
(A 2000 ... F 1500; after 3 rounds A 3, B 2, D 1½, F 1½, E 1, C ½)."""

from __future__ import annotations

import re

import pytest
from django.urls import reverse

from pairing.models import AuditEntry, RoundRating, Tournament, bump_revision
from tests.web.helpers import shown_version
from tests.web.public_data import six_player_tournament
from tests.web.test_public_pages import cells
from tests.web.test_tournament_setup import GOOD


@pytest.fixture
def six(tournament):
    tournament.public = True
    tournament.save(update_fields=["public"])
    return six_player_tournament(tournament)


def standings_rows(client, t) -> dict[str, list[str]]:
    html = client.get(reverse("pairing:standings", args=[t.slug])).content.decode()
    return {row[3]: row for row in cells(html, "standings")}


def ties_url(t) -> str:
    return reverse("pairing:tie_details", args=[t.slug])


def set_fields(t, **values) -> Tournament:
    """Settings written straight into the row: a change of state, so the revision moves
    as the settings form's save moves it (the public pages are kept per revision)."""
    Tournament.objects.filter(pk=t.pk).update(**values)
    bump_revision(t.pk)
    return Tournament.objects.get(pk=t.pk)


def new_tournament(client, **changes) -> Tournament:
    response = client.post(reverse("pairing:tournament_create"), {**GOOD, **changes})
    assert response.status_code == 302, response.content.decode()[:3000]
    return Tournament.objects.get(name=changes.get("name", GOOD["name"]))


def settings_post(client, t, **changes):
    return client.post(reverse("pairing:settings", args=[t.slug]),
                       {**GOOD, "slug": t.slug, "seen": shown_version(t), **changes})


# ---------------------------------------------------------------- which text


def test_c07_2026_the_start_date_chooses_the_text_and_the_settings_page_says_which(chief_client):
    """A tournament starting on 1 October 2026 follows the 2026 text; one starting on
    28 February 2026 the 2023 text; the arbiter may name the text instead."""
    later = new_tournament(chief_client)
    earlier = new_tournament(chief_client, name="Winter Open", start_date="2026-02-20", end_date="2026-02-28")
    assert (later.effective_tiebreak_rules(), earlier.effective_tiebreak_rules()) == (2026, 2023)
    page = chief_client.get(reverse("pairing:settings", args=[earlier.slug])).content.decode()
    assert "Now: the 2023 text." in page
    settings_post(chief_client, earlier, start_date="2026-02-20", end_date="2026-02-28", tiebreak_rules="2026")
    assert Tournament.objects.get(pk=earlier.pk).effective_tiebreak_rules() == 2026


# ---------------------------------------------------------------- ties at the end (Q203-206)


def test_vcl_q203_tied_players_share_a_place_by_default(anon_client, tournament, six):
    """Points only: D and F are tied on 1½ and share 3rd place."""
    set_fields(tournament, tiebreaks="")
    rows = standings_rows(anon_client, tournament)
    assert rows["Dlayer, D"][0] == rows["Flayer, F"][0] == "3"


def test_vcl_q204_q206_a_drawing_of_lots_orders_the_tied_and_gives_the_same_order_every_time(
    chief_client, anon_client, tournament, six
):
    """Choosing the drawing of lots draws one seed, recorded in the audit trail; the
    tied D and F then have places 3 and 4, the same on every later page (Q206: a repeated
    drawing does not give a different result), and the seed is kept when the settings are
    saved again."""
    created = new_tournament(chief_client, final_ties="lots")
    assert created.lots_seed
    assert AuditEntry.objects.filter(tournament=created, detail__contains=f"seed {created.lots_seed} drawn").count() == 1
    settings_post(chief_client, created, final_ties="lots", place="Kranj")
    assert Tournament.objects.get(pk=created.pk).place == "Kranj"
    assert Tournament.objects.get(pk=created.pk).lots_seed == created.lots_seed  # drawn once
    # the six-player tournament, points only: D and F tied on 1½
    t = set_fields(tournament, tiebreaks="", final_ties="lots", lots_seed=created.lots_seed)
    first = standings_rows(anon_client, t)
    assert sorted([first["Dlayer, D"][0], first["Flayer, F"][0]]) == ["3", "4"]
    for _ in range(3):
        again = standings_rows(anon_client, t)
        assert (again["Dlayer, D"][0], again["Flayer, F"][0]) == (first["Dlayer, D"][0], first["Flayer, F"][0])


def test_vcl_q204_each_seed_is_a_fair_draw(tournament, six):
    """Over many seeds each of the two tied players comes first about half the time."""
    from pairing.reports.standings import standings_table

    t = set_fields(tournament, tiebreaks="", final_ties="lots")
    firsts = 0
    for seed in range(1, 201):
        t.lots_seed = seed
        rows = standings_table(t).rows
        firsts += next(r for r in rows if r.rank == 3).player.name.startswith("D")
    assert 70 <= firsts <= 130


def test_vcl_q205_the_chief_arbiter_orders_tied_players_by_hand(chief_client, anon_client, tournament, six):
    """The ties page lists D and F (tied on 1½ with points only); the chief arbiter puts
    F first: F 3rd, D 4th in the standings, and the audit trail says so."""
    set_fields(tournament, tiebreaks="")
    page = chief_client.get(ties_url(tournament)).content.decode()
    assert "Tied for place 3" in page
    d, f = six["D"], six["F"]
    response = chief_client.post(ties_url(tournament), {"section": "order", f"rank-{f.pk}": "1", f"rank-{d.pk}": "2"})
    assert response.status_code == 302
    rows = standings_rows(anon_client, tournament)
    assert (rows["Flayer, F"][0], rows["Dlayer, D"][0]) == ("3", "4")
    assert AuditEntry.objects.filter(detail="Order among tied players: Flayer, F placed 1.").exists()


def test_vcl_q205_the_same_place_twice_is_refused_and_nothing_changes(chief_client, tournament, six):
    set_fields(tournament, tiebreaks="")
    d, f = six["D"], six["F"]
    response = chief_client.post(ties_url(tournament), {"section": "order", f"rank-{f.pk}": "1", f"rank-{d.pk}": "1"})
    assert response.status_code == 400
    assert "same place" in response.content.decode()
    assert not tournament.player_set.exclude(hand_rank=None).exists()
    # a player who is not tied cannot be placed by hand
    response = chief_client.post(ties_url(tournament), {"section": "order", f"rank-{six['A'].pk}": "1"})
    assert response.status_code == 400 and not tournament.player_set.exclude(hand_rank=None).exists()


@pytest.mark.parametrize("section", ["order", "external"])
def test_only_the_chief_arbiter_orders_ties_or_types_external_values(
    deputy_client, stranger_client, anon_client, tournament, six, section
):
    set_fields(tournament, tiebreaks="EXT")
    data = {"section": section, f"rank-{six['D'].pk}": "1", f"ext-{six['D'].pk}": "5"}
    assert deputy_client.get(ties_url(tournament)).status_code == 200
    assert deputy_client.post(ties_url(tournament), data).status_code == 403
    assert stranger_client.post(ties_url(tournament), data).status_code == 403  # public tournament
    assert anon_client.post(ties_url(tournament), data).status_code == 302  # to the login page
    assert not tournament.player_set.exclude(hand_rank=None).exists()
    assert not tournament.player_set.exclude(external_tiebreak=None).exists()


# ---------------------------------------------------------------- external values (Q207)


def test_vcl_q207_externally_computed_values_are_typed_in_and_rank(chief_client, anon_client, tournament, six):
    """Tie-break list 'EXT': the chief arbiter types 2.5 for D and 7 for F; F ranks above
    D and the column shows the values."""
    set_fields(tournament, tiebreaks="EXT")
    d, f = six["D"], six["F"]
    page = chief_client.get(ties_url(tournament)).content.decode()
    assert 'id="external-values"' in page
    response = chief_client.post(ties_url(tournament), {"section": "external", f"ext-{d.pk}": "2,5", f"ext-{f.pk}": "7"})
    assert response.status_code == 302
    rows = standings_rows(anon_client, tournament)
    assert (rows["Flayer, F"][0], rows["Dlayer, D"][0]) == ("3", "4")
    assert (rows["Flayer, F"][7], rows["Dlayer, D"][7]) == ("7.0", "2.5")


def test_vcl_q207_a_value_that_is_not_a_number_is_refused_whole(chief_client, tournament, six):
    set_fields(tournament, tiebreaks="EXT")
    d, f = six["D"], six["F"]
    response = chief_client.post(ties_url(tournament), {"section": "external", f"ext-{d.pk}": "3", f"ext-{f.pk}": "lots"})
    assert response.status_code == 400 and "is not a number" in response.content.decode()
    assert not tournament.player_set.exclude(external_tiebreak=None).exists()


# ---------------------------------------------------------------- unrated players (Q208-209)


def test_vcl_q208_without_a_rule_unrated_players_drop_the_rating_tie_breaks(anon_client, tournament, six):
    """C is unrated (a provisional 1800 for pairing).  With ARO listed and no rule for the
    unrated, ARO is dropped and the page says why: the provisional rating never counts."""
    set_fields(tournament, tiebreaks="ARO, BH")
    six["C"].rating_provisional = True
    six["C"].save()
    html = anon_client.get(reverse("pairing:standings", args=[tournament.slug])).content.decode()
    assert 'id="dropped-tiebreaks"' in html and "ARO left out" in html
    assert re.search(r"<th>Pts</th><th>BH</th>", html)


@pytest.mark.parametrize(("method", "rating", "aro"), [("fixed", 1000, "1533"), ("lowest", None, "1700")])
def test_vcl_q209_unrated_players_at_a_fixed_rating_or_at_the_lowest_in_the_field(
    anon_client, tournament, six, method, rating, aro
):
    """A met D (1700), B (1900) and C (unrated).  Fixed 1000: (1700 + 1900 + 1000) / 3 =
    1533.3 -> 1533.  Lowest in the field, F's 1500: (1700 + 1900 + 1500) / 3 = 1700."""
    set_fields(tournament, tiebreaks="ARO", unrated_tiebreaks=method, unrated_tiebreak_rating=rating)
    six["C"].rating_provisional = True
    six["C"].save()
    rows = standings_rows(anon_client, tournament)
    assert rows["Alayer, A"][7] == aro


def test_vcl_q209_a_fixed_rating_needs_the_rating(chief_client):
    t = new_tournament(chief_client)
    response = settings_post(chief_client, t, unrated_tiebreaks="fixed", unrated_tiebreak_rating="")
    assert response.status_code == 200
    assert "Give the rating unrated players count at." in response.content.decode()
    assert Tournament.objects.get(pk=t.pk).unrated_tiebreaks == "drop"
    settings_post(chief_client, t, unrated_tiebreaks="fixed", unrated_tiebreak_rating="1200")
    t = Tournament.objects.get(pk=t.pk)
    assert (t.unrated_tiebreaks, t.unrated_tiebreak_rating) == ("fixed", 1200)


def test_the_rules_of_the_list_are_locked_with_it_in_fide_mode_after_round_1(chief_client, tournament, six):
    before = Tournament.objects.get(pk=tournament.pk)
    settings_post(chief_client, before, start_date="", end_date="", unrated_tiebreaks="lowest", final_ties="lots")
    after = Tournament.objects.get(pk=tournament.pk)
    assert (after.unrated_tiebreaks, after.final_ties) == ("drop", "share")


# ---------------------------------------------------------------- events over 30 days (Q210-216)


def test_vcl_q210_q211_a_long_event_is_flagged_suggested_and_advised_against_rating_tie_breaks(chief_client):
    """Dates over 30 days apart: the settings page suggests the flag; with the flag on and
    ARO in the list, the page advises against rating-based tie-breaks (C.07 10)."""
    t = new_tournament(chief_client, start_date="2026-09-01", end_date="2026-11-20", tiebreaks="BH, ARO")
    page = chief_client.get(reverse("pairing:settings", args=[t.slug])).content.decode()
    assert "Suggested: the tournament&#x27;s dates span more than 30 days." in page
    response = settings_post(chief_client, t, start_date="2026-09-01", end_date="2026-11-20", tiebreaks="BH, ARO",
                             long_event="on")
    assert response.status_code == 302
    follow = chief_client.get(response["Location"]).content.decode()
    assert "advise against rating-based tie-breaks (ARO)" in follow
    page = chief_client.get(reverse("pairing:settings", args=[t.slug])).content.decode()
    assert 'id="long-event-advice"' in page


def test_vcl_q216_each_rounds_rating_needs_the_long_event_flag(chief_client):
    t = new_tournament(chief_client)
    response = settings_post(chief_client, t, ratings_per_round="on")
    assert "tick &#x27;event over 30 days&#x27; too" in response.content.decode()
    assert not Tournament.objects.get(pk=t.pk).ratings_per_round


def test_vcl_q212_q216_ratings_per_round_first_rating_by_default_or_each_rounds(
    chief_client, deputy_client, anon_client, tournament, six
):
    """C is 1800 and rated 2100 from round 3.  A met D (1700) in round 1, B (1900) in
    round 2 and C in round 3.  First rating (Q215, the default): ARO (1700 + 1900 + 1800)
    / 3 = 1800; each round's rating (Q214, Q216): (1700 + 1900 + 2100) / 3 = 1900.  A
    deputy may type the ratings (data entry, like a player's rating)."""
    t = set_fields(tournament, tiebreaks="ARO", long_event=True)
    page = deputy_client.get(ties_url(t)).content.decode()
    assert "From round 3" in page
    c = six["C"]
    response = deputy_client.post(ties_url(t), {"section": "ratings", f"rr-{c.pk}-3": "2100"})
    assert response.status_code == 302
    assert RoundRating.objects.get(player=c).round_number == 3
    assert standings_rows(anon_client, t)["Alayer, A"][7] == "1800"
    set_fields(t, ratings_per_round=True)
    assert standings_rows(anon_client, t)["Alayer, A"][7] == "1900"
    # clearing the cell removes it
    deputy_client.post(ties_url(t), {"section": "ratings", f"rr-{c.pk}-3": ""})
    assert not RoundRating.objects.exists()


def test_vcl_q212_a_rating_per_round_out_of_range_is_refused_whole(chief_client, tournament, six):
    t = set_fields(tournament, long_event=True)
    c, d = six["C"], six["D"]
    response = chief_client.post(ties_url(t), {"section": "ratings", f"rr-{c.pk}-2": "2000", f"rr-{d.pk}-3": "4000"})
    assert response.status_code == 400 and "not a rating" in response.content.decode()
    assert not RoundRating.objects.exists()


def test_no_ratings_per_round_for_a_short_event(chief_client, tournament, six):
    response = chief_client.post(ties_url(tournament), {"section": "ratings", f"rr-{six['C'].pk}-2": "2000"})
    assert response.status_code == 400 and not RoundRating.objects.exists()


def test_a_player_without_a_game_shows_no_rating_figure_apro_and_appo_included(anon_client, tournament, six):
    """Issue 19: a player who has played no game has no ARO, TPR, APRO, PTP or APPO: the
    table shows '—' for all five (APPO showed 0)."""
    from pairing.models import Player
    from pairing.services.numbering import renumber

    Player.objects.create(tournament=tournament, name="Glayer, G", rating=1400)
    renumber(tournament)
    set_fields(tournament, tiebreaks="ARO, TPR, APRO, PTP, APPO")
    rows = standings_rows(anon_client, tournament)
    assert rows["Glayer, G"][7:12] == ["—"] * 5
    assert "—" not in rows["Alayer, A"][7:12]


def test_vcl_q199_a_real_tpr_and_ptp_of_0_show_0_and_an_undefined_aob_shows_a_dash(anon_client, tournament):
    """Issue 35 (the audit of the tie-breaks' display): D (1000) lost both games to
    players rated 800, so ARO 800, TPR 800 - 800 = 0 and PTP (a zero score: the lowest
    opponent - 800) 0 -- real values, shown 0, not '—'.  E has played no game: AOB, TPR
    and PTP are undefined there, shown '—' (AOB showed 0)."""
    from pairing.models import GameResult, Player
    from pairing.services.numbering import renumber
    from tests.web.public_data import add_round
    from tests.web.test_public_pages import card_url

    tournament.public = True
    tournament.save(update_fields=["public"])
    for name, rating in (("Alayer, A", 2000), ("Blayer, B", 800), ("Clayer, C", 800), ("Dlayer, D", 1000),
                         ("Elayer, E", 900)):
        Player.objects.create(tournament=tournament, name=name, rating=rating)
    renumber(tournament)
    p = {pl.name[0]: pl for pl in tournament.player_set.all()}
    W, B = GameResult.WHITE_WINS, GameResult.BLACK_WINS
    add_round(tournament, 1, [(1, p["A"], p["B"], W), (2, p["D"], p["C"], B)])
    add_round(tournament, 2, [(1, p["C"], p["A"], B), (2, p["B"], p["D"], W)])
    set_fields(tournament, tiebreaks="TPR, PTP, AOB")
    rows = standings_rows(anon_client, tournament)
    assert rows["Dlayer, D"][7:10] == ["0", "0", "2"]  # TPR, PTP, AOB (B's and C's Buchholz: 2 each)
    assert rows["Elayer, E"][7:10] == ["—", "—", "—"]
    d_card = anon_client.get(card_url(tournament, p["D"].tpn)).content.decode()
    e_card = anon_client.get(card_url(tournament, p["E"].tpn)).content.decode()
    assert '<dd id="tpr">0</dd>' in d_card and '<dd id="tpr">—</dd>' in e_card
