"""Manual-pairing sessions (VCL4THP Q62–69) through the views, as arbiters use them."""

from __future__ import annotations

import pytest
from django.urls import reverse

from pairing.engine.__main__ import main as cli
from pairing.models import Bye, ByeKind, Game, IntegrityEvent, Round
from pairing.services import interchange, manual
from pairing.services.rounds import PairingRefused, pair_next_round
from tests.web.helpers import (
    add_players,
    confirm,
    confirmation_page,
    hand_changed_round,
    open_session,
    play_round,
)


def step(client, t, number, op, **fields):
    return client.post(reverse("pairing:round_manual", args=[t.slug, number]), {"op": op, **fields})


def publish_post(client, t, number):
    return client.post(reverse("pairing:round_publish", args=[t.slug, number]), follow=True)


def round_page(client, t, number) -> str:
    return client.get(reverse("pairing:round", args=[t.slug, number])).content.decode()


def test_vcl_q65_changes_by_hand_happen_between_an_explicit_start_and_end(chief_client, tournament, players):
    pair_next_round(tournament)
    g = Game.objects.order_by("board").first()
    swap = reverse("pairing:round_swap", args=[tournament.slug, 1])
    page = chief_client.get(chief_client.post(swap, {"a": g.white_id, "b": g.black_id}).url).content.decode()
    assert "Start a manual-pairing session first" in page
    assert open_session(chief_client, tournament).status_code == 302
    page = round_page(chief_client, tournament, 1)
    assert "Manual-pairing session open." in page and 'id="publish-waits"' in page and 'id="publish"' not in page
    # a publish sent anyway (an old page) is refused: the next round cannot be paired while a session is open
    assert "has a manual-pairing session open: end it first" in publish_post(chief_client, tournament, 1).content.decode()
    assert Round.objects.get().is_draft
    chief_client.post(swap, {"a": g.white_id, "b": g.black_id})
    response = step(chief_client, tournament, 1, "end")
    if response.status_code == 200:
        confirm(chief_client, response)
    assert not Round.objects.get().manual_session
    publish_post(chief_client, tournament, 1)
    assert not Round.objects.get().is_draft


def test_vcl_q66_a_rematch_made_in_a_session_needs_a_level_3_confirmation(chief_client, tournament, players):
    first = play_round(tournament)
    g = first.games().first()
    draft = pair_next_round(tournament)
    open_session(chief_client, tournament, 2)
    for p in (g.white, g.black):
        step(chief_client, tournament, 2, "pool", player=p.pk)
    response = step(chief_client, tournament, 2, "pair", a=g.black.pk, b=g.white.pk)
    assert confirmation_page(response)["level"] == 3
    assert "have met before (rematch, C1)" in response.content.decode()
    assert not draft.game_set.filter(white=g.black, black=g.white).exists()
    confirm(chief_client, response)
    assert draft.game_set.filter(white=g.black, black=g.white).exists()


def test_vcl_q66_a_pab_to_a_player_who_had_one_needs_a_level_3_confirmation(chief_client, chief, tournament):
    add_players(tournament, 5)
    play_round(tournament)
    had = Bye.objects.get(kind=ByeKind.PAIRING, round_number=1).player
    draft = pair_next_round(tournament)
    open_session(chief_client, tournament, 2)
    step(chief_client, tournament, 2, "pool", player=draft.pab().player.pk)
    step(chief_client, tournament, 2, "pool", player=had.pk)
    response = step(chief_client, tournament, 2, "pab", player=had.pk)
    assert "is not eligible for the pairing-allocated bye" in response.content.decode()
    assert draft.pab() is None
    confirm(chief_client, response)
    assert draft.pab().player == had


def test_vcl_q67_both_players_against_their_due_colour_warns(chief_client, tournament, players):
    first = play_round(tournament)
    g1, g2 = list(first.games())[:2]
    due_black, due_white = g1.white, g2.black  # White in round 1, and Black
    pair_next_round(tournament)
    open_session(chief_client, tournament, 2)
    for p in (due_black, due_white):
        step(chief_client, tournament, 2, "pool", player=p.pk)
    response = step(chief_client, tournament, 2, "pair", a=due_black.pk, b=due_white.pk)
    assert "both get the colour opposite to their due" in response.content.decode()


def test_vcl_q68_q69_ending_a_session_compares_with_the_engine_and_records_the_difference(
    chief_client, tournament, players
):
    pair_next_round(tournament)
    open_session(chief_client, tournament)
    g = Game.objects.order_by("board").first()
    w, b = g.white, g.black
    response = chief_client.post(reverse("pairing:round_swap", args=[tournament.slug, 1]), {"a": w.pk, "b": b.pk})
    assert response.status_code == 302  # round 1: no rule broken, no question
    response = step(chief_client, tournament, 1, "end")
    page = response.content.decode()
    assert confirmation_page(response)["level"] == 3
    assert f"The engine&#x27;s pairing: {w.tpn}-{b.tpn}" in page and f"This round: {b.tpn}-{w.tpn}" in page
    assert Round.objects.get().manual_session  # nothing changed yet
    confirm(chief_client, response)
    event = IntegrityEvent.objects.get()
    assert event.line.startswith(f"MPA @ Round 1: {w.tpn}-{b.tpn} ") and f"=> {b.tpn}-{w.tpn} " in event.line


def test_a_session_that_changes_nothing_ends_without_a_question_or_an_event(chief_client, tournament, players):
    pair_next_round(tournament)
    open_session(chief_client, tournament)
    g = Game.objects.order_by("board").first()
    step(chief_client, tournament, 1, "pool", player=g.white.pk)
    assert "Still in the pool" in chief_client.get(step(chief_client, tournament, 1, "end").url).content.decode()
    step(chief_client, tournament, 1, "pair", a=g.white.pk, b=g.black.pk)
    response = step(chief_client, tournament, 1, "end")
    assert response.status_code == 302
    assert not IntegrityEvent.objects.exists()


def test_vcl_q63_a_round_with_no_legal_pairing_is_made_by_hand(chief_client, tournament):
    """Four players, five rounds: after three rounds everyone has met everyone; the engine
    refuses round 4 and the arbiter pairs it by hand."""
    add_players(tournament, 4)
    with pytest.raises(PairingRefused) as refused:
        for _ in range(5):
            play_round(tournament)
    assert refused.value.no_legal
    number = tournament.rounds_published() + 1
    response = chief_client.post(reverse("pairing:pair_next", args=[tournament.slug]), follow=True)
    assert "or pair the round by hand" in response.content.decode()
    response = chief_client.post(reverse("pairing:pair_by_hand", args=[tournament.slug]))
    rnd = Round.objects.get(number=number)
    assert rnd.is_draft and rnd.manual_session and not rnd.game_set.exists()
    p1, p2, p3, p4 = tournament.player_set.order_by("tpn")
    assert [p.pk for p in manual.pool(rnd)] == [p1.pk, p2.pk, p3.pk, p4.pk]
    for white, black in ((p1, p2), (p3, p4)):
        confirm(chief_client, step(chief_client, tournament, number, "pair", a=white.pk, b=black.pk))
    response = step(chief_client, tournament, number, "end")
    assert "The engine finds no legal pairing for this round" in response.content.decode()
    confirm(chief_client, response)
    publish_post(chief_client, tournament, number)
    rnd.refresh_from_db()
    assert not rnd.is_draft
    assert IntegrityEvent.objects.get().line == f"MPA @ Round {number}: no legal pairing => 1-2 3-4"


def test_vcl_q62_a_notice_before_round_1_when_the_rounds_cannot_be_paired(chief_client, tournament):
    add_players(tournament, 4)  # the tournament has 5 rounds
    url = reverse("pairing:tournament", args=[tournament.slug])
    page = chief_client.get(url).content.decode()
    assert "With 4 players at most 3 rounds can be paired without two players meeting twice" in page
    tournament.rounds = 3
    tournament.save()
    assert 'id="too-many-rounds"' not in chief_client.get(url).content.decode()


def test_a_deputy_runs_a_session_and_a_stranger_cannot(deputy_client, stranger_client, anon_client, tournament, players):
    pair_next_round(tournament)
    assert step(stranger_client, tournament, 1, "start").status_code == 404
    assert step(anon_client, tournament, 1, "start").status_code == 302
    assert not Round.objects.get().manual_session
    step(deputy_client, tournament, 1, "start")
    assert Round.objects.get().manual_session


def test_the_copy_of_the_report_carries_the_mpa_line_and_the_engines_checker_reports_the_difference(
    tournament, players, tmp_path, capsys
):
    play_round(tournament)
    g = hand_changed_round(tournament)
    copy = interchange.export_trf(tournament, integrity=True)
    line = IntegrityEvent.objects.get().report_line
    assert line in copy.splitlines()
    path = tmp_path / "copy.trf"
    path.write_text(copy)
    assert cli(["--dubov", "-c", str(path)]) == 4
    out = capsys.readouterr().out
    assert "round 2" in out.lower() and f"engine {g.white.tpn}-{g.black.tpn}" in out


def test_past_the_list_limit_a_session_names_players_by_pairing_number(chief_client, tournament, players, monkeypatch):
    """In a big field (here the limit lowered to 5 for 10 players) the session's forms take
    a pairing number instead of listing every player: the page has no list, a swap by
    numbers acts on those players, an unknown number is refused, and a form of the
    other kind (a player's key, as an older page sends it) changes nothing."""
    from pairing.forms import rounds as round_forms

    monkeypatch.setattr(round_forms, "LIST_LIMIT", 5)
    pair_next_round(tournament)
    open_session(chief_client, tournament)
    page = round_page(chief_client, tournament, 1)
    swap_form = page.split('id="swap-form"', 1)[1].split("</form>", 1)[0]
    assert "<select" not in swap_form
    assert 'name="a_no"' in swap_form and 'name="b_no"' in swap_form and 'placeholder="pairing number"' in swap_form
    assert 'name="player_no"' in page.split('id="unpair-form"', 1)[1].split("</form>", 1)[0]
    g = Game.objects.order_by("board").first()
    white, black = g.white, g.black
    before = Round.objects.get().board_list()
    swap = reverse("pairing:round_swap", args=[tournament.slug, 1])
    # an unknown number, and a form of the list kind: refused, nothing changed
    page = chief_client.post(swap, {"a_no": 99, "b_no": white.tpn}, follow=True).content.decode()
    assert "No player has pairing number 99." in page
    chief_client.post(swap, {"a": white.pk, "b": black.pk}, follow=True)
    assert Round.objects.get().board_list() == before
    chief_client.post(swap, {"a_no": white.tpn, "b_no": black.tpn}, follow=True)
    g.refresh_from_db()
    assert (g.white_id, g.black_id) == (black.pk, white.pk)  # the two players of one board swap colours
    # the pool's forms too: the board to the pool by number, then paired again by numbers
    step(chief_client, tournament, 1, "pool", player_no=white.tpn)
    assert not Game.objects.filter(pk=g.pk).exists()
    step(chief_client, tournament, 1, "pair", a_no=white.tpn, b_no=black.tpn)
    assert Game.objects.filter(white=white, black=black).exists()
