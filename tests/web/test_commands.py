"""The demo command and the migrations check."""

from __future__ import annotations

import io

from django.core.management import call_command

from pairing.models import Round, RoundStatus, Tournament


def test_demo_builds_a_tournament_in_progress_and_is_idempotent(db, settings):
    settings.DEBUG = True  # as `make run` (the test runner turns DEBUG off)
    out = io.StringIO()
    call_command("demo", stdout=out)
    call_command("demo", stdout=out)
    assert "password 'dubov-demo'" in out.getvalue()
    t = Tournament.objects.get(slug="demo-open")
    assert t.player_set.count() == 40 and t.rounds == 9
    statuses = list(t.round_set.order_by("number").values_list("status", flat=True))
    assert statuses == [RoundStatus.COMPLETE] * 3 + [RoundStatus.PUBLISHED]
    done, total = Round.objects.get(tournament=t, number=4).progress()
    assert 0 < done < total


def test_demo_has_a_dutch_tournament_of_the_same_size_with_a_draft_to_read(db, settings):
    """The Dutch section of the demo (issue 34): 40 players, 9 rounds, the FIDE Dutch
    system, rounds 1-4 complete and round 5 a draft with the Dutch explanation; a run on a
    database that has only the Dubov demo adds it, and a second run changes nothing."""
    settings.DEBUG = True
    call_command("demo", stdout=io.StringIO())
    Tournament.objects.filter(slug="demo-dutch").delete()  # a database from before the Dutch demo
    out = io.StringIO()
    call_command("demo", stdout=out)
    assert "Demo tournament already there." in out.getvalue() and "Dutch demo tournament created." in out.getvalue()
    call_command("demo", stdout=out)
    t = Tournament.objects.get(slug="demo-dutch")
    assert (t.system, t.player_set.count(), t.rounds, t.public) == ("dutch", 40, 9, True)
    statuses = list(t.round_set.order_by("number").values_list("status", flat=True))
    assert statuses == [RoundStatus.COMPLETE] * 4 + [RoundStatus.DRAFT]
    draft = t.round_set.get(number=5)
    assert draft.explanation["system"] == "dutch" and draft.explanation["brackets"]
    assert t.player_set.filter(withdrawn_from_round=4).count() == 1
    assert Tournament.objects.filter(slug__in=["demo-open", "demo-dutch"]).count() == 2


def test_no_migration_is_missing(db):
    out = io.StringIO()
    call_command("makemigrations", "--check", "--dry-run", stdout=out)
    assert "No changes detected" in out.getvalue()
