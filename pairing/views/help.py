"""The manual in the app: the chapters of docs/manual/, for everyone (no login)."""

from __future__ import annotations

from django.http import Http404, HttpRequest, HttpResponse
from django.shortcuts import render
from django.utils.safestring import mark_safe
from django.views.decorators.http import require_GET

from ..manual import CHAPTERS, TITLES, chapter_html


@require_GET
def help_index(request: HttpRequest) -> HttpResponse:
    return render(request, "pairing/help.html", {"chapters": CHAPTERS, "current": None})


@require_GET
def help_chapter(request: HttpRequest, chapter: str) -> HttpResponse:
    if chapter not in TITLES:
        raise Http404("No such chapter.")
    return render(
        request,
        "pairing/help.html",
        {"chapters": CHAPTERS, "current": chapter, "title": TITLES[chapter], "body": mark_safe(chapter_html(chapter))},
    )
