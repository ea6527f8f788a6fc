"""A request that found the database busy or gone: a short 503 page (templates/503.html)
with Retry-After, not a server error."""

from __future__ import annotations

from collections.abc import Callable

from django.db import OperationalError, connection
from django.http import HttpRequest, HttpResponse
from django.template.loader import render_to_string


def _connection_lost(wrapper=connection) -> bool:
    """True when the default connection is not there or is broken: the database could
    not be reached, or went away in the middle of the request (a restart, a crash)."""
    raw = wrapper.connection
    if raw is None:
        return True
    return bool(getattr(raw, "closed", False) or getattr(raw, "broken", False))


class DatabaseBusyMiddleware:
    """SQLite lets one transaction write at a time; the others wait up to its busy
    timeout (``transaction_mode`` IMMEDIATE, see the settings).  A view that waited
    longer raises ``OperationalError: database is locked`` after its transaction was
    rolled back; this answers 503 "busy, nothing was saved" instead of a 500.

    PostgreSQL that cannot be reached (stopped, restarting) raises ``OperationalError``
    with no usable connection left: 503 "the database is not answering", with what the
    server's administrator should check.  Any other database error stays a server error.
    It runs no query itself.
    """

    def __init__(self, get_response: Callable[[HttpRequest], HttpResponse]):
        self.get_response = get_response

    def __call__(self, request: HttpRequest) -> HttpResponse:
        return self.get_response(request)

    def process_exception(self, request: HttpRequest, exception: Exception) -> HttpResponse | None:
        if not isinstance(exception, OperationalError):
            return None
        if "database is locked" in str(exception):
            reason, retry = "busy", "2"
        elif _connection_lost():
            reason, retry = "unavailable", "10"
        else:
            return None
        response = HttpResponse(render_to_string("503.html", {"reason": reason}), status=503)
        response["Retry-After"] = retry
        return response
