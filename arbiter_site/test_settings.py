"""Fast settings for the test suite."""

import os

# The tests run in development mode (its hosts, static files storage, no HTTPS redirect);
# tests of production mode start a process with DJANGO_DEBUG=false.
os.environ.setdefault("DJANGO_DEBUG", "true")

from .settings import *  # noqa: E402, F403

PASSWORD_HASHERS = ["django.contrib.auth.hashers.MD5PasswordHasher"]
STORAGES = {
    "default": {"BACKEND": "django.core.files.storage.FileSystemStorage"},
    "staticfiles": {"BACKEND": "django.contrib.staticfiles.storage.StaticFilesStorage"},
}

# django-axes needs the request in authenticate(), which Client.login() does not pass;
# the login-throttling tests switch it on with override_settings(AXES_ENABLED=True).
AXES_ENABLED = False

# The live server's threads must not keep connections open, or PostgreSQL refuses to
# drop the test database at the end.
DATABASES["default"]["CONN_MAX_AGE"] = 0  # noqa: F405

if DATABASES["default"]["ENGINE"] == "django.db.backends.sqlite3":  # noqa: F405
    # A test database in a file, not in memory: with an in-memory database the live
    # server's request threads all share the test's one connection, so two requests the
    # browser sends at once (inline validation while a form is submitted) interleave
    # their savepoints ("no such savepoint").  A file gives every thread its own
    # connection, as in production.
    import tempfile

    DATABASES["default"]["TEST"] = {  # noqa: F405
        "NAME": os.path.join(tempfile.gettempdir(), f"dubov-test-{os.getpid()}.sqlite3")
    }

# No daily rating-list refresh in the tests, unless a test asks for one (a worker process
# started by a test with DJANGO_RATING_REFRESH_AT).
if not os.environ.get("DJANGO_RATING_REFRESH_AT"):
    RATING_REFRESH_AT = None
