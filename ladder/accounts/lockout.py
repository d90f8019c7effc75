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


# django-axes records the user name of a failed login in a ``varchar(255)`` column.
AXES_USERNAME_CHARS = 255


def attempted_username(
    request: HttpRequest, credentials: dict[str, object] | None = None
) -> str | None:
    """The user name axes records and counts (``AXES_USERNAME_CALLABLE``), cut to its column.

    A longer name can belong to no account (Django's user names stop at 150 characters), so
    every such attempt is still an ordinary failed login; unshortened it would not fit the
    attempt record and the login would fail with a server error instead.
    """
    if credentials:
        value = credentials.get("username")
    else:
        data = getattr(request, "data", request.POST)
        value = data.get("username")
    if value is None:
        return None
    return str(value)[:AXES_USERNAME_CHARS]
