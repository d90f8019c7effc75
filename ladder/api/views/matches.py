"""``/api/v1/matches/``: matches, their logs, live progress and stderr."""

from __future__ import annotations

from typing import Any

from django.db.models import QuerySet
from django.http import HttpResponse
from django.shortcuts import get_object_or_404
from django.urls import reverse
from drf_spectacular.types import OpenApiTypes
from drf_spectacular.utils import OpenApiResponse, extend_schema
from rest_framework import permissions, status, viewsets
from rest_framework.decorators import action
from rest_framework.exceptions import NotFound, PermissionDenied
from rest_framework.request import Request
from rest_framework.response import Response
from rest_framework.serializers import BaseSerializer

from ladder.api.caching import public_cache
from ladder.api.filters import IntegerFilter, IsoDateTimeFilter, StrictFilterSet
from ladder.api.pagination import IdCursorPagination
from ladder.api.serializers.matches import (
    LiveQuerySerializer,
    LiveSerializer,
    MatchDetailSerializer,
    MatchSerializer,
    SeatStderrSerializer,
)
from ladder.api.views.common import ID_PATTERN, IsStaff, ListFiltersOnly, stored_log_response
from ladder.bots import selectors as bot_selectors
from ladder.bots.models import BotVersion
from ladder.matches import selectors as match_selectors
from ladder.matches import services as match_services
from ladder.matches.models import Match


class MatchFilter(StrictFilterSet):
    """``?bot=`` and ``?version=`` of a bot the reader may not see (another user's private bot)
    match nothing, as for a missing one: its id must not list its history."""

    bot = IntegerFilter(method="played_by", label="bot id")
    version = IntegerFilter(method="played_by_version", label="bot version id")
    since = IsoDateTimeFilter(field_name="created_at", lookup_expr="gte")
    until = IsoDateTimeFilter(field_name="created_at", lookup_expr="lt")

    class Meta:
        model = Match
        fields = ["game", "ladder", "status", "kind", "ranked", "bot", "version", "since", "until"]

    def played_by(self, queryset: QuerySet[Match], name: str, value: int) -> QuerySet[Match]:
        if not bot_selectors.visible_bots(self.request.user).filter(pk=value).exists():
            return queryset.none()
        return queryset.filter(match_selectors.of_bot(value))

    def played_by_version(
        self, queryset: QuerySet[Match], name: str, value: int
    ) -> QuerySet[Match]:
        visible = bot_selectors.visible_bots(self.request.user)
        if not BotVersion.objects.filter(pk=value, bot__in=visible).exists():
            return queryset.none()
        return queryset.filter(seats__bot_version=value)


class NewestFirst(IdCursorPagination):
    """Cursor pagination: no COUNT over a large table, stable while new matches arrive."""

    ordering = "-id"
    page_size = 50
    page_size_query_param = "page_size"
    max_page_size = 200


class MatchViewSet(ListFiltersOnly, viewsets.ReadOnlyModelViewSet):
    """Matches with filters; logs once over; stderr for the bots' owners."""

    lookup_value_regex = ID_PATTERN

    filterset_class = MatchFilter
    pagination_class = NewestFirst

    def get_queryset(self) -> QuerySet[Match]:
        return match_selectors.with_seats(match_selectors.visible_matches(self.request.user))

    def get_serializer_class(self) -> type[BaseSerializer[Any]]:
        return MatchDetailSerializer if self.action == "retrieve" else MatchSerializer

    @public_cache
    def list(self, request: Request, *args: object, **kwargs: object) -> Response:
        """Newest first, 50 a page (``page_size`` up to 200), cursor-paginated."""
        # The list is the same for everyone (and cached so): your own private experiments are
        # under /challenges/.
        rows = match_selectors.list_rows(self.filter_queryset(match_selectors.public_matches()))
        page = self.paginate_queryset(rows)
        seated = match_selectors.attach_seats(list(page or []), request.user)
        return self.get_paginated_response(seated)

    @extend_schema(
        responses={
            (200, "application/json"): OpenApiTypes.OBJECT,
            409: OpenApiResponse(description="the match is not over"),
        }
    )
    @action(detail=True, methods=["get"])
    def log(self, request: Request, pk: str | None = None) -> HttpResponse:
        """The game log (JSON; zstd- or gzip-encoded when the client accepts it), after the match.

        Logs are stored zstd-compressed, so a client that accepts zstd gets the stored bytes as
        they are; one that accepts only gzip gets them recompressed.
        """
        match = get_object_or_404(match_selectors.visible_matches(request.user), pk=pk)
        if not match_selectors.log_is_public(match):
            return Response(
                {"detail": "the log is published when the match is finished"},
                status=status.HTTP_409_CONFLICT,
            )
        stored = match_selectors.stored_log(match)
        if stored is None:
            raise NotFound("this match has no stored log")
        seats = match.seats.select_related("bot_version__bot")
        unnamed = match_selectors.unnamed_seats(list(seats), request.user)
        return stored_log_response(
            request,
            stored.name,
            filename=f"match-{match.pk}.json",
            unnamed=unnamed,
        )

    @extend_schema(parameters=[LiveQuerySerializer], responses=LiveSerializer)
    @action(detail=True, methods=["get"])
    def live(self, request: Request, pk: str | None = None) -> Response:
        """A running match's moves so far, for spectators: poll with ``?since=`` what you have.

        Workers publish about once a second. Decisions carry the seat, the action, the thinking
        time and who decided; the seed (and with it the hidden cards) is published with the log
        when the match is over, and ``log`` then gives its URL.
        """
        query = LiveQuerySerializer(data=request.query_params)
        query.is_valid(raise_exception=True)
        since = query.validated_data["since"]
        match = get_object_or_404(match_selectors.visible_matches(request.user), pk=pk)
        live = match_selectors.live_progress(match)
        over = match_selectors.log_is_public(match)
        body = {
            "status": live.status,
            "run": live.run,
            "total": len(live.decisions),
            "since": since,
            "decisions": live.decisions[since:],
            "forfeits": live.forfeits,
            "updated_at": live.updated_at,
            "log": reverse("match-log", args=[match.pk]) if over else "",
        }
        response = Response(LiveSerializer(body).data)
        response["Cache-Control"] = "no-cache"
        return response

    @extend_schema(responses=SeatStderrSerializer(many=True))
    @action(
        detail=True,
        methods=["get"],
        permission_classes=[permissions.IsAuthenticated],
        pagination_class=None,
    )
    def stderr(self, request: Request, pk: str | None = None) -> Response:
        """The stderr of the seats whose bots you own (staff: every seat)."""
        match = self.get_object()
        seats = [
            seat
            for seat in match.seats.all()
            if match_selectors.stderr_visible_to(request.user, seat)
        ]
        if not seats:
            raise PermissionDenied("none of this match's bots is yours")
        return Response(
            [
                {
                    "seat": seat.seat,
                    "bot_name": bot_selectors.visible_bot_name(seat.bot_version, request.user),
                    "stderr": seat.stderr,
                }
                for seat in seats
            ]
        )

    @extend_schema(request=None, responses=MatchDetailSerializer)
    @action(detail=True, methods=["post"], permission_classes=[IsStaff])
    def cancel(self, request: Request, pk: str | None = None) -> Response:
        match = self.get_object()
        if not match_services.cancel_match(match.pk, reason=f"cancelled by {request.user}"):
            return Response(
                {"detail": f"match {match.pk} is {match.status}; nothing to cancel"},
                status=status.HTTP_409_CONFLICT,
            )
        match.refresh_from_db()
        return Response(MatchDetailSerializer(match, context={"request": request}).data)

    @extend_schema(request=None, responses={201: MatchDetailSerializer})
    @action(detail=True, methods=["post"], permission_classes=[IsStaff])
    def rerun(self, request: Request, pk: str | None = None) -> Response:
        match = self.get_object()
        again = match_services.rerun_match(match.pk, requested_by=request.user)
        return Response(
            MatchDetailSerializer(again, context={"request": request}).data,
            status=status.HTTP_201_CREATED,
        )
