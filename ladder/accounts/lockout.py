"""What a locked-out client sees (django-axes calls this): 429 with Retry-After, JSON for the API.

Axes counts failed logins per IP address and, separately, per user name
(``AXES_LOCKOUT_PARAMETERS``) in the database, so every web process shares the count.
"""

from __future__ import annotations

from axes.helpers import get_cool_off
from django.http import HttpRequest, HttpResponse, JsonResponse
from django.shortcuts import render


def lockout_response(
    request: HttpRequest,
    original_response: HttpResponse | None = None,
    credentials: dict[str, object] | None = None,
) -> HttpResponse:
    cool_off = get_cool_off(request)
    seconds = int(cool_off.total_seconds()) if cool_off else 0
    minutes = max(1, (seconds + 59) // 60)
    message = (
        f"Too many failed logins from this address or for this account; try again in "
        f"{minutes} minute{'s' if minutes != 1 else ''}."
    )
    if request.path.startswith("/api/"):
        response: HttpResponse = JsonResponse({"detail": message, "code": "throttled"}, status=429)
    else:
        response = render(request, "web/locked_out.html", {"message": message}, status=429)
    response["Retry-After"] = str(seconds)
    return response
