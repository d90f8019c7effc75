"""Cursor pagination over integer ids that answers 404 to a forged cursor instead of a 500."""

from __future__ import annotations

from rest_framework.exceptions import NotFound
from rest_framework.pagination import CursorPagination


class IdCursorPagination(CursorPagination):
    """DRF puts the cursor's position into the query unchecked; an id must be an integer."""

    def decode_cursor(self, request):
        cursor = super().decode_cursor(request)
        if cursor is not None and cursor.position is not None:
            try:
                int(cursor.position)
            except ValueError:
                raise NotFound(self.invalid_cursor_message) from None
        return cursor
