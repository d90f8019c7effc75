"""Error answers made outside DRF: JSON under ``/api/``, the site's page elsewhere.

A client of the API that asks for ``/api/v1/bots/abc/`` (no route: 404) or sends a form of
5,000 fields (Django refuses it before DRF sees it: 400) gets the same ``{"detail": ...}`` body
as for any other refusal, not an HTML page it cannot read.
"""

from __future__ import annotations

from django.core.exceptions import RequestDataTooBig, TooManyFieldsSent, TooManyFilesSent
from django.http import HttpRequest, HttpResponse, JsonResponse
from django.views import defaults


def not_found(request: HttpRequest, exception: Exception | None = None) -> HttpResponse:
    if request.path.startswith("/api/"):
        return JsonResponse({"detail": "Not found.", "code": "not_found"}, status=404)
    return defaults.page_not_found(request, exception)


def bad_request(request: HttpRequest, exception: Exception | None = None) -> HttpResponse:
    """Django's 400 for a request it refuses as suspicious (too many fields, a bad host...)."""
    if request.path.startswith("/api/"):
        if isinstance(exception, TooManyFieldsSent | TooManyFilesSent | RequestDataTooBig):
            detail = f"the request body was refused: {exception}"
        else:
            detail = "the request was refused as malformed"
        return JsonResponse({"detail": detail, "code": "bad_request"}, status=400)
    return defaults.bad_request(request, exception or ValueError("bad request"))
