"""Tell a ``monsoon`` client when its kit plays other rules than this server's engine.

The kit (``bots.kit``) sends its version in the ``X-Monsoon-Kit`` header of every API request;
when it is not the server's own kit version, the answer carries ``X-Monsoon-Kit-Warning`` with
what to do, and the command line prints it. Requests without the header are left alone.
"""

from __future__ import annotations

from collections.abc import Callable

from django.http import HttpRequest, HttpResponse

from bots.kit import KIT_HEADER, KIT_WARNING_HEADER, kit_mismatch

MAX_SHOWN = 64
"""Longest client version repeated in the warning (the header is the client's own text)."""


class KitVersionMiddleware:
    def __init__(self, get_response: Callable[[HttpRequest], HttpResponse]) -> None:
        self.get_response = get_response

    def __call__(self, request: HttpRequest) -> HttpResponse:
        response = self.get_response(request)
        client = request.headers.get(KIT_HEADER)
        if client:
            shown = client[:MAX_SHOWN].encode("ascii", "backslashreplace").decode()
            problem = kit_mismatch(shown)
            if problem:
                response[KIT_WARNING_HEADER] = problem
        return response
