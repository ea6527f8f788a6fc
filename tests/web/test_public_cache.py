"""Public pages computed once per change (pairing/views/public_cache.py): every change
shows on the next request, in every worker; nothing changed, nothing sent; a signed-in
page never goes through the shared cache; one computation after a change however many
ask at once.

Runs on the configured cache: the database by default, Redis when REDIS_URL is set (CI
runs this module a second time that way, against a real Redis)."""

from __future__ import annotations

import os
import subprocess
import sys
import threading
from pathlib import Path

import pytest
from django.conf import settings
from django.core.cache import cache
from django.db import connection
from django.test import Client
from django.urls import reverse

from pairing.models import Game, GameResult, Tournament
from pairing.services.results import record_result
from pairing.services.rounds import pair_next_round, publish
from tests.web import test_security as security
from tests.web.helpers import add_players, play_round
from tests.web.test_security import ARBITER_ROUTES, address, everything, payload

scene = security.scene  # the security tests' scene (a fixture): something for every view to act on

ROOT = Path(__file__).resolve().parents[2]


@pytest.fixture
def live(chief, tournament):
    """A public tournament of 8 players, round 1 complete, round 2 in play (no result)."""
    Tournament.objects.filter(pk=tournament.pk).update(public=True)
    tournament.refresh_from_db()
    add_players(tournament, 8)
    play_round(tournament, chief)
    publish(pair_next_round(tournament, chief), chief)
    tournament.refresh_from_db()
    return tournament


def round_url(t, number=2, **query) -> str:
    url = reverse("pairing:round", args=[t.slug, number])
    return url + ("?" + "&".join(f"{k}={v}" for k, v in query.items()) if query else "")


def board_one(t, number=2) -> Game:
    return Game.objects.get(round__tournament=t, round__number=number, board=1)


def result_cell(html: str) -> str:
    row = html.split('id="board-1"', 1)[1].split("</tr>", 1)[0]
    return row.split('class="result"', 1)[1].split("</td>", 1)[0]


def public_pages(t) -> list[str]:
    return [
        reverse("pairing:tournament", args=[t.slug]),
        round_url(t),
        reverse("pairing:standings", args=[t.slug]),
        reverse("pairing:standings_csv", args=[t.slug]),
        reverse("pairing:crosstable", args=[t.slug]),
        reverse("pairing:aro", args=[t.slug]),
        reverse("pairing:aro_spread", args=[t.slug]),
        reverse("pairing:player_card", args=[t.slug, 1]),
    ]


def test_the_cache_is_the_one_the_environment_names():
    """The database cache by default; REDIS_URL (MEMCACHED_URL) switches to Redis
    (Memcached) with nothing else changed (this module runs a second time in CI with
    REDIS_URL)."""
    backend = settings.CACHES["default"]["BACKEND"]
    if os.environ.get("REDIS_URL") or os.environ.get("MEMCACHED_URL"):
        assert backend.endswith(".RedisCache" if os.environ.get("REDIS_URL") else ".PyMemcacheCache")
        assert cache.get("never-set") is None
        cache.set("server-answers", 1, 5)
        assert cache.get("server-answers") == 1
    else:
        assert backend == "django.core.cache.backends.db.DatabaseCache"


@pytest.mark.parametrize(
    ("variables", "backend", "location"),
    [
        ({}, "django.core.cache.backends.db.DatabaseCache", "dubov_cache"),
        ({"REDIS_URL": "redis://cache.internal:6379/2"}, "django.core.cache.backends.redis.RedisCache",
         "redis://cache.internal:6379/2"),
        ({"MEMCACHED_URL": "memcached://cache.internal:11211"},
         "django.core.cache.backends.memcached.PyMemcacheCache", "cache.internal:11211"),
    ],
)
def test_several_web_machines_share_a_cache_named_by_one_variable(monkeypatch, variables, backend, location):
    """docs/scaling.md: the database by default; REDIS_URL or MEMCACHED_URL moves the cache
    to a server every web machine reaches, and nothing else changes."""
    from arbiter_site.settings import cache_settings

    for name in ("REDIS_URL", "MEMCACHED_URL"):
        monkeypatch.delenv(name, raising=False)
    for name, value in variables.items():
        monkeypatch.setenv(name, value)
    default = cache_settings()["default"]
    assert (default["BACKEND"], default["LOCATION"]) == (backend, location)


@pytest.mark.parametrize(
    "variables",
    [{"REDIS_URL": "redis://a:6379/0", "MEMCACHED_URL": "memcached://b:11211"}, {"REDIS_URL": "http://a:6379"},
     {"MEMCACHED_URL": "tcp://b:11211"}],
)
def test_a_cache_variable_that_cannot_work_stops_the_start(monkeypatch, variables):
    from django.core.exceptions import ImproperlyConfigured

    from arbiter_site.settings import cache_settings

    for name in ("REDIS_URL", "MEMCACHED_URL"):
        monkeypatch.delenv(name, raising=False)
    for name, value in variables.items():
        monkeypatch.setenv(name, value)
    with pytest.raises(ImproperlyConfigured):
        cache_settings()


def test_every_public_page_comes_from_the_cache_the_second_time(anon_client, live):
    for url in public_pages(live):
        first = anon_client.get(url)
        second = anon_client.get(url)
        assert (first.status_code, second.status_code) == (200, 200), url
        assert (first["X-Cache"], second["X-Cache"]) == ("miss", "hit"), url
        assert first.content == second.content, url
        assert second["ETag"] == first["ETag"] and second["Last-Modified"]
        assert "public" in second["Cache-Control"] and "s-maxage=1" in second["Cache-Control"], url
        assert "private" not in second["Cache-Control"]
        assert not second.cookies, url  # one copy for every visitor: no cookie of anyone's


def test_a_result_moves_the_revision_and_the_next_request_shows_it(anon_client, chief, live):
    url = round_url(live)
    assert "1-0" not in result_cell(anon_client.get(url).content.decode())
    assert anon_client.get(url)["X-Cache"] == "hit"
    before = Tournament.objects.get(pk=live.pk).revision
    record_result(board_one(live), GameResult.WHITE_WINS, chief)
    assert Tournament.objects.get(pk=live.pk).revision > before
    after = anon_client.get(url)
    assert after["X-Cache"] == "miss"
    assert "1-0" in result_cell(after.content.decode())


def test_issue_38_the_aro_spread_comes_from_the_shared_cache_and_the_round_completed_shows_next(
        anon_client, chief, live):
    """Round 1 complete, round 2 in play: the chart of round 1, computed once and then read
    from the shared copy while the page refreshes itself; a result of round 2 changes
    nothing on it until the one that completes the round, which shows at the next request."""
    url = reverse("pairing:aro_spread", args=[live.slug])
    first, again = anon_client.get(url), anon_client.get(url)
    assert (first["X-Cache"], again["X-Cache"]) == ("miss", "hit") and first.content == again.content
    assert "public" in again["Cache-Control"] and not again.cookies
    html = first.content.decode()
    assert "After round 1, scoregroup" in html and "After round 2," not in html and 'hx-trigger="every 30s"' in html
    *others, last = live.round_set.get(number=2).games()
    for g in others:
        record_result(g, GameResult.DRAW, chief)
    assert "After round 2," not in anon_client.get(url).content.decode()
    record_result(last, GameResult.DRAW, chief)
    after = anon_client.get(url)
    assert after["X-Cache"] == "miss"
    assert "After round 2, scoregroup" in after.content.decode() and "hx-trigger" not in after.content.decode()
    assert anon_client.get(url)["X-Cache"] == "hit"


def test_a_round_published_shows_on_every_public_page_at_once(anon_client, chief, live):
    for g in live.round_set.get(number=2).games():
        record_result(g, GameResult.DRAW, chief)
    for url in public_pages(live):
        anon_client.get(url)
        assert anon_client.get(url)["X-Cache"] == "hit"
    publish(pair_next_round(live, chief), chief)
    for url in public_pages(live):
        assert anon_client.get(url)["X-Cache"] == "miss", url  # computed again, none served stale
    home = anon_client.get(reverse("pairing:tournament", args=[live.slug])).content.decode()
    assert round_url(live, 3) in home


def test_an_unchanged_page_is_answered_304_and_a_changed_one_in_full(anon_client, chief, live):
    url = reverse("pairing:standings", args=[live.slug])
    first = anon_client.get(url)
    again = anon_client.get(url, headers={"If-None-Match": first["ETag"]})
    assert again.status_code == 304 and again.content == b""
    assert again["ETag"] == first["ETag"] and again["X-Cache"] == "not-modified"
    since = anon_client.get(url, headers={"If-Modified-Since": first["Last-Modified"]})
    assert since.status_code == 304
    record_result(board_one(live), GameResult.BLACK_WINS, chief)
    changed = anon_client.get(url, headers={"If-None-Match": first["ETag"]})
    assert changed.status_code == 200 and changed["ETag"] != first["ETag"]


def test_a_poll_costs_a_204_until_the_revision_moves(anon_client, chief, live):
    """The round page polls ``?since=<revision>``: 204 No Content while nothing changed
    (htmx leaves the page as it is), the page's live part once something has."""
    page = anon_client.get(round_url(live)).content.decode()
    poll = page.split('id="live"', 1)[1].split('hx-get="', 1)[1].split('"', 1)[0].replace("&amp;", "&")
    revision = Tournament.objects.get(pk=live.pk).revision
    assert poll == round_url(live, since=revision)
    quiet = anon_client.get(poll, headers={"HX-Request": "true"})
    assert quiet.status_code == 204 and quiet.content == b"" and quiet["X-Cache"] == "unchanged"
    assert "public" in quiet["Cache-Control"]
    record_result(board_one(live), GameResult.WHITE_WINS, chief)
    news = anon_client.get(poll, headers={"HX-Request": "true"})
    assert news.status_code == 200 and "1-0" in result_cell(news.content.decode())
    # the new page polls with the new revision
    assert f"since={revision + 1}" in news.content.decode() or f"since={revision + 2}" in news.content.decode()
    # without htmx ``since`` is no question: the page itself
    assert anon_client.get(poll).status_code == 200


def test_unknown_parameters_get_the_same_copy(anon_client, live):
    url = reverse("pairing:standings", args=[live.slug])
    first = anon_client.get(url)
    assert anon_client.get(url + "?utm_source=x&round=1x").status_code == 404  # round is read
    tagged = anon_client.get(url + "?utm_source=newsletter")
    assert tagged["X-Cache"] == "hit" and tagged.content == first.content
    assert b"utm_source" not in tagged.content


def test_a_signed_in_page_never_comes_from_the_shared_cache_nor_goes_into_it(anon_client, chief_client, live):
    url = round_url(live)
    anonymous = anon_client.get(url)
    assert anonymous["X-Cache"] == "miss" and b'name="expected"' not in anonymous.content
    rows = cache_rows()
    arbiter = chief_client.get(url)
    assert arbiter["X-Cache"] == "private"
    assert "private" in arbiter["Cache-Control"] and "no-cache" in arbiter["Cache-Control"]
    assert b'name="expected"' in arbiter.content  # the results entry, for the arbiter only
    assert "ETag" not in arbiter
    assert cache_rows() == rows  # nothing stored for the signed-in visit
    after = anon_client.get(url)
    assert after["X-Cache"] == "hit" and after.content == anonymous.content
    # a poll from the arbiter's browser is his own too
    poll = chief_client.get(round_url(live, since=0), headers={"HX-Request": "true"})
    assert poll["X-Cache"] == "private" and b'name="expected"' in poll.content


def test_a_visitor_with_a_session_or_messages_gets_his_own_page(anon_client, live):
    url = reverse("pairing:standings", args=[live.slug])
    anon_client.get(url)
    anon_client.cookies["messages"] = "x"
    assert anon_client.get(url)["X-Cache"] == "private"
    del anon_client.cookies["messages"]
    anon_client.cookies[settings.SESSION_COOKIE_NAME] = "x"
    assert anon_client.get(url)["X-Cache"] == "private"


def test_the_shared_copy_carries_no_csrf_token_and_its_forms_still_work(anon_client, live):
    """The language and density forms of the cached page post without a token."""
    page = anon_client.get(reverse("pairing:standings", args=[live.slug])).content.decode()
    assert "csrfmiddlewaretoken" not in page and "X-CSRFToken" not in page
    strict = Client(enforce_csrf_checks=True)
    back = reverse("pairing:standings", args=[live.slug])
    response = strict.post("/i18n/setlang/", {"language": "ru", "next": back})
    assert response.status_code == 302 and response.cookies[settings.LANGUAGE_COOKIE_NAME].value == "ru"
    assert strict.post(reverse("pairing:density"), {"compact": "1", "next": back}).cookies["density"].value == "compact"


def test_each_language_and_density_has_its_own_copy(anon_client, live):
    url = reverse("pairing:standings", args=[live.slug])
    english = anon_client.get(url).content.decode()
    russian = anon_client.get(url, headers={"Accept-Language": "ru"})
    assert russian["X-Cache"] == "miss" and 'lang="ru"' in russian.content.decode() and 'lang="en"' in english
    anon_client.cookies["density"] = "compact"
    compact = anon_client.get(url)
    assert compact["X-Cache"] == "miss" and 'class="compact"' in compact.content.decode()


def test_a_deleted_tournaments_number_never_brings_its_pages_back(anon_client, chief, live):
    """SQLite may give a new tournament the number of a deleted one: the key carries the
    creation time too."""
    from pairing.views.public_cache import _key

    class Req:
        COOKIES: dict = {}
        htmx = False

        def get_full_path(self):
            return "/t/x/standings/"

    old = _key(Req(), live)
    clone = Tournament(pk=live.pk, revision=live.revision, created=live.created.replace(year=live.created.year + 1))
    assert _key(Req(), clone) != old


# ------------------------------------------------------------------ across workers


def database_url() -> str:
    s = connection.settings_dict
    if connection.vendor == "sqlite":
        return f"sqlite:///{s['NAME']}"
    host = s.get("HOST") or "127.0.0.1"
    auth = s["USER"] + (f":{s['PASSWORD']}" if s.get("PASSWORD") else "")
    return f"postgres://{auth}@{host}:{s.get('PORT') or 5432}/{s['NAME']}"


OTHER_WORKER = """
import django, sys
django.setup()
from django.test import Client
from pairing.models import Game, GameResult, Tournament
from pairing.services.results import record_result
t = Tournament.objects.get(slug=sys.argv[1])
url = sys.argv[2]
seen = Client().get(url)
print("other worker:", seen["X-Cache"], seen.status_code)
g = Game.objects.get(round__tournament=t, round__number=2, board=1)
record_result(g, GameResult.BLACK_WINS, t.owner)
print("result entered")
"""


@pytest.mark.django_db(transaction=True)
def test_no_stale_page_across_workers(chief, tournament):
    """Two processes on the shared cache: this one computes the round page; another
    process (another gunicorn worker, or another machine) gets it from the cache, then
    enters a result; this one's next request shows the result."""
    tournament.public = True
    tournament.save()
    add_players(tournament, 8)
    play_round(tournament, chief)
    publish(pair_next_round(tournament, chief), chief)
    client = Client()
    url = round_url(tournament)
    assert client.get(url)["X-Cache"] == "miss"
    env = {k: v for k, v in os.environ.items() if not k.startswith("DJANGO_")}
    env |= {"DATABASE_URL": database_url(), "DJANGO_SETTINGS_MODULE": "arbiter_site.test_settings",
            "DJANGO_DEBUG": "true", "DJANGO_ALLOWED_HOSTS": "testserver"}
    done = subprocess.run([sys.executable, "-c", OTHER_WORKER, tournament.slug, url], cwd=ROOT, env=env,
                          capture_output=True, text=True, timeout=120)
    assert done.returncode == 0, done.stderr[-3000:]
    assert "other worker: hit 200" in done.stdout  # the same copy, from the shared cache
    after = client.get(url)
    assert after["X-Cache"] == "miss" and "0-1" in result_cell(after.content.decode())


@pytest.mark.django_db(transaction=True)
def test_after_a_change_one_request_computes_the_page_and_the_others_wait_for_it(chief, tournament, monkeypatch):
    """Eight visitors ask for the standings at the same moment after a round is
    published: the tie-breaks are computed once."""
    import time

    from pairing.reports import standings as reports

    tournament.public = True
    tournament.save()
    add_players(tournament, 8)
    play_round(tournament, chief)
    calls = []
    real = reports._ranking

    def slow(*args, **kwargs):
        calls.append(threading.get_ident())
        time.sleep(0.5)  # long enough for every visitor to arrive while it is computed
        return real(*args, **kwargs)

    monkeypatch.setattr(reports, "_ranking", slow)
    url = reverse("pairing:standings", args=[tournament.slug])
    gate = threading.Barrier(8)
    answers = []

    def visitor():
        gate.wait()
        response = Client().get(url)
        answers.append((response.status_code, response["X-Cache"], response.content))
        from django.db import connection as own

        own.close()

    threads = [threading.Thread(target=visitor) for _ in range(8)]
    for th in threads:
        th.start()
    for th in threads:
        th.join(60)
    assert len(calls) == 1
    # one computes; the others wait for it (or, held back on a busy machine until it was
    # stored, read it from the cache)
    states = sorted(a[1] for a in answers)
    assert states.count("miss") == 1 and set(states) - {"miss"} <= {"wait", "hit"} and len(states) == 8
    assert {a[0] for a in answers} == {200} and len({a[2] for a in answers}) == 1


def cache_rows() -> int | None:
    """Rows of the database cache's table (None on another backend)."""
    if "DatabaseCache" not in settings.CACHES["default"]["BACKEND"]:
        return None
    with connection.cursor() as cursor:
        cursor.execute(f"SELECT COUNT(*) FROM {settings.CACHE_TABLE}")
        return cursor.fetchone()[0]


# ------------------------------------------------------------------ every change moves it



def _state_without_revision() -> dict:
    rows = everything()
    # no state of the tournament: a confirmation spent, background work asked for (a job
    # that changes the tournament does it through the services, which move the revision)
    for bookkeeping in ("SpentConfirmation", "Job", "WorkerBeat"):
        rows.pop(bookkeeping, None)
    rows["Tournament"] = [{k: v for k, v in r.items() if k != "revision"} for r in rows["Tournament"]]
    return rows


@pytest.mark.parametrize("name", ARBITER_ROUTES)
def test_every_change_an_arbiter_posts_moves_the_revision(chief_client, scene, name):
    """Whatever an arbiter's post changes in the tournament's tables, the revision moves
    with it (so no public page can stay as it was)."""
    before, revision = _state_without_revision(), Tournament.objects.get(pk=scene.pk).revision
    seen = Tournament.objects.get(pk=scene.pk).version() if name == "settings" else ""
    chief_client.post(address(name, scene), payload(scene) | {"seen": seen})
    if _state_without_revision() != before:
        assert Tournament.objects.get(pk=scene.pk).revision > revision, name


def _rename(p):
    def save():
        p.name = "Renamed, Player"
        p.save()
        return p

    return save


def _new_player(t):
    from pairing.models import Player

    return lambda: Player.objects.create(tournament=t, name="Late, Entry", rating=1000)


def _trf_text() -> str:
    from decimal import Decimal

    from pairing.engine import trf
    from pairing.engine.generator import GeneratorConfig, generate_fast

    gen = generate_fast(GeneratorConfig(players=10, rounds=5, seed=3), 2)
    return trf.dump_trf(trf.TrfTournament(
        name="Imported", total_rounds=5, initial_colour=gen.initial_colour, points=gen.points,
        players=tuple(trf.TrfPlayer(id=p.tpn, name=f"Player {p.tpn:02d}", rating=p.rating,
                                    points=sum((gen.points.points(e.result) for e in p.history), Decimal(0)),
                                    history=p.history) for p in gen.players)))


def _changes(t, u):
    """What the services change in a tournament with round 1 complete and round 2 in
    play, each a function of nothing (``t``: the tournament, ``u``: its chief)."""
    from pairing.models import ByeKind
    from pairing.services import (
        forbidden_pairs,
        integrity,
        numbering,
        players,
        results,
        rounds,
        tiebreak_details,
    )
    from pairing.services.interchange import import_trf
    from pairing.services.tournaments import draw_lots_seed

    p = list(t.player_set.order_by("tpn"))
    g = board_one(t)
    return {
        "result": lambda: results.record_result(g, GameResult.DRAW, u),
        "result corrected": lambda: (results.record_result(g, GameResult.DRAW, u),
                                     results.record_result(board_one(t), GameResult.BLACK_WINS, u)),
        "bye for round 3": lambda: players.set_byes(t, 3, {p[0].pk: ByeKind.HALF}, u, {}),
        "byes grid": lambda: players.set_byes_grid(t, {3: {p[1].pk: ByeKind.ZERO}, 4: {p[1].pk: ByeKind.ZERO}}, u, {}),
        "withdrawal": lambda: players.withdraw(p[2], 3, u),
        "player renamed": lambda: players.change_player(t, p[3], _rename(p[3]), u, p[3].audit_values()),
        "player added": lambda: players.add_player(t, _new_player(t), u),
        "players added from a list": lambda: players.add_players(t, [{"name": "List, Entry", "rating": 1200}], u),
        "player deleted": lambda: players.delete_player(t, players.add_player(t, _new_player(t), u), u),
        "forbidden pair": lambda: forbidden_pairs.forbid_pair(t, p[0], p[7], u, confirmations=2),
        "numbers regenerated": lambda: numbering.regenerate(t, u, confirmations=2),
        "external tie-break": lambda: tiebreak_details.set_external_values(t, {p[0].pk: "3"}, u),
        "lots drawn": lambda: draw_lots_seed(t, u),
        "left FIDE mode": lambda: integrity.leave_fide_mode(t, u, 2),
        "round 2 completed, 3 paired and published": lambda: (
            [results.record_result(x, GameResult.WHITE_WINS, u) for x in t.round_set.get(number=2).games()],
            rounds.publish(rounds.pair_next_round(t, u), u)),
        "draft discarded": lambda: (
            [results.record_result(x, GameResult.WHITE_WINS, u) for x in t.round_set.get(number=2).games()],
            rounds.pair_next_round(t, u), rounds.discard_draft(t, u)),
        "TRF imported": lambda: import_trf(
            Tournament.objects.create(slug="imported", name="Imported", owner=u, public=True), _trf_text(), u,
            confirmations=2),
    }


CHANGES = [
    "result", "result corrected", "bye for round 3", "byes grid", "withdrawal", "player renamed", "player added",
    "players added from a list", "player deleted", "forbidden pair", "numbers regenerated", "external tie-break",
    "lots drawn", "left FIDE mode", "round 2 completed, 3 paired and published", "draft discarded", "TRF imported",
]


@pytest.mark.parametrize("change", CHANGES)
def test_every_change_through_the_services_moves_the_revision(chief, live, change):
    """The services' changes one by one: each writes something, and each moves the
    revision of the tournament it changed in the same transaction."""
    before = _state_without_revision()
    revisions = dict(Tournament.objects.values_list("pk", "revision"))
    _changes(live, chief)[change]()
    after = _state_without_revision()
    assert after != before, f"{change}: nothing changed (the case is wrong)"
    now = dict(Tournament.objects.values_list("pk", "revision"))
    changed = {pk for pk in now if now[pk] != revisions.get(pk)}
    touched = {r["id"] for r in after["Tournament"]} ^ {r["id"] for r in before["Tournament"]}
    touched |= {r["id"] for r in after["Tournament"] if r not in before["Tournament"]}
    round_of = {r["id"]: r["tournament_id"] for r in before["Round"] + after["Round"]}
    player_of = {r["id"]: r["tournament_id"] for r in before["Player"] + after["Player"]}
    for model, rows in after.items():
        if not rows or not isinstance(rows[0], dict):
            continue
        for row in rows + before.get(model, []):
            if (row in rows) == (row in before.get(model, [])):
                continue
            if "tournament_id" in row:
                touched.add(row["tournament_id"])
            elif "round_id" in row:
                touched.add(round_of[row["round_id"]])
            elif "player_id" in row and row["player_id"] in player_of:
                touched.add(player_of[row["player_id"]])
    assert touched and touched <= changed, f"{change}: tournaments {touched - changed} changed, revision did not"


def test_a_page_and_its_htmx_poll_share_one_copy(anon_client, chief, live):
    """Computed once for both; the poll of a page that stopped refreshing itself (the
    round complete) is answered 286 from the same copy, which tells htmx to stop."""
    url = round_url(live)
    assert anon_client.get(url)["X-Cache"] == "miss"
    poll = anon_client.get(url, headers={"HX-Request": "true"})
    assert poll.status_code == 200 and poll["X-Cache"] == "hit"
    for g in live.round_set.get(number=2).games():
        record_result(g, GameResult.DRAW, chief)
    page = anon_client.get(url)
    assert page.status_code == 200 and page["X-Cache"] == "miss" and 'hx-trigger="every 30s"' not in page.content.decode()
    stop = anon_client.get(url, headers={"HX-Request": "true"})
    assert stop.status_code == 286 and stop["X-Cache"] == "hit" and stop.content == page.content
    assert stop["ETag"] != page["ETag"]


@pytest.mark.django_db
def test_a_request_held_back_until_the_page_was_stored_reads_it_instead_of_computing_it_again(monkeypatch):
    """The race behind the test above on a busy machine: a request reads the cache before
    another stores the page, and takes the lock only after that one let it go; it must
    read again, not compute the page a second time."""
    from django.core.cache import cache

    from pairing import computed

    key = "test:held-back"
    cache.delete(key)
    real_get = cache.get
    reads = []

    def get(k, *args, **kwargs):
        reads.append(k)
        if len(reads) == 1:  # this request's first read: the other has not stored it yet
            value = real_get(k, *args, **kwargs)
            cache.set(key, "page computed by the other request")  # ... and now it has
            return value
        return real_get(k, *args, **kwargs)

    monkeypatch.setattr(computed.cache, "get", get)
    computed_here = []
    value, how = computed.once(key, lambda: computed_here.append(1) or "computed again")
    assert (value, how, computed_here) == ("page computed by the other request", "hit", [])
    assert real_get(f"{key}:lock") is None  # and the lock it took is let go
    cache.delete(key)


def test_standings_aro_list_and_scores_before_a_round_are_kept_while_later_rounds_are_paired(
    tournament, chief, players, monkeypatch
):
    """Pairing, a session on its draft and publishing round 3 change nothing in rounds 1-2: the
    standings after round 2, the ARO list before round 3 and the points before it are
    computed once across them; a result corrected in round 2 computes them again.
    Round 1's publishing does not count as harmless: it fixes Baku's group A."""
    from pairing.reports import aro, standings
    from pairing.services import manual, rounds
    from pairing.services.results import record_result
    from tests.web.helpers import play_round

    counted = {"ranked": 0, "aro": 0, "points": 0}

    def counting(name, real):
        def wrapper(*args, **kwargs):
            counted[name] += 1
            return real(*args, **kwargs)
        return wrapper

    monkeypatch.setattr(standings, "_ranked", counting("ranked", standings._ranked))
    monkeypatch.setattr(aro, "_aro_lines", counting("aro", aro._aro_lines))
    monkeypatch.setattr(standings, "points_through", counting("points", standings.points_through))

    def read():
        tournament.refresh_from_db()
        standings.ranked(tournament, 2)
        aro.aro_lines(tournament, 3)
        standings.points_before(tournament, 3)

    first = rounds.pair_next_round(tournament, chief)
    tournament.refresh_from_db()
    standings.points_before(tournament, 1)
    before = counted["points"]
    rounds.publish(first, chief)  # round 1's publishing: computed again
    tournament.refresh_from_db()
    standings.points_before(tournament, 1)
    assert counted["points"] == before + 1
    for g in first.games():
        record_result(g, "1-0", chief)
    play_round(tournament, chief)
    read()
    baseline = dict(counted)
    draft = rounds.pair_next_round(tournament, chief)
    read()
    manual.start_session(draft, chief)  # a session that changes nothing: no integrity event
    manual.end_session(draft, chief)
    rounds.publish(draft, chief)
    record_result(draft.games().first(), "1-0", chief)
    read()
    assert counted == baseline
    from pairing.models import Round

    second = Round.objects.get(tournament=tournament, number=2).games().first()
    record_result(second, "0-1" if second.result != "0-1" else "1-0", chief, expected=second.result, confirmations=3)
    read()
    assert counted == {name: n + 1 for name, n in baseline.items()}


def test_pairing_a_dubov_round_computes_its_aro_list_and_publishing_keeps_it(tournament, chief, players, monkeypatch):
    """The ARO list published with a round (Dubov 9) and its chart of the rounds before it
    are computed when the round is paired, from the snapshot the engine paired, and are
    what a fresh computation gives; the first visitor after publishing reads them without
    computing them."""
    from pairing.models import Tournament
    from pairing.reports import aro
    from pairing.services import rounds
    from tests.web.helpers import play_round

    Tournament.objects.filter(pk=tournament.pk).update(public=True)
    play_round(tournament, chief)
    play_round(tournament, chief)
    computed, charted = [], []
    real, real_spread = aro._aro_lines, aro._aro_spread
    monkeypatch.setattr(aro, "_aro_lines", lambda *a: computed.append(a[1]) or real(*a))
    monkeypatch.setattr(aro, "_aro_spread", lambda *a: charted.append(a[1]) or real_spread(*a))
    draft = rounds.pair_next_round(tournament, chief)
    assert computed == [3] and charted == [2]  # the list before round 3, the chart of rounds 1-2
    rounds.publish(draft, chief)
    tournament.refresh_from_db()
    number, lines = aro.aro_lines(tournament)
    assert number == 3 and computed == [3]
    assert lines == real(tournament, 3)
    assert aro.aro_spread(tournament) == real_spread(tournament, 2) and charted == [2]
    page = Client().get(reverse("pairing:aro", args=[tournament.slug]))
    assert page.status_code == 200 and computed == [3] and charted == [2]
    chart = Client().get(reverse("pairing:aro_spread", args=[tournament.slug]))
    assert chart.status_code == 200 and 'id="spread-table"' in chart.content.decode() and charted == [2]


def test_the_aro_list_and_its_chart_computed_cold_each_read_the_rounds_once(tournament, chief, players, monkeypatch):
    """The ARO list before the next round and the chart of the rounds complete, neither
    computed yet (a rating corrected moves both): the list's page builds one snapshot and
    no chart; the chart's page reads the rounds as columns once and builds no snapshot;
    each is what computing it on its own gives; found in the cache, nothing is built or
    read.  An older round's list asked for (``?round=2``) is drawn from its own snapshot."""
    from pairing.models import Tournament
    from pairing.models.tournament import bump_revision
    from pairing.reports import aro
    from pairing.services import snapshot as snapshots
    from tests.web.helpers import play_round

    Tournament.objects.filter(pk=tournament.pk).update(public=True)
    play_round(tournament, chief)
    play_round(tournament, chief)
    player = tournament.player_set.order_by("tpn").first()
    type(player).objects.filter(pk=player.pk).update(rating=player.rating + 1)
    bump_revision(tournament.pk)
    tournament.refresh_from_db()
    built = []
    real_build = snapshots.build_snapshot
    monkeypatch.setattr(aro, "build_snapshot", lambda t, n=None: built.append(n) or real_build(t, n))
    read = []
    real_table = snapshots.history_table
    monkeypatch.setattr(aro, "history_table", lambda *a, **k: read.append(a[1]) or real_table(*a, **k))
    page = Client().get(reverse("pairing:aro", args=[tournament.slug]))
    assert page.status_code == 200 and built == [3] and read == []
    chart = Client().get(reverse("pairing:aro_spread", args=[tournament.slug]))
    assert chart.status_code == 200 and built == [3] and read == [2]
    number, lines = aro.aro_lines(tournament)
    assert (number, lines) == (3, aro._aro_lines(tournament, 3))
    spread = aro.aro_spread(tournament)
    assert spread == aro._aro_spread(tournament, 2) and [r.number for r in spread] == [1, 2]
    assert built == [3, 3] and read == [2, 2]  # the two computed above on their own
    del built[:], read[:]
    assert aro.aro_lines(tournament) == (number, lines) and aro.aro_spread(tournament) == spread
    assert built == [] and read == []
    assert Client().get(reverse("pairing:aro", args=[tournament.slug]) + "?round=2").status_code == 200
    assert built == [2] and read == []
