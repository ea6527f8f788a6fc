"""Rating lists kept fresh (issue 36; VCL4THP Q135, Q136): *Update all lists now* for the
staff account, the daily refresh started by the worker, freshness by what the source
publishes, a failed download that keeps the list in use, and every arbiter's own
national and custom lists.  Downloads go to a local server (tests/web/list_server.py)."""

from __future__ import annotations

import datetime
import zoneinfo

import pytest
from django.contrib.auth import get_user_model
from django.http import HttpResponse
from django.test import Client, RequestFactory
from django.urls import reverse

from arbiter_site.request_limits import RequestSizeLimitMiddleware
from pairing import worker
from pairing.models import Job, JobKind, JobStatus, RatingEntry, RatingList, RatingSource, Tournament
from pairing.services import player_ratings, rating_sources
from tests.web.list_server import list_server
from tests.web.test_rating_lists import NATIONAL, PLAYERS, fide_xml, load, zipped
from tests.web.worker_process import run_queued

FIDE_PATH = "/download/players_list_xml.zip"
NATIONAL_PATH = "/slo/ratings.csv"


@pytest.fixture
def staff(db):
    return get_user_model().objects.create_user("admin", password="x", is_staff=True)


@pytest.fixture
def staff_client(staff) -> Client:
    client = Client()
    client.force_login(staff)
    return client


@pytest.fixture
def server(settings, db):
    with list_server() as state:
        state.publish(FIDE_PATH, zipped("players_list_xml_foa.xml", fide_xml()), month=11)
        state.publish(NATIONAL_PATH, NATIONAL, month=11)
        settings.FIDE_RATING_LIST_URL = state.url(FIDE_PATH)
        yield state


def update_now(client) -> Job:
    response = client.post(reverse("pairing:rating_list_update"))
    assert response.status_code == 302
    job = Job.objects.get(pk=int(response["Location"].rstrip("/").rsplit("/", 1)[1]))
    run_queued()
    job.refresh_from_db()
    return job


def national_source(server) -> RatingSource:
    source = rating_sources.source_for("SLO national", "national")
    RatingSource.objects.filter(pk=source.pk).update(url=server.url(NATIONAL_PATH))
    return source


# ------------------------------------------------------------------ Update all lists now


def test_vcl_q136_update_all_lists_now_loads_fides_list_and_a_national_list_from_their_addresses(
    staff_client, server
):
    national_source(server)
    job = update_now(staff_client)
    assert job.status == JobStatus.DONE and job.result["failed"] == 0
    assert [(o["name"], o["status"]) for o in job.result["lists"]] == [("FIDE", "loaded"), ("SLO national", "loaded")]
    fide = RatingList.objects.active().get(name="FIDE")
    assert (fide.month, fide.players, fide.source) == (datetime.date(2026, 11, 1), len(PLAYERS), server.url(FIDE_PATH))
    assert RatingList.objects.active().get(name="SLO national").players == 2
    page = staff_client.get(reverse("pairing:rating_lists")).content.decode()
    row = page[page.index('id="list-fide"'):page.index("</tr>", page.index('id="list-fide"'))]
    assert "Nov 2026" in row and server.url(FIDE_PATH) in row
    assert f"Loaded the list of Nov 2026 from {server.url(FIDE_PATH)}: 4 players." in row
    assert 'id="list-behind"' not in page  # just checked
    done = staff_client.get(reverse("pairing:job", args=[job.pk])).content.decode()
    assert 'id="refreshed-lists"' in done and "Loaded the list of Nov 2026" in done


def test_a_second_update_with_nothing_newer_published_loads_nothing(staff_client, server):
    update_now(staff_client)
    first = RatingList.objects.active().get(name="FIDE")
    job = update_now(staff_client)
    assert job.result["lists"] == [{"name": "FIDE", "status": "unchanged",
                                    "message": "No newer list published: the list of Nov 2026 is the current one."}]
    assert RatingList.objects.active().get(name="FIDE") == first  # not loaded again
    assert server.requests[-1] == (FIDE_PATH, 304)  # the conditional download said so
    assert rating_sources.fide_source().checked_at > first.loaded_at


def test_a_list_published_again_without_change_is_not_loaded_again(staff_client, server):
    """A server that answers every download in full (no ETag match): the same file is
    recognised by its digest."""
    update_now(staff_client)
    first = RatingList.objects.active().get(name="FIDE")
    RatingSource.objects.filter(name="FIDE").update(etag="", last_modified="")
    job = update_now(staff_client)
    assert job.result["lists"][0]["status"] == "unchanged"
    assert server.requests[-1] == (FIDE_PATH, 200)
    assert RatingList.objects.active().get(name="FIDE") == first


def test_a_newer_list_is_loaded_as_the_month_it_was_published(staff_client, server):
    update_now(staff_client)
    server.publish(FIDE_PATH, zipped("players_list_xml_foa.xml", fide_xml(std_shift=7)), month=12)
    job = update_now(staff_client)
    assert job.result["lists"][0]["status"] == "loaded"
    months = sorted(RatingList.objects.active().filter(name="FIDE").values_list("month", flat=True))
    assert months == [datetime.date(2026, 11, 1), datetime.date(2026, 12, 1)]  # November's stays for its events
    december = RatingList.objects.active().get(name="FIDE", month=datetime.date(2026, 12, 1))
    assert RatingEntry.objects.get(rating_list=december, fide_id="1503014").standard == 2840


def test_a_failed_download_keeps_the_list_in_use_and_says_why(staff_client, server):
    update_now(staff_client)
    in_use = RatingList.objects.active().get(name="FIDE")
    server.failing[FIDE_PATH] = 503
    job = update_now(staff_client)
    message = (f"The download from {server.url(FIDE_PATH)} failed: HTTP 503 Service Unavailable. "
               "The list of Nov 2026 stays in use.")
    assert job.status == JobStatus.DONE and job.result["lists"] == [
        {"name": "FIDE", "status": "failed", "message": message}]
    assert RatingList.objects.active().get(name="FIDE") == in_use
    assert RatingList.objects.count() == 1
    page = staff_client.get(reverse("pairing:rating_lists")).content.decode()
    assert message in page
    notice = page[page.index('id="list-behind"'):page.index("</p>", page.index('id="list-behind"'))]
    assert "The last check of FIDE" in notice and "HTTP 503" in notice


def test_a_downloaded_file_that_cannot_be_read_keeps_the_list_in_use(staff_client, server):
    update_now(staff_client)
    in_use = RatingList.objects.active().get(name="FIDE")
    server.publish(FIDE_PATH, zipped("players_list_xml_foa.xml", b"<playerslist><player><fideid>x"), month=12)
    job = update_now(staff_client)
    assert job.result["lists"][0]["status"] == "failed"
    assert "cannot be read" in job.result["lists"][0]["message"]
    assert RatingList.objects.active().get() == in_use and RatingList.objects.count() == 1


def test_a_national_list_given_only_its_address_is_loaded_from_it(staff_client, server):
    response = staff_client.post(reverse("pairing:rating_list_upload"), {
        "kind": "national", "name": "SLO national", "url": server.url(NATIONAL_PATH)})
    assert response.status_code == 302
    run_queued()
    assert RatingList.objects.active().get(name="SLO national").players == 2
    assert RatingSource.objects.get(name="SLO national").url == server.url(NATIONAL_PATH)


def test_the_update_button_is_for_staff_only(chief_client, anon_client, staff_client, server):
    url = reverse("pairing:rating_list_update")
    assert chief_client.post(url).status_code == 403
    assert "update-all-button" not in chief_client.get(reverse("pairing:rating_lists")).content.decode()
    response = anon_client.post(url)
    assert response.status_code == 302 and response["Location"].startswith(reverse("login"))
    assert staff_client.get(url).status_code == 405
    assert not Job.objects.exists()
    assert "update-all-button" in staff_client.get(reverse("pairing:rating_lists")).content.decode()
    response = staff_client.post(url)
    job = Job.objects.get()
    assert (job.kind, job.user.username, job.tournament) == (JobKind.RATING_REFRESH, "admin", None)
    assert chief_client.get(reverse("pairing:job", args=[job.pk])).status_code == 404  # a site job: staff's


def test_a_second_click_follows_the_update_already_running(staff_client, server):
    first = staff_client.post(reverse("pairing:rating_list_update"))
    second = staff_client.post(reverse("pairing:rating_list_update"))
    assert first["Location"] == second["Location"] and Job.objects.count() == 1


# ------------------------------------------------------------------ the daily refresh


LJUBLJANA = zoneinfo.ZoneInfo("Europe/Ljubljana")


def at(day: int, hour: int, minute: int) -> datetime.datetime:
    return datetime.datetime(2026, 11, day, hour, minute, tzinfo=LJUBLJANA)


def test_vcl_q135_the_daily_refresh_fires_once_a_day_at_its_time_on_a_fake_clock(settings, server):
    settings.TIME_ZONE = "Europe/Ljubljana"
    settings.RATING_REFRESH_AT = datetime.time(4, 30)
    keeper = worker.Housekeeper("fake-clock-worker", clock=lambda: now)
    now = at(24, 4, 29)
    keeper.tick()
    assert not Job.objects.exists()
    now = at(24, 4, 30)
    keeper.tick()
    job = Job.objects.get()
    assert (job.kind, job.scheduled_for, job.user) == (JobKind.RATING_REFRESH, datetime.date(2026, 11, 24), None)
    now = at(24, 23, 59)
    keeper.tick()
    assert Job.objects.count() == 1  # once a day
    run_queued()
    assert RatingList.objects.active().get(name="FIDE").players == len(PLAYERS)
    now = at(25, 4, 31)
    keeper.tick()
    assert list(Job.objects.order_by("pk").values_list("scheduled_for", flat=True)) == [
        datetime.date(2026, 11, 24), datetime.date(2026, 11, 25)]


def test_a_worker_started_after_the_refresh_time_refreshes_at_once(settings, server):
    settings.TIME_ZONE = "Europe/Ljubljana"
    settings.RATING_REFRESH_AT = datetime.time(4, 30)
    worker.Housekeeper("late-worker", clock=lambda: at(24, 16, 0)).tick()
    assert Job.objects.get().scheduled_for == datetime.date(2026, 11, 24)


def test_the_daily_refresh_can_be_switched_off(settings, server):
    settings.RATING_REFRESH_AT = None
    worker.Housekeeper("off", clock=lambda: at(24, 16, 0)).tick()
    assert not Job.objects.exists()


def test_two_workers_start_one_refresh(settings, server):
    settings.RATING_REFRESH_AT = datetime.time(4, 30)
    for name in ("worker-a", "worker-b"):
        worker.Housekeeper(name, clock=lambda: at(24, 16, 0)).tick()
    assert Job.objects.count() == 1


# ------------------------------------------------------------------ every arbiter's own lists


def own_upload(client, name: str = "Club ladder", data: bytes = NATIONAL, kind: str = "custom"):
    from django.core.files.uploadedfile import SimpleUploadedFile

    response = client.post(reverse("pairing:rating_lists"), {
        "kind": kind, "name": name, "file": SimpleUploadedFile("ladder.csv", data, content_type="text/csv")})
    run_queued()
    return response


def test_an_arbiter_loads_a_list_of_their_own_without_a_staff_account(chief_client, chief, tournament):
    response = own_upload(chief_client)
    assert response.status_code == 302
    own = RatingList.objects.active().get()
    assert (own.owner, own.name, own.kind) == (chief, "Club ladder", "custom")
    page = chief_client.get(reverse("pairing:rating_lists")).content.decode()
    assert 'id="own-lists"' in page and "Club ladder" in page


def test_an_own_list_is_used_by_the_arbiters_tournaments_and_no_one_elses(chief_client, stranger_client, chief,
                                                                         tournament):
    own_upload(chief_client)
    Tournament.objects.filter(pk=tournament.pk).update(rating_lists="list:Club ladder, fide-standard")
    tournament.refresh_from_db()
    assert [s.rating_list.name for s in player_ratings.sources(tournament) if s.rating_list] == ["Club ladder"]
    other = Tournament.objects.create(slug="elsewhere", name="Elsewhere", owner=get_user_model().objects.get(
        username="stranger"), rating_lists="list:Club ladder")
    assert player_ratings.sources(other)[0].rating_list is None
    assert "Club ladder" not in stranger_client.get(reverse("pairing:rating_lists")).content.decode()


def test_a_deputys_own_list_serves_the_tournament_they_are_deputy_of(deputy_client, tournament):
    own_upload(deputy_client)
    Tournament.objects.filter(pk=tournament.pk).update(rating_lists="list:Club ladder")
    tournament.refresh_from_db()
    assert player_ratings.sources(tournament)[0].rating_list.owner.username == "deputy"


def test_the_chief_arbiters_own_list_comes_before_a_site_list_of_the_same_name(chief_client, tournament):
    load(NATIONAL, "site.csv", kind="national", name="Club ladder")
    own_upload(chief_client)
    Tournament.objects.filter(pk=tournament.pk).update(rating_lists="list:Club ladder")
    tournament.refresh_from_db()
    assert player_ratings.sources(tournament)[0].rating_list.owner is not None


def test_the_settings_accept_an_own_list_in_the_order(chief_client, tournament):
    from pairing.models import list_order_problems

    own_upload(chief_client)
    assert list_order_problems("list:Club ladder", tournament.list_owners()) == []
    assert list_order_problems("list:Club ladder", []) == ["No national or custom list is loaded under the name "
                                                           "'Club ladder'."]


def test_an_arbiter_cannot_load_fides_list_or_a_list_called_fide(chief_client, db):
    from django.core.files.uploadedfile import SimpleUploadedFile

    page = chief_client.post(reverse("pairing:rating_lists"), {
        "kind": "fide", "file": SimpleUploadedFile("players_list_xml.zip", zipped("a.xml", fide_xml()))})
    assert page.status_code == 400 and not Job.objects.exists()
    page = own_upload(chief_client, name="fide")
    assert page.status_code == 400 and "give this list another name" in page.content.decode()


def test_an_arbiter_deletes_their_own_list_only(chief_client, stranger_client, chief, db):
    own_upload(chief_client)
    own = RatingList.objects.get()
    assert stranger_client.post(reverse("pairing:rating_list_delete", args=[own.pk])).status_code == 404
    site = load(NATIONAL, "site.csv", kind="national", name="SLO national")
    assert chief_client.post(reverse("pairing:rating_list_delete", args=[site.pk])).status_code == 403
    assert chief_client.post(reverse("pairing:rating_list_delete", args=[own.pk])).status_code == 302
    assert list(RatingList.objects.all()) == [site]


def test_no_page_sends_an_arbiter_without_a_staff_account_in_a_circle(chief_client, db):
    page = chief_client.get(reverse("pairing:rating_lists")).content.decode()
    notice = page[page.index('id="list-behind"'):page.index("</p>", page.index('id="list-behind"'))]
    assert "No FIDE list is loaded." in notice
    assert "Rating lists page" not in notice  # this is the Rating lists page
    assert "a staff account" in notice
    assert 'id="who-loads"' in page and 'id="rating-list-upload"' in page  # what they can do here


# ------------------------------------------------------------------ the big upload's address


def limited(path: str, user, length: int) -> int:
    request = RequestFactory().post(path, content_type="application/octet-stream")
    request.META["CONTENT_LENGTH"] = str(length)
    request.user = user
    return RequestSizeLimitMiddleware(lambda r: HttpResponse("passed"))(request).status_code


def test_the_request_limit_is_raised_for_the_staff_upload_address_only(staff, chief, settings):
    settings.MAX_REQUEST_BYTES = 12 * 1024 * 1024
    settings.MAX_LIST_UPLOAD_BYTES = 100 * 1024 * 1024
    forty = 40 * 1024 * 1024
    upload = reverse("pairing:rating_list_upload")
    assert limited(upload, staff, forty) == 200
    assert limited(upload, staff, 101 * 1024 * 1024) == 413
    assert limited(upload, chief, forty) == 413  # not staff
    assert limited(reverse("pairing:rating_lists"), staff, forty) == 413  # another address


def test_the_staff_account_is_made_with_createarbiter_staff(db, monkeypatch):
    import io

    from django.core.management import call_command

    monkeypatch.setenv("DJANGO_ARBITER_PASSWORD", "a-long-staff-passw0rd")
    out = io.StringIO()
    call_command("createarbiter", "listkeeper", "--staff", stdout=out)
    assert "a staff account: it loads the site's rating lists" in out.getvalue()
    assert get_user_model().objects.get(username="listkeeper").is_staff
    call_command("createarbiter", "plain", stdout=io.StringIO())
    assert not get_user_model().objects.get(username="plain").is_staff
