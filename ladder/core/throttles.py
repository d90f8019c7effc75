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
from rest_framework.throttling import ScopedRateThrottle
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
