"""One throttle check for the web site, sharing the API's scopes and budgets (DRF's cache counts).

The API applies the same scopes with ``ScopedRateThrottle``; a web form calls :func:`wait_seconds`
so that, e.g., bots created on the site and through the API draw on one budget per user
(anonymous visitors are counted per address).
"""

from __future__ import annotations

import math
from typing import cast

from django.http import HttpRequest
from rest_framework.request import Request
from rest_framework.throttling import BaseThrottle, ScopedRateThrottle
from rest_framework.views import APIView


class _Scope:
    def __init__(self, scope: str) -> None:
        self.throttle_scope = scope


def wait_seconds(request: HttpRequest, scope: str) -> int | None:
    """Whole seconds to wait when ``request`` is over the ``scope`` rate (and not counted), else
    None (and counted)."""
    throttle = ScopedRateThrottle()
    # DRF's throttle reads only ``user``/``META`` from the request and ``throttle_scope`` from
    # the view, which a Django request and this stand-in provide: the casts say so to mypy.
    if throttle.allow_request(cast(Request, request), cast(APIView, _Scope(scope))):
        return None
    return math.ceil(throttle.wait() or 60)


def refund(request: HttpRequest, scope: str) -> None:
    """Give back the newest request counted against ``scope`` for this client.

    DRF keeps a client's history newest first under one cache key; a refused request takes the
    newest entry back out (under concurrent requests it may be another's entry: the count is
    the same). Nothing happens when the scope has no rate.
    """
    throttle = ScopedRateThrottle()
    throttle.scope = scope
    if throttle.THROTTLE_RATES.get(scope) is None:
        return
    _, duration = throttle.parse_rate(throttle.get_rate())
    key = throttle.get_cache_key(cast(Request, request), cast(APIView, _Scope(scope)))
    if key is None or duration is None:
        return
    history = throttle.cache.get(key, [])
    if history:
        throttle.cache.set(key, history[1:], duration)


UPLOAD_SCOPES = ("upload_attempts", "uploads")
"""Every upload attempt counts against the first (a wide bound on what a stream of bad files
costs in checks); only an upload that became a version counts against the second."""


def upload_wait_seconds(request: HttpRequest) -> int | None:
    """Whole seconds to wait before the next upload, else None (and counted in both scopes).

    The attempt budget is checked first, so an attempt it refuses uses none of the other.
    A refused upload hands its ``uploads`` count back with :func:`refund_upload`.
    """
    for scope in UPLOAD_SCOPES:
        wait = wait_seconds(request, scope)
        if wait is not None:
            return wait
    return None


def refund_upload(request: HttpRequest) -> None:
    """The upload was refused (a bad file, not the owner, the exact hourly quota): it does not
    use up the ``uploads`` rate, only an attempt."""
    refund(request, "uploads")


class UploadThrottle(BaseThrottle):
    """The API's upload throttle, with the site's budgets (:func:`upload_wait_seconds`)."""

    def __init__(self) -> None:
        self.seconds: int | None = None

    def allow_request(self, request: Request, view: APIView) -> bool:
        self.seconds = upload_wait_seconds(request)
        return self.seconds is None

    def wait(self) -> float | None:
        return self.seconds
