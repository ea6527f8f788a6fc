"""Who may see and change what: chief arbiter and deputy yes, another arbiter 403 on a
public tournament and 404 on a private one (as for an unknown slug), anonymous to the
login page, GET on a POST-only view 405."""

from __future__ import annotations

import re

import pytest
from django.urls import reverse

from pairing.models import Tournament
from tests.web.helpers import play_round

ARBITER_PAGES = [
    ("pairing:tournament", {}),
    ("pairing:settings", {}),
    ("pairing:players", {}),
    ("pairing:players_import", {}),
    ("pairing:trf_import", {}),
    ("pairing:absences", {}),
    ("pairing:trf_export", {}),
    ("pairing:forbidden_pairs", {}),
]

POST_ONLY = [
    ("pairing:pair_next", {}),
    ("pairing:deputies", {}),
    ("pairing:round_publish", {"number": 1}),
    ("pairing:round_discard", {"number": 1}),
    ("pairing:round_swap", {"number": 1}),
]


def url(name, slug="spring-open", **kw):
    return reverse(name, kwargs={"slug": slug, **kw})


@pytest.mark.parametrize("name,kw", ARBITER_PAGES)
def test_arbiter_pages_work_for_the_chief_arbiter(chief_client, tournament, players, name, kw):
    assert chief_client.get(url(name, **kw)).status_code == 200


@pytest.mark.parametrize("name,kw", ARBITER_PAGES)
def test_arbiter_pages_work_for_a_deputy(deputy_client, tournament, players, name, kw):
    assert deputy_client.get(url(name, **kw)).status_code == 200


@pytest.mark.parametrize("name,kw", [page for page in ARBITER_PAGES if page[0] != "pairing:tournament"])
def test_arbiter_pages_of_a_public_tournament_are_403_for_another_arbiter(stranger_client, tournament, name, kw):
    Tournament.objects.filter(pk=tournament.pk).update(public=True)
    assert stranger_client.get(url(name, **kw)).status_code == 403


@pytest.mark.parametrize("name,kw", ARBITER_PAGES)
def test_audit_finding_10_a_private_tournament_is_404_for_another_arbiter_like_an_unknown_one(
    stranger_client, tournament, name, kw
):
    known = stranger_client.get(url(name, **kw))
    unknown = stranger_client.get(url(name, slug="no-such-event", **kw))
    assert known.status_code == unknown.status_code == 404
    assert known.content == unknown.content


@pytest.mark.parametrize("name,kw", ARBITER_PAGES)
def test_arbiter_pages_are_404_for_an_unknown_slug(chief_client, tournament, name, kw):
    assert chief_client.get(url(name, slug="no-such-event", **kw)).status_code == 404


@pytest.mark.parametrize("name,kw", ARBITER_PAGES)
def test_arbiter_pages_send_anonymous_users_to_login(anon_client, tournament, name, kw):
    response = anon_client.get(url(name, **kw))
    assert response.status_code == 302
    assert response["Location"].startswith(reverse("login"))


@pytest.mark.parametrize("name,kw", POST_ONLY)
def test_post_views_answer_405_to_get(chief_client, tournament, players, name, kw):
    assert chief_client.get(url(name, **kw)).status_code == 405


@pytest.mark.parametrize("name", ["pairing:player_withdraw"])
def test_player_post_views_answer_405_to_get(chief_client, tournament, players, name):
    assert chief_client.get(url(name, pk=players[0].pk)).status_code == 405


def test_logout_answers_405_to_get(chief_client):
    assert chief_client.get(reverse("logout")).status_code == 405


def test_result_view_answers_405_to_get(chief_client, tournament, players):
    rnd = play_round(tournament)
    game = rnd.games().first()
    response = chief_client.get(url("pairing:game_result", number=1, pk=game.pk))
    assert response.status_code == 405


@pytest.mark.parametrize("name,kw", POST_ONLY)
def test_post_views_are_403_for_another_arbiter_on_a_public_tournament(stranger_client, tournament, players, name, kw):
    Tournament.objects.filter(pk=tournament.pk).update(public=True)
    assert stranger_client.post(url(name, **kw)).status_code == 403


@pytest.mark.parametrize("name,kw", POST_ONLY)
def test_audit_finding_10_post_views_are_404_for_another_arbiter_on_a_private_tournament(
    stranger_client, tournament, players, name, kw
):
    assert stranger_client.post(url(name, **kw)).status_code == 404


def test_a_stranger_cannot_pair_a_round(stranger_client, tournament, players):
    stranger_client.post(url("pairing:pair_next"))
    assert not tournament.round_set.exists()


def test_the_dashboard_lists_only_my_tournaments(deputy_client, stranger_client, tournament):
    assert b"Spring Open" in deputy_client.get(reverse("pairing:dashboard")).content
    assert b"Spring Open" not in stranger_client.get(reverse("pairing:dashboard")).content


def test_only_the_chief_arbiter_manages_deputies(chief_client, deputy_client, tournament, stranger):
    assert deputy_client.post(url("pairing:deputies"), {"username": "stranger"}).status_code == 403
    chief_client.post(url("pairing:deputies"), {"username": "stranger"})
    assert not tournament.deputies.filter(username="stranger").exists()  # invited, not yet a deputy
    assert tournament.invitations.filter(username="stranger").exists()
    chief_client.post(url("pairing:deputies"), {"username": "deputy", "remove": "1"})
    assert not tournament.deputies.filter(username="deputy").exists()


def test_audit_finding_10_inviting_a_deputy_does_not_tell_whether_the_account_exists(chief_client, tournament, stranger):
    """The same answer (status and message) for an account that exists and one that does not."""
    answers = []
    for name in ("stranger", "nobody"):
        response = chief_client.post(url("pairing:deputies"), {"username": name}, follow=True)
        shown = re.search(r'<ul class="messages".*?</ul>', response.content.decode(), flags=re.S).group(0)
        answers.append((response.status_code, response.redirect_chain, shown.replace(name, "NAME")))
    assert answers[0] == answers[1]
    assert "Invitation for &#x27;NAME&#x27; saved" in answers[0][2]
    assert sorted(tournament.invitations.values_list("username", flat=True)) == ["nobody", "stranger"]
    assert list(tournament.deputies.values_list("username", flat=True)) == ["deputy"]


def test_an_invited_account_accepts_from_its_dashboard_and_becomes_a_deputy(chief_client, stranger_client, tournament):
    chief_client.post(url("pairing:deputies"), {"username": "stranger"})
    dashboard = stranger_client.get(reverse("pairing:dashboard")).content.decode()
    assert "invites you to be a deputy arbiter of" in dashboard and "Spring Open" in dashboard
    invitation = tournament.invitations.get()
    response = stranger_client.post(reverse("pairing:invitation_answer", args=[invitation.pk]), {"accept": "1"},
                                    follow=True)
    assert "You are now a deputy arbiter of Spring Open." in response.content.decode()
    assert tournament.deputies.filter(username="stranger").exists() and not tournament.invitations.exists()
    assert stranger_client.get(url("pairing:players")).status_code == 200
    entry = tournament.auditentry_set.latest("pk")
    assert entry.detail == "stranger accepted and is now a deputy."
    assert entry.after == {"deputies": ["deputy", "stranger"], "invited": []}


def test_a_declined_or_withdrawn_invitation_gives_no_rights(chief_client, stranger_client, tournament):
    chief_client.post(url("pairing:deputies"), {"username": "stranger"})
    invitation = tournament.invitations.get()
    stranger_client.post(reverse("pairing:invitation_answer", args=[invitation.pk]), {"decline": "1"})
    assert not tournament.invitations.exists() and not tournament.deputies.filter(username="stranger").exists()
    chief_client.post(url("pairing:deputies"), {"username": "stranger"})
    invitation = tournament.invitations.get()
    response = chief_client.post(url("pairing:deputies"), {"username": "stranger", "withdraw": "1"}, follow=True)
    assert "Invitation for &#x27;stranger&#x27; withdrawn." in response.content.decode()
    late = stranger_client.post(reverse("pairing:invitation_answer", args=[invitation.pk]), {"accept": "1"})
    assert late.status_code == 404
    assert not tournament.deputies.filter(username="stranger").exists()


def test_only_the_invited_account_can_answer_an_invitation(chief_client, deputy_client, anon_client, tournament):
    chief_client.post(url("pairing:deputies"), {"username": "stranger"})
    invitation = tournament.invitations.get()
    path = reverse("pairing:invitation_answer", args=[invitation.pk])
    assert deputy_client.post(path, {"accept": "1"}).status_code == 404
    assert chief_client.post(path, {"accept": "1"}).status_code == 404
    assert anon_client.post(path, {"accept": "1"}).status_code == 302  # to the login page
    assert tournament.invitations.exists()
    assert list(tournament.deputies.values_list("username", flat=True)) == ["deputy"]


def test_inviting_the_chief_or_a_deputy_again_says_so(chief_client, tournament):
    for name, text in (("chief", "The chief arbiter is already in charge."), ("deputy", "deputy is already a deputy.")):
        response = chief_client.post(url("pairing:deputies"), {"username": name}, follow=True)
        assert text in response.content.decode()
    assert not tournament.invitations.exists()


def test_private_tournament_pages_are_404_for_anonymous_visitors(anon_client, tournament):
    assert anon_client.get(url("pairing:standings")).status_code == 404
    assert anon_client.get(url("pairing:aro")).status_code == 404


def test_public_tournament_pages_are_readable_without_login(anon_client, tournament, players):
    Tournament.objects.filter(pk=tournament.pk).update(public=True)
    play_round(tournament)
    assert anon_client.get(url("pairing:standings")).status_code == 200
    assert anon_client.get(url("pairing:aro")).status_code == 200
    page = anon_client.get(url("pairing:round", number=1))
    assert page.status_code == 200
    assert b"hx-post" not in page.content  # read-only: no result buttons


def test_a_draft_is_hidden_from_the_public(anon_client, chief, tournament, players):
    from pairing.services import rounds

    Tournament.objects.filter(pk=tournament.pk).update(public=True)
    rounds.pair_next_round(tournament, chief)
    assert anon_client.get(url("pairing:round", number=1)).status_code == 404


def test_health_endpoint_answers_without_login(anon_client):
    assert anon_client.get("/health/").json() == {"status": "ok", "database": "ok"}


def test_a_public_tournament_has_a_home_page_for_visitors(anon_client, stranger_client, tournament, players):
    Tournament.objects.filter(pk=tournament.pk).update(public=True)
    play_round(tournament)
    for client in (anon_client, stranger_client):
        page = client.get(url("pairing:tournament"))
        assert page.status_code == 200
        body = page.content.decode()
        assert "Round 1" in body and "Standings" in body
        assert "Pair round" not in body and "Settings" not in body


def test_arbiters_of_a_public_tournament_still_get_the_overview(deputy_client, tournament):
    Tournament.objects.filter(pk=tournament.pk).update(public=True)
    assert "Recent changes" in deputy_client.get(url("pairing:tournament")).content.decode()
