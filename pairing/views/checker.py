"""The free checker (fide-pairings) for anyone to download: its page and its two files, the
single-file program and the wheel, built from the code this site runs (:mod:`pairing.distribution`),
so the checker offered is always the release that pairs here.  No login: a rating officer has
no account."""

from __future__ import annotations

from functools import cache

import markdown
from django.http import Http404, HttpRequest, HttpResponse
from django.shortcuts import render
from django.utils.safestring import mark_safe
from django.views.decorators.http import require_GET

from .. import distribution
from ..engine import version


@cache
def _files() -> dict[str, distribution.Built]:
    """The two files, built once per process (a few tenths of a second)."""
    sha = distribution.commit()
    return {b.name: b for b in (distribution.build_zipapp(sha), distribution.build_wheel(sha))}


@cache
def _readme_html() -> str:
    """The checker's README (our own file, so its HTML is trusted)."""
    text = distribution.README.read_text(encoding="utf-8")
    return markdown.markdown(text, extensions=["tables", "sane_lists", "fenced_code"], output_format="html")


@require_GET
def checker(request: HttpRequest) -> HttpResponse:
    files = _files()
    return render(request, "pairing/checker.html", {
        "version": version.VERSION,
        "commit": files[distribution.zipapp_name()].commit,
        "zipapp": files[distribution.zipapp_name()],
        "wheel": files[distribution.wheel_name()],
        "readme": mark_safe(_readme_html()),
    })


@require_GET
def checker_file(request: HttpRequest, name: str) -> HttpResponse:
    built = _files().get(name)
    if built is None:
        raise Http404("No such file.")
    kind = "application/zip" if name.endswith(".whl") else "application/octet-stream"
    response = HttpResponse(built.data, content_type=kind)
    response["Content-Disposition"] = f'attachment; filename="{built.name}"'
    response["Content-Length"] = str(len(built.data))
    return response
