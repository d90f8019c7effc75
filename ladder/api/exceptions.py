"""Turn the services' refusals into clear 4xx answers."""

from __future__ import annotations

from rest_framework.response import Response
from rest_framework.views import exception_handler

from ladder.core.errors import ServiceError


def api_exception_handler(exc: Exception, context: dict[str, object]) -> Response | None:
    """DRF's handler, plus a service's refusal as its own status code and message."""
    if isinstance(exc, ServiceError):
        response = Response({"detail": str(exc), "code": exc.code}, status=exc.status_code)
        retry_after = getattr(exc, "retry_after", None)
        if retry_after is not None:
            response["Retry-After"] = str(retry_after)
        return response
    return exception_handler(exc, context)
