"""The result that completes a round queues the worker's computing of what the pages
show after it (pairing.reports.ahead); the first visitor then reads it from the shared
cache instead of computing it (issue 38: the standings of a big field after a result)."""

from __future__ import annotations

import pytest
from django.core.cache import cache
from django.urls import reverse
from django_tasks_db.models import DBTaskResult

from pairing import tasks
from pairing.models import GameResult, Round
from pairing.reports import aro as aro_reports
from pairing.reports import standings as standings_reports
from pairing.services.results import record_result
from pairing.services.rounds import pair_next_round, publish
from tests.web.helpers import add_players, play_round


def queued() -> list[list]:
    return [r.args_kwargs["args"] for r in DBTaskResult.objects.filter(task_path="pairing.tasks.compute_ahead")]


def result_of(client, game, result="1-0"):
    rnd = game.round
    url = reverse("pairing:game_result", args=[rnd.tournament.slug, rnd.number, game.pk])
    return client.post(url, {"result": result, "expected": game.result})


def nothing_computed_from_now(monkeypatch) -> None:
    """From now on computing the standings, the ARO list or its chart fails the request:
    what a page shows must come from the cache."""

    def computed(*args, **kwargs):
        raise AssertionError("computed again by the visitor")

    monkeypatch.setattr(standings_reports, "_ranking", computed)
    monkeypatch.setattr(aro_reports, "_aro_lines", computed)
    monkeypatch.setattr(aro_reports, "_aro_spread", computed)


def the_visitor_reads_round_2s_pages(client, tournament) -> None:
    """The public standings after round 2, the ARO list before round 3 and the chart of
    rounds 1-2 are served."""
    standings = client.get(reverse("pairing:standings", args=[tournament.slug]))
    aro = client.get(reverse("pairing:aro", args=[tournament.slug]))
    chart = client.get(reverse("pairing:aro_spread", args=[tournament.slug]))
    assert standings.status_code == aro.status_code == chart.status_code == 200
    assert "Standings after round 2" in standings.content.decode()
    assert "ARO list for round 3" in aro.content.decode()
    assert "After round 2, scoregroup" in chart.content.decode()


@pytest.fixture
def in_play(tournament, chief):
    """Round 1 complete, round 2 published with every board but the last one filled in."""
    tournament.public = True
    tournament.save()
    add_players(tournament, 10)
    play_round(tournament, chief)
    rnd = pair_next_round(tournament, chief)
    publish(rnd, chief)
    games = list(rnd.games())
    for g in games[:-1]:
        record_result(g, GameResult.DRAW, chief)
    return rnd, games[-1]


def test_the_last_result_of_a_round_queues_its_pages_and_none_before(
        chief_client, tournament, in_play, django_capture_on_commit_callbacks):
    rnd, last = in_play
    first = rnd.games()[0]
    with django_capture_on_commit_callbacks(execute=True):
        result_of(chief_client, first, GameResult.WHITE_WINS)  # a correction in the round in play
    assert queued() == []
    with django_capture_on_commit_callbacks(execute=True):
        response = result_of(chief_client, last)
    assert response.status_code == 302
    assert Round.objects.get(pk=rnd.pk).status == "complete"
    assert queued() == [[tournament.pk]]
    # the same result again changes nothing and queues nothing
    last.refresh_from_db()
    with django_capture_on_commit_callbacks(execute=True):
        result_of(chief_client, last, last.result)
    assert queued() == [[tournament.pk]]
    # a correction in the complete round moves its standings: queued again
    with django_capture_on_commit_callbacks(execute=True):
        result_of(chief_client, Round.objects.get(pk=rnd.pk).games()[1], GameResult.BLACK_WINS)
    assert queued() == [[tournament.pk], [tournament.pk]]


def test_a_refused_result_queues_nothing(deputy_client, client, tournament, in_play,
                                         django_capture_on_commit_callbacks):
    _rnd, last = in_play
    with django_capture_on_commit_callbacks(execute=True):
        result_of(client, last)  # a visitor: sent to the login page
        result_of(deputy_client, last, "nonsense")  # not a result
    assert queued() == []


def test_after_the_worker_ran_the_first_visitor_computes_nothing(
        anon_client, chief, tournament, in_play, monkeypatch):
    _rnd, last = in_play
    record_result(last, GameResult.BLACK_WINS, chief)
    cache.clear()
    assert tasks.compute_ahead.call(tournament.pk) == ["standings", "points before the next round", "ARO list",
                                                    "ARO chart"]
    nothing_computed_from_now(monkeypatch)
    the_visitor_reads_round_2s_pages(anon_client, tournament)


def test_the_task_of_a_tournament_gone_or_not_begun_does_nothing(tournament, chief, monkeypatch):
    assert tasks.compute_ahead.call(tournament.pk) == []  # no round complete
    assert tasks.compute_ahead.call(987654) == []


def test_a_failure_ahead_of_time_is_logged_and_the_pages_still_compute(
        anon_client, chief, tournament, in_play, monkeypatch, caplog):
    _rnd, last = in_play
    record_result(last, GameResult.BLACK_WINS, chief)
    real = standings_reports._ranking

    def broken(*args, **kwargs):
        raise RuntimeError("the tie-break pass failed")

    monkeypatch.setattr(standings_reports, "_ranking", broken)
    assert tasks.compute_ahead.call(tournament.pk) == []
    assert "computing its pages ahead after a round failed" in caplog.text
    monkeypatch.setattr(standings_reports, "_ranking", real)
    assert anon_client.get(reverse("pairing:standings", args=[tournament.slug])).status_code == 200


def test_a_rating_corrected_queues_the_figures_again_and_the_visitor_then_computes_nothing(
        chief_client, anon_client, tournament, in_play, monkeypatch, django_capture_on_commit_callbacks):
    from tests.web.helpers import shown_version

    _rnd, _last = in_play
    player = tournament.player_set.order_by("tpn").last()
    url = reverse("pairing:player_edit", args=[tournament.slug, player.pk])
    with django_capture_on_commit_callbacks(execute=True):
        response = chief_client.post(url, {"name": player.name, "rating": player.rating + 7,
                                           "seen": shown_version(player)})
    assert response.status_code == 302
    assert queued() == [[tournament.pk]]
    with django_capture_on_commit_callbacks(execute=True):  # a stale form: refused, nothing queued
        chief_client.post(url, {"name": player.name, "rating": player.rating + 9, "seen": "stale"})
    assert queued() == [[tournament.pk]]
    tournament.refresh_from_db()
    assert tasks.compute_ahead.call(tournament.pk) == ["standings", "points before the next round", "ARO list",
                                                    "ARO chart"]
    nothing_computed_from_now(monkeypatch)
    assert anon_client.get(reverse("pairing:standings", args=[tournament.slug])).status_code == 200
    assert anon_client.get(reverse("pairing:aro", args=[tournament.slug])).status_code == 200
    assert anon_client.get(reverse("pairing:aro_spread", args=[tournament.slug])).status_code == 200


def test_the_settings_saved_queue_the_figures_again(chief_client, tournament, in_play,
                                                    django_capture_on_commit_callbacks):
    """Settings can move the standings (the point system, the rule for unrated players);
    once saved, the worker computes the figures again.  A refused form queues nothing."""
    from tests.web.helpers import shown_version
    from tests.web.test_tournament_setup import GOOD

    tournament.refresh_from_db()
    data = {**GOOD, "name": tournament.name, "slug": tournament.slug, "place": "Portorož",
            "rounds": str(tournament.rounds), "tiebreaks": tournament.tiebreaks, "seen": shown_version(tournament)}
    url = reverse("pairing:settings", args=[tournament.slug])
    with django_capture_on_commit_callbacks(execute=True):
        chief_client.post(url, {**data, "seen": ""})  # a form without its version: refused
    assert queued() == []
    with django_capture_on_commit_callbacks(execute=True):
        response = chief_client.post(url, data)
    assert response.status_code == 302, response.content.decode()[:2000]
    tournament.refresh_from_db()
    assert tournament.place == "Portorož"
    assert queued() == [[tournament.pk]]


def test_a_queue_that_cannot_be_written_leaves_the_result_saved(chief_client, tournament, in_play, monkeypatch,
                                                                 django_capture_on_commit_callbacks, caplog):
    rnd, last = in_play

    def full(*args, **kwargs):
        raise RuntimeError("the queue's table is locked")

    from types import SimpleNamespace

    monkeypatch.setattr(tasks, "compute_ahead", SimpleNamespace(enqueue=full))
    with django_capture_on_commit_callbacks(execute=True):
        response = result_of(chief_client, last)
    assert response.status_code == 302
    assert Round.objects.get(pk=rnd.pk).status == "complete" and queued() == []
    assert "the queue's table is locked" in caplog.text


@pytest.mark.parametrize("change", ["withdrawal", "bye", "bye grid"])
def test_a_withdrawal_or_a_bye_saved_queues_the_figures_again(chief_client, tournament, in_play, change,
                                                               django_capture_on_commit_callbacks):
    """Between rounds the arbiter withdraws (or expels) players and sets byes: each saved
    change moves the tournament's state, and the worker computes the pages' figures again
    (what nothing changed is found in the cache).  A change refused queues nothing."""
    from pairing.models import Bye, ByeKind, Player
    from tests.web.helpers import shown_byes

    rnd, last = in_play
    record_result(last, GameResult.DRAW, tournament.owner)  # round 2 complete: byes for round 3 on
    player = tournament.player_set.order_by("tpn").first()
    if change == "withdrawal":
        url = reverse("pairing:player_withdraw", args=[tournament.slug, player.pk])
        refused, saved = {"from_round": "x"}, {"from_round": 4, "expelled": "on"}
    elif change == "bye":
        url = reverse("pairing:absences", args=[tournament.slug])
        refused = {"round": 3, "seen": shown_byes(tournament, 3), f"kind-{player.pk}": "nonsense"}
        saved = {"round": 3, "seen": shown_byes(tournament, 3), f"kind-{player.pk}": ByeKind.HALF}
    else:
        url = reverse("pairing:byes_grid", args=[tournament.slug])
        refused = {f"kind-{player.pk}-3": ByeKind.HALF}  # without the round's version: stale
        saved = {f"kind-{player.pk}-3": ByeKind.HALF, "seen-3": ""}
    with django_capture_on_commit_callbacks(execute=True):
        chief_client.post(url, refused)
    assert queued() == []
    with django_capture_on_commit_callbacks(execute=True):
        chief_client.post(url, saved)
    if change == "withdrawal":
        assert Player.objects.get(pk=player.pk).expelled
    else:
        assert Bye.objects.get(player=player, round_number=3).kind == ByeKind.HALF
    assert queued() == [[tournament.pk]]


@pytest.mark.django_db(transaction=True)
def test_a_real_worker_computes_the_pages_once_the_last_result_is_in_and_the_visitor_reads_them(
        chief_client, anon_client, tournament, in_play, monkeypatch, tmp_path):
    """End to end: the arbiter's last result of the round through the view, the task on the
    database queue, a real worker process (``manage.py run_worker``, as ``make run`` and
    the compose stack start it) computing into the shared cache; then the first visitor's
    standings and ARO list are read from it, nothing computed in the web process."""
    from tests.web.worker_process import log_of, running_worker, wait_for

    _rnd, last = in_play
    with running_worker(tmp_path):
        assert result_of(chief_client, last).status_code == 302
        wait_for(lambda: DBTaskResult.objects.filter(task_path="pairing.tasks.compute_ahead",
                                                     status="SUCCESSFUL").exists(),
                 timeout=90, what=f"the worker's task\n{log_of(tmp_path)}")
    assert DBTaskResult.objects.get(task_path="pairing.tasks.compute_ahead").return_value == [
        "standings", "points before the next round", "ARO list", "ARO chart"]
    nothing_computed_from_now(monkeypatch)
    the_visitor_reads_round_2s_pages(anon_client, tournament)
