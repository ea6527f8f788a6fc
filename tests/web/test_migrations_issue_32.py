"""Issue 32: the migrations keep existing tournaments as they were, and fill in what the
new fields know from the rounds already published."""

from __future__ import annotations

import pytest
from django.db import connection
from django.db.migrations.executor import MigrationExecutor

BEFORE = ("pairing", "0023_jobs")
LATE_ENTRIES = ("pairing", "0024_late_entries")


def _migrate(target):
    executor = MigrationExecutor(connection)
    executor.loader.build_graph()
    executor.migrate([target])
    executor.loader.build_graph()
    return executor.loader.project_state([target]).apps


@pytest.mark.django_db(transaction=True)
def test_issue_32_5_migration_marks_the_players_who_entered_after_the_published_rounds():
    """Two rounds published: a player with a game in round 1 is not a late entry, nor one
    with a requested bye in round 1, nor one withdrawn from round 1; a player with nothing
    in rounds 1-2 entered in round 3."""
    executor = MigrationExecutor(connection)
    leaf = executor.loader.graph.leaf_nodes("pairing")[0]
    apps = _migrate(BEFORE)
    User = apps.get_model("auth", "User")
    Tournament = apps.get_model("pairing", "Tournament")
    Player = apps.get_model("pairing", "Player")
    Round = apps.get_model("pairing", "Round")
    Game = apps.get_model("pairing", "Game")
    Bye = apps.get_model("pairing", "Bye")
    owner = User.objects.create(username="owner")
    t = Tournament.objects.create(slug="old", name="Old", rounds=5, owner=owner)
    a, b, bye, gone, late = (Player.objects.create(tournament=t, tpn=i, name=n, rating=2000 - i)
                             for i, n in enumerate(["A", "B", "Bye", "Gone", "Late"], start=1))
    Player.objects.filter(pk=gone.pk).update(withdrawn_from_round=1)
    for number in (1, 2):
        rnd = Round.objects.create(tournament=t, number=number, status="complete")
        Game.objects.create(round=rnd, board=1, white=a, black=b, result="1-0")
    Bye.objects.create(tournament=t, player=bye, round_number=1, kind="H")
    Bye.objects.create(tournament=t, player=late, round_number=3, kind="H")  # requested ahead: not a round played
    try:
        apps = _migrate(LATE_ENTRIES)
        Player = apps.get_model("pairing", "Player")
        entered = dict(Player.objects.filter(tournament_id=t.pk).values_list("name", "entered_round"))
        assert entered == {"A": None, "B": None, "Bye": None, "Gone": None, "Late": 3}
    finally:
        _migrate(leaf)


@pytest.mark.django_db(transaction=True)
def test_issue_32_2_migration_schedules_the_published_rounds_on_the_days_they_were_published():
    """The dates the reports gave so far are kept: round 1 published on 3 May (local time)
    is scheduled on 3 May, without a time; a draft is not scheduled."""
    import datetime

    from django.utils import timezone

    executor = MigrationExecutor(connection)
    leaf = executor.loader.graph.leaf_nodes("pairing")[0]
    apps = _migrate(("pairing", "0026_missed_rounds"))
    User = apps.get_model("auth", "User")
    Tournament = apps.get_model("pairing", "Tournament")
    Round = apps.get_model("pairing", "Round")
    owner = User.objects.create(username="owner")
    t = Tournament.objects.create(slug="old", name="Old", rounds=5, owner=owner)
    when = timezone.make_aware(datetime.datetime(2026, 5, 3, 21, 30))
    Round.objects.create(tournament=t, number=1, status="complete", published_at=when)
    Round.objects.create(tournament=t, number=2, status="draft")
    try:
        apps = _migrate(("pairing", "0027_round_schedule"))
        ScheduledRound = apps.get_model("pairing", "ScheduledRound")
        assert list(ScheduledRound.objects.filter(tournament_id=t.pk).values_list("number", "date", "time")) == [
            (1, datetime.date(2026, 5, 3), None)]
    finally:
        _migrate(leaf)
