"""Issue 37: events.  Every tournament that existed before events becomes the one section
of an event of its own, with nothing of it lost; a tournament created later without an
event gets one too."""

from __future__ import annotations

import datetime

import pytest
from django.db import connection
from django.db.migrations.executor import MigrationExecutor

BEFORE = ("pairing", "0030_pairing_system_dutch")
EVENTS = ("pairing", "0031_events")


def _migrate(target):
    executor = MigrationExecutor(connection)
    executor.loader.build_graph()
    executor.migrate([target])
    executor.loader.build_graph()
    return executor.loader.project_state([target]).apps


def _rows(apps, model: str) -> list[dict]:
    """Every row of ``model`` as stored, without the fields the migration adds."""
    new = {"event", "event_id", "entry_limit", "checkin_closed_at"}
    rows = apps.get_model("pairing", model).objects.order_by("pk").values()
    return [{k: v for k, v in row.items() if k not in new} for row in rows]


@pytest.mark.django_db(transaction=True)
def test_issue_37_migration_makes_each_tournament_an_event_of_one_section_and_loses_nothing():
    executor = MigrationExecutor(connection)
    leaf = executor.loader.graph.leaf_nodes("pairing")[0]
    apps = _migrate(BEFORE)
    User = apps.get_model("auth", "User")
    Tournament = apps.get_model("pairing", "Tournament")
    Player = apps.get_model("pairing", "Player")
    Round = apps.get_model("pairing", "Round")
    Game = apps.get_model("pairing", "Game")
    AuditEntry = apps.get_model("pairing", "AuditEntry")
    chief, deputy = User.objects.create(username="chief"), User.objects.create(username="deputy")
    spring = Tournament.objects.create(
        slug="spring", name="Spring Open", place="Bled", rounds=5, owner=chief, public=True,
        start_date=datetime.date(2026, 4, 1), end_date=datetime.date(2026, 4, 5), revision=7,
    )
    spring.deputies.add(deputy)
    junior = Tournament.objects.create(slug="junior", name="Junior", rounds=3, owner=deputy)
    a = Player.objects.create(tournament=spring, tpn=1, name="A", rating=2000)
    b = Player.objects.create(tournament=spring, tpn=2, name="B", rating=1900)
    Player.objects.create(tournament=junior, tpn=1, name="C", rating=1500)
    rnd = Round.objects.create(tournament=spring, number=1, status="complete")
    Game.objects.create(round=rnd, board=1, white=a, black=b, result="1-0")
    AuditEntry.objects.create(tournament=spring, action="result", detail="Board 1: 1-0")
    before = {m: _rows(apps, m) for m in ("Tournament", "Player", "Round", "Game", "AuditEntry")}
    try:
        apps = _migrate(EVENTS)
        Event = apps.get_model("pairing", "Event")
        Tournament = apps.get_model("pairing", "Tournament")
        assert {m: _rows(apps, m) for m in before} == before
        events = {e.slug: e for e in Event.objects.all()}
        assert set(events) == {"spring", "junior"}
        e = events["spring"]
        assert (e.name, e.place, e.start_date, e.end_date, e.owner_id) == (
            "Spring Open", "Bled", datetime.date(2026, 4, 1), datetime.date(2026, 4, 5), chief.pk)
        assert list(Tournament.objects.filter(event=e).values_list("slug", flat=True)) == ["spring"]
        assert Tournament.objects.get(slug="junior").event.owner_id == deputy.pk
        assert Tournament.objects.get(slug="spring").deputies.get().username == "deputy"
        # and back: the events go, the tournaments stay as they were
        apps = _migrate(BEFORE)
        assert {m: _rows(apps, m) for m in before} == before
    finally:
        _migrate(leaf)


def test_a_tournament_created_without_an_event_gets_an_event_of_its_own(tournament):
    e = tournament.event
    assert e is not None
    assert (e.slug, e.name, e.place, e.owner_id) == ("spring-open", "Spring Open", "Bled", tournament.owner_id)
    assert list(e.sections.all()) == [tournament]


def test_an_event_address_already_taken_gets_a_number(chief):
    from pairing.models import Event, Tournament

    Event.objects.create(slug="autumn", name="Autumn", owner=chief)
    t = Tournament.objects.create(slug="autumn", name="Autumn Open", owner=chief)
    assert t.event.slug == "autumn-2"
