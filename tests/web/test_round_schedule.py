"""Issue 32, defect 2: the round dates of the rating report (TRF 132) were the days the
rounds were published and could not be changed.  The tournament has a round schedule
(date and time of each round), set at creation and on the settings page, shown on the
public pages; 132 comes from it; a date outside the tournament's dates is refused."""

from __future__ import annotations

import datetime

import pytest
from django.urls import reverse

from pairing.models import AuditEntry, ScheduledRound, Tournament
from pairing.services import interchange
from tests.web.helpers import add_players, play_round, shown_version
from tests.web.test_tournament_setup import GOOD

SCHEDULE = {"round_1_date": "2026-10-01", "round_1_time": "15:00", "round_2_date": "2026-10-02",
            "round_2_time": "10:00", "round_3_date": "2026-10-02", "round_3_time": "16:30"}


def _schedule(t) -> dict[int, tuple]:
    return {r.number: (r.date.isoformat(), r.time.strftime("%H:%M") if r.time else None)
            for r in ScheduledRound.objects.filter(tournament=t)}


def _round_dates(text: str) -> list[str]:
    line = next(x for x in text.splitlines() if x.startswith("132"))
    return [line[k:k + 8] for k in range(91, len(line), 10)]


def _settings(client, t, changes: dict):
    t = Tournament.objects.get(pk=t.pk)
    return client.post(reverse("pairing:settings", args=[t.slug]),
                       {**GOOD, "slug": t.slug, "rounds": str(t.rounds), "initial_colour": t.initial_colour,
                        "seen": shown_version(t), **changes})


def test_issue_32_2_the_schedule_is_set_at_creation_and_the_report_dates_the_rounds_by_it(chief_client):
    """The rounds are published today, not on the schedule's days: 132 says the schedule's."""
    response = chief_client.post(reverse("pairing:tournament_create"), {**GOOD, **SCHEDULE})
    assert response.status_code == 302
    t = Tournament.objects.get(name="Autumn Open")
    assert _schedule(t) == {1: ("2026-10-01", "15:00"), 2: ("2026-10-02", "10:00"), 3: ("2026-10-02", "16:30")}
    add_players(t, 8)
    play_round(t)
    play_round(t)
    assert _round_dates(interchange.export_trf(t)) == ["26/10/01", "26/10/02"]


def test_issue_32_2_the_schedule_is_editable_and_the_change_is_in_the_audit_trail(chief_client, chief):
    chief_client.post(reverse("pairing:tournament_create"), {**GOOD, **SCHEDULE})
    t = Tournament.objects.get(name="Autumn Open")
    add_players(t, 8)
    play_round(t)
    response = _settings(chief_client, t, {**SCHEDULE, "round_1_time": "14:00", "round_4_date": "2026-10-03"})
    assert response.status_code == 302, response.content.decode()[:3000]
    assert _schedule(t)[1] == ("2026-10-01", "14:00") and _schedule(t)[4] == ("2026-10-03", None)
    entry = AuditEntry.objects.filter(tournament=t, detail__startswith="Settings changed").latest("at")
    assert "schedule_text" in entry.detail and "1: 2026-10-01 14:00" in str(entry.after)


def test_issue_32_2_a_date_outside_the_tournaments_dates_is_refused_and_nothing_is_written(chief_client):
    chief_client.post(reverse("pairing:tournament_create"), {**GOOD, **SCHEDULE})
    t = Tournament.objects.get(name="Autumn Open")
    before = (_schedule(t), Tournament.objects.get(pk=t.pk).version())
    response = _settings(chief_client, t, {**SCHEDULE, "round_2_date": "2026-09-30", "place": "Koper"})
    page = response.content.decode()
    assert response.status_code == 200
    assert "Round 2 on 2026-09-30: before the tournament starts (2026-10-01)." in page
    response = _settings(chief_client, t, {**SCHEDULE, "round_3_date": "2026-10-10"})
    assert "Round 3 on 2026-10-10: after the tournament ends (2026-10-09)." in response.content.decode()
    assert (_schedule(t), Tournament.objects.get(pk=t.pk).version()) == before
    assert Tournament.objects.get(pk=t.pk).place == "Piran"


def test_issue_32_2_a_new_tournament_with_a_date_outside_is_not_created(chief_client):
    response = chief_client.post(reverse("pairing:tournament_create"), {**GOOD, "round_1_date": "2026-09-01"})
    assert response.status_code == 200
    assert "before the tournament starts" in response.content.decode()
    assert not Tournament.objects.filter(name="Autumn Open").exists()


def test_issue_32_2_a_time_without_its_date_is_refused(chief_client):
    response = chief_client.post(reverse("pairing:tournament_create"), {**GOOD, "round_1_time": "15:00"})
    assert "Round 1: give the date with the time." in response.content.decode()


def test_issue_32_2_a_deputy_edits_the_schedule_too(chief_client, deputy_client, deputy):
    chief_client.post(reverse("pairing:tournament_create"), {**GOOD, **SCHEDULE})
    t = Tournament.objects.get(name="Autumn Open")
    t.deputies.add(deputy)
    assert _settings(deputy_client, t, {**SCHEDULE, "round_3_time": "17:00"}).status_code == 302
    assert _schedule(t)[3] == ("2026-10-02", "17:00")


def test_issue_32_2_a_page_without_the_schedule_leaves_it_as_it_is(chief_client):
    chief_client.post(reverse("pairing:tournament_create"), {**GOOD, **SCHEDULE})
    t = Tournament.objects.get(name="Autumn Open")
    assert _settings(chief_client, t, {"place": "Koper"}).status_code == 302
    assert len(_schedule(t)) == 3


def test_issue_32_2_the_public_home_shows_the_schedule(chief_client, anon_client):
    chief_client.post(reverse("pairing:tournament_create"), {**GOOD, **SCHEDULE})
    t = Tournament.objects.get(name="Autumn Open")
    page = anon_client.get(reverse("pairing:tournament", args=[t.slug])).content.decode()
    assert '<time datetime="2026-10-02T16:30">' in page and "Round 3" in page


@pytest.mark.django_db
def test_issue_32_2_the_import_takes_the_round_dates_into_the_schedule(chief, tournament):
    add_players(tournament, 8)
    play_round(tournament)
    ScheduledRound.objects.create(tournament=tournament, number=1, date=datetime.date(2026, 5, 4))
    text = interchange.export_trf(tournament)
    fresh = Tournament.objects.create(slug="again", name="Again", rounds=5, owner=chief)
    interchange.import_trf(fresh, text, chief, confirmations=1)
    assert _schedule(fresh) == {1: ("2026-05-04", None)}
    assert _round_dates(interchange.export_trf(fresh)) == ["26/05/04"]


def test_issue_32_2_changing_the_schedule_keeps_the_draft(chief_client):
    """The schedule pairs nobody: a draft round stays as it is."""
    from pairing.services import rounds

    chief_client.post(reverse("pairing:tournament_create"), {**GOOD, **SCHEDULE})
    t = Tournament.objects.get(name="Autumn Open")
    add_players(t, 8)
    rounds.pair_next_round(t)
    assert _settings(chief_client, t, {**SCHEDULE, "round_1_time": "16:00"}).status_code == 302
    assert Tournament.objects.get(pk=t.pk).draft_round() is not None
