"""Messages for HTMX requests."""

from __future__ import annotations

from django.contrib import messages
from django.template.loader import render_to_string


class HtmxMessagesMiddleware:
    """Messages added while answering an HTMX request are shown at once: the fragment
    carries them as an out-of-band swap of the page's message list (``#messages`` in
    base.html).  Without this they waited for the next full page load, stale by then."""

    def __init__(self, get_response):
        self.get_response = get_response

    def __call__(self, request):
        response = self.get_response(request)
        if (
            not getattr(request, "htmx", False)
            or not 200 <= response.status_code < 300
            or response.streaming
            or not response.get("Content-Type", "").startswith("text/html")
        ):
            return response
        pending = list(messages.get_messages(request))  # reading marks them shown
        if pending:
            response.content += render_to_string(
                "_messages.html", {"messages": pending, "oob": True}, request=request
            ).encode()
        return response


# An address that only takes a form, opened by itself: the page its act starts from.
_START_PAGES = {
    "player_withdraw": "pairing:player_edit", "player_delete": "pairing:player_edit",
    "forbidden_pair_delete": "pairing:forbidden_pairs",
    "fide_mode_leave": "pairing:fide_mode", "integrity_undo": "pairing:fide_mode",
}


def start_page(path: str) -> str:
    """Where the act behind ``path`` starts: its round's page for results, swaps and
    publishing, the player's page, the FIDE-mode page ..., else the tournament's
    overview, else the list of tournaments."""
    from django.urls import NoReverseMatch, Resolver404, resolve, reverse

    try:
        match = resolve(path)
    except Resolver404:
        return reverse("pairing:dashboard")
    kw = match.kwargs
    try:
        if match.url_name in _START_PAGES:
            name = _START_PAGES[match.url_name]
            return reverse(name, args=[kw["slug"], kw["pk"]] if name == "pairing:player_edit" else [kw["slug"]])
        if "slug" in kw and "number" in kw:
            return reverse("pairing:round", args=[kw["slug"], kw["number"]])
        if "slug" in kw:
            return reverse("pairing:tournament", args=[kw["slug"]])
    except (KeyError, NoReverseMatch):
        pass
    return reverse("pairing:dashboard")


class MethodNotAllowedPageMiddleware:
    """A GET on an address that only takes a form (a result, the answer to a
    confirmation, a swap ...) still answers 405, but with a page: nothing was done,
    and a link to the page the act starts from.  Going Back to a confirmation page
    reopened its address and showed an empty page (issue 32, item 12)."""

    def __init__(self, get_response):
        self.get_response = get_response

    def __call__(self, request):
        from django.shortcuts import render

        response = self.get_response(request)
        if response.status_code != 405 or request.method not in ("GET", "HEAD") or response.content:
            return response
        page = render(request, "pairing/not_allowed.html", {"back": start_page(request.path_info)}, status=405)
        if response.has_header("Allow"):
            page["Allow"] = response["Allow"]
        return page
