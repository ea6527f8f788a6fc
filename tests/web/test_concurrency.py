"""Two arbiters at once: no lost update, no round paired on data being changed, one
round per publish or pair however often it is clicked, and a clear message for the one
who came second.

The race tests run two threads, each with its own database connection, released
together by a barrier; they need PostgreSQL (row locks; SQLite serialises all writers
and ignores SELECT ... FOR UPDATE) and are skipped elsewhere.  The view tests at the end
replay the same situations one after the other and run on any database.
"""

from __future__ import annotations

import json
import os
import re
import subprocess
import sys
import threading
import time
from pathlib import Path

import pytest
from django.db import OperationalError, connection
from django.db.models import Q
from django.test import Client
from django.urls import reverse

import pairing.views.rounds as round_views
from pairing import engine
from pairing.models import AuditAction, AuditEntry, Conflict, Game, GameResult, Round, RoundStatus, Tournament
from pairing.services import rounds, snapshot
from pairing.services.players import add_players
from pairing.services.results import record_result
from pairing.services.rounds import discard_draft, publish
from tests.web.helpers import play_round

ROOT = Path(__file__).resolve().parents[2]


def _race(test):
    """A race test: PostgreSQL, real commits (each thread sees the others' rows)."""
    test = pytest.mark.skipif(connection.vendor != "postgresql", reason="row locks need PostgreSQL")(test)
    test = pytest.mark.django_db(transaction=True)(test)
    return pytest.mark.postgres(test)


def run_together(*jobs, timeout: float = 30):
    """Run each job in its own thread (own connection), started together by a barrier.
    Returns each job's return value or the exception it raised."""
    barrier = threading.Barrier(len(jobs))
    outcomes: list = [None] * len(jobs)

    def work(i, job):
        try:
            barrier.wait(timeout)
            outcomes[i] = job()
        except Exception as exc:  # the test inspects it
            outcomes[i] = exc
        finally:
            connection.close()

    threads = [threading.Thread(target=work, args=(i, job)) for i, job in enumerate(jobs)]
    for t in threads:
        t.start()
    for t in threads:
        t.join(timeout)
        assert not t.is_alive(), "a thread is stuck (deadlock?)"
    return outcomes


def logged_in(user) -> Client:
    c = Client()
    c.force_login(user)
    return c


def published_round(t, user) -> Round:
    rnd = rounds.pair_next_round(t, user)
    publish(rnd, user)
    return rnd


def draft_matches_current_data(t: Tournament) -> bool:
    """The draft's boards are what the engine pairs from the data as it is now."""
    draft = t.draft_round()
    fresh = engine.pair_round(snapshot.build_snapshot(t, draft.number))
    stored = sorted((g.board, g.white_id, g.black_id) for g in draft.game_set.all())
    return stored == sorted((b.number, b.white, b.black) for b in fresh.boards)


# ------------------------------------------------------------------ races on PostgreSQL


@_race
@pytest.mark.parametrize("attempt", [1, 2, 3])
def test_two_arbiters_saving_the_same_board_one_wins_the_other_is_told(attempt, chief, deputy, tournament, players):
    """Both loaded the page with the board empty and click different results at once
    (three times over: which thread wins varies)."""
    rnd = published_round(tournament, chief)
    game_id = rnd.games().first().pk

    def save(user, result):
        return lambda: record_result(Game.objects.get(pk=game_id), result, user, expected="")

    outcomes = run_together(save(chief, GameResult.WHITE_WINS), save(deputy, GameResult.BLACK_WINS))
    winners = [i for i, o in enumerate(outcomes) if o is True]
    losers = [o for o in outcomes if isinstance(o, Conflict)]
    assert len(winners) == 1 and len(losers) == 1, outcomes
    stored = Game.objects.get(pk=game_id).result
    assert stored == [GameResult.WHITE_WINS, GameResult.BLACK_WINS][winners[0]]
    assert "by someone else" in str(losers[0])
    entries = AuditEntry.objects.filter(action=AuditAction.RESULT)
    assert entries.count() == 1
    assert entries.get().user == [chief, deputy][winners[0]] and entries.get().after == {"result": stored}


@_race
def test_the_last_result_and_pairing_the_next_round_at_once(chief, deputy, tournament, players):
    """One arbiter enters round 1's last result while the other pairs round 2: the
    result is kept, and round 2 is paired only if round 1 was complete."""
    rnd = published_round(tournament, chief)
    games = list(rnd.games())
    for g in games[:-1]:
        record_result(g, GameResult.DRAW, chief)
    last = games[-1]

    def enter():
        return record_result(Game.objects.get(pk=last.pk), GameResult.WHITE_WINS, deputy, expected="")

    def pair():
        return rounds.pair_next_round(Tournament.objects.get(pk=tournament.pk), chief)

    entered, paired = run_together(enter, pair)
    assert entered is True
    assert Game.objects.get(pk=last.pk).result == GameResult.WHITE_WINS
    rnd.refresh_from_db()
    assert rnd.status == RoundStatus.COMPLETE
    if isinstance(paired, rounds.PairingRefused):
        assert "still has 1 result to enter" in str(paired)
        assert not Round.objects.filter(number=2).exists()
    else:
        assert isinstance(paired, Round) and paired.number == 2
        assert draft_matches_current_data(tournament)


@_race
def test_a_correction_while_the_next_round_is_being_paired_never_leaves_a_stale_draft(
    chief, deputy, tournament, players, monkeypatch
):
    """Round 1 is complete.  The chief pairs round 2 while the deputy corrects a round 1
    result.  The pairing is held open after reading the data (until the correction has
    been saved, at most a second) so that, without the tournament lock, the correction
    would commit in between and the draft would be paired on the old result.  Either
    the correction waits for the pairing and then discards its draft, or the pairing
    sees the correction: no draft ever stands on a result that has changed."""
    play_round(tournament, chief)
    game = Round.objects.get(number=1).games().first()
    corrected = threading.Event()
    real_snapshot = snapshot.build_snapshot

    def slow_snapshot(t, number=None):
        snap = real_snapshot(t, number)
        corrected.wait(1.0)
        return snap

    monkeypatch.setattr(rounds, "build_snapshot", slow_snapshot)

    def correct():
        try:
            return record_result(Game.objects.get(pk=game.pk), GameResult.BLACK_WINS, deputy, expected="1-0")
        finally:
            corrected.set()

    def pair():
        return rounds.pair_next_round(Tournament.objects.get(pk=tournament.pk), chief)

    outcome_correct, outcome_pair = run_together(correct, pair)
    monkeypatch.setattr(rounds, "build_snapshot", real_snapshot)
    assert outcome_correct is True and isinstance(outcome_pair, Round), (outcome_correct, outcome_pair)
    assert Game.objects.get(pk=game.pk).result == GameResult.BLACK_WINS
    draft = tournament.draft_round()
    if draft is not None:
        assert draft_matches_current_data(tournament)
    else:
        assert AuditEntry.objects.filter(action=AuditAction.DISCARD, detail__contains="result of round 1").exists()


@_race
def test_a_correction_while_another_arbiter_publishes_the_next_round(chief, deputy, tournament, players):
    """Round 2 is in draft.  The deputy corrects a round 1 result as the chief publishes:
    the correction is kept either way; if it came first, the draft it invalidated is gone
    and the chief is told so instead of publishing it."""
    play_round(tournament, chief)
    game = Round.objects.get(number=1).games().first()
    rounds.pair_next_round(tournament, chief)

    def correct():
        # confirmed: once round 2 is published the correction is a pairing-integrity event (Level 3)
        return record_result(Game.objects.get(pk=game.pk), GameResult.DRAW, deputy, expected="1-0", confirmations=1)

    def publish():
        return rounds.publish(Round.objects.get(number=2), chief)

    corrected, published = run_together(correct, publish)
    assert corrected is True
    assert Game.objects.get(pk=game.pk).result == GameResult.DRAW
    if isinstance(published, Conflict):
        assert "discarded in the meantime" in str(published)
        assert not Round.objects.filter(number=2).exists()
    else:
        assert published is True
        assert Round.objects.get(number=2).status == RoundStatus.PUBLISHED
        assert AuditEntry.objects.filter(action=AuditAction.PUBLISH, label="Round 2").count() == 1
        # published first: the correction came after and is recorded as an event
        assert AuditEntry.objects.filter(action=AuditAction.INTEGRITY).count() == 1


@_race
def test_two_publishes_of_the_same_draft_publish_it_once(chief, deputy, tournament, players):
    rounds.pair_next_round(tournament, chief)
    outcomes = run_together(
        lambda: publish(Round.objects.get(number=1), chief), lambda: publish(Round.objects.get(number=1), deputy)
    )
    assert sorted(outcomes) == [False, True]
    assert Round.objects.get().status == RoundStatus.PUBLISHED
    assert AuditEntry.objects.filter(action=AuditAction.PUBLISH).count() == 1


@_race
def test_a_double_click_on_publish_through_the_page(chief, tournament, players):
    rounds.pair_next_round(tournament, chief)
    publish = reverse("pairing:round_publish", args=[tournament.slug, 1])
    a, b = logged_in(chief), logged_in(chief)
    responses = run_together(lambda: a.post(publish), lambda: b.post(publish))
    assert [r.status_code for r in responses] == [302, 302]
    assert Round.objects.get().status == RoundStatus.PUBLISHED
    assert AuditEntry.objects.filter(action=AuditAction.PUBLISH).count() == 1


@_race
def test_two_pair_requests_at_once_make_one_draft(chief, deputy, tournament, players):
    pair = reverse("pairing:pair_next", args=[tournament.slug])
    a, b = logged_in(chief), logged_in(deputy)
    responses = run_together(lambda: a.post(pair), lambda: b.post(pair))
    assert [r.status_code for r in responses] == [302, 302]
    assert {r["Location"] for r in responses} == {reverse("pairing:round", args=[tournament.slug, 1])}
    assert Round.objects.count() == 1 and Game.objects.count() == 5
    assert AuditEntry.objects.filter(action=AuditAction.PAIR).count() == 1


@_race
def test_publishing_while_another_arbiter_discards(chief, deputy, tournament, players):
    """Whoever is first wins; the other is told, and the round is either published with
    its boards or gone, never half of each."""
    rounds.pair_next_round(tournament, chief)

    def publish():
        return rounds.publish(Round.objects.get(number=1), chief)

    def discard():
        return discard_draft(Tournament.objects.get(pk=tournament.pk), deputy)

    published, discarded = run_together(publish, discard)
    if isinstance(published, Conflict):
        assert discarded is True and not Round.objects.exists() and not Game.objects.exists()
    else:
        assert published is True and discarded is False
        assert Round.objects.get().status == RoundStatus.PUBLISHED and Game.objects.count() == 5


@_race
def test_registering_a_player_while_the_round_is_paired_never_leaves_them_out(chief, deputy, tournament, players):
    """Either the late entry is paired in the draft, or the draft made without them is
    discarded when they are registered."""

    def register():
        return add_players(tournament, [{"name": "Late, Lara", "rating": 1500}], deputy)

    def pair():
        return rounds.pair_next_round(Tournament.objects.get(pk=tournament.pk), chief)

    registered, paired = run_together(register, pair)
    assert not isinstance(registered, Exception) and not isinstance(paired, Exception), (registered, paired)
    lara = tournament.player_set.get(name="Late, Lara")
    draft = tournament.draft_round()
    if draft is not None:
        assert Game.objects.filter(round=draft).filter(Q(white=lara) | Q(black=lara)).exists() or (
            draft.pab() is not None and draft.pab().player_id == lara.pk
        )
    else:
        assert AuditEntry.objects.filter(action=AuditAction.DISCARD, detail__contains="Players were added").exists()


@_race
def test_a_list_import_and_a_rating_change_at_once_both_succeed(chief, deputy, tournament, players):
    """Both renumber the whole list; they queue on the tournament lock instead of
    deadlocking on the player rows."""
    edited = players[-1]
    seen = edited.version()  # the edit page was opened before either request

    def import_list():
        return deputy_client.post(
            reverse("pairing:players_import", args=[tournament.slug]), {"text": "Kovac, Tina; 2210\nHorvat, Luka; 2305"}
        )

    def change_rating():
        return chief_client.post(
            reverse("pairing:player_edit", args=[tournament.slug, edited.pk]),
            {"name": edited.name, "rating": "2900", "seen": seen},
        )

    deputy_client, chief_client = logged_in(deputy), logged_in(chief)
    responses = run_together(import_list, change_rating)
    assert [getattr(r, "status_code", r) for r in responses] == [302, 302]
    assert tournament.player_set.count() == 12
    assert tournament.player_set.get(pk=edited.pk).tpn == 1
    assert sorted(tournament.player_set.values_list("tpn", flat=True)) == list(range(1, 13))


# ------------------------------------------------------------------ the same, one after the other


def result_url(rnd, game):
    return reverse("pairing:game_result", args=[rnd.tournament.slug, rnd.number, game.pk])


def test_a_stale_result_posted_from_the_page_is_refused_with_a_message(chief, chief_client, tournament, players):
    rnd = published_round(tournament, chief)
    g = rnd.games().first()
    record_result(g, GameResult.DRAW, chief)  # the deputy was quicker
    response = chief_client.post(result_url(rnd, g), {"result": "1-0", "expected": ""}, follow=True)
    assert "changed to ½-½ by someone else" in response.content.decode()
    g.refresh_from_db()
    assert g.result == GameResult.DRAW
    assert AuditEntry.objects.filter(action=AuditAction.RESULT).count() == 1


def test_a_stale_correction_is_refused_too(chief, chief_client, tournament, players):
    rnd = published_round(tournament, chief)
    g = rnd.games().first()
    record_result(g, GameResult.DRAW, chief)
    record_result(g, GameResult.BLACK_WINS, chief)
    response = chief_client.post(result_url(rnd, g), {"result": "1-0", "expected": "1/2-1/2"}, follow=True)
    assert "by someone else" in response.content.decode()
    g.refresh_from_db()
    assert g.result == GameResult.BLACK_WINS


def test_publishing_a_draft_that_was_discarded_meanwhile_says_so(chief, chief_client, tournament, players):
    """The chief's preview page is open; the deputy changes a bye, which discards it."""
    rounds.pair_next_round(tournament, chief)
    discard_draft(tournament, chief, "Byes changed.")
    response = chief_client.post(reverse("pairing:round_publish", args=[tournament.slug, 1]), follow=True)
    assert response.status_code == 200
    assert "was discarded in the meantime" in response.content.decode()
    assert not Round.objects.exists()


def test_discarding_a_draft_already_discarded_says_so(chief, chief_client, tournament, players):
    rounds.pair_next_round(tournament, chief)
    discard_draft(tournament, chief)
    response = chief_client.post(reverse("pairing:round_discard", args=[tournament.slug, 1]), follow=True)
    assert response.status_code == 200 and "no longer a draft" in response.content.decode()


def test_publish_of_a_discarded_draft_raises_conflict(chief, tournament, players):
    stale = rounds.pair_next_round(tournament, chief)
    discard_draft(tournament, chief)
    with pytest.raises(Conflict, match="discarded in the meantime"):
        publish(stale, chief)
    assert not Round.objects.exists()
    assert not AuditEntry.objects.filter(action=AuditAction.PUBLISH).exists()


def test_discarding_a_round_published_meanwhile_says_so(chief, chief_client, tournament, players):
    rnd = rounds.pair_next_round(tournament, chief)
    publish(rnd, chief)
    response = chief_client.post(reverse("pairing:round_discard", args=[tournament.slug, 1]), follow=True)
    assert "is published; it cannot be discarded" in response.content.decode()
    assert Round.objects.get().status == RoundStatus.PUBLISHED


def test_a_swap_on_a_draft_published_meanwhile_is_refused(chief, tournament, players):
    stale = rounds.pair_next_round(tournament, chief)
    publish(Round.objects.get(pk=stale.pk), chief)
    g1, g2 = list(stale.games())[:2]
    with pytest.raises(ValueError, match="published or discarded in the meantime"):
        rounds.swap_players(stale, g1.white, g2.white, chief)
    assert not AuditEntry.objects.filter(action=AuditAction.SWAP).exists()


# ------------------------------------------------------------------ edit forms opened by two arbiters


def seen_on(page) -> str:
    return re.search(r'name="seen" value="([0-9a-f]+)"', page.content.decode())[1]


def settings_form(t, **changes) -> dict:
    from tests.web.test_tournament_setup import GOOD

    return {**GOOD, "name": t.name, "slug": t.slug, "place": t.place, "rounds": str(t.rounds), "public": "",
            **changes}


def test_settings_saved_over_another_arbiters_change_are_refused(chief_client, deputy_client, tournament):
    settings_url = reverse("pairing:settings", args=[tournament.slug])
    chief_seen = seen_on(chief_client.get(settings_url))
    deputy_seen = seen_on(deputy_client.get(settings_url))
    deputy_client.post(settings_url, settings_form(tournament, rounds="7", seen=deputy_seen))
    response = chief_client.post(settings_url, settings_form(tournament, place="Piran", seen=chief_seen))
    assert response.status_code == 409
    assert "The settings changed since you opened this page" in response.content.decode()
    tournament.refresh_from_db()
    assert (tournament.rounds, tournament.place) == (7, "Bled")  # the deputy's change stands
    # the refused form carries the new version: saving again is a deliberate overwrite
    again = chief_client.post(settings_url, settings_form(tournament, place="Piran", seen=seen_on(response)))
    assert again.status_code == 302
    tournament.refresh_from_db()
    assert (tournament.rounds, tournament.place) == (7, "Piran")
    assert AuditEntry.objects.filter(action=AuditAction.SETTINGS).count() == 2


def test_a_player_saved_over_another_arbiters_change_is_refused(chief_client, deputy_client, tournament, players):
    p = players[2]
    edit_url = reverse("pairing:player_edit", args=[tournament.slug, p.pk])
    chief_seen = seen_on(chief_client.get(edit_url))
    deputy_client.post(edit_url, {"name": p.name, "rating": "2000", "seen": seen_on(deputy_client.get(edit_url))})
    response = chief_client.post(edit_url, {"name": p.name, "rating": str(p.rating), "club": "Bled",
                                            "seen": chief_seen})
    assert response.status_code == 409
    assert "details changed since you opened this page" in response.content.decode()
    p.refresh_from_db()
    assert (p.rating, p.club) == (2000, "")


def test_a_new_player_elsewhere_in_the_list_is_no_conflict(chief_client, deputy_client, tournament, players):
    """Registering a player renumbers the list, but nobody edited this player."""
    p = players[-1]
    edit_url = reverse("pairing:player_edit", args=[tournament.slug, p.pk])
    seen = seen_on(chief_client.get(edit_url))
    deputy_client.post(reverse("pairing:players", args=[tournament.slug]), {"name": "Top, Tom", "rating": "2700"})
    response = chief_client.post(edit_url, {"name": p.name, "rating": str(p.rating), "club": "Bled", "seen": seen})
    assert response.status_code == 302
    p.refresh_from_db()
    assert p.club == "Bled"


def byes_page(client, t, number=1):
    page = client.get(reverse("pairing:absences", args=[t.slug]) + f"?round={number}")
    return re.search(r'name="seen" value="([^"]*)"', page.content.decode())[1]


def byes_form(players, seen: str, **kinds) -> dict:
    """Every player's select as the browser sends it; ``kinds``: tpn-indexed changes."""
    data = {"round": "1", "seen": seen}
    shown = dict(item.split(":") for item in seen.split(",") if item)
    for p in players:
        data[f"kind-{p.pk}"] = kinds.get(f"p{p.tpn}", shown.get(str(p.pk), ""))
    return data


def test_two_arbiters_setting_different_byes_from_the_same_page_keep_both(
    chief_client, deputy_client, tournament, players
):
    url = reverse("pairing:absences", args=[tournament.slug])
    chief_seen, deputy_seen = byes_page(chief_client, tournament), byes_page(deputy_client, tournament)
    chief_client.post(url, byes_form(players, chief_seen, p1="H"))
    deputy_client.post(url, byes_form(players, deputy_seen, p2="Z"))  # still shows player 1 playing
    kinds = dict(tournament.bye_set.values_list("player__tpn", "kind"))
    assert kinds == {1: "H", 2: "Z"}


def test_changing_a_bye_another_arbiter_just_changed_is_refused(chief_client, deputy_client, tournament, players):
    url = reverse("pairing:absences", args=[tournament.slug])
    chief_seen, deputy_seen = byes_page(chief_client, tournament), byes_page(deputy_client, tournament)
    chief_client.post(url, byes_form(players, chief_seen, p1="H"))
    response = deputy_client.post(url, byes_form(players, deputy_seen, p1="Z", p3="H"), follow=True)
    assert "another arbiter changed the bye of Player 01" in response.content.decode()
    assert dict(tournament.bye_set.values_list("player__tpn", "kind")) == {1: "H"}  # all or nothing


# ------------------------------------------------------------------ SQLite with several workers


def database_settings(database_url: str) -> dict:
    """DATABASES['default'] as arbiter_site.settings builds it for ``database_url``."""
    env = {k: v for k, v in os.environ.items() if not k.startswith(("DJANGO_", "DATABASE_URL"))}
    env["DJANGO_DEBUG"] = "true"  # development settings: no secret key needed to read them
    env["DATABASE_URL"] = database_url
    code = "import json; from arbiter_site import settings as s; print(json.dumps(s.DATABASES['default']))"
    done = subprocess.run([sys.executable, "-c", code], cwd=ROOT, env=env, capture_output=True, text=True)
    assert done.returncode == 0, done.stderr
    return json.loads(done.stdout.strip().splitlines()[-1])


def test_sqlite_write_transactions_take_the_lock_at_begin(tmp_path):
    db = database_settings(f"sqlite:///{tmp_path / 'site.sqlite3'}")
    assert db["OPTIONS"]["transaction_mode"] == "IMMEDIATE"


def test_postgresql_gets_no_sqlite_option():
    db = database_settings("postgres://arbiter@db.example.org:5432/dubov")
    assert "transaction_mode" not in db.get("OPTIONS", {})


def read_then_write_at_once(path: Path, options: dict, blocker) -> list:
    """Two connections to one SQLite file, started together, each reading and then
    writing in one transaction: what two workers saving a result do.  Without a
    transaction mode both read before either writes; with IMMEDIATE the first holds the
    lock for a moment after its read.  Returns None for a commit, the exception otherwise."""
    from django.db.backends.sqlite3.base import DatabaseWrapper

    config = connection.settings_dict | {
        "ENGINE": "django.db.backends.sqlite3", "NAME": str(path), "OPTIONS": options, "TEST": {}
    }
    with blocker.unblock():
        setup = DatabaseWrapper(config, alias="setup")
        with setup.cursor() as cursor:
            cursor.execute("CREATE TABLE board (id integer PRIMARY KEY, result text)")
            cursor.execute("INSERT INTO board VALUES (1, '')")
        setup.close()
    start, after_read = threading.Barrier(2), threading.Barrier(2)
    outcomes: list = [None, None]

    def worker(i: int) -> None:
        db = DatabaseWrapper(config, alias=f"worker{i}")
        try:
            db.ensure_connection()
            start.wait(10)
            db._start_transaction_under_autocommit()  # what atomic() sends: BEGIN [mode]
            with db.cursor() as cursor:
                try:
                    cursor.execute("SELECT result FROM board WHERE id = 1")
                    cursor.fetchone()
                    if options:
                        time.sleep(0.2)  # the other one is waiting at BEGIN meanwhile
                    else:
                        after_read.wait(10)  # both have read
                    cursor.execute("UPDATE board SET result = %s WHERE id = 1", [str(i)])
                    cursor.execute("COMMIT")
                except Exception:
                    cursor.execute("ROLLBACK")
                    raise
        except Exception as exc:  # the test inspects it
            outcomes[i] = exc
            after_read.abort()
        finally:
            db.close()

    with blocker.unblock():
        threads = [threading.Thread(target=worker, args=(i,)) for i in range(2)]
        for t in threads:
            t.start()
        for t in threads:
            t.join(30)
    return outcomes


def test_two_sqlite_writers_that_read_first_both_commit_with_immediate(tmp_path, django_db_blocker):
    """With the site's option the second writer waits at BEGIN for the first to commit."""
    outcomes = read_then_write_at_once(tmp_path / "site.sqlite3", {"transaction_mode": "IMMEDIATE"}, django_db_blocker)
    assert outcomes == [None, None]


def test_without_immediate_one_of_them_fails_at_once_with_database_is_locked(tmp_path, django_db_blocker):
    """Why the option is there: a deferred transaction holding a read lock cannot wait
    for the write lock (SQLite would deadlock), so it fails whatever the busy timeout."""
    outcomes = read_then_write_at_once(tmp_path / "site.sqlite3", {}, django_db_blocker)
    failures = [o for o in outcomes if o is not None]
    assert len(failures) == 1 and "database is locked" in str(failures[0])


def test_a_save_that_waited_too_long_for_the_lock_is_a_503_with_a_message(
    monkeypatch, chief, chief_client, tournament, players
):
    """Past SQLite's busy timeout the transaction is rolled back; the arbiter is told
    to try again instead of seeing a server error."""
    rnd = rounds.pair_next_round(tournament, chief)
    publish(rnd, chief)
    game = rnd.games().first()

    def busy(*args, **kwargs):
        raise OperationalError("database is locked")

    monkeypatch.setattr(round_views, "record_result", busy)
    url = reverse("pairing:game_result", args=[tournament.slug, 1, game.pk])
    response = chief_client.post(url, {"result": "1-0", "expected": ""})
    assert response.status_code == 503 and response["Retry-After"] == "2"
    assert "Nothing was saved" in response.content.decode()


def test_other_database_errors_are_not_dressed_up_as_busy(monkeypatch, chief, chief_client, tournament, players):
    rnd = rounds.pair_next_round(tournament, chief)
    publish(rnd, chief)
    game = rnd.games().first()

    def broken(*args, **kwargs):
        raise OperationalError("no such table: pairing_game")

    monkeypatch.setattr(round_views, "record_result", broken)
    with pytest.raises(OperationalError):
        chief_client.post(reverse("pairing:game_result", args=[tournament.slug, 1, game.pk]),
                          {"result": "1-0", "expected": ""})


# ------------------------------------------------------------------ audit finding 7


@_race
@pytest.mark.parametrize("attempt", range(5))
def test_audit_finding_7_two_adds_with_the_same_fide_id_at_once_one_saves(attempt, chief, deputy, tournament):
    """Both forms passed the FIDE id check before either saved: 8 of 10 races saved both,
    and the rating report repeated the id."""
    post = {"name": "Zupan, Ana", "rating": "2105", "fide_id": "14600000"}
    url = reverse("pairing:players", args=[tournament.slug])
    outcomes = run_together(
        lambda: logged_in(chief).post(url, post).status_code,
        lambda: logged_in(deputy).post(url, {**post, "name": "Zupan, Anna"}).status_code,
    )
    # 409: the database constraint caught it; 400: the form's own check, once the other had saved
    assert sorted(outcomes) in ([302, 409], [302, 400]), outcomes
    assert tournament.player_set.filter(fide_id="14600000").count() == 1
