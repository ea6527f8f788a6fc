"""Logging in: the login form (usernames longer than any account's are refused before
authentication), and the *trusted-device* cookie that lets an arbiter past a lock-out
that someone else caused.

A successful login leaves a signed, HTTP-only cookie naming the account on that browser.
Login throttling (:mod:`arbiter_site.lockout`) counts failures per username and address
and per username alone; a browser carrying the cookie for the username it logs in with
is not subject to either lock, so neither a flood of wrong passwords from rotating
addresses nor five wrong passwords behind a misconfigured proxy can keep the arbiter
out of their own tournament on their own phone or laptop.
"""

from __future__ import annotations

from django import forms
from django.conf import settings
from django.contrib.admin.forms import AdminAuthenticationForm
from django.contrib.auth import get_user_model
from django.contrib.auth import views as auth_views
from django.contrib.auth.forms import AuthenticationForm
from django.core import signing
from django.http import HttpRequest

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


class LoginView(auth_views.LoginView):
    form_class = LoginForm

    def form_valid(self, form):
        response = super().form_valid(form)
        name = form.get_user().get_username().lower()
        names = [name] + [n for n in trusted_usernames(self.request) if n != name]
        response.set_signed_cookie(
            TRUSTED_COOKIE, "\n".join(names[:_MAX_NAMES]), salt=_SALT, max_age=_MAX_AGE,
            httponly=True, secure=not settings.DEBUG, samesite="Lax",
        )
        return response
