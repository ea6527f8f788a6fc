"""The confirmation pages of the warning levels (see :mod:`pairing.warning_levels`).

A view calls a service with ``confirmations=given(request)``; when the service raises
:class:`~pairing.warning_levels.NeedsConfirmation`, the view answers with
:func:`ask`: a page that shows the warnings and re-sends the very same form fields with
a signed token counting one more confirmation.  Works without JavaScript: it is an
ordinary form.

A token confirms one act, once, on the state the arbiter saw:

* it is bound to the user, the address and the fields (this act only), and expires
  after an hour;
* it carries the tournament's :attr:`~pairing.models.Tournament.revision` when it was
  issued: any change of the tournament since (another arbiter's result, a publish, an
  edit of the draft...) makes it stale, and the act is refused with the changes named;
* it carries a nonce that is spent in the act's transaction
  (:class:`~pairing.models.SpentConfirmation`, a unique key): a double click or a
  replayed form acts once.

Views that call :func:`given` are decorated with :func:`confirmable`: the view runs in
one transaction, and :func:`given` locks the tournament's row for the rest of it, so
the revision it checked is still the revision when the service acts.
"""

from __future__ import annotations

import datetime
import functools
import hashlib
import json
import secrets

from django.contrib import messages
from django.core import signing
from django.core.exceptions import ImproperlyConfigured
from django.db import IntegrityError, transaction
from django.http import HttpRequest, HttpResponse
from django.shortcuts import redirect, render
from django.utils import timezone
from django.utils.http import url_has_allowed_host_and_scheme
from django.utils.translation import gettext as _
from django.utils.translation import ngettext

from ..models import AuditEntry, SpentConfirmation, Tournament
from ..warning_levels import Level, NeedsConfirmation

TOKEN_FIELD = "confirm_token"
_SALT = "pairing.confirm"
_MAX_AGE = 3600
_NOT_SIGNED = {"csrfmiddlewaretoken", TOKEN_FIELD}
_CHANGES_NAMED = 5


class ConfirmationRefused(Exception):
    """The token is valid but spent, or was issued on a state that has changed since;
    nothing was done.  ``back``: where the arbiter goes on (the page the act came from)."""

    def __init__(self, message: str, back: str):
        super().__init__(message)
        self.back = back


def confirmable(view):
    """Run ``view`` in one transaction, so that the tournament lock :func:`given` takes
    holds until the act is done; a refused token becomes a message on the page the act
    came from."""

    @functools.wraps(view)
    def wrapper(request: HttpRequest, *args, **kwargs) -> HttpResponse:
        request.confirmable = True
        if request.method != "POST":  # nothing to confirm: no transaction held over a page render
            return view(request, *args, **kwargs)
        try:
            with transaction.atomic():
                return view(request, *args, **kwargs)
        except ConfirmationRefused as exc:
            messages.error(request, str(exc))
            return redirect(exc.back)

    return wrapper


def _fields(request: HttpRequest) -> list[tuple[str, str]]:
    return [(k, v) for k in sorted(request.POST) if k not in _NOT_SIGNED for v in request.POST.getlist(k)]


def _digest(fields: list[tuple[str, str]]) -> str:
    # browsers send every line break of a form value as CR LF: the same act either way
    same = [(k, v.replace("\r\n", "\n")) for k, v in fields]
    return hashlib.sha256(json.dumps(same).encode()).hexdigest()


def _last_entry(tournament_id: int) -> int:
    return AuditEntry.objects.filter(tournament_id=tournament_id).order_by("-pk").values_list("pk", flat=True).first() or 0


def changes_since(tournament_id: int, last_entry: int) -> str:
    """The audit trail's entries after ``last_entry``, as one sentence for the arbiter."""
    entries = AuditEntry.objects.filter(tournament_id=tournament_id, pk__gt=last_entry).order_by("pk")
    total = entries.count()
    # each entry is a sentence of its own; the refusal puts a full stop after the list
    named = [f"{e.who}: {e.detail.removesuffix('.')}" for e in entries[:_CHANGES_NAMED]]
    if not named:
        return _("the tournament's data")
    text = "; ".join(named)
    if total > len(named):
        more = total - len(named)
        text += " " + ngettext("(and %(n)s more change)", "(and %(n)s more changes)", more) % {"n": more}
    return text


def given(request: HttpRequest) -> int:
    """How many confirmations this POST carries (0 without a valid token for this user,
    address and fields).  A valid token is spent here, in the view's transaction; raises
    :class:`ConfirmationRefused` when it was spent already or the tournament has changed
    since it was issued."""
    if not getattr(request, "confirmable", False):
        raise ImproperlyConfigured("a view that calls given() must be decorated with @confirmable")
    if not hasattr(request, "confirmations_given"):  # spent once, read as often as needed
        request.confirmations_given = _check(request)
    return request.confirmations_given


def _check(request: HttpRequest) -> int:
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
    if not (isinstance(n, int) and 0 < n <= 2):
        return 0
    back = data.get("b") or "/"
    tournament_id = data.get("t")
    if tournament_id is not None:
        # the lock holds until the view's transaction ends: nothing changes under the act
        revision = Tournament.objects.select_for_update().filter(pk=tournament_id).values_list("revision", flat=True).first()
        if SpentConfirmation.objects.filter(nonce=data.get("k", "")).exists():
            raise ConfirmationRefused(_spent(), back)
        if revision != data.get("r"):
            raise ConfirmationRefused(
                _("The tournament changed after you were asked, so that confirmation no longer applies and nothing "
                  "was done. What changed: %(changes)s. Look at the page again and repeat the act if you still want "
                  "it.") % {"changes": changes_since(tournament_id, data.get("a", 0))},
                back,
            )
    _spend(data.get("k", ""), back)
    return n


def _spent() -> str:
    return _("That confirmation was used already (a second click?): the act was done once and nothing more changed.")


def _spend(nonce: str, back: str) -> None:
    if not nonce:
        raise ConfirmationRefused(_spent(), back)
    SpentConfirmation.objects.filter(spent_at__lt=timezone.now() - datetime.timedelta(seconds=2 * _MAX_AGE)).delete()
    try:
        with transaction.atomic():
            SpentConfirmation.objects.create(nonce=nonce)
    except IntegrityError:  # the same token at the same moment in another request
        raise ConfirmationRefused(_spent(), back) from None


def ask(request: HttpRequest, exc: NeedsConfirmation, *, t=None, back: str = "",
        fields: list[tuple[str, str]] | None = None) -> HttpResponse:
    """The confirmation page for ``exc``: confirm (once for Level 3, a second time for
    Level 4) or go back to ``back`` without changing anything.  ``fields``: what the
    confirming form sends, when not the request's own fields (an uploaded file goes back
    as its text).  ``t``: the tournament the act changes (the token is bound to its
    revision now)."""
    n = given(request) + 1
    fields = sorted(fields, key=lambda kv: kv[0]) if fields is not None else _fields(request)
    back = back or request.META.get("HTTP_REFERER", "")
    if not url_has_allowed_host_and_scheme(back, allowed_hosts={request.get_host()}, require_https=request.is_secure()):
        back = "/"
    data = {"u": request.user.pk, "p": request.path, "d": _digest(fields), "n": n, "k": secrets.token_hex(16), "b": back}
    if t is not None:
        data |= {"t": t.pk, "r": Tournament.objects.filter(pk=t.pk).values_list("revision", flat=True).first(),
                 "a": _last_entry(t.pk)}
    token = signing.dumps(data, salt=_SALT)
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
            "back": back,
        },
    )
