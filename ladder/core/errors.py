"""Errors the services raise on purpose; the API turns them into clear 4xx answers."""

from __future__ import annotations


class ServiceError(Exception):
    """A request the domain refuses; the message is shown to the user as is."""

    status_code = 400
    code = "invalid"


class NotAllowed(ServiceError):
    status_code = 403
    code = "not_allowed"


class Conflict(ServiceError):
    status_code = 409
    code = "conflict"


class RateLimited(ServiceError):
    """Over a per-user budget; ``retry_after`` (seconds), when known, becomes the API's
    ``Retry-After`` header."""

    status_code = 429
    code = "rate_limited"

    def __init__(self, message: str, *, retry_after: int | None = None) -> None:
        super().__init__(message)
        self.retry_after = retry_after


class Unavailable(ServiceError):
    """The service cannot do it now through no fault of the request (a busy host); nothing was
    refused or stored, and ``retry_after`` (seconds) becomes the API's ``Retry-After``."""

    status_code = 503
    code = "unavailable"

    def __init__(self, message: str, *, retry_after: int | None = None) -> None:
        super().__init__(message)
        self.retry_after = retry_after
