"""The Django admin: the site administrator sees everything; what the app checks, locks
and logs (results, rounds, players, byes, the trail itself) cannot be changed there;
owner and deputies can, and that is written to the tournament's audit trail."""

from __future__ import annotations

import pytest
from django.contrib.auth import get_user_model
from django.test import Client
from django.urls import reverse

from pairing.models import AuditAction, AuditEntry, Bye, ByeKind, Game, GameResult, Player, Round, Tournament
from tests.web.helpers import play_round


@pytest.fixture
def site_admin(db):
    return get_user_model().objects.create_superuser("siteadmin", password="admin-pass-9")


@pytest.fixture
def admin_client(site_admin) -> Client:
    c = Client()
    c.force_login(site_admin)
    return c


@pytest.fixture
def played(tournament, players, chief):
    play_round(tournament, chief)
    Bye.objects.create(tournament=tournament, player=players[0], round_number=3, kind=ByeKind.HALF)
    return tournament


def change_url(obj) -> str:
    return reverse(f"admin:pairing_{obj._meta.model_name}_change", args=[obj.pk])


def test_every_admin_page_shows(admin_client, played):
    game = Game.objects.first()
    objects = [played, Player.objects.first(), game.round, Bye.objects.first(), AuditEntry.objects.first()]
    for obj in objects:
        model = obj._meta.model_name
        assert admin_client.get(reverse(f"admin:pairing_{model}_changelist")).status_code == 200, model
        assert admin_client.get(change_url(obj)).status_code == 200, model


def test_a_result_cannot_be_changed_in_the_admin(admin_client, played):
    """A result corrected there would not complete its round nor reach the trail."""
    rnd = Round.objects.get(tournament=played, number=1)
    game = rnd.game_set.order_by("board").first()
    logged = AuditEntry.objects.count()
    data = {
        "game_set-TOTAL_FORMS": "1", "game_set-INITIAL_FORMS": "1",
        "game_set-0-id": str(game.pk), "game_set-0-round": str(rnd.pk), "game_set-0-result": GameResult.BLACK_WINS,
        "status": rnd.status, "number": rnd.number, "tournament": played.pk,
    }
    response = admin_client.post(change_url(rnd), data)
    assert response.status_code == 403
    assert Game.objects.get(pk=game.pk).result == game.result
    assert AuditEntry.objects.count() == logged


@pytest.mark.parametrize("model", ["round", "player", "bye", "auditentry", "game"])
def test_nothing_the_app_logs_can_be_added_or_deleted_in_the_admin(admin_client, played, model):
    counts = {m: m.objects.count() for m in (Round, Player, Bye, AuditEntry, Game)}
    if model != "game":  # games have no admin page of their own, only the round's list
        assert admin_client.get(reverse(f"admin:pairing_{model}_add")).status_code == 403
    obj = {"round": Round, "player": Player, "bye": Bye, "auditentry": AuditEntry, "game": Game}[model].objects.first()
    delete = reverse(f"admin:pairing_{model}_delete", args=[obj.pk]) if model != "game" else None
    if delete:
        assert admin_client.post(delete, {"post": "yes"}).status_code == 403
    assert {m: m.objects.count() for m in counts} == counts


def test_the_player_page_in_the_admin_is_read_only(admin_client, played):
    player = Player.objects.get(tournament=played, tpn=1)
    response = admin_client.post(change_url(player), {"name": "Renamed", "rating": 1000, "tpn": 1, "tournament": played.pk})
    assert response.status_code == 403
    assert Player.objects.get(pk=player.pk).name == player.name


def test_a_new_owner_and_deputies_set_in_the_admin_are_in_the_audit_trail(admin_client, played, chief, deputy):
    newcomer = get_user_model().objects.create_user("newchief", password="x-pass-123456")
    response = admin_client.post(
        change_url(played),
        {
            "owner": newcomer.pk, "deputies": [chief.pk],
            "player_set-TOTAL_FORMS": "0", "player_set-INITIAL_FORMS": str(played.player_set.count()),
        },
    )
    assert response.status_code == 302, response.content.decode()[:2000]
    t = Tournament.objects.get(pk=played.pk)
    assert t.owner == newcomer and t.deputy_names() == ["chief"]
    entry = AuditEntry.objects.filter(tournament=t).order_by("-pk").first()
    assert entry.action == AuditAction.SETTINGS
    assert entry.username == "siteadmin"
    assert entry.before == {"owner": "chief", "deputies": ["deputy"]}
    assert entry.after == {"owner": "newchief", "deputies": ["chief"]}
    # the new owner now runs it; the old deputy no longer can
    c = Client()
    c.force_login(newcomer)
    assert c.get(reverse("pairing:tournament", args=[t.slug])).status_code == 200
    c.force_login(deputy)
    assert c.get(reverse("pairing:players", args=[t.slug])).status_code in (403, 404)


def test_only_owner_and_deputies_can_be_changed_in_the_admin(admin_client, played, chief):
    """Settings go through the app's settings page (checked, drafts discarded, logged)."""
    admin_client.post(
        change_url(played),
        {
            "owner": chief.pk, "deputies": [], "name": "Renamed", "rounds": 11, "public": "on",
            "player_set-TOTAL_FORMS": "0", "player_set-INITIAL_FORMS": str(played.player_set.count()),
        },
    )
    t = Tournament.objects.get(pk=played.pk)
    assert (t.name, t.rounds, t.public) == (played.name, played.rounds, played.public)
    assert t.deputy_names() == []
    assert AuditEntry.objects.filter(tournament=t, action=AuditAction.DEPUTY).latest("pk").after == {"deputies": []}


def test_saving_the_admin_page_unchanged_logs_nothing(admin_client, played, chief, deputy):
    logged = AuditEntry.objects.count()
    response = admin_client.post(
        change_url(played),
        {
            "owner": chief.pk, "deputies": [deputy.pk],
            "player_set-TOTAL_FORMS": "0", "player_set-INITIAL_FORMS": str(played.player_set.count()),
        },
    )
    assert response.status_code == 302
    assert AuditEntry.objects.count() == logged


def test_a_tournament_with_games_can_be_deleted_in_the_admin(admin_client, played):
    response = admin_client.post(reverse("admin:pairing_tournament_delete", args=[played.pk]), {"post": "yes"})
    assert response.status_code == 302
    assert not Tournament.objects.filter(pk=played.pk).exists()
    assert not Game.objects.exists() and not Player.objects.exists()


def test_an_arbiter_without_staff_rights_cannot_open_the_admin(chief_client, played):
    response = chief_client.get(reverse("admin:pairing_tournament_changelist"))
    assert response.status_code == 302 and "/admin/login/" in response["Location"]
