"""404 answers for URLs that match no route: JSON under ``/api/``, the site's page elsewhere.

A client of the API that asks for ``/api/v1/bots/abc/`` gets the same ``{"detail": ...}`` body
as for any other refusal, not an HTML page it cannot read.
"""

from __future__ import annotations

from django.http import HttpRequest, HttpResponse, JsonResponse
from django.views import defaults


def not_found(request: HttpRequest, exception: Exception | None = None) -> HttpResponse:
    if request.path.startswith("/api/"):
        return JsonResponse({"detail": "Not found.", "code": "not_found"}, status=404)
    return defaults.page_not_found(request, exception)
