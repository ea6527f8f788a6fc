"""A background job's page, and "Check this tournament" (the checker's findings as a
task), per persona: the chief arbiter, a deputy, another arbiter, a staff account,
anonymous.  The job is run in-process here (its handler through ``jobs.run``); the
real worker process is tested in test_background_worker.py."""

from __future__ import annotations

import re

import pytest
from django.contrib.auth import get_user_model
from django.test import Client
from django.urls import reverse

from pairing import tasks
from pairing.models import Job, JobKind, JobStatus, Tournament, WorkerBeat
from pairing.services import jobs, tournament_check
from tests.web.helpers import hand_changed_round
from tests.web.worker_process import import_generated


@pytest.fixture
def checked(tournament):
    """Five rounds played (a generated event of 20 players)."""
    return import_generated(tournament, 20, 5)


def check_url(t) -> str:
    return reverse("pairing:check_tournament", args=[t.slug])


def job_url(job) -> str:
    return reverse("pairing:job", args=[job.pk])


def run(job: Job) -> Job:
    jobs.run(job.pk, tournament_check.run, worker_id="test")
    job.refresh_from_db()
    return job


# ------------------------------------------------------------------ starting a check


def test_the_chief_arbiter_starts_a_check_and_is_taken_to_its_progress(chief_client, checked):
    response = chief_client.post(check_url(checked))
    job = Job.objects.get()
    assert response.status_code == 302 and response["Location"] == job_url(job)
    assert (job.kind, job.status, job.tournament, job.user.username) == (JobKind.TOURNAMENT_CHECK, JobStatus.QUEUED,
                                                                          checked, "chief")


def test_a_deputy_starts_a_check_too(deputy_client, checked):
    assert deputy_client.post(check_url(checked)).status_code == 302
    assert Job.objects.get().user.username == "deputy"


def test_a_second_click_goes_to_the_check_already_running(chief_client, deputy_client, checked):
    first = chief_client.post(check_url(checked))
    second = deputy_client.post(check_url(checked))
    assert first["Location"] == second["Location"]
    assert Job.objects.count() == 1


@pytest.mark.parametrize("public, status", [(False, 404), (True, 403)])
def test_another_arbiter_cannot_start_a_check(stranger_client, checked, public, status):
    Tournament.objects.filter(pk=checked.pk).update(public=public)
    assert stranger_client.post(check_url(checked)).status_code == status
    assert not Job.objects.exists()


def test_an_anonymous_visitor_is_sent_to_log_in(anon_client, checked):
    response = anon_client.post(check_url(checked))
    assert response.status_code == 302 and response["Location"].startswith(reverse("login"))
    assert not Job.objects.exists()


def test_a_check_is_started_by_post_only(chief_client, checked):
    assert chief_client.get(check_url(checked)).status_code == 405


def test_a_round_robin_has_nothing_to_re_pair(chief_client, checked):
    Tournament.objects.filter(pk=checked.pk).update(system="round-robin")
    response = chief_client.post(check_url(checked), follow=True)
    assert "paired by its Berger table" in response.content.decode()
    assert not Job.objects.exists()


def test_the_fide_mode_page_offers_the_check(chief_client, checked):
    page = chief_client.get(reverse("pairing:fide_mode", args=[checked.slug])).content.decode()
    assert 'id="check-tournament-button"' in page
    assert check_url(checked) in page


def test_the_overview_offers_the_check_before_the_rating_report(chief_client, checked):
    page = chief_client.get(reverse("pairing:tournament", args=[checked.slug])).content.decode()
    assert 'id="check-before-report"' in page
    assert page.index('id="trf-copy"') < page.index('id="check-before-report"')


def test_a_tournament_without_a_complete_round_is_not_offered_a_check(chief_client, tournament):
    page = chief_client.get(reverse("pairing:fide_mode", args=[tournament.slug])).content.decode()
    assert "No round is complete yet" in page and 'id="check-tournament-button"' not in page


# ------------------------------------------------------------------ the findings


def test_a_tournament_paired_by_the_engine_checks_clean(chief_client, checked):
    job = run(tasks.start(JobKind.TOURNAMENT_CHECK, user=checked.owner, tournament=checked))
    assert job.status == JobStatus.DONE
    assert job.result["ok"] and job.result["differing"] == [] and job.result["standings"] == []
    assert job.result["command"] == "python -m pairing.engine --dubov spring-open.trf -c"
    page = chief_client.get(job_url(job)).content.decode()
    assert "Every one of the 5 rounds is paired as the engine pairs it" in page
    assert page.count('class="differs"') == 0


def test_a_round_changed_by_hand_is_a_finding_with_the_checkers_words(chief_client, checked):
    Tournament.objects.filter(pk=checked.pk).update(rounds=7)
    checked.refresh_from_db()
    board = hand_changed_round(checked)  # round 6: board 1's colours reversed
    job = run(tasks.start(JobKind.TOURNAMENT_CHECK, user=checked.owner, tournament=checked))
    assert not job.result["ok"] and job.result["differing"] == [6]
    round6 = job.result["rounds"][5]
    white, black = board.white.tpn, board.black.tpn
    assert round6["lines"] == [f"board 1: engine {white}-{black}, file {black}-{white} (colours swapped)"]
    assert job.result["summary"] == "1 of 6 rounds differ"
    page = chief_client.get(job_url(job)).content.decode()
    assert "The engine pairs these rounds differently: 6." in page
    assert f"engine {white}-{black}, file {black}-{white} (colours swapped)" in page


# ------------------------------------------------------------------ the job's page


def test_the_job_page_polls_while_the_job_is_open_and_refreshes_itself_without_javascript(chief_client, checked):
    job = tasks.start(JobKind.TOURNAMENT_CHECK, user=checked.owner, tournament=checked)
    page = chief_client.get(job_url(job)).content.decode()
    assert f'hx-get="{job_url(job)}?on=page"' in page and 'hx-trigger="every 1s"' in page
    head = page[: page.index("</head>")]
    assert '<noscript><meta http-equiv="refresh" content="2"></noscript>' in head
    assert "Waiting for the worker to start it." in page
    assert "waiting for the worker" in page


def test_the_job_page_says_when_no_worker_is_running(chief_client, checked):
    job = tasks.start(JobKind.TOURNAMENT_CHECK, user=checked.owner, tournament=checked)
    assert 'id="no-worker"' in chief_client.get(job_url(job)).content.decode()
    WorkerBeat.objects.create(worker_id="w", seen_at=job.created_at)
    assert 'id="no-worker"' not in chief_client.get(job_url(job)).content.decode()


def test_the_htmx_poll_gets_the_progress_fragment_with_the_step_in_words(chief_client, checked):
    job = tasks.start(JobKind.TOURNAMENT_CHECK, user=checked.owner, tournament=checked)
    Job.objects.filter(pk=job.pk).update(status=JobStatus.RUNNING, done=17, total=40, step="rounds")
    response = chief_client.get(job_url(job) + "?on=page", HTTP_HX_REQUEST="true")
    fragment = response.content.decode()
    assert "<html" not in fragment
    assert f'hx-get="{job_url(job)}?on=page"' in fragment  # the next poll is the page's too
    assert "Round 17 of 40 checked." in fragment
    assert re.search(r'<progress id="job-bar" max="40" value="17">42%</progress>', fragment)
    assert "HX-Refresh" not in response


def test_the_last_poll_of_the_job_page_reloads_it_with_the_result(chief_client, checked):
    job = run(tasks.start(JobKind.TOURNAMENT_CHECK, user=checked.owner, tournament=checked))
    response = chief_client.get(job_url(job) + "?on=page", HTTP_HX_REQUEST="true")
    assert response["HX-Refresh"] == "true"
    assert "hx-trigger" not in response.content.decode()  # polling stops
    page = chief_client.get(job_url(job)).content.decode()
    assert "http-equiv" not in page and 'id="check-findings"' in page


def test_the_overview_shows_a_running_check(chief_client, checked):
    job = tasks.start(JobKind.TOURNAMENT_CHECK, user=checked.owner, tournament=checked)
    Job.objects.filter(pk=job.pk).update(status=JobStatus.RUNNING, done=3, total=5, step="rounds")
    page = chief_client.get(reverse("pairing:tournament", args=[checked.slug])).content.decode()
    assert f'id="job-{job.pk}"' in page and "Round 3 of 5 checked." in page
    jobs.finish(job, JobStatus.DONE, result={})
    page = chief_client.get(reverse("pairing:tournament", args=[checked.slug])).content.decode()
    assert f'id="job-{job.pk}"' not in page


def test_a_failed_job_shows_its_error(chief_client, checked):
    job = tasks.start(JobKind.TOURNAMENT_CHECK, user=checked.owner, tournament=checked)
    jobs.fail(job, "The worker running this task stopped.")
    page = chief_client.get(job_url(job)).content.decode()
    assert 'id="job-error"' in page and "The worker running this task stopped." in page


@pytest.fixture
def a_job(checked):
    return tasks.start(JobKind.TOURNAMENT_CHECK, user=checked.owner, tournament=checked)


def test_a_deputy_follows_the_chiefs_job(deputy_client, a_job):
    assert deputy_client.get(job_url(a_job)).status_code == 200


def test_another_arbiter_cannot_see_a_job(stranger_client, a_job):
    assert stranger_client.get(job_url(a_job)).status_code == 404


def test_a_staff_account_cannot_see_a_tournaments_job_it_is_not_arbiter_of(a_job):
    staff = get_user_model().objects.create_user("admin", password="x", is_staff=True)
    client = Client()
    client.force_login(staff)
    assert client.get(job_url(a_job)).status_code == 404


def test_an_anonymous_visitor_is_sent_to_log_in_from_a_job(anon_client, a_job):
    response = anon_client.get(job_url(a_job))
    assert response.status_code == 302 and response["Location"].startswith(reverse("login"))


def test_an_unknown_job_is_404(chief_client, db):
    assert chief_client.get(reverse("pairing:job", args=[999])).status_code == 404


# ------------------------------------------------------------------ old jobs deleted


def test_the_worker_deletes_finished_jobs_older_than_the_days_kept_and_keeps_the_rest(settings, chief_client, tournament):
    import datetime

    from django.utils import timezone
    from django_tasks_db.models import DBTaskResult

    from pairing import worker

    settings.JOB_KEEP_DAYS = 30
    settings.RATING_REFRESH_AT = None
    now = timezone.now()
    old = now - datetime.timedelta(days=31)
    recent = now - datetime.timedelta(days=29)

    def job(status, finished_at):
        return Job.objects.create(kind=JobKind.TOURNAMENT_CHECK, tournament=tournament, status=status,
                                  finished_at=finished_at)

    old_done, old_failed = job(JobStatus.DONE, old), job(JobStatus.FAILED, old)
    recent_done = job(JobStatus.DONE, recent)
    waiting = job(JobStatus.WAITING, old)  # an import waiting for the arbiter's answer
    queued = job(JobStatus.QUEUED, None)
    task = tasks.enqueue(queued)
    DBTaskResult.objects.filter(id=queued.task_id).update(status="SUCCESSFUL", finished_at=old)

    worker.Housekeeper("pruner", clock=lambda: now).tick()

    assert set(Job.objects.values_list("pk", flat=True)) == {recent_done.pk, waiting.pk, queued.pk}
    assert not DBTaskResult.objects.filter(id=task.task_id).exists()
    # the page of a deleted job says it is not there, no error page
    assert chief_client.get(job_url(old_done)).status_code == 404
    assert chief_client.get(job_url(old_failed)).status_code == 404
    assert chief_client.get(job_url(recent_done)).status_code == 200
