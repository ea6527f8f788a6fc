"""FIDE mode (VCL4THP Q40–46), its locks (Q57, Q74–88, Q200), the window for past
results (Q189–193), forbidden pairs (Q194–196), pairing-integrity events and their undo
(Q112–115), and the warning levels (Q218–221), through the views as arbiters use them."""

from __future__ import annotations

import pytest
from django.urls import reverse

from pairing.models import ForbiddenPair, Game, GameResult, IntegrityEvent, Tournament
from pairing.services import interchange
from pairing.services.rounds import pair_next_round, publish
from tests.web.helpers import (
    confirm,
    confirmation_page,
    out_of_fide_mode,
    play_round,
    rating_file_comments,
    shown_version,
)
from tests.web.test_tournament_setup import GOOD


def settings_post(client, t, **changes):
    return client.post(reverse("pairing:settings", args=[t.slug]), {**GOOD, "slug": t.slug, "seen": shown_version(t), **changes})


def fide_url(t, name="fide_mode", *args):
    return reverse(f"pairing:{name}", args=[t.slug, *args])


def result_post(client, game, result, **headers):
    r = game.round
    return client.post(
        reverse("pairing:game_result", args=[r.tournament.slug, r.number, game.pk]),
        {"result": result, "expected": game.result}, **headers,
    )


def board(t, number, board_no=1) -> Game:
    return Game.objects.select_related("round", "white", "black").get(round__tournament=t, round__number=number, board=board_no)


# ------------------------------------------------------------------ FIDE mode itself


def test_vcl_q40_a_new_tournament_is_in_fide_mode(chief_client):
    chief_client.post(reverse("pairing:tournament_create"), GOOD)
    t = Tournament.objects.get()
    assert t.fide_mode and t.fide_mode_left_round is None
    page = chief_client.get(reverse("pairing:tournament", args=[t.slug])).content.decode()
    assert 'id="fide-mode-link">FIDE mode</a>' in page
    assert "Not in FIDE mode" not in page


def test_vcl_q43_leaving_fide_mode_asks_twice_and_a_post_short_of_that_changes_nothing(chief_client, tournament, players):
    play_round(tournament)
    response = chief_client.post(fide_url(tournament, "fide_mode_leave"))
    first = confirmation_page(response)
    assert first["level"] == 4 and not first["second"]
    assert "cannot go back" in response.content.decode()
    tournament.refresh_from_db()
    assert tournament.fide_mode
    # one confirmation of a Level-4 warning is not enough: the second question comes
    response = chief_client.post(first["action"], first["fields"])
    second = confirmation_page(response)
    assert second["second"]
    tournament.refresh_from_db()
    assert tournament.fide_mode
    response = chief_client.post(second["action"], second["fields"])
    assert response.status_code == 302
    tournament.refresh_from_db()
    assert (tournament.fide_mode, tournament.fide_mode_left_round) == (False, 1)
    assert [e.report_line for e in IntegrityEvent.objects.filter(tournament=tournament)] == [
        "### FIDE mode exited @ Round 1"
    ]


def test_vcl_q44_the_copy_of_the_report_says_when_fide_mode_was_left_and_the_file_for_rating_does_not(
    chief_client, chief, tournament, players
):
    play_round(tournament)
    play_round(tournament)
    confirm(chief_client, chief_client.post(fide_url(tournament, "fide_mode_leave")))
    copy = chief_client.get(reverse("pairing:trf_export", args=[tournament.slug]) + "?copy=1").content.decode()
    rating = chief_client.get(reverse("pairing:trf_export", args=[tournament.slug])).content.decode()
    assert "### FIDE mode exited @ Round 2" in copy.splitlines()
    assert [x for x in rating.splitlines() if x.startswith("###")] == rating_file_comments(2)


def test_vcl_q45_fide_mode_cannot_be_entered_again(chief_client, tournament, players):
    out_of_fide_mode(tournament, 0)
    response = settings_post(chief_client, tournament, fide_mode="on")
    assert response.status_code == 302
    tournament.refresh_from_db()
    assert not tournament.fide_mode
    page = chief_client.get(fide_url(tournament)).content.decode()
    assert "Leave FIDE mode" not in page and "This cannot be undone" in page


@pytest.mark.parametrize("name", ["tournament", "players", "standings", "crosstable", "aro", "settings", "fide_mode"])
def test_vcl_q46_every_page_of_a_tournament_out_of_fide_mode_says_so(chief_client, tournament, players, name):
    in_mode = chief_client.get(reverse(f"pairing:{name}", args=[tournament.slug])).content.decode()
    assert 'id="not-fide-mode"' not in in_mode
    out_of_fide_mode(tournament, 0)
    page = chief_client.get(reverse(f"pairing:{name}", args=[tournament.slug])).content.decode()
    assert 'id="not-fide-mode"' in page and "Not in FIDE mode since round 0" in page


def test_vcl_q46_the_public_pages_say_so_too(anon_client, tournament, players):
    Tournament.objects.filter(pk=tournament.pk).update(public=True)
    out_of_fide_mode(tournament, 0)
    assert 'id="not-fide-mode"' in anon_client.get(reverse("pairing:standings", args=[tournament.slug])).content.decode()


def test_only_the_chief_arbiter_leaves_fide_mode(deputy_client, stranger_client, anon_client, tournament):
    assert deputy_client.post(fide_url(tournament, "fide_mode_leave")).status_code == 403
    assert stranger_client.post(fide_url(tournament, "fide_mode_leave")).status_code == 404
    assert anon_client.post(fide_url(tournament, "fide_mode_leave")).status_code == 302  # to the login page
    tournament.refresh_from_db()
    assert tournament.fide_mode
    page = deputy_client.get(fide_url(tournament)).content.decode()
    assert "Only the chief arbiter can take the tournament out of FIDE mode" in page


def test_a_confirmation_confirms_only_the_act_it_was_asked_for(chief_client, deputy_client, tournament, players):
    """The signed token is bound to the fields, the address and the arbiter: changing the
    result after confirming, or another arbiter replaying it, asks again."""
    play_round(tournament)
    play_round(tournament)
    game = board(tournament, 1)
    page = confirmation_page(result_post(chief_client, game, GameResult.BLACK_WINS))
    tampered = {**page["fields"], "result": [GameResult.DRAW]}
    assert confirmation_page(chief_client.post(page["action"], tampered))["level"] == 3
    assert confirmation_page(deputy_client.post(page["action"], page["fields"]))["level"] == 3
    game.refresh_from_db()
    assert game.result == GameResult.WHITE_WINS


# ------------------------------------------------------------------ settings


def test_vcl_q57_rounds_locked_after_round_1(chief_client, tournament, players):
    assert settings_post(chief_client, tournament, rounds="6").status_code == 302  # before round 1: free
    play_round(tournament)
    page = chief_client.get(reverse("pairing:settings", args=[tournament.slug])).content.decode()
    assert "Locked: the tournament is in FIDE mode and round 1 has been published." in page
    settings_post(chief_client, tournament, rounds="9", place="Koper")
    tournament.refresh_from_db()
    assert (tournament.rounds, tournament.place) == (6, "Koper")  # the other settings still save


def test_vcl_q75_q85_points_and_pab_locked_after_round_1(chief_client, tournament, players):
    play_round(tournament)
    settings_post(chief_client, tournament, point_win="3", point_draw="1", point_pab="0", point_half_bye="1")
    tournament.refresh_from_db()
    assert (tournament.point_win, tournament.point_draw, tournament.point_pab, tournament.point_half_bye) == (1, 0.5, 1, 0.5)


def test_vcl_q200_tiebreaks_locked_after_round_1(chief_client, tournament, players):
    play_round(tournament)
    settings_post(chief_client, tournament, tiebreaks="SB, DE")
    tournament.refresh_from_db()
    assert tournament.tiebreaks == "BH-C1, BH, SB"
    assert not IntegrityEvent.objects.exists()


def test_vcl_q74_two_draws_cannot_be_worth_more_than_a_win_and_a_loss(chief_client, tournament):
    response = settings_post(chief_client, tournament, point_draw="0.9")
    assert response.status_code == 200
    assert "two draws cannot be worth more than a win and a loss" in response.content.decode()
    tournament.refresh_from_db()
    assert tournament.point_draw == 0.5


def test_vcl_q81_a_pab_cannot_be_worth_more_than_a_win(chief_client, tournament):
    response = settings_post(chief_client, tournament, point_pab="1.5")
    assert "Between 0 and the points for a win." in response.content.decode()
    tournament.refresh_from_db()
    assert tournament.point_pab == 1


def test_vcl_q83_under_1_half_0_scoring_the_pab_is_1_half_or_0(chief_client, tournament):
    response = settings_post(chief_client, tournament, point_pab="0.3")
    assert "with 1-½-0 scoring, the PAB is worth 1, ½ or 0" in response.content.decode()
    assert settings_post(chief_client, tournament, point_pab="0.5").status_code == 302
    # other point systems take any PAB up to a win (Q84)
    assert settings_post(chief_client, tournament, point_win="3", point_draw="1", point_pab="2",
                         point_half_bye="1").status_code == 302


def test_vcl_q76_q86_outside_fide_mode_a_change_rechecks_the_rounds_and_shows_what_now_differs(
    chief_client, tournament, players
):
    """Round 1 as stored differs from the engine's (board 1 with the colours reversed, as
    a hand change would make it): changing the PAB re-pairs round 1 and says so at Level 3."""
    play_round(tournament)
    g1 = board(tournament, 1, 1)
    Game.objects.filter(pk=g1.pk).update(white=g1.black, black=g1.white)
    out_of_fide_mode(tournament, 1)
    response = settings_post(chief_client, tournament, point_pab="0.5", rounds="5")
    page = response.content.decode()
    assert confirmation_page(response)["level"] == 3
    assert "Round 1 would be paired differently now" in page
    w, b = f"{g1.white.name} (No {g1.white.tpn})", f"{g1.black.name} (No {g1.black.tpn})"
    assert f"{w} – {b}: the engine gives White to {w}, the round to {b}." in page
    confirm(chief_client, response)
    tournament.refresh_from_db()
    assert tournament.point_pab == 0.5
    event = IntegrityEvent.objects.get(tournament=tournament)
    assert event.line.endswith("; rounds the engine now pairs differently: 1")


# ------------------------------------------------------------------ forbidden pairs


def forbid(client, t, a, b):
    return client.post(reverse("pairing:forbidden_pairs", args=[t.slug]), {"a": a.pk, "b": b.pk})


def test_vcl_q195_forbidden_pairs_are_set_before_round_1_without_a_question(chief_client, tournament, players):
    assert forbid(chief_client, tournament, players[0], players[5]).status_code == 302
    assert ForbiddenPair.objects.count() == 1
    assert not IntegrityEvent.objects.exists()


def test_vcl_q196_a_forbidden_pair_after_round_1_needs_level_4_and_leaves_fide_mode(chief_client, tournament, players):
    play_round(tournament)
    response = forbid(chief_client, tournament, players[0], players[5])
    assert confirmation_page(response)["level"] == 4
    assert not ForbiddenPair.objects.exists()
    confirm(chief_client, response)
    tournament.refresh_from_db()
    assert ForbiddenPair.objects.count() == 1 and not tournament.fide_mode
    lines = [e.report_line for e in IntegrityEvent.objects.filter(tournament=tournament)]
    assert lines == ["### FIDE mode exited @ Round 1", "### Forbidden pair added: 1-6 @ Round 1"]


def test_vcl_q196_a_deputy_cannot_take_the_tournament_out_of_fide_mode_with_a_forbidden_pair(
    deputy_client, tournament, players
):
    play_round(tournament)
    response = forbid(deputy_client, tournament, players[0], players[5])
    assert "Only the chief arbiter can take the tournament out of FIDE mode" in response.content.decode()
    assert not ForbiddenPair.objects.exists()
    tournament.refresh_from_db()
    assert tournament.fide_mode


# ------------------------------------------------------------------ past results


def test_vcl_q189_q191_results_of_rounds_before_the_second_to_last_are_closed(chief_client, tournament, players):
    for _ in range(3):
        play_round(tournament)
    game = board(tournament, 1)
    response = result_post(chief_client, game, GameResult.BLACK_WINS)
    assert response.status_code == 302
    game.refresh_from_db()
    assert game.result == GameResult.WHITE_WINS
    page = chief_client.get(reverse("pairing:round", args=[tournament.slug, 1])).content.decode()
    assert "Rated as…" in page and 'class="result-buttons"' not in page


def test_vcl_q190_the_round_before_the_last_can_be_corrected_at_level_3_and_it_is_an_event(
    chief_client, tournament, players
):
    play_round(tournament)
    play_round(tournament)
    game = board(tournament, 1, 2)
    response = result_post(chief_client, game, GameResult.DRAW)
    assert confirmation_page(response)["level"] == 3
    assert "Round 2 was paired on the old result" in response.content.decode()
    game.refresh_from_db()
    assert game.result == GameResult.WHITE_WINS
    confirm(chief_client, response)
    game.refresh_from_db()
    assert game.result == GameResult.DRAW
    (event,) = IntegrityEvent.objects.filter(tournament=tournament)
    assert event.report_line == f"### Result corrected @ Round 1: board 2 {game.white.tpn}-{game.black.tpn} 1-0 => 1/2-1/2"
    # the last round itself changes freely
    last = board(tournament, 2)
    assert result_post(chief_client, last, GameResult.DRAW).status_code == 302
    last.refresh_from_db()
    assert last.result == GameResult.DRAW and IntegrityEvent.objects.count() == 1


def test_a_correction_needing_a_confirmation_from_the_keyboard_offers_the_confirmation_in_the_row(
    chief_client, tournament, players
):
    play_round(tournament)
    play_round(tournament)
    game = board(tournament, 1)
    response = result_post(chief_client, game, GameResult.DRAW, HTTP_HX_REQUEST="true")
    row = response.content.decode()
    assert response.status_code == 200
    assert "needs a confirmation" in row and "Review and confirm…" in row
    game.refresh_from_db()
    assert game.result == GameResult.WHITE_WINS


def test_vcl_q192_q193_a_closed_round_is_corrected_for_the_rating_report_only(chief_client, tournament, players):
    from pairing.reports.standings import standings

    for _ in range(3):
        play_round(tournament)
    game = board(tournament, 1)
    before = [(r.player.pk, r.points) for r in standings(tournament)[1]]
    url = reverse("pairing:game_rating_result", args=[tournament.slug, 1, game.pk])
    response = chief_client.post(url, {"result": GameResult.BLACK_WINS})
    assert confirmation_page(response)["level"] == 3
    confirm(chief_client, response)
    game.refresh_from_db()
    assert (game.result, game.rating_result) == (GameResult.WHITE_WINS, GameResult.BLACK_WINS)
    assert [(r.player.pk, r.points) for r in standings(tournament)[1]] == before
    rating = interchange.export_trf(tournament)
    line = next(x for x in rating.splitlines() if x.startswith(f"001 {game.white.tpn:4d}"))
    assert f"{game.black.tpn:4d} w 0" in line  # rated as a loss for White
    assert [x for x in rating.splitlines() if x.startswith("###")] == rating_file_comments(3)
    copy = interchange.export_trf(tournament, integrity=True)
    assert f"### Result for rating @ Round 1: board 1 {game.white.tpn}-{game.black.tpn} played 1-0, rated 0-1" in copy
    page = chief_client.get(reverse("pairing:round", args=[tournament.slug, 1])).content.decode()
    assert "rated 0-1" in page


# ------------------------------------------------------------------ undo


def test_vcl_q114_q115_the_chief_arbiter_goes_back_to_before_an_event_and_the_undo_is_logged(
    chief_client, deputy_client, tournament, players
):
    play_round(tournament)
    play_round(tournament)
    game = board(tournament, 1)
    confirm(chief_client, result_post(chief_client, game, GameResult.DRAW))
    event = IntegrityEvent.objects.get()
    assert deputy_client.post(fide_url(tournament, "integrity_undo", event.pk)).status_code == 403
    response = chief_client.post(fide_url(tournament, "integrity_undo", event.pk))
    assert confirmation_page(response)["level"] == 3
    game.refresh_from_db()
    assert game.result == GameResult.DRAW
    confirm(chief_client, response)
    game.refresh_from_db()
    assert game.result == GameResult.WHITE_WINS
    event.refresh_from_db()
    assert event.undone_at is not None and event.undone_by == "chief"
    lines = [e.report_line for e in IntegrityEvent.objects.order_by("pk")]
    assert lines[-1].startswith("### Undo @ Round 2: back to before \"Result corrected @ Round 1")
    page = chief_client.get(fide_url(tournament)).content.decode()
    assert "undone" in page


def test_an_undo_takes_back_what_came_after_the_event_and_says_so_first(chief_client, tournament, players):
    play_round(tournament)
    play_round(tournament)
    confirm(chief_client, result_post(chief_client, board(tournament, 1), GameResult.DRAW))
    event = IntegrityEvent.objects.get()
    third = pair_next_round(tournament)
    publish(third)
    response = chief_client.post(fide_url(tournament, "integrity_undo", event.pk))
    assert "2 later changes in the audit trail will be undone with it" in response.content.decode()
    confirm(chief_client, response)
    assert list(tournament.round_set.values_list("number", flat=True)) == [1, 2]


# ------------------------------------------------------------------ warning levels


def test_vcl_q218_q221_no_setting_switches_a_warning_level_off_or_lowers_it(chief_client, tournament):
    page = chief_client.get(reverse("pairing:settings", args=[tournament.slug])).content.decode()
    assert "warning" not in page.lower()
    assert not [f.name for f in Tournament._meta.get_fields() if "warn" in f.name or "confirm" in f.name]


def test_a_restore_point_brings_every_row_back_as_it_was(chief, tournament, players):
    """Players (dates, withdrawals), rounds, games, seats, byes, forbidden pairs and the
    settings come back with their own keys; timestamps written by the database aside."""
    import datetime

    from pairing.models import Bye, Player, Round, Seat
    from pairing.services import restore
    from pairing.services.players import withdraw

    Player.objects.filter(pk=players[0].pk).update(birth_date=datetime.date(2001, 2, 3), fide_id="123")
    ForbiddenPair.objects.create(tournament=tournament, player_a=players[1], player_b=players[8])
    play_round(tournament)
    play_round(tournament, results={0: GameResult.DRAW, 1: GameResult.WHITE_HALF})
    Bye.objects.create(tournament=tournament, player=players[4], round_number=3, kind="H")
    withdraw(players[9], 4)
    pair_next_round(tournament)  # a draft too

    def everything():
        skip = {"created", "updated"}
        return {
            m.__name__: sorted(tuple(sorted((k, str(v)) for k, v in row.items() if k not in skip))
                               for row in m.objects.filter(**{p: tournament}).values())
            for m, p in ((Player, "tournament"), (Round, "tournament"), (Game, "round__tournament"),
                         (Seat, "round__tournament"), (Bye, "tournament"), (ForbiddenPair, "tournament"))
        } | {"settings": str(Tournament.objects.filter(pk=tournament.pk).values(*restore.SETTINGS).get())}

    before = everything()
    point = restore.take(tournament)
    import json

    from django.core.serializers.json import DjangoJSONEncoder

    point = json.loads(json.dumps(point, cls=DjangoJSONEncoder))  # as the JSON field stores it
    Game.objects.filter(round__tournament=tournament).update(result=GameResult.BLACK_WINS)
    Round.objects.filter(tournament=tournament, number=3).delete()
    ForbiddenPair.objects.all().delete()
    Tournament.objects.filter(pk=tournament.pk).update(rounds=9, point_win=3, point_draw=1, point_pab=3)
    assert everything() != before
    restore.restore(tournament, point)
    assert everything() == before
