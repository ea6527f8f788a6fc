"""Nobody but the tournament's arbiters changes anything, on every view of the app.

The routes are read from ``pairing.urls`` at collection time, so a view added later is
covered without touching this file: every route either is one of the read-only public
pages listed in ``PUBLIC`` (GET only) or must send anonymous visitors to the login page
and refuse arbiters of other tournaments.  Each request carries a payload that would
change data if it were accepted, and the test compares every row of the app's tables
before and after.  Also here: CSRF on every POST, the production security settings,
and no secrets in the repository.
"""

from __future__ import annotations

import json
import os
import re
import subprocess
import sys
from pathlib import Path

import pytest
from django.apps import apps
from django.contrib.auth import get_user_model
from django.test import Client, override_settings
from django.urls import reverse

from pairing import distribution
from pairing import urls as pairing_urls
from pairing.models import DeputyInvitation, ForbiddenPair, Tournament
from pairing.services import rounds
from tests.web.helpers import play_round

ROOT = Path(__file__).resolve().parents[2]

# Read-only pages anyone may GET (for a public tournament); they refuse POST.
PUBLIC = {"health", "help_index", "help_chapter", "tournament", "round", "standings", "standings_csv", "crosstable", "aro", "aro_spread", "player_card",
          "front_page", "event", "entry_status", "dashboard", "prizes",  # the root: the front page for visitors (issue 37)
          "checker", "checker_file"}  # the free checker: its page and files, for rating officers too (issue 35)
# Pages of the signed-in user's own: no tournament in the address.
ACCOUNT = {"tournament_create", "invitation_answer", "job", "job_answer", "event_create"}
# Forms anyone may send (with a CSRF token): an event's online entry form (issue 37;
# tests/web/test_entries.py checks what it takes); closed, it takes nothing from anyone.
ENTRY_FORMS = {"entry_form", "self_checkin"}
# A display preference kept in the visitor's own browser: anyone may POST it, without a
# CSRF token (the public pages are one cached copy for every visitor, with no visitor's
# token in it; a forged post changes only the display of the browser that sends it).
PREFERENCES = {"density"}
# The site's rating lists: any signed-in arbiter reads them, staff accounts change them
# (tests/web/test_rating_lists.py checks each persona).
SITE_ADMIN = {"rating_lists", "rating_list_delete", "rating_list_upload", "rating_list_update"}

ROUTES = [(p.name, sorted(p.pattern.converters)) for p in pairing_urls.urlpatterns]
NAMES = [name for name, _ in ROUTES]
TOURNAMENT_ROUTES = [name for name, params in ROUTES if "slug" in params and name not in ENTRY_FORMS]
ARBITER_ROUTES = [name for name in TOURNAMENT_ROUTES if name not in PUBLIC]


@pytest.fixture
def scene(chief, stranger, tournament, players):
    """Round 1 played, round 2 in draft, one forbidden pair (two players not paired in
    the draft): every view has something to act on (and the payload's would-be deputy
    exists)."""
    play_round(tournament, chief)
    rnd = rounds.pair_next_round(tournament, chief)
    a, b = (g.white for g in rnd.games()[:2])
    ForbiddenPair.objects.create(tournament=tournament, player_a=min(a, b, key=lambda p: p.pk),
                                 player_b=max(a, b, key=lambda p: p.pk))
    DeputyInvitation.objects.create(tournament=tournament, username="invited", invited_by=chief)
    rnd.__class__.objects.filter(pk=rnd.pk).update(manual_session=True)  # swaps happen in a session
    return tournament


def address(name: str, t: Tournament) -> str:
    params = dict(ROUTES)[name]
    kwargs = {}
    for param in params:
        if param == "slug":
            kwargs["slug"] = t.slug
        elif param == "number":
            kwargs["number"] = 1 if name == "game_result" else 2
        elif param == "pk" and name == "forbidden_pair_delete":
            kwargs["pk"] = ForbiddenPair.objects.get(tournament=t).pk
        elif param == "pk" and name == "invitation_answer":
            kwargs["pk"] = DeputyInvitation.objects.get(tournament=t).pk
        elif param == "pk" and name == "game_result":
            kwargs["pk"] = t.round_set.get(number=1).games().first().pk
        elif param == "pk":
            kwargs["pk"] = t.player_set.order_by("tpn").first().pk
        elif param == "chapter":
            kwargs["chapter"] = "results"
        elif param == "tpn":
            kwargs["tpn"] = 1
        elif param == "token":
            kwargs["token"] = "no-such-entry"
        elif param == "secret":
            kwargs["secret"] = "no-such-secret"
        elif param == "kind":
            kwargs["kind"] = "slips"
        elif param == "name":
            kwargs["name"] = distribution.zipapp_name()
        else:  # pragma: no cover - a new kind of address: teach the test about it
            pytest.fail(f"route {name}: no test value for <{param}>")
    return reverse(f"pairing:{name}", kwargs=kwargs)


def payload(t: Tournament) -> dict:
    """Form data that changes something on every changing view, if it were accepted."""
    p1, p2 = t.player_set.order_by("tpn")[:2]
    draft = t.draft_round().games()
    return {
        "result": "0-1", "expected": "1-0",
        "name": "Hacked, Harry", "slug": t.slug, "rounds": "9", "rating": "1111", "public": "on",
        "point_win": "1", "point_draw": "0.5", "point_loss": "0", "point_pab": "1", "point_half_bye": "0.5",
        "initial_colour_method": "chosen", "initial_colour": "b", "tiebreaks": "BH",
        "username": "stranger", "text": "Evil, Eve; 2000", "round": "3", f"kind-{p1.pk}": "Z",
        "from_round": "3", "confirm": "yes", "a": draft[0].white_id, "b": draft[1].white_id, "validate": "",
    } | {"p2": p2.pk}


def everything() -> dict:
    """Every row of the app's tables, the users and the arbiter teams."""
    rows = {m.__name__: list(m.objects.order_by("pk").values()) for m in apps.get_app_config("pairing").get_models()}
    rows["users"] = list(get_user_model().objects.order_by("pk").values("pk", "username", "password", "is_active"))
    rows["deputies"] = list(Tournament.deputies.through.objects.order_by("pk").values())
    return rows


def test_the_route_list_is_read_from_the_urlconf():
    """The generated list has the changing views this file is about."""
    for name in ["settings", "deputies", "players", "player_edit", "player_delete", "player_withdraw",
                 "players_import", "trf_import", "absences", "pair_next", "round_publish", "round_discard",
                 "round_swap", "game_result", "audit", "forbidden_pairs", "forbidden_pair_delete"]:
        assert name in ARBITER_ROUTES
    assert set(NAMES) - set(TOURNAMENT_ROUTES) <= PUBLIC | ACCOUNT | PREFERENCES | SITE_ADMIN | ENTRY_FORMS, (
        "a new route without a tournament: classify it")


# ------------------------------------------------------------------ anonymous


@pytest.mark.parametrize("name", NAMES)
def test_an_anonymous_post_changes_nothing(anon_client, scene, name):
    before = everything()
    response = anon_client.post(address(name, scene), payload(scene))
    if name in PUBLIC:
        assert response.status_code == 405
    elif name in PREFERENCES:
        assert response.status_code == 302  # a cookie of the visitor's own, nothing stored
    elif name in ENTRY_FORMS:
        # entries are not open (the form says so); a self check-in link without its secret is a 404
        assert response.status_code in (200, 404)
    else:
        assert response.status_code == 302 and response["Location"].startswith(reverse("login"))
    assert everything() == before


@pytest.mark.parametrize("name", [n for n in NAMES if n not in PUBLIC | PREFERENCES | ENTRY_FORMS])
def test_arbiter_pages_send_anonymous_visitors_to_the_login_page(anon_client, scene, name):
    response = anon_client.get(address(name, scene))
    assert response.status_code == 302 and response["Location"].startswith(reverse("login"))


@pytest.mark.parametrize("name", sorted(PUBLIC - {"health", "tournament", "help_index", "help_chapter", "front_page", "dashboard",
                                                   "checker", "checker_file"}))
def test_public_pages_of_a_private_tournament_are_404_for_anonymous_visitors(anon_client, scene, name):
    assert anon_client.get(address(name, scene)).status_code == 404


# ------------------------------------------------------------------ another tournament's arbiter


@pytest.mark.parametrize("public", [False, True], ids=["private", "public"])
@pytest.mark.parametrize("name", TOURNAMENT_ROUTES)
def test_an_arbiter_of_another_tournament_changes_nothing(stranger_client, chief, scene, name, public):
    """403 (404 if the tournament is private: its existence is not disclosed), or 405
    from a view that takes no POST from anyone (checked with the chief)."""
    Tournament.objects.filter(pk=scene.pk).update(public=public)
    before = everything()
    response = stranger_client.post(address(name, scene), payload(scene))
    assert response.status_code in ((403, 405) if public else (404, 405))
    assert everything() == before
    if response.status_code == 405:
        chief_client = Client()
        chief_client.force_login(chief)
        assert chief_client.post(address(name, scene), payload(scene)).status_code == 405
        assert everything() == before


@pytest.mark.parametrize("public", [False, True], ids=["private", "public"])
@pytest.mark.parametrize("name", ARBITER_ROUTES)
def test_arbiter_pages_are_refused_to_an_arbiter_of_another_tournament(stranger_client, scene, name, public):
    Tournament.objects.filter(pk=scene.pk).update(public=public)
    assert stranger_client.get(address(name, scene)).status_code in ((403, 405) if public else (404, 405))


def test_an_invitation_is_answered_by_the_invited_account_only(stranger_client, deputy_client, scene):
    before = everything()
    for client in (stranger_client, deputy_client):
        assert client.post(address("invitation_answer", scene), {"accept": "1"}).status_code == 404
    assert everything() == before


def test_a_deputy_cannot_change_the_arbiter_team(deputy_client, scene):
    before = everything()
    assert deputy_client.post(address("deputies", scene), {"username": "stranger"}).status_code == 403
    assert everything() == before


def test_the_payload_would_change_data_if_accepted(chief_client, scene):
    """The harness is meaningful: the same requests by the chief arbiter do change data."""
    changed = []
    data = payload(scene)
    names = ["round_swap", "settings", "players", "absences", "game_result", "deputies", "forbidden_pair_delete"]
    for name in names:
        if name == "forbidden_pair_delete":
            # out of FIDE mode, where a forbidden pair can still be removed after round 1
            Tournament.objects.filter(pk=scene.pk).update(fide_mode=False, fide_mode_left_round=1)
        before = everything()
        # the version a page opened now would carry (the settings' and the byes page's)
        seen = Tournament.objects.get(pk=scene.pk).version() if name == "settings" else ""
        chief_client.post(address(name, scene), data | {"seen": seen})
        if everything() != before:
            changed.append(name)
    assert changed == names


# ------------------------------------------------------------------ CSRF


@pytest.mark.parametrize("name", [n for n in NAMES if n not in PREFERENCES])
def test_a_post_without_csrf_token_is_refused_even_for_the_chief(chief, scene, name):
    client = Client(enforce_csrf_checks=True)
    client.force_login(chief)
    before = everything()
    response = client.post(address(name, scene), payload(scene))
    assert response.status_code == 403
    assert everything() == before


def test_every_form_of_the_arbiter_pages_carries_a_csrf_token(chief_client, scene):
    for name in ["tournament", "settings", "players", "player_edit", "players_import", "trf_import", "absences",
                 "forbidden_pairs"]:
        body = chief_client.get(address(name, scene)).content.decode()
        forms = re.findall(r"<form[^>]*method=\"post\".*?</form>", body, flags=re.S | re.I)
        assert all("csrfmiddlewaretoken" in f for f in forms), name
    round_page = chief_client.get(reverse("pairing:round", args=[scene.slug, 2])).content.decode()
    assert "csrfmiddlewaretoken" in round_page or "X-CSRFToken" in round_page


# ------------------------------------------------------------------ production settings


def production_settings(**extra: str) -> dict:
    """Import arbiter_site.settings in a fresh interpreter with production variables."""
    env = {k: v for k, v in os.environ.items() if not k.startswith(("DJANGO_", "DATABASE_URL"))}
    env |= {"DJANGO_DEBUG": "false", "DJANGO_SECRET_KEY": "security-test-" + "s" * 50,
            "DJANGO_ALLOWED_HOSTS": "chess.example.org"}
    env |= extra
    code = (
        "import json; from arbiter_site import settings as s; "
        "print(json.dumps({k: getattr(s, k, None) for k in ['DEBUG', 'SESSION_COOKIE_SECURE', "
        "'CSRF_COOKIE_SECURE', 'SECURE_HSTS_SECONDS', 'SECURE_PROXY_SSL_HEADER', 'SECURE_SSL_REDIRECT', "
        "'SESSION_COOKIE_HTTPONLY', 'SECRET_KEY', 'AXES_FAILURE_LIMIT', 'LANGUAGE_COOKIE_SECURE']}))"
    )
    done = subprocess.run([sys.executable, "-c", code], cwd=ROOT, env=env, capture_output=True, text=True)
    assert done.returncode == 0, done.stderr
    return json.loads(done.stdout.strip().splitlines()[-1])


def test_production_settings_use_secure_cookies_hsts_and_the_proxys_https_header():
    s = production_settings()
    assert s["DEBUG"] is False
    assert s["SESSION_COOKIE_SECURE"] is True and s["CSRF_COOKIE_SECURE"] is True
    assert s["SESSION_COOKIE_HTTPONLY"] is not False
    assert s["SECURE_HSTS_SECONDS"] >= 31536000
    assert s["SECURE_PROXY_SSL_HEADER"] == ["HTTP_X_FORWARDED_PROTO", "https"]
    assert s["SECURE_SSL_REDIRECT"] is True
    assert s["AXES_FAILURE_LIMIT"] == 5


def test_audit_33_the_language_cookie_is_secure_in_production():
    assert production_settings()["LANGUAGE_COOKIE_SECURE"] is True


@pytest.mark.parametrize("key", ["s" * 50, "short-but-varied-key", "django-insecure-" + "abcdefghij" * 5])
def test_audit_33_a_weak_secret_key_stops_a_production_start(key):
    """Django only warns (security.W009) and the start script's deploy check passed it."""
    env = {k: v for k, v in os.environ.items() if not k.startswith("DJANGO_")}
    env |= {"DJANGO_DEBUG": "false", "DJANGO_ALLOWED_HOSTS": "chess.example.org", "DJANGO_SECRET_KEY": key}
    done = subprocess.run([sys.executable, "-c", "import arbiter_site.settings"], cwd=ROOT, env=env,
                          capture_output=True, text=True)
    assert done.returncode != 0 and "DJANGO_SECRET_KEY is too weak for production" in done.stderr


def test_production_refuses_to_start_without_a_secret_key():
    env = {k: v for k, v in os.environ.items() if not k.startswith("DJANGO_")}
    env |= {"DJANGO_DEBUG": "false", "DJANGO_ALLOWED_HOSTS": "chess.example.org"}
    done = subprocess.run([sys.executable, "-c", "import arbiter_site.settings"], cwd=ROOT, env=env,
                          capture_output=True, text=True)
    assert done.returncode != 0 and "DJANGO_SECRET_KEY must be set" in done.stderr


@override_settings(SECURE_HSTS_SECONDS=31536000, SECURE_HSTS_INCLUDE_SUBDOMAINS=True, SECURE_SSL_REDIRECT=True)
def test_an_https_response_carries_hsts_and_plain_http_is_redirected(db):
    assert Client().get("/health/", secure=True)["Strict-Transport-Security"] == (
        "max-age=31536000; includeSubDomains"
    )
    plain = Client().get("/health/")
    assert plain.status_code == 301 and plain["Location"].startswith("https://")


# ------------------------------------------------------------------ secrets


def tracked_files() -> list[Path]:
    listed = subprocess.run(["git", "ls-files", "-z"], cwd=ROOT, capture_output=True, text=True)
    if listed.returncode != 0:  # an exported tree (a container image, an archive)
        pytest.skip("not a git checkout")
    return [ROOT / f for f in listed.stdout.split("\0") if f]


def test_no_env_file_is_committed_and_env_is_ignored():
    names = {p.name for p in tracked_files()}
    assert ".env" not in names
    assert subprocess.run(["git", "check-ignore", "-q", ".env"], cwd=ROOT).returncode == 0


def test_the_env_example_leaves_every_secret_empty():
    for line in (ROOT / ".env.example").read_text().splitlines():
        m = re.match(r"^\s*#?\s*([A-Z][A-Z0-9_]*)=(.*)$", line)
        if m and re.search(r"SECRET|PASSWORD|TOKEN|PRIVATE", m[1]):
            assert m[2].strip() == "", line


SECRET_PATTERNS = [
    re.compile(r"-----BEGIN [A-Z ]*PRIVATE KEY-----"),
    re.compile(r"\bAKIA[0-9A-Z]{16}\b"),  # AWS access key id
    re.compile(r"\bgh[pousr]_[A-Za-z0-9]{36,}\b"),  # GitHub token
    re.compile(r"\bdjango-insecure-[^\s\"']{20,}"),  # startproject's generated key
]
# A SECRET_KEY literal is fine only when it says it is not one.
SECRET_KEY_LITERAL = re.compile(r"SECRET_KEY\"?\s*[:=]\s*[\"']([^\"'\s]{16,})[\"']")
HARMLESS = re.compile(r"insecure|example|test|dev-only|benchmark|load", re.I)


def test_no_secret_looking_strings_are_committed():
    found = []
    for path in tracked_files():
        if not path.is_file() or path.stat().st_size > 2_000_000:
            continue
        try:
            text = path.read_text()
        except UnicodeDecodeError:
            continue
        rel = path.relative_to(ROOT)
        for pattern in SECRET_PATTERNS:
            found += [f"{rel}: {m.group(0)[:30]}" for m in pattern.finditer(text)]
        found += [f"{rel}: SECRET_KEY {m[1][:12]}..." for m in SECRET_KEY_LITERAL.finditer(text)
                  if not HARMLESS.search(m[1])]
        if path.name.startswith("docker-compose") or path.suffix in {".env", ".ini", ".cfg", ".toml"}:
            for m in re.finditer(r"(?m)^\s*-?\s*\w*(?:PASSWORD|SECRET)\w*\s*[:=]\s*(\S+)", text):
                if not m[1].startswith("${") and m[1] not in {'""', "''"}:
                    found.append(f"{rel}: {m.group(0).strip()}")
    assert not found, found
