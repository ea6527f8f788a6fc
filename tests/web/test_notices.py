"""A change that throws away the draft of the next round says so at once, to whoever
made it; HTMX fragments carry their messages (out-of-band) instead of leaving them for
the next full page."""

from __future__ import annotations

from django.urls import reverse

from pairing.models import Game, GameResult, Round
from pairing.services import rounds
from tests.web.helpers import play_round

HTMX = {"HX-Request": "true"}


def draft_after_round_one(t, user):
    play_round(t, user)
    return rounds.pair_next_round(t, user)


def test_correcting_a_result_by_htmx_says_the_draft_was_discarded(chief_client, chief, tournament, players):
    draft_after_round_one(tournament, chief)
    game = Game.objects.get(round__number=1, board=1)
    response = chief_client.post(
        reverse("pairing:game_result", args=[tournament.slug, 1, game.pk]),
        {"result": "0", "expected": game.result}, headers=HTMX,
    )
    page = response.content.decode()
    assert response.status_code == 200
    assert 'id="messages" aria-live="polite" hx-swap-oob="true"' in page
    assert "Draft of round 2 discarded. A result of round 1 changed. Pair the round again" in page
    assert Game.objects.get(pk=game.pk).result == GameResult.BLACK_WINS
    assert not Round.objects.filter(number=2).exists()
    # shown once: the next page does not repeat it as a message (its recent changes list it)
    after = chief_client.get(reverse("pairing:tournament", args=[tournament.slug])).content.decode()
    assert 'class="msg warning"' not in after


def test_correcting_a_result_without_javascript_says_it_on_the_next_page(chief_client, chief, tournament, players):
    draft_after_round_one(tournament, chief)
    game = Game.objects.get(round__number=1, board=2)
    response = chief_client.post(
        reverse("pairing:game_result", args=[tournament.slug, 1, game.pk]),
        {"result": "=", "expected": game.result}, follow=True,
    )
    assert "Draft of round 2 discarded. A result of round 1 changed." in response.content.decode()


def test_a_withdrawal_says_the_draft_was_discarded(chief_client, chief, tournament, players):
    draft_after_round_one(tournament, chief)
    response = chief_client.post(
        reverse("pairing:player_withdraw", args=[tournament.slug, players[4].pk]), {"from_round": 2}, follow=True
    )
    page = response.content.decode()
    assert "withdrawn from round 2" in page
    assert "Draft of round 2 discarded. A withdrawal changed." in page


def test_a_deputys_change_tells_the_deputy(deputy_client, chief, tournament, players):
    draft_after_round_one(tournament, chief)
    response = deputy_client.post(
        reverse("pairing:absences", args=[tournament.slug]),
        {"round": 2, "seen": "", f"kind-{players[0].pk}": "H"}, follow=True,
    )
    assert "Draft of round 2 discarded. Byes changed." in response.content.decode()


def test_a_change_with_no_draft_to_discard_says_nothing_of_drafts(chief_client, chief, tournament, players):
    play_round(tournament, chief)
    game = Game.objects.get(round__number=1, board=1)
    response = chief_client.post(
        reverse("pairing:game_result", args=[tournament.slug, 1, game.pk]), {"result": "0", "expected": game.result},
        follow=True,
    )
    assert "discarded" not in response.content.decode()


def test_a_refused_change_says_nothing_and_keeps_the_draft(stranger_client, chief, tournament, players):
    draft_after_round_one(tournament, chief)
    game = Game.objects.get(round__number=1, board=1)
    response = stranger_client.post(
        reverse("pairing:game_result", args=[tournament.slug, 1, game.pk]), {"result": "0", "expected": game.result}
    )
    assert response.status_code in (403, 404)
    assert Round.objects.filter(number=2).exists()


def test_adding_a_player_by_htmx_shows_the_confirmation_at_once(chief_client, tournament, players):
    response = chief_client.post(
        reverse("pairing:players", args=[tournament.slug]), {"name": "Late, Lena", "rating": "1500"}, headers=HTMX
    )
    page = response.content.decode()
    assert "hx-swap-oob" in page and "Late, Lena registered as number 11." in page


def test_an_htmx_request_without_messages_carries_no_message_list(chief_client, tournament, players):
    response = chief_client.post(
        reverse("pairing:players", args=[tournament.slug]), {"name": "", "rating": "x", "validate": "1"}, headers=HTMX
    )
    assert 'id="messages"' not in response.content.decode()


def test_the_notice_speaks_the_arbiters_language_while_the_audit_trail_stays_english(
    chief_client, chief, tournament, players
):
    """Issue 21: the draft's discarding is told in Russian to a Russian arbiter; the audit
    entry it comes from is the English record."""
    from pairing.models import AuditAction, AuditEntry

    draft_after_round_one(tournament, chief)
    response = chief_client.post(
        reverse("pairing:player_withdraw", args=[tournament.slug, players[4].pk]), {"from_round": 2}, follow=True,
        HTTP_ACCEPT_LANGUAGE="ru",
    )
    page = response.content.decode()
    assert "Черновик 2-го тура отменён. Изменено выбывание. Проведите жеребьёвку тура заново" in page
    entry = AuditEntry.objects.filter(tournament=tournament, action=AuditAction.DISCARD).latest("pk")
    assert entry.detail == "Draft of round 2 discarded. A withdrawal changed."
