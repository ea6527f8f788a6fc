"""What a locked-out login sees: the login page again, with the reason, not an error page."""

from __future__ import annotations

from django.conf import settings
from django.contrib.auth.forms import AuthenticationForm
from django.http import HttpRequest, HttpResponse
from django.shortcuts import render


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
