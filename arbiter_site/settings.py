"""Django settings, all from the environment (see .env.example).

Production mode unless ``DJANGO_DEBUG=true`` asks for development mode (``make run``
and the test settings do): production refuses to start without a secret key and
allowed hosts, so a server started without a settings file never runs with debug pages
and a published key.
"""

from __future__ import annotations

import datetime
import os
import tempfile
from datetime import timedelta
from pathlib import Path

import dj_database_url
from django.core.exceptions import ImproperlyConfigured

from arbiter_site.site_url import SiteUrlError, parse_site_urls

BASE_DIR = Path(__file__).resolve().parent.parent


def env_bool(name: str, default: bool) -> bool:
    """A strict boolean: true/false/1/0/yes/no, anything else is an error."""
    raw = os.environ.get(name)
    if raw is None or raw == "":
        return default
    value = raw.strip().lower()
    if value in {"1", "true", "yes", "on"}:
        return True
    if value in {"0", "false", "no", "off"}:
        return False
    raise ImproperlyConfigured(f"{name} must be true or false, got {raw!r}")


def env_list(name: str, default: list[str]) -> list[str]:
    raw = os.environ.get(name)
    if raw is None or raw.strip() == "":
        return default
    return [item.strip() for item in raw.split(",") if item.strip()]


def env_int(name: str, default: int) -> int:
    raw = os.environ.get(name)
    if raw is None or raw.strip() == "":
        return default
    try:
        return int(raw)
    except ValueError as exc:
        raise ImproperlyConfigured(f"{name} must be a whole number, got {raw!r}") from exc


DEBUG = env_bool("DJANGO_DEBUG", False)

SECRET_KEY = os.environ.get("DJANGO_SECRET_KEY", "")
if not SECRET_KEY:
    if not DEBUG:
        raise ImproperlyConfigured("DJANGO_SECRET_KEY must be set when DJANGO_DEBUG is false")
    SECRET_KEY = "dev-only-insecure-key-do-not-use-in-production"
# A weak key (Django's own test, security.W009: under 50 characters, under 5 different
# ones, or Django's 'django-insecure-' placeholder) stops a production start: signed
# cookies, confirmations and device passes are only as safe as the key.
elif not DEBUG and (len(SECRET_KEY) < 50 or len(set(SECRET_KEY)) < 5 or SECRET_KEY.startswith("django-insecure-")):
    raise ImproperlyConfigured(
        "DJANGO_SECRET_KEY is too weak for production (at least 50 characters, at least 5 different ones, not "
        "Django's 'django-insecure-' placeholder). Make one with: "
        "python -c 'import secrets; print(secrets.token_urlsafe(50))'"
    )

# The addresses the site is reached at (arbiter_site/site_url.py): its name, and at a
# venue its LAN address.  They are the allowed hosts and trusted origins; the two older
# settings add to them (a wildcard host, say).
try:
    SITE_ADDRESSES = parse_site_urls(os.environ.get("SITE_URL", ""))
except SiteUrlError as exc:
    raise ImproperlyConfigured(str(exc)) from exc
ALLOWED_HOSTS = list(
    dict.fromkeys([a.allowed_host for a in SITE_ADDRESSES] + env_list("DJANGO_ALLOWED_HOSTS", []))
) or (["localhost", "127.0.0.1", "[::1]"] if DEBUG else [])
if not DEBUG and not ALLOWED_HOSTS:
    raise ImproperlyConfigured("SITE_URL (or DJANGO_ALLOWED_HOSTS) must be set when DJANGO_DEBUG is false")
CSRF_TRUSTED_ORIGINS = list(
    dict.fromkeys([a.origin for a in SITE_ADDRESSES] + env_list("DJANGO_CSRF_TRUSTED_ORIGINS", []))
)

INSTALLED_APPS = [
    "django.contrib.admin",
    "django.contrib.auth",
    "django.contrib.contenttypes",
    "django.contrib.sessions",
    "django.contrib.messages",
    "whitenoise.runserver_nostatic",
    "django.contrib.staticfiles",
    "django_htmx",
    "template_partials",
    "axes",
    # background tasks: Django's tasks API (the django-tasks backport until Django 6, where it
    # is django.tasks and this line goes) on a queue in the database (django-tasks-db)
    "django_tasks",
    "django_tasks_db",
    "pairing",
]

MIDDLEWARE = [
    "django.middleware.security.SecurityMiddleware",
    # scripts and styles from the site itself only (arbiter_site/csp.py)
    "arbiter_site.csp.ContentSecurityPolicyMiddleware",
    "whitenoise.middleware.WhiteNoiseMiddleware",
    # a view that waited too long for SQLite's write lock, or found the database gone,
    # answers 503 (templates/503.html), not 500
    "arbiter_site.busy.DatabaseBusyMiddleware",
    "django.contrib.sessions.middleware.SessionMiddleware",
    # the visitor's language: the picker's cookie, else the browser's Accept-Language
    "django.middleware.locale.LocaleMiddleware",
    "django.middleware.common.CommonMiddleware",
    "django.middleware.csrf.CsrfViewMiddleware",
    "django.contrib.auth.middleware.AuthenticationMiddleware",
    # refuses an over-large body from its Content-Length, before the CSRF check reads it
    "arbiter_site.request_limits.RequestSizeLimitMiddleware",
    "django.contrib.messages.middleware.MessageMiddleware",
    "django.middleware.clickjacking.XFrameOptionsMiddleware",
    "django_htmx.middleware.HtmxMiddleware",
    # inside the messages middleware: HTMX fragments carry the messages of their request
    "pairing.middleware.HtmxMessagesMiddleware",
    # a GET on a form-only address (Back to a confirmation page): 405 with a page
    "pairing.middleware.MethodNotAllowedPageMiddleware",
    # last, as django-axes asks: it turns a lockout into our login page with a message
    "axes.middleware.AxesMiddleware",
]

ROOT_URLCONF = "arbiter_site.urls"

TEMPLATES = [
    {
        "BACKEND": "django.template.backends.django.DjangoTemplates",
        "DIRS": [BASE_DIR / "templates"],
        "APP_DIRS": True,
        "OPTIONS": {
            "context_processors": [
                "django.template.context_processors.request",
                "django.contrib.auth.context_processors.auth",
                "django.contrib.messages.context_processors.messages",
                "pairing.context_processors.help_link",
                "pairing.context_processors.density",
            ],
        },
    },
]

WSGI_APPLICATION = "arbiter_site.wsgi.application"

DATABASES = {
    "default": dj_database_url.parse(
        os.environ.get("DATABASE_URL") or f"sqlite:///{BASE_DIR / 'db.sqlite3'}",
        conn_max_age=env_int("DATABASE_CONN_MAX_AGE", 60),
        # a kept connection is checked before each request reuses it: after the database
        # restarted, the first request reconnects instead of failing
        conn_health_checks=True,
    )
}
if DATABASES["default"]["ENGINE"] == "django.db.backends.sqlite3":
    # Several workers on one SQLite file: a transaction that reads and then writes
    # (select_for_update is a no-op here) cannot wait for the write lock once another
    # writer holds it, and fails at once with "database is locked" (2.4% of result posts
    # in benchmarks/README.md).  IMMEDIATE takes the write lock at BEGIN, so writers
    # queue for up to the busy timeout instead.
    DATABASES["default"].setdefault("OPTIONS", {})["transaction_mode"] = "IMMEDIATE"


def cache_settings() -> dict:
    """The cache the public pages are kept in (pairing/views/public_cache.py), shared by
    every worker and every web machine: they must all see one copy, or each would compute
    the page again and hold it alone.

    By default the database (a table made by migration 0025): no server beyond the one
    the site already has.  ``REDIS_URL`` (redis://host:6379/0) or ``MEMCACHED_URL``
    (memcached://host:11211) moves it to Redis or Memcached; nothing else changes.
    """
    redis_url = os.environ.get("REDIS_URL", "").strip()
    memcached_url = os.environ.get("MEMCACHED_URL", "").strip()
    if redis_url and memcached_url:
        raise ImproperlyConfigured("Set REDIS_URL or MEMCACHED_URL, not both")
    # an hour: entries of older revisions are never read again and go; a finished
    # tournament's pages are computed again at most once an hour
    common = {"TIMEOUT": env_int("DJANGO_CACHE_SECONDS", 3600), "KEY_PREFIX": "dubov"}
    if redis_url:
        if not redis_url.startswith(("redis://", "rediss://", "unix://")):
            raise ImproperlyConfigured(f"REDIS_URL must start with redis://, rediss:// or unix://, got {redis_url!r}")
        return {"default": {"BACKEND": "django.core.cache.backends.redis.RedisCache", "LOCATION": redis_url, **common}}
    if memcached_url:
        location = memcached_url.removeprefix("memcached://").rstrip("/")
        if "://" in location or not location:
            raise ImproperlyConfigured(f"MEMCACHED_URL must look like memcached://host:11211, got {memcached_url!r}")
        return {"default": {"BACKEND": "django.core.cache.backends.memcached.PyMemcacheCache",
                            "LOCATION": location, **common}}
    return {
        "default": {
            "BACKEND": "django.core.cache.backends.db.DatabaseCache",
            "LOCATION": CACHE_TABLE,
            # a page per tournament, revision, language and variant: the oldest third is
            # dropped past this many rows (expired ones first)
            "OPTIONS": {"MAX_ENTRIES": env_int("DJANGO_CACHE_MAX_ENTRIES", 20000), "CULL_FREQUENCY": 3},
            **common,
        }
    }


CACHE_TABLE = "dubov_cache"
CACHES = cache_settings()
# How long a proxy or CDN in front may answer a public page from its own copy before it
# asks the app again (Cache-Control s-maxage; 0: it asks every time).
PUBLIC_PAGE_PROXY_SECONDS = env_int("DJANGO_PUBLIC_PAGE_PROXY_SECONDS", 1)

AUTH_PASSWORD_VALIDATORS = [
    {"NAME": "django.contrib.auth.password_validation.UserAttributeSimilarityValidator"},
    {"NAME": "django.contrib.auth.password_validation.MinimumLengthValidator"},
    {"NAME": "django.contrib.auth.password_validation.CommonPasswordValidator"},
    {"NAME": "django.contrib.auth.password_validation.NumericPasswordValidator"},
]

# Login throttling (django-axes): after DJANGO_LOGIN_FAILURE_LIMIT failed logins for one
# username from one address, that pair is refused for DJANGO_LOGIN_LOCKOUT_MINUTES, even
# with the right password; a successful login clears the count.  Failures are kept in the
# database (not the cache), so every worker and host behind the proxy sees them.  The
# address is the connection's, or behind DJANGO_TRUSTED_PROXIES reverse proxies the one
# they put in X-Forwarded-For (arbiter_site.lockout.client_ip).  An administrator unlocks
# early with ``manage.py axes_reset_username <name>``, or lets one new device of the
# arbiter past the lock with ``manage.py device_pass <name>`` (arbiter_site.accounts).
AUTHENTICATION_BACKENDS = [
    "axes.backends.AxesStandaloneBackend",
    "django.contrib.auth.backends.ModelBackend",
]
AXES_FAILURE_LIMIT = env_int("DJANGO_LOGIN_FAILURE_LIMIT", 5)
# ... and this many for one username from any address lock the username (see lockout.py);
# a browser where the username has logged in before passes both locks.
LOGIN_USERNAME_FAILURE_LIMIT = env_int("DJANGO_LOGIN_USERNAME_FAILURE_LIMIT", 25)
AXES_HANDLER = "arbiter_site.lockout.ThrottleHandler"
AXES_WHITELIST_CALLABLE = "arbiter_site.lockout.trusted_browser"
AXES_COOLOFF_TIME = timedelta(minutes=env_int("DJANGO_LOGIN_LOCKOUT_MINUTES", 15))
AXES_LOCKOUT_PARAMETERS = [["username", "ip_address"]]
AXES_RESET_ON_SUCCESS = True
AXES_LOCKOUT_CALLABLE = "arbiter_site.lockout.locked_out"
AXES_CLIENT_IP_CALLABLE = "arbiter_site.lockout.client_ip"
# no "AXES: BEGIN ..." line from every process at start; lockouts are still logged
AXES_VERBOSE = False
TRUSTED_PROXIES = env_int("DJANGO_TRUSTED_PROXIES", 0)
if AXES_FAILURE_LIMIT < 1:
    raise ImproperlyConfigured("DJANGO_LOGIN_FAILURE_LIMIT must be at least 1")
if LOGIN_USERNAME_FAILURE_LIMIT < AXES_FAILURE_LIMIT:
    raise ImproperlyConfigured("DJANGO_LOGIN_USERNAME_FAILURE_LIMIT must be at least DJANGO_LOGIN_FAILURE_LIMIT")

LOGIN_URL = "login"
LOGIN_REDIRECT_URL = "pairing:dashboard"
LOGOUT_REDIRECT_URL = "login"

LANGUAGE_CODE = "en"
# English, and Russian for the federations where Dubov events are most common (issue 21).
# The visitor picks one (the picker in every page's header, kept in a cookie); without a
# choice the browser's language decides; anything else gets English.
LANGUAGES = [("en", "English"), ("ru", "Русский")]
LOCALE_PATHS = [BASE_DIR / "locale"]
LANGUAGE_COOKIE_NAME = "language"
LANGUAGE_COOKIE_AGE = 365 * 24 * 3600
LANGUAGE_COOKIE_SAMESITE = "Lax"
# Our own date formats (arbiter_site/formats/en/formats.py): 27 Nov 2026 everywhere.
FORMAT_MODULE_PATH = ["arbiter_site.formats"]
TIME_ZONE = os.environ.get("DJANGO_TIME_ZONE", "UTC")
USE_I18N = True
USE_TZ = True

STATIC_URL = "static/"
# Where collectstatic writes (the container start script runs it); whitenoise serves from here.
STATIC_ROOT = Path(os.environ.get("DJANGO_STATIC_ROOT") or BASE_DIR / "staticfiles")
# docs/manual/img: the manual's screenshots (taken by tests/browser/test_manual_screenshots.py),
# shown in the chapters at /help/ and readable beside the Markdown files in the repository
STATICFILES_DIRS = [BASE_DIR / "static", ("manual", BASE_DIR / "docs" / "manual" / "img")]
STORAGES = {
    "default": {"BACKEND": "django.core.files.storage.FileSystemStorage"},
    "staticfiles": {
        "BACKEND": "whitenoise.storage.CompressedManifestStaticFilesStorage"
        if not DEBUG
        else "django.contrib.staticfiles.storage.StaticFilesStorage"
    },
}

DEFAULT_AUTO_FIELD = "django.db.models.BigAutoField"

# The longest a page request works on an import before it gives up and rolls back, well
# inside the proxy's 130 s (docker/nginx/nginx.conf): an import is then either done while
# the arbiter waits or not at all, never reported failed and committed later.
REQUEST_WORK_SECONDS = env_int("DJANGO_REQUEST_WORK_SECONDS", 90)
# The byes page posts one field per player: allow events of several thousand players.
DATA_UPLOAD_MAX_NUMBER_FIELDS = env_int("DJANGO_MAX_FORM_FIELDS", 20000)
# Pasted TRF files of big events (10,000 players x 13 rounds is about 2.5 MB).
DATA_UPLOAD_MAX_MEMORY_SIZE = env_int("DJANGO_MAX_UPLOAD_BYTES", 10 * 1024 * 1024)
# An uploaded file over this size is spooled to a temporary file rather than kept in memory.
FILE_UPLOAD_MAX_MEMORY_SIZE = env_int("DJANGO_FILE_UPLOAD_MEMORY_BYTES", 2621440)
# Whole request bodies, refused from their Content-Length before they are read
# (arbiter_site/request_limits.py): any request, and a request from someone not logged in.
# The reverse proxy of docker-compose.yml refuses over 12 MB too (client_max_body_size).
MAX_REQUEST_BYTES = env_int("DJANGO_MAX_REQUEST_BYTES", 12 * 1024 * 1024)
MAX_ANONYMOUS_REQUEST_BYTES = env_int("DJANGO_MAX_ANONYMOUS_REQUEST_BYTES", 64 * 1024)
if MAX_ANONYMOUS_REQUEST_BYTES < 4096 or MAX_REQUEST_BYTES < MAX_ANONYMOUS_REQUEST_BYTES:
    raise ImproperlyConfigured(
        "DJANGO_MAX_ANONYMOUS_REQUEST_BYTES must be at least 4096 and at most DJANGO_MAX_REQUEST_BYTES"
    )

# Production hardening (behind HTTPS).
if not DEBUG:
    SECURE_PROXY_SSL_HEADER = ("HTTP_X_FORWARDED_PROTO", "https")
    SECURE_SSL_REDIRECT = env_bool("DJANGO_SECURE_SSL_REDIRECT", True)
    SESSION_COOKIE_SECURE = True
    CSRF_COOKIE_SECURE = True
    LANGUAGE_COOKIE_SECURE = True
    SECURE_HSTS_SECONDS = env_int("DJANGO_HSTS_SECONDS", 31536000)
    SECURE_HSTS_INCLUDE_SUBDOMAINS = True
    SECURE_CONTENT_TYPE_NOSNIFF = True

# Mail (online entries: the entrant's confirmation, the arbiters' answer).  Sent when
# DJANGO_EMAIL_HOST names a mail server; in development written to the console; else none
# is sent (never needed: the entrant's private link shows the entry's state).
EMAIL_HOST = os.environ.get("DJANGO_EMAIL_HOST", "")
if EMAIL_HOST:
    EMAIL_BACKEND = "django.core.mail.backends.smtp.EmailBackend"
    EMAIL_PORT = env_int("DJANGO_EMAIL_PORT", 587)
    EMAIL_HOST_USER = os.environ.get("DJANGO_EMAIL_USER", "")
    EMAIL_HOST_PASSWORD = os.environ.get("DJANGO_EMAIL_PASSWORD", "")
    EMAIL_USE_TLS = env_bool("DJANGO_EMAIL_TLS", True)
    EMAIL_TIMEOUT = 10
elif DEBUG:
    EMAIL_BACKEND = "django.core.mail.backends.console.EmailBackend"
else:
    EMAIL_BACKEND = "django.core.mail.backends.dummy.EmailBackend"
DEFAULT_FROM_EMAIL = os.environ.get("DJANGO_EMAIL_FROM", "arbiter@localhost")
# Online entries: the most entries one address may send in an hour, and the most posts of
# the entry form (with mistakes) it may send in that hour; a form sent faster than this
# after it was opened is a robot's.
ENTRIES_PER_ADDRESS = env_int("DJANGO_ENTRIES_PER_ADDRESS", 5)
ENTRY_POSTS_PER_ADDRESS = env_int("DJANGO_ENTRY_POSTS_PER_ADDRESS", 30)
ENTRY_FORM_MIN_SECONDS = env_int("DJANGO_ENTRY_FORM_MIN_SECONDS", 3)

# Background tasks (pairing/tasks.py): a queue in the app's own database, so no other
# server is needed; ``manage.py run_worker`` runs them (make run starts one, and so does
# the compose stack's worker service).
TASKS = {"default": {"BACKEND": "django_tasks_db.DatabaseBackend", "QUEUES": ["default"]}}
# A worker writes its heartbeat every WORKER_BEAT_SECONDS; a running task whose worker has
# been silent for WORKER_STALE_SECONDS is lost: tried again, up to TASK_MAX_ATTEMPTS in all,
# then marked failed with the reason.
WORKER_BEAT_SECONDS = env_int("DJANGO_WORKER_BEAT_SECONDS", 10)
WORKER_STALE_SECONDS = env_int("DJANGO_WORKER_STALE_SECONDS", 120)
if WORKER_BEAT_SECONDS < 1 or WORKER_STALE_SECONDS < 3 * WORKER_BEAT_SECONDS:
    raise ImproperlyConfigured("DJANGO_WORKER_STALE_SECONDS must be at least three DJANGO_WORKER_BEAT_SECONDS (>= 1)")
TASK_MAX_ATTEMPTS = env_int("DJANGO_TASK_ATTEMPTS", 2)
# Finished jobs (done or failed) and their records on the queue are kept this many days,
# then the worker deletes them; a job waiting for the arbiter's answer is never deleted.
JOB_KEEP_DAYS = env_int("DJANGO_JOB_KEEP_DAYS", 30)
if JOB_KEEP_DAYS < 1:
    raise ImproperlyConfigured("DJANGO_JOB_KEEP_DAYS must be at least 1")
# The worker touches this file after each heartbeat; the container's health check reads
# its age (docker/worker_healthcheck.py).
WORKER_HEARTBEAT_FILE = os.environ.get("DJANGO_WORKER_HEARTBEAT_FILE") or os.path.join(
    tempfile.gettempdir(), "dubov-worker-heartbeat")


def env_time(name: str, default: str):
    """A time of day, HH:MM (local time, DJANGO_TIME_ZONE), or None for "off"."""
    raw = (os.environ.get(name) or default).strip().lower()
    if raw in {"off", "none", "never"}:
        return None
    try:
        return datetime.datetime.strptime(raw, "%H:%M").time()
    except ValueError as exc:
        raise ImproperlyConfigured(f"{name} must be a time HH:MM or off, got {raw!r}") from exc


# The daily refresh of the rating lists, started by the worker (not a cron line): every
# list with a download address (FIDE's among them) is checked and loaded again when its
# source has published a newer one.  "off" switches it off.
RATING_REFRESH_AT = env_time("DJANGO_RATING_REFRESH_AT", "04:30")
# FIDE's combined list (standard, rapid, blitz) and the seconds a download may wait on a read.
FIDE_RATING_LIST_URL = os.environ.get("DJANGO_FIDE_RATING_LIST_URL") or (
    "https://ratings.fide.com/download/players_list_xml.zip")
RATING_DOWNLOAD_TIMEOUT = env_int("DJANGO_RATING_DOWNLOAD_TIMEOUT", 60)
# Uploaded rating-list files wait here for the worker (the compose stack shares the folder
# between web and worker as the "uploads" volume).
UPLOAD_DIR = Path(os.environ.get("DJANGO_UPLOAD_DIR") or BASE_DIR / "uploads")
# The one address that takes bodies over DJANGO_MAX_REQUEST_BYTES: a staff account's upload
# of FIDE's whole list (about 40 MB zipped), written to disk as it arrives.
MAX_LIST_UPLOAD_BYTES = env_int("DJANGO_MAX_LIST_UPLOAD_BYTES", 100 * 1024 * 1024)

# Quiet logs: the proxy writes each request's access line, so Django's own line for a 4xx
# answer ("Not Found: /favicon.ico") is left out; server errors keep their traceback.
LOGGING = {
    "version": 1,
    "disable_existing_loggers": False,
    "handlers": {"console": {"class": "logging.StreamHandler"}},
    "root": {"handlers": ["console"], "level": os.environ.get("DJANGO_LOG_LEVEL", "INFO")},
    # django-axes' lockouts are warnings; its line per successful login is not kept
    "loggers": {"django.request": {"level": "ERROR"}, "axes": {"level": "WARNING"}},
}
# HSTS preload is a choice for a public site (and impossible for a venue's LAN address);
# its reminder would be the one warning of every start.
SILENCED_SYSTEM_CHECKS = ["security.W021"]
