"""Pieces shared by the views of several resources: id pattern, permissions, log answers."""

from __future__ import annotations

import json
from typing import Any

from django.db.models import QuerySet
from django.http import HttpResponse
from django.utils.cache import patch_vary_headers
from rest_framework import permissions, status
from rest_framework.generics import GenericAPIView
from rest_framework.request import Request
from rest_framework.response import Response
from rest_framework.views import APIView

from ladder.api.query import list_parameters, refuse_unknown_parameters
from ladder.bots import selectors as bot_selectors
from ladder.bots.models import Bot
from ladder.matches import logstore
from ladder.matches import selectors as match_selectors

# Ids in URLs are digits: anything else is a 404 from the router, never a database error.
ID_PATTERN = r"[0-9]+"


class DocumentedQueryOnly(APIView):
    """A list answers the query parameters it documents and refuses any other (400 naming it).

    ``/versions/?bot=15`` once returned every version: the list had no such filter and DRF
    ignores what it does not know, so a client that meant to filter never learnt it had not.
    The parameters are those the schema is built from (the filter set, the paginator).
    """

    def initial(self, request: Request, *args: object, **kwargs: object) -> None:
        super().initial(request, *args, **kwargs)  # authentication, permissions, throttles
        action = getattr(self, "action", None)
        if action == "list" or (action is None and request.method in ("GET", "HEAD")):
            refuse_unknown_parameters(request, list_parameters(self))


class ListFiltersOnly(DocumentedQueryOnly, GenericAPIView):
    """A list's filters apply to the list alone.

    DRF's ``get_object`` filters the queryset too, so ``tournaments/1/entrants/?game=batavia``
    was a 404 for a tournament of another game: on a detail URL the id alone names the object.
    """

    def filter_queryset(self, queryset: QuerySet[Any]) -> QuerySet[Any]:
        if getattr(self, "detail", False):
            return queryset
        return super().filter_queryset(queryset)


class IsStaff(permissions.BasePermission):
    def has_permission(self, request: Request, view: APIView) -> bool:
        return bool(request.user and request.user.is_staff)


class OwnerOrStaffWrites(permissions.BasePermission):
    """Anyone reads what they can see; only the owner (or staff) changes a bot."""

    def has_object_permission(self, request: Request, view: APIView, obj: object) -> bool:
        if request.method in permissions.SAFE_METHODS:
            return True
        return isinstance(obj, Bot) and bot_selectors.can_see_private_details(request.user, obj)


def accepted_encodings(header: str) -> set[str]:
    """Content codings a client accepts (``q=0`` refuses one), from its Accept-Encoding header."""
    accepted = set()
    for part in header.split(","):
        coding, _, params = part.strip().partition(";")
        if params.strip().replace(" ", "") in ("q=0", "q=0.0", "q=0.00", "q=0.000"):
            continue
        if coding.strip():
            accepted.add(coding.strip().lower())
    return accepted


def stored_log_response(
    request: Request, name: str, *, filename: str, unnamed: set[int] | None = None
) -> HttpResponse:
    """A stored game log as JSON, in the best content coding the client accepts.

    Logs are stored zstd-compressed, so a client that accepts zstd gets the stored bytes as they
    are; one that accepts only gzip gets them recompressed. Shared by match and smoke-match logs
    so both answer alike (and a lost object is a 503 with the reason, never a crash). With
    ``unnamed`` seats (bots the reader may not name) the log is rewritten for this reader
    (``match_selectors.log_for_viewer``) and packed again.
    """
    try:
        packed = logstore.read_compressed(name)
        if unnamed:
            log = json.loads(logstore.decompress(packed))
            raw = logstore.encode(match_selectors.log_for_viewer(log, unnamed))
            packed = logstore.zstd_for_client(raw)
        accepted = accepted_encodings(request.headers.get("Accept-Encoding", ""))
        if "zstd" in accepted:
            body, encoding = packed, "zstd"
        elif "gzip" in accepted:
            body, encoding = logstore.gzip_for_client(logstore.decompress(packed)), "gzip"
        else:
            body, encoding = logstore.decompress(packed), ""
    except (logstore.UnreadableLog, ValueError) as exc:
        return Response({"detail": str(exc)}, status=status.HTTP_503_SERVICE_UNAVAILABLE)
    response = HttpResponse(body, content_type="application/json")
    if encoding:
        response["Content-Encoding"] = encoding
    patch_vary_headers(response, ["Accept-Encoding"])
    response["Content-Disposition"] = f'attachment; filename="{filename}"'
    return response
