"""Background work on the real queue: the database backend of Django's tasks API and a
real worker process (``manage.py run_worker``), as the compose stack and ``make run``
run them.  The worker's other duties (heartbeat, lost jobs) are tested here too, with
the clock and the heartbeat rows moved by hand where waiting would be slow."""

from __future__ import annotations

import datetime
import signal

import pytest
from django.core.management import call_command
from django.utils import timezone
from django_tasks_db.models import DBTaskResult

from pairing import tasks, worker
from pairing.models import Job, JobKind, JobStatus, WorkerBeat
from pairing.services import jobs
from tests.web.worker_process import (
    import_generated,
    log_of,
    running_worker,
    start_worker,
    stop_worker,
    wait_for,
)


def played(t, rounds: int, players: int = 12):
    return import_generated(t, players, rounds)


def test_starting_a_job_queues_its_task_on_the_database_queue(tournament):
    job = tasks.start(JobKind.TOURNAMENT_CHECK, user=tournament.owner, tournament=tournament)
    queued = DBTaskResult.objects.get(id=job.task_id)
    assert queued.status == "READY"
    assert queued.task_path == "pairing.tasks.run_job"
    assert queued.args_kwargs == {"args": [job.pk], "kwargs": {}}
    assert (job.status, job.step, job.attempts) == (JobStatus.QUEUED, "queued", 0)


@pytest.mark.django_db(transaction=True)
def test_a_real_worker_runs_a_queued_check_and_the_progress_shows_on_the_way(tournament, tmp_path):
    played(tournament, 5, players=40)
    job = tasks.start(JobKind.TOURNAMENT_CHECK, user=tournament.owner, tournament=tournament)
    seen: list[tuple[str, int, int | None]] = []

    def finished():
        current = Job.objects.get(pk=job.pk)
        state = (current.status, current.done, current.total)
        if not seen or seen[-1] != state:
            seen.append(state)
        return not current.is_open

    with running_worker(tmp_path):
        wait_for(finished, timeout=90, every=0.02, what="the check to finish")
        # the queue's own record follows a moment after the job's
        wait_for(lambda: DBTaskResult.objects.get(id=job.task_id).status == "SUCCESSFUL", timeout=30,
                 what="the task's record")
    job.refresh_from_db()
    assert job.status == JobStatus.DONE, (job.error, log_of(tmp_path))
    assert (job.done, job.total, job.attempts) == (5, 5, 1)
    assert job.result["ok"] is True
    assert [r["round"] for r in job.result["rounds"]] == [1, 2, 3, 4, 5]
    assert job.result["summary"] == "all 5 rounds identical"
    assert job.step_text == "Finished."
    assert ("running", 0, 5) in seen  # the page saw the work under way before it ended


@pytest.mark.django_db(transaction=True)
def test_a_worker_writes_its_heartbeat_and_leaves_cleanly_on_sigterm(tmp_path):
    proc = start_worker(tmp_path)
    try:
        beat = wait_for(lambda: WorkerBeat.objects.first(), timeout=30, what="a heartbeat row")
        wait_for(lambda: (tmp_path / "heartbeat").exists(), timeout=10, what="the heartbeat file")
        assert jobs.worker_alive()
        assert beat.pid == proc.pid
        wait_for(lambda: "Starting worker" in log_of(tmp_path), timeout=30, what="the queue's worker loop")
    finally:
        proc.send_signal(signal.SIGTERM)
        assert proc.wait(20) == 0, log_of(tmp_path)
    assert not WorkerBeat.objects.exists()


def test_no_worker_is_alive_when_every_heartbeat_is_old(db):
    WorkerBeat.objects.create(worker_id="old", seen_at=timezone.now() - datetime.timedelta(hours=1))
    assert not jobs.worker_alive()


def _running_job(tournament, worker_id: str, attempts: int = 1) -> Job:
    job = tasks.start(JobKind.TOURNAMENT_CHECK, user=tournament.owner, tournament=tournament)
    DBTaskResult.objects.filter(id=job.task_id).update(status="RUNNING", worker_ids=[worker_id])
    long_ago = timezone.now() - datetime.timedelta(minutes=10)
    Job.objects.filter(pk=job.pk).update(status=JobStatus.RUNNING, worker_id=worker_id, attempts=attempts,
                                         started_at=long_ago)
    return Job.objects.get(pk=job.pk)


def test_a_job_whose_worker_went_silent_is_queued_again_with_a_new_task(tournament):
    WorkerBeat.objects.create(worker_id="dead", seen_at=timezone.now() - datetime.timedelta(minutes=5))
    job = _running_job(tournament, "dead")
    old_task = job.task_id

    assert worker.reap() == [job]
    job.refresh_from_db()
    assert (job.status, job.step, job.attempts) == (JobStatus.QUEUED, "retry", 1)
    assert job.step_text == "The worker stopped; starting again (attempt 2)."
    assert job.task_id != old_task
    assert DBTaskResult.objects.get(id=job.task_id).status == "READY"
    lost = DBTaskResult.objects.get(id=old_task)
    assert lost.status == "FAILED" and "worker running this task stopped" in lost.traceback


def test_a_job_lost_on_its_last_attempt_fails_with_the_reason(tournament, settings):
    settings.TASK_MAX_ATTEMPTS = 2
    job = _running_job(tournament, "gone-without-a-beat", attempts=2)
    worker.reap()
    job.refresh_from_db()
    assert job.status == JobStatus.FAILED
    assert job.error == ("The worker running this task stopped (attempt 2 of 2): the task was not finished and "
                         "nothing of it was applied.")
    assert job.finished_at is not None


def test_a_job_whose_worker_is_alive_is_left_running(tournament):
    WorkerBeat.objects.create(worker_id="busy", seen_at=timezone.now())
    job = _running_job(tournament, "busy")
    assert worker.reap() == []
    job.refresh_from_db()
    assert job.status == JobStatus.RUNNING


def test_a_finished_job_is_not_run_again_by_a_late_task(tournament):
    job = tasks.start(JobKind.TOURNAMENT_CHECK, user=tournament.owner, tournament=tournament)
    jobs.fail(job, "given up")
    assert jobs.run(job.pk, lambda j, p: {"ran": True}) is None
    job.refresh_from_db()
    assert (job.status, job.error, job.result) == (JobStatus.FAILED, "given up", None)


def test_a_handler_that_raises_fails_its_job_with_the_error_in_words(tournament):
    job = tasks.start(JobKind.TOURNAMENT_CHECK, user=tournament.owner, tournament=tournament)

    def broken(job, progress):
        progress("rounds", done=1, total=3)
        raise RuntimeError("disk full")

    with pytest.raises(RuntimeError):
        jobs.run(job.pk, broken, worker_id="w1")
    job.refresh_from_db()
    assert job.status == JobStatus.FAILED
    assert job.error == "The task stopped on an unexpected error: RuntimeError: disk full"
    assert (job.done, job.total, job.worker_id, job.attempts) == (1, 3, "w1", 1)


@pytest.mark.django_db(transaction=True)
def test_run_worker_batch_runs_what_is_queued_and_stops(tournament):
    played(tournament, 2)
    job = tasks.start(JobKind.TOURNAMENT_CHECK, user=tournament.owner, tournament=tournament)
    call_command("run_worker", "--batch", verbosity=0)
    job.refresh_from_db()
    assert (job.status, job.result["summary"]) == (JobStatus.DONE, "all 2 rounds identical")


# ------------------------------------------------------------------ a list load cut off


BIG = 120_000  # three batches of the loader (50,000 a commit): a kill lands between two


@pytest.fixture(scope="module")
def big_list(tmp_path_factory):
    import sys
    from pathlib import Path

    sys.path.insert(0, str(Path(__file__).resolve().parents[2] / "benchmarks"))
    from bench_rating_list import write_list

    path = tmp_path_factory.mktemp("lists") / "players_list_xml.zip"
    write_list(path, BIG)
    return path


def _old_fide_list():
    import datetime as dt
    import io

    from pairing.services.rating_lists import load_list
    from tests.web.test_rating_lists import fide_xml, zipped

    return load_list(io.BytesIO(zipped("x.xml", fide_xml())), "players_list_xml.zip", kind="fide",
                     month=dt.date(2026, 11, 1))


def _upload_job(big_list, tmp_path) -> Job:
    import shutil

    path = tmp_path / "upload.zip"
    shutil.copy(big_list, path)
    return tasks.start(JobKind.RATING_FILE, params={
        "path": str(path), "filename": "players_list_xml.zip", "kind": "fide", "name": "FIDE",
        "month": "2026-11-01", "own": False})


def _loading(job: Job) -> bool:
    current = Job.objects.get(pk=job.pk)
    return current.status == JobStatus.RUNNING and current.step == "load"


@pytest.mark.django_db(transaction=True)
def test_a_worker_killed_in_the_middle_of_a_list_load_leaves_the_old_list_and_the_next_worker_loads_it_again(
    big_list, tmp_path
):
    from pairing.models import RatingList

    old = _old_fide_list()
    job = _upload_job(big_list, tmp_path)
    first = start_worker(tmp_path, "first")
    try:
        wait_for(lambda: _loading(job), timeout=120, every=0.05, what="the load under way")
    finally:
        stop_worker(first, kill=True)  # SIGKILL: no clean-up of any kind
    assert list(RatingList.objects.active()) == [old]  # readers still see the old list, whole
    assert RatingList.objects.filter(active=False, job=job).exists()  # the half-written rows, unseen
    lost_task = Job.objects.get(pk=job.pk).task_id

    with running_worker(tmp_path, "second"):
        wait_for(lambda: not Job.objects.get(pk=job.pk).is_open, timeout=240, what="the load to be redone")
    job.refresh_from_db()
    assert (job.status, job.attempts) == (JobStatus.DONE, 2), (job.error, log_of(tmp_path, "second"))
    new = RatingList.objects.active().get()
    assert new.players == BIG and new.pk != old.pk
    assert not RatingList.objects.filter(active=False).exists()  # nothing half-written left
    assert DBTaskResult.objects.get(id=lost_task).status == "FAILED"
    assert not (tmp_path / "upload.zip").exists()


@pytest.mark.django_db(transaction=True)
def test_a_list_load_cut_off_on_its_last_attempt_fails_with_the_reason_and_the_old_list_stays(big_list, tmp_path):
    from pairing.models import RatingList

    old = _old_fide_list()
    job = _upload_job(big_list, tmp_path)
    first = start_worker(tmp_path, "first", DJANGO_TASK_ATTEMPTS="1")
    try:
        wait_for(lambda: _loading(job), timeout=120, every=0.05, what="the load under way")
    finally:
        stop_worker(first, kill=True)
    with running_worker(tmp_path, "second", DJANGO_TASK_ATTEMPTS="1"):
        wait_for(lambda: not Job.objects.get(pk=job.pk).is_open, timeout=60, what="the lost load to be failed")
    job.refresh_from_db()
    assert job.status == JobStatus.FAILED
    assert job.error.startswith("The worker running this task stopped (attempt 1 of 1)")
    assert list(RatingList.objects.all()) == [old]  # the old list, and nothing else
    assert not (tmp_path / "upload.zip").exists()


# ------------------------------------------------------------------ the daily refresh in a real worker


@pytest.mark.django_db(transaction=True)
def test_a_real_worker_starts_the_daily_refresh_at_its_time(tmp_path):
    from django.utils import timezone as tz

    from pairing.models import RatingList
    from tests.web.list_server import list_server
    from tests.web.test_rating_lists import fide_xml, zipped

    due = (tz.localtime() - datetime.timedelta(minutes=1)).strftime("%H:%M")
    if due > tz.localtime().strftime("%H:%M"):  # just after midnight: the time would be tomorrow's
        due = "00:00"
    with list_server() as server:
        server.publish("/fide.zip", zipped("players_list_xml_foa.xml", fide_xml()))
        with running_worker(tmp_path, DJANGO_RATING_REFRESH_AT=due,
                            DJANGO_FIDE_RATING_LIST_URL=server.url("/fide.zip")):
            job = wait_for(lambda: Job.objects.filter(kind=JobKind.RATING_REFRESH).first(), timeout=60,
                           what="the scheduled refresh")
            wait_for(lambda: not Job.objects.get(pk=job.pk).is_open, timeout=60, what="the refresh to finish")
    job.refresh_from_db()
    assert (job.status, job.scheduled_for, job.user) == (JobStatus.DONE, tz.localdate(), None)
    assert RatingList.objects.active().get(name="FIDE").players == 4
    assert Job.objects.filter(kind=JobKind.RATING_REFRESH).count() == 1
