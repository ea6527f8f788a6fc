"""Request-body limits, checked from the headers before anything reads the body.

Django's own limits (``DATA_UPLOAD_MAX_MEMORY_SIZE`` and friends) act while a form is
parsed, after the body has been read, and a multipart upload is spooled to a temporary
file whatever its size.  Here a request is refused with 413 from its ``Content-Length``
alone, so a worker never reads (or writes to disk) what it would refuse anyway:

- any request over ``MAX_REQUEST_BYTES`` (12 MB by default, the reverse proxy's limit too);
- a request from someone not logged in over ``MAX_ANONYMOUS_REQUEST_BYTES`` (64 KB by
  default: the only forms a stranger can send are the login forms, well under 1 KB).

One address is allowed more: a staff account's upload of a rating list
(``pairing:rating_list_upload``) takes up to ``MAX_LIST_UPLOAD_BYTES`` (100 MB by default;
FIDE's whole list is about 40 MB), written to disk by Django's upload handler as it arrives.

A body sent without ``Content-Length`` (chunked) is never read by Django's WSGI handler,
which reads at most ``Content-Length`` bytes, so it needs no check.  A ``Content-Length``
that is not a number is a 400.  The middleware sits after the authentication middleware
(it needs ``request.user``) and before everything that reads ``request.POST`` (the CSRF
check runs in ``process_view``, after every middleware's request phase).
"""

from __future__ import annotations

from collections.abc import Callable

from django.conf import settings
from django.http import HttpRequest, HttpResponse
from django.utils.html import escape

PAGE = """<!doctype html>
<html lang="en"><head><meta charset="utf-8"><title>{title}</title></head>
<body><h1>{title}</h1>
<p>{text}</p></body></html>
"""


def _page(status: int, title: str, text: str) -> HttpResponse:
    response = HttpResponse(PAGE.format(title=escape(title), text=escape(text)), status=status)
    response["Cache-Control"] = "no-store"
    return response


def _megabytes(size: int) -> str:
    if size >= 1024 * 1024:
        return f"{size / (1024 * 1024):.0f} MB"
    return f"{size / 1024:.0f} KB"


def _list_upload_path() -> str:
    from django.urls import reverse

    return reverse("pairing:rating_list_upload")


def declared_length(request: HttpRequest) -> int | None:
    """The body's declared size; None when the header is absent or empty; -1 when it is
    not a plain non-negative decimal number."""
    raw = request.META.get("CONTENT_LENGTH", "")
    if raw in ("", None):
        return None
    raw = str(raw).strip()
    if not raw.isascii() or not raw.isdigit():
        return -1
    return int(raw)


class RequestSizeLimitMiddleware:
    def __init__(self, get_response: Callable[[HttpRequest], HttpResponse]):
        self.get_response = get_response

    def __call__(self, request: HttpRequest) -> HttpResponse:
        length = declared_length(request)
        if length is None or length == 0:
            return self.get_response(request)
        if length < 0:
            return _page(400, "Bad request", "The request's Content-Length header is not a number.")
        anonymous_limit = settings.MAX_ANONYMOUS_REQUEST_BYTES
        if length > anonymous_limit and not request.user.is_authenticated:
            return _page(
                413,
                "Request too large",
                f"This request is {_megabytes(length)}; without logging in the site accepts at most "
                f"{_megabytes(anonymous_limit)}. Nothing was saved.",
            )
        limit = settings.MAX_REQUEST_BYTES
        if request.user.is_staff and request.path == _list_upload_path():
            limit = max(limit, settings.MAX_LIST_UPLOAD_BYTES)  # FIDE's whole list, staff only
        if length > limit:
            return _page(
                413,
                "Request too large",
                f"This request is {_megabytes(length)}; the site accepts at most {_megabytes(limit)}. "
                "Nothing was saved.",
            )
        return self.get_response(request)
