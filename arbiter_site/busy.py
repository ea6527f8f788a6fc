"""A save that found the database busy: a short 503 page, not a server error."""

from __future__ import annotations

from collections.abc import Callable

from django.db import OperationalError
from django.http import HttpRequest, HttpResponse

BUSY_PAGE = """<!doctype html>
<html lang="en"><head><meta charset="utf-8"><title>Database busy</title></head>
<body><h1>The database is busy</h1>
<p>Another arbiter's change was being saved at the same moment, and this one waited too
long for its turn. Nothing was saved: go back and try again.</p></body></html>
"""


class DatabaseBusyMiddleware:
    """SQLite lets one transaction write at a time; the others wait up to its busy
    timeout (``transaction_mode`` IMMEDIATE, see the settings).  A view that waited
    longer raises ``OperationalError: database is locked`` after its transaction was
    rolled back; this answers 503 with Retry-After instead of a 500.  It runs no query
    itself, and other database errors are left alone (the health check reports those).
    """

    def __init__(self, get_response: Callable[[HttpRequest], HttpResponse]):
        self.get_response = get_response

    def __call__(self, request: HttpRequest) -> HttpResponse:
        return self.get_response(request)

    def process_exception(self, request: HttpRequest, exception: Exception) -> HttpResponse | None:
        if isinstance(exception, OperationalError) and "database is locked" in str(exception):
            response = HttpResponse(BUSY_PAGE, status=503)
            response["Retry-After"] = "2"
            return response
        return None
