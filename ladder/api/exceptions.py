"""Turn the services' refusals into clear 4xx answers."""

from __future__ import annotations

from django.conf import settings
from django.core.exceptions import TooManyFieldsSent, TooManyFilesSent
from rest_framework.response import Response
from rest_framework.views import exception_handler

from ladder.core.errors import ServiceError


def api_exception_handler(exc: Exception, context: dict[str, object]) -> Response | None:
    """DRF's handler, plus a service's refusal as its own status code and message."""
    if isinstance(exc, TooManyFieldsSent | TooManyFilesSent):
        # Django's refusal of a form with too many fields: a 400 the client can read, as JSON.
        return Response(
            {
                "detail": "the request body has too many fields (at most "
                f"{settings.DATA_UPLOAD_MAX_NUMBER_FIELDS} fields and "
                f"{settings.DATA_UPLOAD_MAX_NUMBER_FILES} files)",
                "code": "too_many_fields",
            },
            status=400,
        )
    if isinstance(exc, ServiceError):
        response = Response({"detail": str(exc), "code": exc.code}, status=exc.status_code)
        retry_after = getattr(exc, "retry_after", None)
        if retry_after is not None:
            response["Retry-After"] = str(retry_after)
        return response
    return exception_handler(exc, context)
