"""Public pages computed once per change of their tournament, served from the shared cache.

A tournament's public pages (home, round pairings, standings, crosstable, ARO list,
player card, CSV) change only when the tournament does, and every change of its state
moves :attr:`Tournament.revision <pairing.models.Tournament.revision>` on, in the
change's own transaction (:func:`~pairing.models.tournament.bump_revision`).  So a page
is kept in Django's cache under its tournament's revision and what else varies its
rendering: the page's address (path and the query parameters the view reads, nothing
else), the language and the table density.  A page and its htmx poll share the copy (the
poll of a page that no longer refreshes itself is answered 286, telling htmx to stop).  A change makes a
new key; the old entries are never served again and expire (``CACHES`` ``TIMEOUT``).
The key also carries the tournament's creation time (a deleted tournament's number can
come back on SQLite) and a fingerprint of the code and translations, so that a new
release never serves a page rendered by the old one.

Shared, never private: only anonymous visitors without a session or pending messages get
the cached copy (:func:`shareable`); a signed-in user's page is computed for him and
marked ``Cache-Control: private, no-cache``, and is never stored.  The cached copy carries
no CSRF token (base.html writes it for signed-in users only; the two forms anyone may
post, the language and the table density, change only the poster's own cookie).

What a visitor's browser and the proxy get:

* ``ETag`` and ``Last-Modified``: a reload or an htmx poll answered ``304 Not Modified``
  when nothing changed, without looking at the cache;
* ``Cache-Control: public, max-age=0, s-maxage=N`` (``PUBLIC_PAGE_PROXY_SECONDS``, 1 by
  default): a browser asks again every time, a proxy or CDN in front (the compose
  stack's nginx) may answer from its own copy for N seconds;
* a self-refreshing page polls ``?since=<revision>`` (:func:`poll_url`): while the
  revision is the same the answer is ``204 No Content`` (htmx leaves the page alone), so
  a poll costs one indexed read of the tournament's row;
* after a change, the first request computes the page and the others wait for it
  (:func:`pairing.computed.once`: a lock in the cache) instead of computing it too.

``X-Cache`` says which of these answered (hit, miss, wait, not-modified, unchanged,
private), for the load test and for whoever reads the logs.
"""

from __future__ import annotations

import hashlib
import time
from collections.abc import Callable, Iterable
from email.utils import formatdate, parsedate_to_datetime

from django.conf import settings
from django.http import HttpRequest, HttpResponse, HttpResponseNotModified, QueryDict
from django.utils.cache import patch_cache_control, patch_vary_headers
from django.utils.translation import get_language

from ..computed import once, tournament_key
from ..context_processors import DENSITY_COOKIE
from ..models import Tournament

# Headers of the view's response that belong to the page (kept with it in the cache).
_KEPT_HEADERS = ("Content-Type", "Content-Disposition", "Content-Language")
# Statuses worth keeping: the page, and the page that tells htmx to stop polling (kept as
# the page, with ``polling`` False).
_KEPT_STATUSES = (200, 286)
VARY = ("Cookie", "Accept-Language", "HX-Request")


def shareable(request: HttpRequest) -> bool:
    """Whether the request gets (and may fill) the shared copy: an anonymous GET with
    no session and no pending messages (what they would show is the visitor's own)."""
    if request.method not in ("GET", "HEAD"):
        return False
    cookies = request.COOKIES
    if settings.SESSION_COOKIE_NAME in cookies or "messages" in cookies:
        return False
    return not request.user.is_authenticated


def public_page(
    request: HttpRequest, t: Tournament, build: Callable[[], HttpResponse], params: Iterable[str] = ()
) -> HttpResponse:
    """The response of ``build()`` for this request, from the cache when it can be.

    ``params``: the query parameters the view reads; any other is dropped before
    ``build()`` runs (and from the key), so ``?utm=…`` gets the same page and cannot fill
    the cache with copies.  Call it after the access check (``t`` is the tournament as
    read by it: its ``revision`` is the state the page must show at least).
    """
    since = request.GET.get("since")
    if getattr(request, "htmx", False) and since == str(t.revision):
        _canonical_query(request, params)
        return _headers(HttpResponse(status=204), shareable(request), "unchanged")
    return versioned_page(request, lambda variant: tournament_key(t, "page", t.revision, variant), build, params)


def versioned_page(
    request: HttpRequest, key_of: Callable[[str], str], build: Callable[[], HttpResponse], params: Iterable[str] = ()
) -> HttpResponse:
    """:func:`public_page` for any page: ``key_of(variant)`` is its cache key for a digest
    of the request's variant (address, language, density), and names the state the
    page shows (an event's page: the event's and its sections' revisions; the front page:
    the public events' and the day), so that a change makes a new key."""
    _canonical_query(request, params)
    share = shareable(request)
    if not share:
        response = build()
        patch_cache_control(response, private=True, no_cache=True)
        response["X-Cache"] = "private"
        return response
    key = key_of(_variant(request))
    htmx = bool(getattr(request, "htmx", False))
    etag = f'W/"{hashlib.blake2b((key + ("|htmx" if htmx else "")).encode(), digest_size=12).hexdigest()}"'
    if etag in _etags(request.META.get("HTTP_IF_NONE_MATCH", "")):
        return _headers(HttpResponseNotModified(), share, "not-modified", etag)
    entry, state = once(key, lambda: _entry(build()), keep=lambda value: isinstance(value, dict))
    if not isinstance(entry, dict):  # an answer that is not kept (404, redirect): as it is
        return _headers(entry, share, "miss")
    if "HTTP_IF_NONE_MATCH" not in request.META and _not_modified_since(request, entry["at"]):
        return _headers(HttpResponseNotModified(), share, "not-modified", etag, entry["at"])
    # one copy for the page and its htmx poll; the poll of a page that stopped polling
    # is answered 286, which tells htmx to stop
    status = 286 if htmx and entry.get("polling") is False else entry["status"]
    response = HttpResponse(entry["content"], status=status)
    for name, value in entry["headers"].items():
        response[name] = value
    return _headers(response, share, state, etag, entry["at"])


def poll_url(request: HttpRequest, t: Tournament) -> str:
    """Where a self-refreshing page polls: this page, with the revision it shows."""
    query = request.GET.copy()
    query["since"] = str(t.revision)
    return f"{request.path}?{query.urlencode()}"


def _canonical_query(request: HttpRequest, params: Iterable[str]) -> None:
    """Keep only the parameters the view reads (their first value), in a fixed order."""
    kept = QueryDict(mutable=True)
    for name in sorted(params):
        value = request.GET.get(name)
        if value is not None:
            kept[name] = value
    kept._mutable = False
    request.GET = kept
    request.META["QUERY_STRING"] = kept.urlencode()


def _key(request: HttpRequest, t: Tournament) -> str:
    return tournament_key(t, "page", t.revision, _variant(request))


def _variant(request: HttpRequest) -> str:
    """A digest of what varies a page's rendering besides its state."""
    variant = "|".join([
        request.get_full_path(),
        get_language() or "",
        "compact" if request.COOKIES.get(DENSITY_COOKIE) == "compact" else "",
    ])
    return hashlib.blake2b(variant.encode(), digest_size=16).hexdigest()


def _entry(response: HttpResponse) -> dict | HttpResponse:
    """What the cache keeps of a page: its status, body and headers; the response itself
    when it is not kept (an error, a redirect, a stream)."""
    if response.status_code not in _KEPT_STATUSES or response.streaming:
        return response
    return {
        "status": 200,
        "content": response.content,
        "headers": {h: response[h] for h in _KEPT_HEADERS if h in response},
        "at": int(time.time()),
        # whether the page refreshes itself (the views say so: ``response.polling``);
        # False: its htmx poll is answered 286
        "polling": False if response.status_code == 286 else getattr(response, "polling", None),
    }


def _headers(response: HttpResponse, share: bool, state: str, etag: str = "", at: int | None = None) -> HttpResponse:
    if share:
        seconds = settings.PUBLIC_PAGE_PROXY_SECONDS
        if seconds:
            patch_cache_control(response, public=True, max_age=0, s_maxage=seconds)
        else:
            patch_cache_control(response, public=True, no_cache=True)
    else:
        patch_cache_control(response, private=True, no_cache=True)
    patch_vary_headers(response, VARY)
    if etag:
        response["ETag"] = etag
    if at is not None:
        response["Last-Modified"] = formatdate(at, usegmt=True)
    response["X-Cache"] = state
    return response


def _etags(header: str) -> set[str]:
    found = {tag.strip() for tag in header.split(",") if tag.strip()}
    return found | {f"W/{tag}" for tag in found if not tag.startswith("W/")}


def _not_modified_since(request: HttpRequest, at: int) -> bool:
    raw = request.META.get("HTTP_IF_MODIFIED_SINCE")
    if not raw:
        return False
    try:
        return int(parsedate_to_datetime(raw).timestamp()) >= at
    except (TypeError, ValueError, OverflowError):
        return False
