"""Login throttling on django-axes: which address an attempt counts against, the
username-wide count beside the per-address one, the trusted browsers that pass a lock,
and what a locked-out login sees (the login page again, with the reason).

Two counts, both over the cool-off period (DJANGO_LOGIN_LOCKOUT_MINUTES):

* per username and address: DJANGO_LOGIN_FAILURE_LIMIT (5) failures lock that pair;
* per username, from anywhere: DJANGO_LOGIN_USERNAME_FAILURE_LIMIT (25) failures lock the
  username -- this holds when the address cannot be trusted (the app reachable past its
  proxy with DJANGO_TRUSTED_PROXIES=1, every attempt with a new X-Forwarded-For).

Neither lock applies on a browser where that username has logged in before
(:mod:`arbiter_site.accounts`' signed cookie): five wrong passwords from anyone behind a
proxy counted as one address (DJANGO_TRUSTED_PROXIES=0 behind a proxy) no longer keep
the arbiter out on their own device.  Such a login does not clear the failures (they are
someone else's); a new device gets the cookie from a one-time device pass
(:mod:`arbiter_site.accounts`).
"""

from __future__ import annotations

from axes.attempts import get_cool_off_threshold
from axes.handlers.database import AxesDatabaseHandler
from axes.helpers import get_client_username
from axes.models import AccessAttempt
from django.conf import settings
from django.db.models import Sum
from django.http import HttpRequest, HttpResponse
from django.shortcuts import render

from .accounts import LoginForm, trusted_usernames


def client_ip(request: HttpRequest) -> str | None:
    """The address a login attempt is counted against (django-axes' AXES_CLIENT_IP_CALLABLE).

    With ``DJANGO_TRUSTED_PROXIES=n`` (n reverse proxies in front of the app, each
    appending the address it saw to X-Forwarded-For) it is the n-th entry from the right:
    entries further left come from the client and could be forged.  With 0 (the default)
    it is the address of the connection.
    """
    trusted = settings.TRUSTED_PROXIES
    if trusted:
        hops = [h.strip() for h in request.META.get("HTTP_X_FORWARDED_FOR", "").split(",") if h.strip()]
        if len(hops) >= trusted:
            return hops[-trusted]
    return request.META.get("REMOTE_ADDR")


def trusted_browser(request: HttpRequest, credentials: dict | None = None) -> bool:
    """django-axes' AXES_WHITELIST_CALLABLE: this browser has logged in as this username
    before (signed cookie), so no lock applies and its failures are not counted."""
    username = (credentials or {}).get("username") or request.POST.get("username", "")
    return bool(username) and username.lower() in trusted_usernames(request)


class ThrottleHandler(AxesDatabaseHandler):
    """The per-pair count of django-axes, and the username-wide count scaled to the same
    limit: ``max(pair, total * FAILURE_LIMIT // USERNAME_FAILURE_LIMIT)`` reaches the
    limit when either count reaches its own."""

    def get_failures(self, request, credentials=None) -> int:
        pair = super().get_failures(request, credentials)
        username = get_client_username(request, credentials)
        if not username:
            return pair
        total = (
            AccessAttempt.objects.filter(username=username, attempt_time__gte=get_cool_off_threshold(request))
            .aggregate(n=Sum("failures_since_start"))["n"]
            or 0
        )
        return max(pair, total * settings.AXES_FAILURE_LIMIT // settings.LOGIN_USERNAME_FAILURE_LIMIT)

    def reset_user_attempts(self, request, credentials=None) -> int:
        """A successful login clears the failures (AXES_RESET_ON_SUCCESS) -- unless it came
        from a trusted browser (an earlier login, a device pass), which passed the lock
        without lifting it: the failures are someone else's, and clearing them would give
        whoever is guessing from the same address a fresh set of guesses."""
        if trusted_browser(request, credentials):
            return 0
        return super().reset_user_attempts(request, credentials)


def locked_out(request: HttpRequest, response: HttpResponse | None = None, credentials: dict | None = None):
    """django-axes' AXES_LOCKOUT_CALLABLE: status 429 (Too Many Requests)."""
    username = (credentials or {}).get("username") or request.POST.get("username", "")
    minutes = int(settings.AXES_COOLOFF_TIME.total_seconds() // 60)
    return render(
        request,
        "registration/login.html",
        {
            "form": LoginForm(request, initial={"username": username}),
            "locked_out": True,
            "lockout_minutes": minutes,
            "failure_limit": settings.AXES_FAILURE_LIMIT,
            "username_limit": settings.LOGIN_USERNAME_FAILURE_LIMIT,
            "next": request.POST.get("next", request.GET.get("next", "")),
        },
        status=429,
    )
