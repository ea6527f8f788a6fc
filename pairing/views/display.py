"""Display preferences of the visitor's browser (no account needed)."""

from __future__ import annotations

from django.http import HttpRequest, HttpResponse, HttpResponseRedirect
from django.utils.http import url_has_allowed_host_and_scheme
from django.views.decorators.csrf import csrf_exempt
from django.views.decorators.http import require_POST

from ..context_processors import DENSITY_COOKIE


@csrf_exempt
@require_POST
def density(request: HttpRequest) -> HttpResponse:
    """Compact or roomy tables (issue 21, rough edge 10), kept in a cookie for a year;
    back to the page the button was on (``next``, this site only).

    Without a CSRF check: the public pages are one cached copy for every visitor
    (:mod:`.public_cache`), so they carry no visitor's token; what a forged post could do
    is change the display of the browser that sends it, nothing on the server."""
    target = request.POST.get("next", "/")
    if not url_has_allowed_host_and_scheme(target, allowed_hosts={request.get_host()}, require_https=request.is_secure()):
        target = "/"
    response = HttpResponseRedirect(target)
    if request.POST.get("compact") == "1":
        response.set_cookie(DENSITY_COOKIE, "compact", max_age=365 * 24 * 3600, samesite="Lax",
                            secure=request.is_secure(), httponly=True)
    else:
        response.delete_cookie(DENSITY_COOKIE, samesite="Lax")
    return response
