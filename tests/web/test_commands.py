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


def test_no_migration_is_missing(db):
    out = io.StringIO()
    call_command("makemigrations", "--check", "--dry-run", stdout=out)
    assert "No changes detected" in out.getvalue()
