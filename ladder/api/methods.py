"""405 for a method an API endpoint does not have, before anyone is asked for credentials.

DRF authenticates and checks permissions before it looks for the method's handler, so
``TRACE /api/v1/bots/`` answered 401 to an anonymous client: as if the method existed and only
a token were missing. The schema lists every method an endpoint has; any other is a 405 with the
``Allow`` header, whoever asks.
"""

from __future__ import annotations

from collections.abc import Callable
from typing import Any

from django.http import HttpRequest, HttpResponse, JsonResponse


def allowed_methods(view_func: Callable[..., Any]) -> list[str] | None:
    """The methods a DRF view (or viewset route) answers; None for any other view."""
    cls = getattr(view_func, "cls", None)
    if cls is None:
        return None
    actions = getattr(view_func, "actions", None)
    if actions is not None:  # a viewset route: its method -> action map
        methods = {method.lower() for method in actions}
        if "get" in methods:
            methods.add("head")
    else:
        methods = {m for m in cls.http_method_names if hasattr(cls, m)}
        if "get" in methods:
            methods.add("head")
    methods.add("options")
    return sorted(m.upper() for m in methods)


class ApiMethodNotAllowedMiddleware:
    def __init__(self, get_response: Callable[[HttpRequest], HttpResponse]) -> None:
        self.get_response = get_response

    def __call__(self, request: HttpRequest) -> HttpResponse:
        return self.get_response(request)

    def process_view(
        self,
        request: HttpRequest,
        view_func: Callable[..., Any],
        view_args: tuple[Any, ...],
        view_kwargs: dict[str, Any],
    ) -> HttpResponse | None:
        if not request.path.startswith("/api/"):
            return None
        allowed = allowed_methods(view_func)
        if allowed is None or (request.method or "GET").upper() in allowed:
            return None
        response = JsonResponse(
            {"detail": f'Method "{request.method}" not allowed.', "code": "method_not_allowed"},
            status=405,
        )
        response["Allow"] = ", ".join(allowed)
        return response
