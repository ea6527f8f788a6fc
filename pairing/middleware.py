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
