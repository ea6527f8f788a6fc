"""Content-Security-Policy on every response: scripts, styles, images, fonts and
requests from the site itself only.

The pages load htmx and the app's own script from /static/ and nothing else: no inline
``<script>``, no ``on…=`` attribute, no ``style=`` attribute, no ``<style>`` element (htmx's
own indicator style is switched off in base.html's ``htmx-config``).  A page that broke
this would lose that script or style in the browser: tests/browser/test_csp.py visits
every page in Chromium and fails on any violation the browser reports.

In development mode Django's own debug pages (404 and 500, inline styles and scripts) are
left without the header.
"""

from __future__ import annotations

from collections.abc import Callable

from django.conf import settings
from django.http import HttpRequest, HttpResponse

POLICY = "; ".join(
    [
        "default-src 'self'",
        "script-src 'self'",
        "style-src 'self'",
        "img-src 'self'",
        "font-src 'self'",
        "connect-src 'self'",
        "form-action 'self'",
        "frame-ancestors 'none'",
        "base-uri 'self'",
        "object-src 'none'",
    ]
)


class ContentSecurityPolicyMiddleware:
    def __init__(self, get_response: Callable[[HttpRequest], HttpResponse]):
        self.get_response = get_response

    def __call__(self, request: HttpRequest) -> HttpResponse:
        response = self.get_response(request)
        if settings.DEBUG and response.status_code in (404, 500):
            return response
        response.headers.setdefault("Content-Security-Policy", POLICY)
        return response
