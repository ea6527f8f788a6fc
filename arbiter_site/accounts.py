"""Logging in: the login form (usernames longer than any account's are refused before
authentication), and the *trusted-device* cookie that lets an arbiter past a lock-out
that someone else caused.

A successful login leaves a signed, HTTP-only cookie naming the account on that browser.
Login throttling (:mod:`arbiter_site.lockout`) counts failures per username and address
and per username alone; a browser carrying the cookie for the username it logs in with
is not subject to either lock, so neither a flood of wrong passwords from rotating
addresses nor five wrong passwords behind a misconfigured proxy can keep the arbiter
out of their own tournament on their own phone or laptop.

On a *new* device the arbiter has no such cookie, and an attacker guessing from the
same address (a hall's Wi-Fi) keeps the username locked.  The way in the attacker does
not have: a **device pass**, a one-time link made by the site's administrator (``manage.py
device_pass <username>`` or the admin's Users page) or by a tournament's chief arbiter
for a deputy (the team page).  Opened on the new device and confirmed there, it leaves
the same cookie, so the arbiter then logs in with their password past the lock; it
works once, for one hour, for that username only.
"""

from __future__ import annotations

import secrets

from django import forms
from django.conf import settings
from django.contrib import messages
from django.contrib.admin.forms import AdminAuthenticationForm
from django.contrib.auth import get_user_model
from django.contrib.auth import views as auth_views
from django.contrib.auth.forms import AuthenticationForm
from django.core import signing
from django.db import IntegrityError, transaction
from django.http import HttpRequest, HttpResponse
from django.shortcuts import redirect, render
from django.urls import reverse
from django.utils.translation import gettext as _
from django.views.decorators.http import require_http_methods

TRUSTED_COOKIE = "trusted_login"
_SALT = "arbiter_site.accounts.trusted_login"
_MAX_AGE = 365 * 24 * 3600
_MAX_NAMES = 5


def username_max_length() -> int:
    model = get_user_model()
    return model._meta.get_field(model.USERNAME_FIELD).max_length or 150


class _UsernameLength:
    """Django's form sets ``max_length`` on the username field after construction, which
    adds no validator: a 300-character username reached authentication and the
    throttle's attempt row (255 characters; a server error on PostgreSQL)."""

    def clean(self):
        username = self.data.get("username", "") if self.is_bound else ""
        limit = username_max_length()
        if len(username) > limit:
            raise forms.ValidationError(
                f"A username has at most {limit} characters; please check what you typed.", code="too_long"
            )
        return super().clean()


class LoginForm(_UsernameLength, AuthenticationForm):
    pass


class AdminLoginForm(_UsernameLength, AdminAuthenticationForm):
    """The admin's form (staff accounts only) with the same length check."""


def trusted_usernames(request: HttpRequest) -> list[str]:
    """The usernames that have logged in successfully on this browser (signed cookie)."""
    try:
        names = request.get_signed_cookie(TRUSTED_COOKIE, salt=_SALT, max_age=_MAX_AGE)
    except (KeyError, signing.BadSignature, ValueError):
        return []
    return [n for n in names.split("\n") if n] if isinstance(names, str) else []


def _trust(request: HttpRequest, response: HttpResponse, username: str) -> None:
    """Name ``username`` first in this browser's trusted-login cookie."""
    name = username.lower()
    names = [name] + [n for n in trusted_usernames(request) if n != name]
    response.set_signed_cookie(
        TRUSTED_COOKIE, "\n".join(names[:_MAX_NAMES]), salt=_SALT, max_age=_MAX_AGE,
        httponly=True, secure=not settings.DEBUG, samesite="Lax",
    )


class LoginView(auth_views.LoginView):
    form_class = LoginForm

    def get_initial(self):
        # a device pass sends the arbiter here with the username filled in
        return {**super().get_initial(), "username": self.request.GET.get("username", "")[:150]}

    def form_valid(self, form):
        response = super().form_valid(form)
        _trust(self.request, response, form.get_user().get_username())
        return response


# ---------------------------------------------------------------- device passes

_PASS_SALT = "arbiter_site.accounts.device_pass"
PASS_MAX_AGE = 3600  # seconds


def device_pass_path(user) -> str:
    """The address of a new one-time device pass for ``user`` (a path: the site's own
    address goes in front)."""
    token = signing.dumps({"u": user.get_username(), "k": secrets.token_hex(16)}, salt=_PASS_SALT)
    return reverse("device_pass", args=[token])


@require_http_methods(["GET", "POST"])
def device_pass(request: HttpRequest, token: str) -> HttpResponse:
    """GET: what the pass does, and a button (a link preview must not spend it); POST:
    spend it and trust this browser for its username, then on to the login page."""
    from pairing.models import SpentConfirmation  # a single-use nonce, as confirmations are

    try:
        data = signing.loads(token, salt=_PASS_SALT, max_age=PASS_MAX_AGE)
    except signing.BadSignature:
        data = None
    username = data.get("u") if isinstance(data, dict) else None
    nonce = f"pass:{data.get('k', '')}"[:32] if isinstance(data, dict) else ""
    valid = bool(username) and get_user_model().objects.filter(**{get_user_model().USERNAME_FIELD: username}).exists()
    if valid and SpentConfirmation.objects.filter(nonce=nonce).exists():
        valid = False
    if not valid:
        return render(request, "registration/device_pass.html", {"invalid": True, "hours": PASS_MAX_AGE // 3600},
                      status=400)
    if request.method == "GET":
        return render(request, "registration/device_pass.html", {"username": username})
    try:
        with transaction.atomic():
            SpentConfirmation.objects.create(nonce=nonce)
    except IntegrityError:
        return render(request, "registration/device_pass.html", {"invalid": True, "hours": PASS_MAX_AGE // 3600},
                      status=400)
    messages.success(request, _("This browser may now log in as %(name)s, also while the name is locked. Enter "
                                "the password.") % {"name": username})
    response = redirect(f"{reverse('login')}?username={username}")
    _trust(request, response, username)
    return response
