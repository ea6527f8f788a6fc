"""Confirmations act once, on the state the arbiter saw (issue 33, findings 1 and 2).

A confirmation token is spent by the act it confirms: the same confirmed form sent
again (a double click, the browser's back button, a replay) changes nothing and says
so.  It is bound to the tournament's revision when the question was asked: after any
change of the tournament it confirms nothing, and the refusal names the change.
The races of the same situations (two requests at once) are in
``test_confirmation_races.py`` (PostgreSQL).
"""

from __future__ import annotations

import ast
from pathlib import Path

import pytest
from django.urls import reverse

from pairing.models import AuditEntry, Game, GameResult, IntegrityEvent, Round, SpentConfirmation, Tournament
from pairing.services import manual
from pairing.services.rounds import pair_next_round, publish
from tests.web.helpers import confirm, confirmation_page, play_round
from tests.web.test_pairing_numbers import _equal_field, numbers_post, order

VIEWS = Path(__file__).resolve().parents[2] / "pairing" / "views"


def follow_message(client, response) -> str:
    assert response.status_code == 302, response.content[:500]
    return client.get(response.url).content.decode()


def answer(client, response):
    """Send the confirmation page's form once; returns (the form sent, the response)."""
    page = confirmation_page(response)
    return page, client.post(page["action"], page["fields"])


def corrected_event(client, t) -> IntegrityEvent:
    """Round 1's board 1 corrected to a draw after round 2 was paired: an event."""
    play_round(t)
    play_round(t)
    g = Game.objects.get(round__tournament=t, round__number=1, board=1)
    url = reverse("pairing:game_result", args=[t.slug, 1, g.pk])
    confirm(client, client.post(url, {"result": GameResult.DRAW, "expected": g.result}))
    return IntegrityEvent.objects.get()


def undo_url(t, event) -> str:
    return reverse("pairing:integrity_undo", args=[t.slug, event.pk])


# ------------------------------------------------------------------ a double click acts once


def test_a_confirmed_undo_sent_twice_runs_once(chief_client, tournament, players):
    """The audit's finding 1: the second post of the same confirmed undo wrote a second
    'Undo' line into the rating report's copy."""
    event = corrected_event(chief_client, tournament)
    form, first = answer(chief_client, chief_client.post(undo_url(tournament, event)))
    assert first.status_code == 302
    second = chief_client.post(form["action"], form["fields"])
    page = follow_message(chief_client, second)
    assert "That confirmation was used already" in page
    assert IntegrityEvent.objects.filter(kind="undo").count() == 1


def test_a_double_click_on_confirm_exchanges_two_numbers_once(chief_client, tournament):
    """Exchanging two pairing numbers twice would put them back: the second click does nothing."""
    _equal_field(tournament)
    from pairing.services.numbering import renumber

    renumber(tournament)
    form, first = answer(chief_client, numbers_post(chief_client, tournament, action="exchange", a="2", b="3"))
    assert order(tournament) == ["Top", "Brown", "Adams", "Clark", "Dean"]
    page = follow_message(chief_client, chief_client.post(form["action"], form["fields"]))
    assert "used already" in page
    assert order(tournament) == ["Top", "Brown", "Adams", "Clark", "Dean"]
    assert AuditEntry.objects.filter(detail__startswith="Pairing numbers exchanged").count() == 1


def _correct_result(client, t):
    play_round(t)
    publish(pair_next_round(t))
    g = Game.objects.get(round__tournament=t, round__number=1, board=1)
    return client.post(reverse("pairing:game_result", args=[t.slug, 1, g.pk]), {"result": GameResult.DRAW, "expected": g.result})


def _rating_result(client, t):
    play_round(t)
    g = Game.objects.get(round__tournament=t, round__number=1, board=1)
    return client.post(reverse("pairing:game_rating_result", args=[t.slug, 1, g.pk]), {"result": GameResult.BLACK_WINS})


def _leave_fide_mode(client, t):
    play_round(t)
    return client.post(reverse("pairing:fide_mode_leave", args=[t.slug]))


def _end_session(client, t):
    rnd = pair_next_round(t)
    manual.start_session(rnd)
    g = rnd.games().first()
    client.post(reverse("pairing:round_swap", args=[t.slug, 1]), {"a": g.white_id, "b": g.black_id})
    return client.post(reverse("pairing:round_manual", args=[t.slug, 1]), {"op": "end"})


@pytest.mark.parametrize("act", [_correct_result, _rating_result, _leave_fide_mode, _end_session],
                         ids=["result-correction", "rating-result", "leave-fide-mode", "end-session"])
def test_every_confirm_button_acts_once_however_often_it_is_clicked(act, chief_client, tournament, players):
    """The last confirmation of each act, sent again: nothing more is written (no audit
    entry, no event) and the page says the confirmation was used."""
    response = act(chief_client, tournament)
    level = confirmation_page(response)["level"]
    for _ in range(level - 2):
        form, response = answer(chief_client, response)
    assert response.status_code == 302
    entries, events = AuditEntry.objects.count(), IntegrityEvent.objects.count()
    revision = Tournament.objects.get(pk=tournament.pk).revision
    again = chief_client.post(form["action"], form["fields"])
    assert "used already" in follow_message(chief_client, again)
    assert (AuditEntry.objects.count(), IntegrityEvent.objects.count()) == (entries, events)
    assert Tournament.objects.get(pk=tournament.pk).revision == revision


# ------------------------------------------------------------------ stale confirmations


def test_an_undo_confirmed_after_a_deputy_published_a_round_is_refused_and_names_the_publish(
    chief_client, deputy, tournament, players
):
    """The audit's finding 1: the chief asked to undo, the deputy published round 3, the
    chief confirmed: the undo wiped round 3 unseen.  Now it is refused and says why."""
    event = corrected_event(chief_client, tournament)
    question = chief_client.post(undo_url(tournament, event))
    third = pair_next_round(tournament, deputy)
    publish(third, deputy)
    _, response = answer(chief_client, question)
    page = follow_message(chief_client, response)
    assert "The tournament changed after you were asked" in page
    assert "deputy: Round 3 published." in page
    event.refresh_from_db()
    assert event.undone_at is None
    assert Round.objects.filter(tournament=tournament, number=3, status="published").exists()
    # asked again, on the state as it is now, the undo goes through
    confirm(chief_client, chief_client.post(undo_url(tournament, event)))
    event.refresh_from_db()
    assert event.undone_at is not None and not Round.objects.filter(number=3).exists()


def test_an_old_end_session_confirmation_does_not_confirm_a_later_different_pairing(chief_client, tournament, players):
    """The audit's finding 2: the chief was asked to end a session with board 1's colours
    reversed, went back, reversed board 2 as well, and sent the old confirmation: it
    ended the session on a pairing nobody had confirmed.  Now it is refused."""
    rnd = pair_next_round(tournament)
    manual.start_session(rnd)
    swap = reverse("pairing:round_swap", args=[tournament.slug, 1])
    end = reverse("pairing:round_manual", args=[tournament.slug, 1])
    b1, b2 = rnd.games()[:2]
    chief_client.post(swap, {"a": b1.white_id, "b": b1.black_id})
    question = chief_client.post(end, {"op": "end"})
    assert "This round: " in question.content.decode()
    chief_client.post(swap, {"a": b2.white_id, "b": b2.black_id})
    _, response = answer(chief_client, question)
    page = follow_message(chief_client, response)
    assert "The tournament changed after you were asked" in page
    assert f"swapped {b2.white.name} and {b2.black.name}" in page
    assert Round.objects.get(pk=rnd.pk).manual_session
    assert not IntegrityEvent.objects.exists()


def test_a_token_without_its_tournament_state_is_no_confirmation(chief_client, tournament, players):
    """A token signed for another tournament's state, or a tampered one, counts as no
    confirmation: the question comes again."""
    event = corrected_event(chief_client, tournament)
    page = confirmation_page(chief_client.post(undo_url(tournament, event)))
    spent = SpentConfirmation.objects.count()
    fields = dict(page["fields"])
    fields["confirm_token"] = [fields["confirm_token"][0][:-2] + "xx"]
    assert confirmation_page(chief_client.post(page["action"], fields))["level"] == 3
    assert IntegrityEvent.objects.get(pk=event.pk).undone_at is None
    assert SpentConfirmation.objects.count() == spent


# ------------------------------------------------------------------ the revision


def test_every_audited_change_moves_the_revision_on(chief, tournament, players):
    """Tournament.revision counts the changes: pairing, publishing, a result each move it
    by one, with their audit entries."""

    def state():
        return Tournament.objects.get(pk=tournament.pk).revision, AuditEntry.objects.filter(tournament=tournament).count()

    start = state()
    rnd = pair_next_round(tournament, chief)
    after_pair = state()
    publish(rnd, chief)
    after_publish = state()
    from pairing.services.results import record_result

    record_result(rnd.games().first(), GameResult.DRAW, chief)
    after_result = state()
    for before, after in ((start, after_pair), (after_pair, after_publish), (after_publish, after_result)):
        assert after[0] - before[0] == after[1] - before[1] == 1


def test_every_view_that_reads_a_confirmation_runs_under_confirmable():
    """given() locks the tournament for the rest of the view: only inside @confirmable's
    transaction does that lock last until the act is done."""
    missing = []
    for path in sorted(set(VIEWS.glob("*.py")) - {VIEWS / "confirm.py"}):
        tree = ast.parse(path.read_text())
        for node in tree.body:
            if not isinstance(node, ast.FunctionDef):
                continue
            calls = any(isinstance(n, ast.Call) and getattr(n.func, "id", None) == "given" for n in ast.walk(node))
            decorated = any(getattr(d, "id", None) == "confirmable" for d in node.decorator_list)
            if calls and not decorated:
                missing.append(f"{path.name}:{node.name}")
    assert not missing


def test_issue33_2_walk_a_stale_refusal_names_the_changes_in_one_sentence(chief, tournament):
    """The walk's manual-pairing session: "What changed: walker: Round 3 draft: swapped
    Lindqvist, Jana and Horvat, Fedor.. Look at the page again": each audit sentence
    keeps its own full stop inside the list, and the refusal adds one more."""
    from pairing.views.confirm import changes_since

    last = AuditEntry.objects.filter(tournament=tournament).order_by("pk").last()
    AuditEntry.log(tournament, chief, "swap", "Round 3 draft: swapped Lindqvist, Jana and Horvat, Fedor.")
    AuditEntry.log(tournament, chief, "result", "Round 2 board 3: 0-1 entered")
    said = changes_since(tournament.pk, last.pk if last else 0)
    assert said == "chief: Round 3 draft: swapped Lindqvist, Jana and Horvat, Fedor; chief: Round 2 board 3: 0-1 entered"
