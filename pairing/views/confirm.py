"""The confirmation pages of the warning levels (see :mod:`pairing.warning_levels`).

A view calls a service with ``confirmations=given(request)``; when the service raises
:class:`~pairing.warning_levels.NeedsConfirmation`, the view answers with
:func:`ask`: a page that shows the warnings and re-sends the very same form fields with
a signed token counting one more confirmation.  The token is bound to the user, the
address and the fields, so it confirms this act only, and it expires after an hour.
Works without JavaScript: it is an ordinary form.
"""

from __future__ import annotations

import hashlib
import json

from django.core import signing
from django.http import HttpRequest, HttpResponse
from django.shortcuts import render

from ..warning_levels import Level, NeedsConfirmation

TOKEN_FIELD = "confirm_token"
_SALT = "pairing.confirm"
_MAX_AGE = 3600
_NOT_SIGNED = {"csrfmiddlewaretoken", TOKEN_FIELD}


def _fields(request: HttpRequest) -> list[tuple[str, str]]:
    return [(k, v) for k in sorted(request.POST) if k not in _NOT_SIGNED for v in request.POST.getlist(k)]


def _digest(fields: list[tuple[str, str]]) -> str:
    # browsers send every line break of a form value as CR LF: the same act either way
    same = [(k, v.replace("\r\n", "\n")) for k, v in fields]
    return hashlib.sha256(json.dumps(same).encode()).hexdigest()


def given(request: HttpRequest) -> int:
    """How many confirmations this POST carries (0 without a valid token)."""
    raw = request.POST.get(TOKEN_FIELD, "") if request.method == "POST" else ""
    if not raw:
        return 0
    try:
        data = signing.loads(raw, salt=_SALT, max_age=_MAX_AGE)
    except signing.BadSignature:
        return 0
    if not isinstance(data, dict):
        return 0
    if (data.get("u"), data.get("p"), data.get("d")) != (request.user.pk, request.path, _digest(_fields(request))):
        return 0
    n = data.get("n")
    return n if isinstance(n, int) and 0 < n <= 2 else 0


def ask(request: HttpRequest, exc: NeedsConfirmation, *, t=None, back: str = "",
        fields: list[tuple[str, str]] | None = None) -> HttpResponse:
    """The confirmation page for ``exc``: confirm (once for Level 3, a second time for
    Level 4) or go back to ``back`` without changing anything.  ``fields``: what the
    confirming form sends, when not the request's own fields (an uploaded file goes back
    as its text)."""
    n = given(request) + 1
    fields = sorted(fields, key=lambda kv: kv[0]) if fields is not None else _fields(request)
    token = signing.dumps({"u": request.user.pk, "p": request.path, "d": _digest(fields), "n": n}, salt=_SALT)
    return render(
        request,
        "pairing/confirm.html",
        {
            "t": t,
            "exc": exc,
            "double": exc.level is Level.DOUBLE,
            "second": n == 2,
            "fields": fields,
            "token": token,
            "token_field": TOKEN_FIELD,
            "action": request.get_full_path(),
            "back": back or request.META.get("HTTP_REFERER", "") or "/",
        },
    )
