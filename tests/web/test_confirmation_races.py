"""Races of confirmed acts (issue 33, findings 1 and 2), with real threads on PostgreSQL.

The same situations one after the other are in ``test_confirmations.py`` (any database).
Each race runs several times: which thread wins varies, the outcome may not.
"""

from __future__ import annotations

import pytest
from django.urls import reverse

from pairing.models import (
    AuditEntry,
    Conflict,
    Game,
    GameResult,
    IntegrityEvent,
    Round,
    RoundStatus,
    Tournament,
)
from pairing.services import integrity, manual
from pairing.services.rounds import pair_next_round, publish
from tests.web.helpers import confirmation_page, play_round
from tests.web.test_concurrency import _race, logged_in, run_together

ATTEMPTS = [1, 2, 3]


def _corrected_event(t, chief) -> IntegrityEvent:
    """Round 1's board 1 corrected to a draw after round 2 was published: an event."""
    play_round(t, chief)
    play_round(t, chief)
    client = logged_in(chief)
    g = Game.objects.get(round__tournament=t, round__number=1, board=1)
    url = reverse("pairing:game_result", args=[t.slug, 1, g.pk])
    page = confirmation_page(client.post(url, {"result": GameResult.DRAW, "expected": g.result}))
    client.post(page["action"], page["fields"])
    return IntegrityEvent.objects.get()


@_race
@pytest.mark.parametrize("attempt", ATTEMPTS)
def test_two_posts_of_the_same_confirmed_undo_at_once_undo_once(attempt, chief, tournament, players):
    """The audit's finding 1 (5 races of 6 ran twice): the confirmed undo form sent twice
    at the same moment writes one 'Undo' event and restores once."""
    event = _corrected_event(tournament, chief)
    client = logged_in(chief)
    page = confirmation_page(client.post(reverse("pairing:integrity_undo", args=[tournament.slug, event.pk])))
    clients = [logged_in(chief), logged_in(chief)]

    def post(c):
        return lambda: c.post(page["action"], page["fields"])

    outcomes = run_together(post(clients[0]), post(clients[1]))
    assert all(getattr(o, "status_code", None) == 302 for o in outcomes), outcomes
    assert IntegrityEvent.objects.filter(kind="undo").count() == 1
    assert AuditEntry.objects.filter(detail__contains="Undo @ Round").count() == 1
    assert IntegrityEvent.objects.get(pk=event.pk).undone_at is not None


@_race
@pytest.mark.parametrize("attempt", ATTEMPTS)
def test_two_undos_of_the_same_event_at_once_in_the_service_run_once(attempt, chief, tournament, players):
    """The service itself re-checks under the lock: the second undo finds the event undone."""
    event = _corrected_event(tournament, chief)

    def undo():
        return integrity.undo(Tournament.objects.get(pk=tournament.pk), event.pk, chief, 1)

    outcomes = run_together(undo, undo)
    done = [o for o in outcomes if isinstance(o, IntegrityEvent)]
    refused = [o for o in outcomes if isinstance(o, ValueError)]
    assert len(done) == 1 and len(refused) == 1, outcomes
    assert "undone already" in str(refused[0])
    assert IntegrityEvent.objects.filter(kind="undo").count() == 1


@_race
@pytest.mark.parametrize("attempt", ATTEMPTS)
def test_a_deputys_publish_at_the_moment_of_the_confirmed_undo_is_never_wiped_unseen(
    attempt, chief, deputy, tournament, players
):
    """Round 3's draft exists when the chief is asked to confirm an undo; the deputy
    publishes it at the moment the chief confirms.  Either
    the publish comes first (the undo's confirmation is then stale and refused, round 3
    stays published), or the undo comes first (the draft is gone and the deputy is told
    the publish did not happen).  Never both."""
    event = _corrected_event(tournament, chief)
    third = pair_next_round(tournament, deputy)
    client = logged_in(chief)
    page = confirmation_page(client.post(reverse("pairing:integrity_undo", args=[tournament.slug, event.pk])))

    confirming = logged_in(chief)

    def confirm():
        return confirming.post(page["action"], page["fields"])

    def deputy_publish():
        return publish(Round.objects.get(pk=third.pk), deputy)

    confirmed, published = run_together(confirm, deputy_publish)
    undone = IntegrityEvent.objects.get(pk=event.pk).undone_at is not None
    if published is True:
        assert not undone
        assert Round.objects.get(pk=third.pk).status == RoundStatus.PUBLISHED
        assert "The tournament changed after you were asked" in confirming.get(confirmed.url).content.decode()
    else:
        assert isinstance(published, Conflict), published
        assert undone and not Round.objects.filter(pk=third.pk).exists()


@_race
@pytest.mark.parametrize("attempt", ATTEMPTS)
def test_an_end_session_confirmation_sent_as_the_draft_changes_ends_only_the_pairing_it_showed(
    attempt, chief, deputy, tournament, players
):
    """The audit's finding 2, as a race: the chief's confirmed 'end the session' and the
    deputy's change of the same draft arrive together.  Either the change comes first
    (the confirmation is stale and refused; the session stays open) or the end comes
    first (the deputy's change is refused: the session is closed).  The event recorded
    is always the pairing the chief was shown."""
    rnd = pair_next_round(tournament, chief)
    manual.start_session(rnd)
    b1, b2 = rnd.games()[:2]
    client = logged_in(chief)
    client.post(reverse("pairing:round_swap", args=[tournament.slug, 1]), {"a": b1.white_id, "b": b1.black_id})
    question = client.post(reverse("pairing:round_manual", args=[tournament.slug, 1]), {"op": "end"})
    shown = [line for line in question.content.decode().splitlines() if "This round:" in line]
    page = confirmation_page(question)
    seen = sorted(Round.objects.get(pk=rnd.pk).game_set.values_list("board", "white_id", "black_id"))

    ending = logged_in(chief)

    def end():
        return ending.post(page["action"], page["fields"])

    def change():
        from pairing.services.rounds import swap_players

        r = Round.objects.get(pk=rnd.pk)
        return swap_players(r, b2.white, b2.black, deputy)

    ended, changed = run_together(end, change)
    session_open = Round.objects.get(pk=rnd.pk).manual_session
    if isinstance(changed, list):  # the change went first
        assert session_open and not IntegrityEvent.objects.exists()
        assert "The tournament changed after you were asked" in ending.get(ended.url).content.decode()
    else:
        assert isinstance(changed, ValueError) and "Start a manual-pairing session first" in str(changed)
        assert not session_open
        assert sorted(Round.objects.get(pk=rnd.pk).game_set.values_list("board", "white_id", "black_id")) == seen
        assert IntegrityEvent.objects.count() == 1 and shown
