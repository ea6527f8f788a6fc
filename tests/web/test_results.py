"""Results entry: one click or key per board, saved at once, progress, corrections,
no silent overwrite, and the plain-form fallback."""

from __future__ import annotations

import pytest
from django.urls import reverse

from pairing.models import AuditEntry, GameResult, RoundStatus
from pairing.services import rounds
from pairing.services.rounds import publish


@pytest.fixture
def rnd(chief, tournament, players):
    r = rounds.pair_next_round(tournament, chief)
    publish(r, chief)
    return r


def result_url(rnd, game):
    return reverse("pairing:game_result", args=[rnd.tournament.slug, rnd.number, game.pk])


def test_a_result_is_saved_at_once_and_the_row_comes_back(chief_client, rnd):
    g = rnd.games().first()
    response = chief_client.post(result_url(rnd, g), {"result": "1-0", "expected": ""}, HTTP_HX_REQUEST="true")
    body = response.content.decode()
    g.refresh_from_db()
    assert g.result == GameResult.WHITE_WINS
    assert f'id="board-{g.board}"' in body and "<html" not in body
    assert "1 of 5" in body and 'hx-swap-oob="true"' in body


@pytest.mark.parametrize(
    "key,result",
    [("1", "1-0"), ("=", "1/2-1/2"), ("5", "1/2-1/2"), ("0", "0-1"), ("+", "+-"), ("-", "-+"), ("*", "--")],
)
def test_keys_map_to_results(chief_client, rnd, key, result):
    g = rnd.games().first()
    chief_client.post(result_url(rnd, g), {"result": key, "expected": ""}, HTTP_HX_REQUEST="true")
    g.refresh_from_db()
    assert g.result == result


def test_without_javascript_the_form_redirects_back_to_the_board(deputy_client, rnd):
    g = rnd.games().first()
    response = deputy_client.post(result_url(rnd, g), {"result": "0-1", "expected": ""})
    assert response.status_code == 302
    assert response["Location"].endswith(f"#board-{g.board}")
    g.refresh_from_db()
    assert g.result == GameResult.BLACK_WINS


def test_a_correction_is_allowed_and_logged(chief_client, rnd):
    g = rnd.games().first()
    chief_client.post(result_url(rnd, g), {"result": "1-0", "expected": ""})
    chief_client.post(result_url(rnd, g), {"result": "1/2-1/2", "expected": "1-0"})
    g.refresh_from_db()
    assert g.result == GameResult.DRAW
    assert AuditEntry.objects.filter(action="result", detail__contains="corrected (was 1-0)").exists()


def test_two_arbiters_never_overwrite_each_other_silently(chief_client, deputy_client, rnd):
    g = rnd.games().first()
    deputy_client.post(result_url(rnd, g), {"result": "0-1", "expected": ""})
    # the chief still sees an empty board and enters 1-0
    response = chief_client.post(result_url(rnd, g), {"result": "1-0", "expected": ""}, HTTP_HX_REQUEST="true")
    g.refresh_from_db()
    assert g.result == GameResult.BLACK_WINS
    assert "changed to 0-1 by someone else" in response.content.decode()


def test_an_unknown_result_is_refused(chief_client, rnd):
    g = rnd.games().first()
    response = chief_client.post(result_url(rnd, g), {"result": "2-0", "expected": ""}, follow=True)
    assert "unknown result" in response.content.decode()
    g.refresh_from_db()
    assert g.result == ""


def test_results_cannot_be_entered_in_a_draft(chief_client, chief, tournament, players):
    r = rounds.pair_next_round(tournament, chief)
    g = r.games().first()
    response = chief_client.post(result_url(r, g), {"result": "1-0", "expected": ""}, follow=True)
    assert "publish the round" in response.content.decode()
    g.refresh_from_db()
    assert g.result == ""


def test_another_arbiter_cannot_enter_results(stranger_client, rnd):
    g = rnd.games().first()
    assert stranger_client.post(result_url(rnd, g), {"result": "1-0"}).status_code == 404  # private
    g.refresh_from_db()
    assert g.result == ""


def test_the_round_is_complete_when_every_result_is_in(chief_client, rnd):
    for g in rnd.games():
        chief_client.post(result_url(rnd, g), {"result": "1/2-1/2", "expected": g.result})
    rnd.refresh_from_db()
    assert rnd.status == RoundStatus.COMPLETE
    page = chief_client.get(rnd.get_absolute_url()).content.decode()
    assert "5 of 5" in page and "round complete" in page


def test_the_results_page_shows_progress_and_key_help(chief_client, rnd):
    page = chief_client.get(rnd.get_absolute_url()).content.decode()
    assert "0 of 5" in page and "<kbd>=</kbd>" in page
    assert 'tabindex="0" data-board="1"' in page


def test_correcting_a_result_discards_the_next_rounds_draft(chief_client, chief, tournament, rnd):
    for g in rnd.games():
        chief_client.post(result_url(rnd, g), {"result": "1-0", "expected": g.result})
    rounds.pair_next_round(tournament, chief)
    g = rnd.games().first()
    chief_client.post(result_url(rnd, g), {"result": "0-1", "expected": "1-0"})
    assert not tournament.round_set.filter(status=RoundStatus.DRAFT).exists()
    assert AuditEntry.objects.filter(action="discard", detail__contains="result of round 1 changed").exists()


@pytest.mark.parametrize("htmx", [False, True])
def test_audit_finding_10_a_result_sent_without_expected_overwrites_nothing(chief_client, deputy_client, rnd, htmx):
    """A client that leaves ``expected`` out cannot skip the lost-update check."""
    g = rnd.games().first()
    deputy_client.post(result_url(rnd, g), {"result": "0-1", "expected": ""})
    extra = {"HTTP_HX_REQUEST": "true"} if htmx else {}
    response = chief_client.post(result_url(rnd, g), {"result": "1-0"}, follow=not htmx, **extra)
    assert "did not say which result it showed" in response.content.decode()
    g.refresh_from_db()
    assert g.result == "0-1"


def test_each_board_marks_its_own_result_among_the_buttons(chief_client, rnd):
    """The results entry's buttons (made once per result and page): every board offers
    every result, the common ones and those under "more", and marks its own result and
    no other -- a common one, one under "more", none yet -- and the row sent back after
    a result marks the new one."""
    import re

    games = list(rnd.games())
    for g, result in zip(games, [GameResult.DRAW, GameResult.WHITE_HALF, GameResult.DRAW], strict=False):
        assert chief_client.post(result_url(rnd, g), {"result": result, "expected": ""}).status_code == 302
    page = chief_client.get(reverse("pairing:round", args=[rnd.tournament.slug, rnd.number])).content.decode()
    every = [c.value for c in GameResult if c.value]

    def buttons(board: int) -> tuple[list[str], list[str]]:
        row = re.search(rf'<tr id="board-{board}".*?</tr>', page, re.S).group(0)
        offered = re.findall(r'<button type="submit" name="result" value="([^"]+)" class="rb[^"]*"', row)
        marked = re.findall(r'<button type="submit" name="result" value="([^"]+)" class="rb on"', row)
        return offered, marked

    assert sorted(buttons(games[0].board)[0]) == sorted(every)
    assert buttons(games[0].board)[1] == [GameResult.DRAW]
    assert buttons(games[1].board)[1] == [GameResult.WHITE_HALF]  # under "more"
    assert buttons(games[2].board)[1] == [GameResult.DRAW]
    assert sorted(buttons(games[3].board)[0]) == sorted(every) and buttons(games[3].board)[1] == []
    row = chief_client.post(result_url(rnd, games[3]), {"result": GameResult.BLACK_WINS, "expected": ""},
                            HTTP_HX_REQUEST="true").content.decode()
    assert re.findall(r'value="([^"]+)" class="rb on"', row) == [GameResult.BLACK_WINS]
