"""The login lockout's rules, as django-axes' settings call them, and what a locked-out client
sees: 429 with Retry-After, JSON for the API.

Axes counts failed logins in the database (every web process shares the count) for each of
:func:`lockout_parameters`: the pair (address, user name), and the address over every name.
The pair is locked after ``MONSOON_LOGIN_FAILURE_LIMIT`` failures, so someone else's guesses at
a name lock out neither its owner elsewhere nor other users behind the guesser's address; the
address is locked after the wider ``MONSOON_LOGIN_ADDRESS_FAILURE_LIMIT``, against one address
trying many names. A refused (locked-out) attempt is not counted
(``AXES_RESET_COOL_OFF_ON_FAILURE_DURING_LOCKOUT`` off): it neither adds a failure nor moves
the lockout's end. A successful login forgets its own pair's failures only
(:func:`forget_the_pairs_failures`), so a guesser's own account cannot wipe the address's count.
"""

from __future__ import annotations

from axes.handlers.proxy import AxesProxyHandler
from axes.helpers import get_client_ip_address, get_cool_off
from axes.utils import reset
from django.conf import settings
from django.contrib.auth.base_user import AbstractBaseUser
from django.db.models import Sum
from django.http import HttpRequest, HttpResponse, JsonResponse
from django.shortcuts import render

PAIR = ["ip_address", "username"]
ADDRESS = "ip_address"


def lockout_parameters(
    request_or_attempt: object, credentials: dict[str, object] | None = None
) -> list[str | list[str]]:
    """``AXES_LOCKOUT_PARAMETERS``: what failures are counted by, the pair first (as
    :func:`failure_limit` reads them)."""
    return [PAIR, ADDRESS]


def failure_limit(request: HttpRequest, credentials: dict[str, object] | None = None) -> int:
    """``AXES_FAILURE_LIMIT``: how many failures lock this request out.

    Axes locks out once the largest count of the lockout parameters reaches one limit. The
    address's count is the largest (it holds the pair's), so the limit is the address's until
    the pair alone has reached the pair's: a request is locked out exactly when its pair has
    failed ``MONSOON_LOGIN_FAILURE_LIMIT`` times or its address
    ``MONSOON_LOGIN_ADDRESS_FAILURE_LIMIT`` times (within the cool-off, as axes counts).
    """
    pair_limit: int = settings.MONSOON_LOGIN_FAILURE_LIMIT
    pair, _address = AxesProxyHandler.get_implementation().get_user_attempts(request, credentials)
    failures = pair.aggregate(total=Sum("failures_since_start"))["total"] or 0
    return pair_limit if failures >= pair_limit else settings.MONSOON_LOGIN_ADDRESS_FAILURE_LIMIT


def forget_the_pairs_failures(
    sender: object, request: HttpRequest | None, user: AbstractBaseUser, **kwargs: object
) -> None:
    """On ``user_logged_in`` (``AXES_RESET_ON_SUCCESS`` is off): the pair's failures are
    forgotten, the address's others are not. Axes' own reset deletes every attempt matching any
    lockout parameter, the whole address's count with them."""
    address = get_client_ip_address(request) if request is not None else None
    if address:  # without one, axes' reset would forget the name's failures from everywhere
        reset(ip=address, username=user.get_username())


def lockout_response(
    request: HttpRequest,
    original_response: HttpResponse | None = None,
    credentials: dict[str, object] | None = None,
) -> HttpResponse:
    cool_off = get_cool_off(request)
    seconds = int(cool_off.total_seconds()) if cool_off else 0
    minutes = max(1, (seconds + 59) // 60)
    message = (
        "Too many failed logins from this address; try again in "
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
