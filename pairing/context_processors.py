"""Values every page's template needs."""

from __future__ import annotations

from django.http import HttpRequest
from django.urls import reverse

from .manual import chapter_for


def help_link(request: HttpRequest) -> dict:
    """``help_url``: the manual's chapter for this page (the index when it has none)."""
    match = getattr(request, "resolver_match", None)
    chapter = chapter_for(match.url_name if match else None)
    if chapter:
        return {"help_url": reverse("pairing:help_chapter", args=[chapter])}
    return {"help_url": reverse("pairing:help_index")}


DENSITY_COOKIE = "density"


def density(request: HttpRequest) -> dict:
    """``compact``: the visitor chose compact tables (a cookie; see views.display.density)."""
    return {"compact": request.COOKIES.get(DENSITY_COOKIE) == "compact"}
