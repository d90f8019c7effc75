"""API pages: signed id cursors (404 to a forged one), strict limits, bounds in the schema."""

from __future__ import annotations

from base64 import b64decode, b64encode
from typing import Any
from urllib import parse

from django.core.signing import BadSignature, Signer
from rest_framework.exceptions import NotFound, ValidationError
from rest_framework.pagination import (
    Cursor,
    CursorPagination,
    LimitOffsetPagination,
    PageNumberPagination,
)
from rest_framework.request import Request
from rest_framework.utils.urls import replace_query_param
from rest_framework.views import APIView


def _signer() -> Signer:
    """Built when used, so it signs with the secret key in force (not the one at import)."""
    return Signer(salt="monsoon.api.cursor")


# The largest page number or offset a client may ask for: far beyond any real table.
MAX_POSITION = 2**31 - 1


def _bounded(
    parameters: list[dict[str, Any]], bounds: dict[str, tuple[int, int]]
) -> list[dict[str, Any]]:
    """DRF's pagination parameters with their ranges, so a client knows them from the schema."""
    for parameter in parameters:
        if parameter["name"] in bounds:
            low, high = bounds[parameter["name"]]
            parameter["schema"] = {**parameter["schema"], "minimum": low, "maximum": high}
    return parameters


class IdCursorPagination(CursorPagination):
    """DRF puts the cursor's position into the query unchecked; an id must be an integer."""

    def encode_cursor(self, cursor: Cursor) -> str:
        """DRF's cursor (base64 of ``o``, ``r``, ``p``), signed with the server's secret."""
        tokens = {}
        if cursor.offset:
            tokens["o"] = str(cursor.offset)
        if cursor.reverse:
            tokens["r"] = "1"
        if cursor.position is not None:
            tokens["p"] = str(cursor.position)
        encoded = b64encode(parse.urlencode(tokens).encode("ascii")).decode("ascii")
        signed = _signer().sign(encoded)
        return replace_query_param(self.base_url or "", self.cursor_query_param, signed)

    def decode_cursor(self, request: Request) -> Cursor | None:
        """A cursor this server did not hand out is a 404.

        DRF's cursors are plain base64: a forged one that decodes (``p=123``, any id) was read
        as a position and answered 200 with some page. Ours are signed, so only the cursors of
        ``next``/``previous`` links are accepted; the position is still checked to be an id.
        """
        raw = request.query_params.get(self.cursor_query_param)
        if raw is None:
            return None
        try:
            querystring = b64decode(_signer().unsign(raw).encode("ascii")).decode("ascii")
            tokens = parse.parse_qs(querystring, keep_blank_values=True)
            offset = int(tokens.get("o", ["0"])[0])
            reverse = tokens.get("r", ["0"])[0] == "1"
            position = tokens.get("p", [None])[0]
            if position is not None and not position.isdigit():
                raise ValueError(position)
        except (BadSignature, TypeError, ValueError, UnicodeError):
            raise NotFound(self.invalid_cursor_message) from None
        if not 0 <= offset <= self.offset_cutoff:
            raise NotFound(self.invalid_cursor_message)
        # DRF keeps the position as the text it decoded; its stubs say int.
        return Cursor(offset=offset, reverse=reverse, position=position)  # type: ignore[arg-type]

    def get_schema_operation_parameters(self, view: APIView) -> list[dict[str, Any]]:
        return _bounded(
            super().get_schema_operation_parameters(view),
            {self.page_size_query_param or "": (1, self.max_page_size or self.page_size or 1)},
        )

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
        return _whole_number(request, self.offset_query_param, 0, 0, MAX_POSITION) or 0

    def get_schema_operation_parameters(self, view: APIView) -> list[dict[str, Any]]:
        return _bounded(
            super().get_schema_operation_parameters(view),
            {
                self.limit_query_param: (1, self.max_limit or self.default_limit or 1),
                self.offset_query_param: (0, MAX_POSITION),
            },
        )


class StrictPageNumberPagination(PageNumberPagination):
    """The default pages (``?page=N``, from 1): the schema gives the range; a page past the end,
    zero or not a number is DRF's 404 ("Invalid page")."""

    def get_schema_operation_parameters(self, view: APIView) -> list[dict[str, Any]]:
        return _bounded(
            super().get_schema_operation_parameters(view),
            {self.page_query_param: (1, MAX_POSITION)},
        )
