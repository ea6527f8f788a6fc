"""Large TRF imports checked in the background (issue 36; VCL4THP Q54, Q55): a file over
the limit of a page's import is imported by the worker and every round re-paired, with
progress; differences wait for the arbiter's Level-3 answer with the same figures and
``###`` lines as a small import; until then the tournament cannot be paired or reported.

The limit is lowered here so that a 24-player file is "large" (the same code runs; the
9,999 x 40 figures are in docs/background-tasks.md, from benchmarks/bench_import_check.py)."""

from __future__ import annotations

import importlib

import pytest
from django.urls import reverse
from django.utils.html import escape

from pairing.models import IntegrityEvent, Job, JobKind, JobStatus, Tournament
from pairing.services import import_check, trf_import
from pairing.warning_levels import NeedsConfirmation
from tests.web.worker_process import generated_trf, run_queued

PLAYERS, ROUNDS = 24, 5


@pytest.fixture(autouse=True)
def small_limit(monkeypatch):
    monkeypatch.setattr(importlib.import_module("pairing.views.players"), "IMPORT_CHECK_LIMIT", 50)


@pytest.fixture(scope="module")
def clean_file() -> str:
    return generated_trf(PLAYERS, ROUNDS, 3)


def colours_reversed(text: str, number: int, first: int) -> str:
    """The file with the colours of player ``first``'s game in round ``number`` reversed
    (both players' lines): a round the engine pairs differently."""
    lines = text.splitlines()
    start = 91 + 10 * (number - 1)
    by_id = {int(line[4:8]): i for i, line in enumerate(lines) if line.startswith("001")}
    opponent = int(lines[by_id[first]][start:start + 4])
    for pid in (first, opponent):
        line = lines[by_id[pid]]
        colour = {"w": "b", "b": "w"}[line[start + 5]]
        lines[by_id[pid]] = line[:start + 5] + colour + line[start + 6:]
    return "\n".join(lines) + "\n"


def upload(client, t, text: str):
    return client.post(reverse("pairing:trf_import", args=[t.slug]), {"text": text})


def the_job() -> Job:
    return Job.objects.get(kind=JobKind.IMPORT_CHECK)


def test_vcl_q54_a_file_over_the_limit_is_handed_to_the_worker_and_the_tournament_waits(chief_client, tournament,
                                                                                  clean_file):
    assert trf_import.player_rounds(clean_file) == PLAYERS * ROUNDS
    response = upload(chief_client, tournament, clean_file)
    job = the_job()
    assert response.status_code == 302 and response["Location"] == reverse("pairing:job", args=[job.pk])
    assert (job.status, job.tournament, job.user.username) == (JobStatus.QUEUED, tournament, "chief")
    assert not tournament.player_set.exists()  # nothing imported before the worker runs
    t = Tournament.objects.get(pk=tournament.pk)
    assert "nothing can be paired until then" in t.pairing_blocker()
    overview = chief_client.get(reverse("pairing:tournament", args=[t.slug])).content.decode()
    assert 'id="import-pending"' in overview
    again = upload(chief_client, tournament, clean_file)  # a second upload meanwhile
    assert again["Location"] == reverse("pairing:job", args=[job.pk]) and Job.objects.count() == 1


def test_vcl_q54_the_worker_imports_and_checks_every_round_with_progress(chief_client, tournament, clean_file):
    upload(chief_client, tournament, clean_file)
    [job] = run_queued()
    assert job.done == job.total == ROUNDS
    t = Tournament.objects.get(pk=tournament.pk)
    assert t.player_set.count() == PLAYERS and t.rounds_published() == ROUNDS
    if job.status == JobStatus.DONE:  # nothing to ask: free at once
        assert job.result["ok"] and t.import_pending is None
    else:  # only the review's adjustments to confirm, as a small import asks them
        assert job.status == JobStatus.WAITING and job.result["title"] == "Import the file with these adjustments"
        assert job.result["differing"] == []


def test_vcl_q54_q55_a_round_the_engine_pairs_differently_asks_the_same_question_as_a_small_import(
    chief_client, chief, tournament, clean_file
):
    changed = colours_reversed(clean_file, 3, 1)
    small = Tournament.objects.create(slug="small-one", name="Small one", owner=chief)
    with pytest.raises(NeedsConfirmation) as asked:
        trf_import.import_trf(small, changed, chief)
    upload(chief_client, tournament, changed)
    [job] = run_queued()
    assert job.status == JobStatus.WAITING
    assert job.result["title"] == asked.value.title == "Import rounds that break the pairing rules"
    assert job.result["warnings"] == asked.value.warnings  # the same figures
    assert [g["items"] for g in job.result["groups"]] == [[str(i) for i in g.items] for g in asked.value.groups]
    page = chief_client.get(reverse("pairing:job", args=[job.pk])).content.decode()
    line = job.result["differing"][0][1]
    assert line.startswith("Import @ Round 3: ") and f"<code>### {escape(line)}</code>" in page
    assert 'id="import-as-is"' in page and 'id="undo-import"' in page
    assert "nothing can be paired until then" in Tournament.objects.get(pk=tournament.pk).pairing_blocker()
    export = chief_client.get(reverse("pairing:trf_export", args=[tournament.slug]))
    assert export.status_code == 302 and export["Location"] == reverse("pairing:job", args=[job.pk])

    response = chief_client.post(reverse("pairing:job_answer", args=[job.pk]), {"answer": "import"})
    assert response.status_code == 302
    trf_import.import_trf(small, changed, chief, confirmations=1)  # the small import, confirmed
    big_lines = list(IntegrityEvent.objects.filter(tournament=tournament).values_list("line", flat=True))
    small_lines = list(IntegrityEvent.objects.filter(tournament=small).values_list("line", flat=True))
    assert big_lines == small_lines == [d[1] for d in job.result["differing"]]  # the same ### lines
    assert len(big_lines) >= 1
    t = Tournament.objects.get(pk=tournament.pk)
    assert t.import_pending is None and t.pairing_blocker() == "All 5 rounds have been paired."
    assert the_job().result["answer"] == "imported"


def test_undoing_a_waiting_import_puts_the_tournament_back_as_it_was(chief_client, tournament, clean_file):
    before = Tournament.objects.get(pk=tournament.pk)
    upload(chief_client, tournament, colours_reversed(clean_file, 3, 1))
    run_queued()
    job = the_job()
    chief_client.post(reverse("pairing:job_answer", args=[job.pk]), {"answer": "undo"})
    t = Tournament.objects.get(pk=tournament.pk)
    assert not t.player_set.exists() and not t.round_set.exists()
    assert (t.rounds, t.point_win) == (before.rounds, before.point_win)
    assert t.import_pending is None and not IntegrityEvent.objects.filter(tournament=t).exists()
    assert the_job().result["answer"] == "undone"


def test_an_answer_acts_once(chief_client, deputy_client, tournament, clean_file):
    upload(chief_client, tournament, colours_reversed(clean_file, 3, 1))
    run_queued()
    job = the_job()
    url = reverse("pairing:job_answer", args=[job.pk])
    deputy_client.post(url, {"answer": "import"})
    response = chief_client.post(url, {"answer": "undo"}, follow=True)
    assert "answered already; nothing changed" in response.content.decode()
    assert Tournament.objects.get(pk=tournament.pk).player_set.count() == PLAYERS  # the first answer stands
    assert IntegrityEvent.objects.filter(tournament=tournament).count() == len(the_job().result["differing"])


@pytest.mark.parametrize("public, status", [(False, 404), (True, 404)])
def test_another_arbiter_cannot_answer(chief_client, stranger_client, tournament, clean_file, public, status):
    Tournament.objects.filter(pk=tournament.pk).update(public=public)
    upload(chief_client, tournament, colours_reversed(clean_file, 3, 1))
    run_queued()
    job = the_job()
    assert stranger_client.post(reverse("pairing:job_answer", args=[job.pk]), {"answer": "undo"}).status_code == status
    assert the_job().status == JobStatus.WAITING


def test_an_anonymous_answer_is_sent_to_log_in(anon_client, chief_client, tournament, clean_file):
    upload(chief_client, tournament, colours_reversed(clean_file, 3, 1))
    run_queued()
    response = anon_client.post(reverse("pairing:job_answer", args=[the_job().pk]), {"answer": "undo"})
    assert response.status_code == 302 and response["Location"].startswith(reverse("login"))
    assert the_job().status == JobStatus.WAITING


def test_a_large_file_that_cannot_be_read_fails_with_its_problems_and_imports_nothing(chief_client, tournament,
                                                                                      clean_file):
    broken = clean_file.replace("001    1", "001    X", 1)
    upload(chief_client, tournament, broken)
    [job] = run_queued()
    assert job.status == JobStatus.FAILED and job.error.startswith("Nothing was imported. The file has these problems:")
    t = Tournament.objects.get(pk=tournament.pk)
    assert not t.player_set.exists() and t.import_pending is None


def test_a_lost_check_on_its_last_attempt_undoes_the_import(tournament, clean_file, chief_client):
    upload(chief_client, tournament, colours_reversed(clean_file, 3, 1))
    job = the_job()
    import_check._import(job, tournament, type("P", (), {"__call__": lambda self, *a, **k: None})())
    assert tournament.player_set.count() == PLAYERS
    job.refresh_from_db()
    import_check.forget(job, final=True)
    assert not tournament.player_set.exists() and not tournament.round_set.exists()
