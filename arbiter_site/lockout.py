"""What a locked-out login sees: the login page again, with the reason, not an error page."""

from __future__ import annotations

from django.conf import settings
from django.contrib.auth.forms import AuthenticationForm
from django.http import HttpRequest, HttpResponse
from django.shortcuts import render


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


def locked_out(request: HttpRequest, response: HttpResponse | None = None, credentials: dict | None = None):
    """django-axes' AXES_LOCKOUT_CALLABLE: status 429 (Too Many Requests)."""
    username = (credentials or {}).get("username") or request.POST.get("username", "")
    minutes = int(settings.AXES_COOLOFF_TIME.total_seconds() // 60)
    return render(
        request,
        "registration/login.html",
        {
            "form": AuthenticationForm(request, initial={"username": username}),
            "locked_out": True,
            "lockout_minutes": minutes,
            "failure_limit": settings.AXES_FAILURE_LIMIT,
            "next": request.POST.get("next", request.GET.get("next", "")),
        },
        status=429,
    )
