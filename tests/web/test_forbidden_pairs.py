"""Forbidden pairs: two players the arbiters decided must not be paired with each other.

Set on their own page (chief arbiter and deputies), respected by the engine, warned about
on a manual swap, kept through a TRF import and written to the TRF export (XXP)."""

from __future__ import annotations

import re

import pytest
from django.db import IntegrityError, transaction
from django.urls import reverse

from pairing.engine.trf import dump_trf, parse_trf
from pairing.models import AuditEntry, ForbiddenPair, Player, Round, Tournament
from pairing.services import interchange, rounds, snapshot
from pairing.services.forbidden_pairs import forbid_pair
from tests.web.helpers import add_players, confirm, confirmation_page, open_session


def page_url(t):
    return reverse("pairing:forbidden_pairs", args=[t.slug])


def delete_url(t, pair):
    return reverse("pairing:forbidden_pair_delete", args=[t.slug, pair.pk])


def forbid(client, t, a, b, **kw):
    return client.post(page_url(t), {"a": a.pk, "b": b.pk}, **kw)


def preview_boards(client, t, number=1) -> list[tuple[str, str]]:
    """(White, Black) names per board as the preview page shows them."""
    page = client.get(reverse("pairing:round", args=[t.slug, number])).content.decode()
    rows = re.findall(r'<tr id="board-\d+".*?</tr>', page, flags=re.S)
    return [tuple(n.strip() for n in re.findall(r'<td class="name">\s*(.*?)\s*</td>', row)) for row in rows]


def pairs_in_db(t) -> set[frozenset[str]]:
    return {
        frozenset((p.player_a.name, p.player_b.name))
        for p in ForbiddenPair.objects.filter(tournament=t).select_related("player_a", "player_b")
    }


# ------------------------------------------------------------------ who may


@pytest.mark.parametrize("who", ["chief_client", "deputy_client"])
def test_an_arbiter_adds_lists_and_removes_a_pair(request, who, tournament, players):
    client = request.getfixturevalue(who)
    response = forbid(client, tournament, players[3], players[0], follow=True)
    body = response.content.decode()
    assert "Player 04 and Player 01 will not be paired with each other." in body
    table = re.search(r'<table class="list" id="forbidden-table">.*?</table>', body, flags=re.S).group(0)
    assert "1. Player 01" in table and "4. Player 04" in table
    pair = ForbiddenPair.objects.get()
    assert (pair.player_a, pair.player_b) == (players[0], players[3])  # stored lower id first

    response = client.post(delete_url(tournament, pair), follow=True)
    body = response.content.decode()
    assert "Player 01 and Player 04 may be paired again." in body
    assert "No forbidden pairs." in body
    assert not ForbiddenPair.objects.exists()


def test_another_arbiter_is_refused(stranger_client, chief, tournament, players):
    pair = forbid_pair(tournament, players[0], players[1], chief)
    # a private tournament: 404, as if it did not exist
    assert stranger_client.get(page_url(tournament)).status_code == 404
    assert forbid(stranger_client, tournament, players[2], players[3]).status_code == 404
    assert stranger_client.post(delete_url(tournament, pair)).status_code == 404
    assert ForbiddenPair.objects.count() == 1
    assert AuditEntry.objects.filter(action="forbidden").count() == 1


def test_anonymous_visitors_are_sent_to_the_login_page(anon_client, chief, tournament, players):
    pair = forbid_pair(tournament, players[0], players[1], chief)
    for response in (
        anon_client.get(page_url(tournament)),
        forbid(anon_client, tournament, players[2], players[3]),
        anon_client.post(delete_url(tournament, pair)),
    ):
        assert response.status_code == 302 and response["Location"].startswith(reverse("login"))
    assert ForbiddenPair.objects.count() == 1


def test_an_unknown_tournament_is_404(chief_client, tournament, players):
    assert chief_client.get(reverse("pairing:forbidden_pairs", args=["no-such-event"])).status_code == 404
    assert chief_client.post(reverse("pairing:forbidden_pair_delete", args=["no-such-event", 1])).status_code == 404


def test_removing_is_post_only(chief_client, chief, tournament, players):
    pair = forbid_pair(tournament, players[0], players[1], chief)
    assert chief_client.get(delete_url(tournament, pair)).status_code == 405
    assert ForbiddenPair.objects.count() == 1


def test_a_pair_of_another_tournament_cannot_be_removed_here(chief_client, chief, tournament, players):
    other = Tournament.objects.create(slug="other", name="Other", owner=chief)
    a, b = add_players(other, 2)
    theirs = forbid_pair(other, a, b, chief)
    response = chief_client.post(delete_url(tournament, theirs), follow=True)
    assert "no longer exists" in response.content.decode()
    assert ForbiddenPair.objects.filter(pk=theirs.pk).exists()


def test_the_players_page_links_to_the_forbidden_pairs(chief_client, tournament, players):
    assert page_url(tournament) in chief_client.get(reverse("pairing:players", args=[tournament.slug])).content.decode()


# ------------------------------------------------------------------ bad input


def test_the_same_player_twice_is_refused(chief_client, tournament, players):
    response = forbid(chief_client, tournament, players[0], players[0])
    assert response.status_code == 400
    assert "Choose two different players." in response.content.decode()
    assert not ForbiddenPair.objects.exists()
    assert not AuditEntry.objects.exists()


def test_a_player_of_another_tournament_is_refused(chief_client, chief, tournament, players):
    other = Tournament.objects.create(slug="other", name="Other", owner=chief)
    (outsider,) = add_players(other, 1)
    response = forbid(chief_client, tournament, players[0], outsider)
    assert response.status_code == 400
    assert "Choose a player of this tournament." in response.content.decode()
    assert not ForbiddenPair.objects.exists()
    assert not AuditEntry.objects.exists()


@pytest.mark.parametrize("order", ["same", "reversed"])
def test_a_pair_already_forbidden_is_refused_in_either_order(chief_client, chief, tournament, players, order):
    forbid_pair(tournament, players[0], players[1], chief)
    a, b = (players[0], players[1]) if order == "same" else (players[1], players[0])
    response = forbid(chief_client, tournament, a, b)
    assert response.status_code == 400
    assert f"{a.name} and {b.name} are already a forbidden pair." in response.content.decode()
    assert ForbiddenPair.objects.count() == 1
    assert AuditEntry.objects.filter(action="forbidden").count() == 1


def test_missing_players_are_refused(chief_client, tournament, players):
    response = chief_client.post(page_url(tournament), {"a": players[0].pk})
    assert response.status_code == 400
    assert "Choose two players." in response.content.decode()
    assert not ForbiddenPair.objects.exists()


def test_the_service_refuses_what_the_form_refuses(chief, tournament, players):
    other = Tournament.objects.create(slug="other", name="Other", owner=chief)
    (outsider,) = add_players(other, 1)
    forbid_pair(tournament, players[0], players[1], chief)
    for a, b, message in [
        (players[2], players[2], "two different players"),
        (players[2], outsider, "not a player of this tournament"),
        (players[1], players[0], "already a forbidden pair"),
    ]:
        with pytest.raises(ValueError, match=message):
            forbid_pair(tournament, a, b, chief)
    assert ForbiddenPair.objects.count() == 1
    assert AuditEntry.objects.count() == 1


def test_the_database_refuses_a_pair_out_of_order_or_twice(tournament, players):
    low, high = players[0], players[1]
    assert low.pk < high.pk
    with pytest.raises(IntegrityError), transaction.atomic():
        ForbiddenPair.objects.create(tournament=tournament, player_a=high, player_b=low)
    with pytest.raises(IntegrityError), transaction.atomic():
        ForbiddenPair.objects.create(tournament=tournament, player_a=low, player_b=low)
    ForbiddenPair.objects.create(tournament=tournament, player_a=low, player_b=high)
    with pytest.raises(IntegrityError), transaction.atomic():
        ForbiddenPair.objects.create(tournament=tournament, player_a=low, player_b=high)


# ------------------------------------------------------------------ the pairing respects it


def test_the_engine_does_not_pair_a_forbidden_pair(chief_client, tournament, players):
    """Round 1 of ten players pairs No 1 with No 6 on board 1; forbidden, No 1 gets
    someone else and No 6 too."""
    pair_url = reverse("pairing:pair_next", args=[tournament.slug])
    chief_client.post(pair_url)
    assert ("Player 01", "Player 06") in preview_boards(chief_client, tournament)
    chief_client.post(reverse("pairing:round_discard", args=[tournament.slug, 1]))

    forbid(chief_client, tournament, players[0], players[5])
    chief_client.post(pair_url)
    boards = preview_boards(chief_client, tournament)
    assert len(boards) == 5
    assert all({"Player 01", "Player 06"} != set(b) for b in boards)
    assert any("Player 01" in b for b in boards) and any("Player 06" in b for b in boards)
    assert "are a forbidden pair" not in chief_client.get(reverse("pairing:round", args=[tournament.slug, 1])).content.decode()


def test_the_snapshot_carries_the_pairs_as_player_ids(chief, tournament, players):
    forbid_pair(tournament, players[4], players[2], chief)
    assert snapshot.build_snapshot(tournament).forbidden == frozenset({frozenset({players[2].pk, players[4].pk})})


def test_adding_or_removing_a_pair_discards_the_draft_and_is_audited(chief_client, chief, tournament, players):
    rounds.pair_next_round(tournament, chief)
    page = chief_client.get(page_url(tournament)).content.decode()
    assert "Round 1 is a draft" in page
    forbid(chief_client, tournament, players[0], players[5])
    assert not Round.objects.exists()
    entry = AuditEntry.objects.filter(action="forbidden").get()
    assert entry.user == chief
    assert entry.detail == "Player 01 and Player 06 must not be paired with each other."
    assert entry.before == {"forbidden_pairs": []}
    assert entry.after == {"forbidden_pairs": ["No 1 Player 01 / No 6 Player 06"]}
    assert AuditEntry.objects.filter(action="discard", detail__contains="A forbidden pair was added.").exists()

    rounds.pair_next_round(tournament, chief)
    chief_client.post(delete_url(tournament, ForbiddenPair.objects.get()))
    assert not Round.objects.exists()
    removed = AuditEntry.objects.filter(action="forbidden").first()  # newest first
    assert removed.detail == "Player 01 and Player 06 may be paired again."
    assert removed.before == {"forbidden_pairs": ["No 1 Player 01 / No 6 Player 06"]}
    assert removed.after == {"forbidden_pairs": []}
    assert AuditEntry.objects.filter(action="discard", detail__contains="A forbidden pair was removed.").exists()
    audit = chief_client.get(reverse("pairing:audit", args=[tournament.slug]) + "?kind=forbidden").content.decode()
    assert "may be paired again" in audit and "must not be paired" in audit


def test_a_swap_into_a_forbidden_pair_warns(chief_client, chief, tournament, players):
    rnd = rounds.pair_next_round(tournament, chief)
    g1, g2 = rnd.games()[:2]
    # forbid board 1's White with board 2's White, then put them on one board
    ForbiddenPair.objects.create(
        tournament=tournament, player_a=min(g1.white, g2.white, key=lambda p: p.pk),
        player_b=max(g1.white, g2.white, key=lambda p: p.pk),
    )
    open_session(chief_client, tournament)
    response = chief_client.post(
        reverse("pairing:round_swap", args=[tournament.slug, 1]), {"a": g1.black_id, "b": g2.white_id}
    )
    warning = f"Board 1: {g1.white.name} and {g2.white.name} are a forbidden pair"
    assert confirmation_page(response)["level"] == 3 and warning in response.content.decode()
    assert not AuditEntry.objects.filter(action="swap", detail__contains="swapped").exists()  # nothing kept yet
    response = confirm(chief_client, response)
    body = chief_client.get(response.url).content.decode()
    assert warning in body
    assert body.count(warning) == 1  # once, in the draft's standing warnings (rough edge 4)
    assert "Confirmed despite 1 rule warning" in body
    assert warning in AuditEntry.objects.filter(action="swap", detail__contains="swapped").get().detail


# ------------------------------------------------------------------ TRF


def test_trf_export_writes_the_pairs_and_reads_back_identically(chief_client, chief, tournament, players):
    forbid_pair(tournament, players[0], players[5], chief)
    forbid_pair(tournament, players[9], players[2], chief)
    text = chief_client.get(reverse("pairing:trf_export", args=[tournament.slug])).content.decode()
    assert "XXP 1 6\n" in text and "XXP 3 10\n" in text
    parsed = parse_trf(text)
    assert parsed.forbidden == frozenset({frozenset({1, 6}), frozenset({3, 10})})
    assert dump_trf(parsed) == text


def test_trf_export_names_players_by_their_pairing_numbers(chief, tournament, players):
    """TPNs, not database ids: a late, higher-rated entry renumbers everyone."""
    forbid_pair(tournament, players[0], players[1], chief)
    Player.objects.create(tournament=tournament, name="Late, Strong", rating=2700)
    assert "XXP 2 3\n" in interchange.export_trf(tournament)


def test_trf_import_keeps_the_pairs(chief_client, chief, tournament, players):
    forbid_pair(tournament, players[0], players[5], chief)
    forbid_pair(tournament, players[2], players[9], chief)
    text = interchange.export_trf(tournament)
    fresh = Tournament.objects.create(slug="continued", name="Continued", owner=chief)
    response = chief_client.post(reverse("pairing:trf_import", args=["continued"]), {"text": text})
    assert response.status_code == 302
    assert pairs_in_db(fresh) == {frozenset({"Player 01", "Player 06"}), frozenset({"Player 03", "Player 10"})}
    assert all(p.player_a_id < p.player_b_id for p in ForbiddenPair.objects.filter(tournament=fresh))
    page = chief_client.get(page_url(fresh)).content.decode()
    assert "1. Player 01" in page and "6. Player 06" in page
    entry = AuditEntry.objects.filter(tournament=fresh, action="import").get()
    assert entry.detail.endswith("2 forbidden pairs.")
    # round 1 respects them, and the export writes them again
    rnd = rounds.pair_next_round(fresh, chief)
    met = {frozenset((g.white.name, g.black.name)) for g in rnd.games()}
    assert not met & pairs_in_db(fresh)
    fresh_text = interchange.export_trf(fresh)
    assert parse_trf(fresh_text).forbidden == parse_trf(text).forbidden


def test_trf_import_of_a_for_line_with_three_players(chief_client, chief, tournament, players):
    text = interchange.export_trf(tournament) + "FOR 2 4 7\n"
    fresh = Tournament.objects.create(slug="continued", name="Continued", owner=chief)
    chief_client.post(reverse("pairing:trf_import", args=["continued"]), {"text": text})
    assert pairs_in_db(fresh) == {
        frozenset({"Player 02", "Player 04"}), frozenset({"Player 02", "Player 07"}),
        frozenset({"Player 04", "Player 07"}),
    }


def test_deleting_a_player_drops_their_pairs_and_says_so(chief_client, chief, tournament, players):
    forbid_pair(tournament, players[0], players[5], chief)
    chief_client.post(reverse("pairing:player_delete", args=[tournament.slug, players[5].pk]), {"confirm": "yes"})
    assert not ForbiddenPair.objects.exists()
    entry = AuditEntry.objects.filter(action="player").get()
    assert entry.before["forbidden_pairs"] == ["No 1 Player 01 / No 6 Player 06"]
