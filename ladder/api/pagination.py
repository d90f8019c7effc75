"""Cursor pagination over integer ids that answers 404 to a forged cursor instead of a 500."""

from __future__ import annotations

from rest_framework.exceptions import NotFound, ValidationError
from rest_framework.pagination import Cursor, CursorPagination, LimitOffsetPagination
from rest_framework.request import Request


class IdCursorPagination(CursorPagination):
    """DRF puts the cursor's position into the query unchecked; an id must be an integer."""

    def decode_cursor(self, request: Request) -> Cursor | None:
        cursor = super().decode_cursor(request)
        if cursor is not None and cursor.position is not None:
            try:
                int(cursor.position)
            except ValueError:
                raise NotFound(self.invalid_cursor_message) from None
        return cursor

    def get_page_size(self, request: Request) -> int | None:
        """A ``page_size`` that is not a whole number from 1 to the maximum is a 400.

        DRF falls back to the default page size on a bad value, so ``page_size=null`` quietly
        answered 50 rows where the client asked for something else.
        """
        if not self.page_size_query_param:
            return self.page_size
        return _whole_number(
            request,
            self.page_size_query_param,
            self.page_size,
            1,
            self.max_page_size or self.page_size,
        )


def _whole_number(
    request: Request, name: str, default: int | None, low: int, high: int | None
) -> int | None:
    """A query parameter that must be a whole number in [low, high]; absent gives default."""
    raw = request.query_params.get(name)
    if raw is None:
        return default
    try:
        value = int(raw)
    except ValueError:
        value = low - 1
    if value < low or (high is not None and value > high):
        upper = f" to {high}" if high is not None else " up"
        raise ValidationError({name: [f"a whole number from {low}{upper}"]})
    return value


class StrictLimitOffsetPagination(LimitOffsetPagination):
    """``limit``/``offset`` pages that refuse a bad value (DRF silently used the default)."""

    def get_limit(self, request: Request) -> int | None:
        return _whole_number(
            request,
            self.limit_query_param,
            self.default_limit,
            1,
            self.max_limit or self.default_limit,
        )

    def get_offset(self, request: Request) -> int:
        return _whole_number(request, self.offset_query_param, 0, 0, 2**31 - 1) or 0
