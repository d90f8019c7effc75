"""``/api/v1/ladders/``: ladders, seasons and standings."""

from __future__ import annotations

from drf_spectacular.utils import OpenApiParameter, extend_schema
from rest_framework import viewsets
from rest_framework.decorators import action
from rest_framework.exceptions import NotFound
from rest_framework.request import Request
from rest_framework.response import Response

from ladder.api.caching import public_cache
from ladder.api.pagination import StrictLimitOffsetPagination
from ladder.api.serializers.ladders import (
    LadderSerializer,
    SeasonDetailSerializer,
    SeasonSerializer,
    SeasonStandingSerializer,
    StandingSerializer,
)
from ladder.api.views.common import ID_PATTERN, ListFiltersOnly
from ladder.ladders.models import Ladder
from ladder.ratings import selectors as rating_selectors


class StandingsPages(StrictLimitOffsetPagination):
    default_limit = 100
    max_limit = 1000


class LadderViewSet(ListFiltersOnly, viewsets.ReadOnlyModelViewSet):
    """One ladder per game and player count."""

    lookup_value_regex = ID_PATTERN

    queryset = Ladder.objects.all()
    serializer_class = LadderSerializer
    filterset_fields = ["game", "num_players"]
    pagination_class = None

    @extend_schema(responses=StandingSerializer(many=True))
    @action(detail=True, methods=["get"], pagination_class=StandingsPages)
    @public_cache
    def standings(self, request: Request, pk: str | None = None) -> Response:
        """Rank, rating, 95% interval, games and provisional mark; ``limit``/``offset`` pages."""
        ladder = self.get_object()
        paginator = self.paginator
        if not isinstance(paginator, StandingsPages):
            raise TypeError("standings need their limit/offset pages (StandingsPages)")
        page = paginator.paginate_queryset(
            rating_selectors.standings_rows(ladder), request, view=self
        )
        rows = rating_selectors.with_ranks(page or [], first_rank=(paginator.offset or 0) + 1)
        return paginator.get_paginated_response(rows)

    @extend_schema(responses=SeasonSerializer(many=True))
    @action(detail=True, methods=["get"])
    @public_cache
    def seasons(self, request: Request, pk: str | None = None) -> Response:
        """The ladder's finished seasons, newest first (the current one is the live standings)."""
        ladder = self.get_object()
        seasons = rating_selectors.ended_seasons([ladder])
        return Response(SeasonSerializer(seasons, many=True).data)

    @extend_schema(
        responses=SeasonDetailSerializer,
        parameters=[
            OpenApiParameter(
                "number",
                {"type": "integer", "minimum": 1, "maximum": 999_999_999},
                OpenApiParameter.PATH,
                description="The season's number on its ladder (1 is the first).",
            )
        ],
    )
    @action(detail=True, methods=["get"], url_path=r"seasons/(?P<number>[0-9]{1,9})")
    @public_cache
    def season(self, request: Request, pk: str | None = None, number: str = "") -> Response:
        """One finished season with its frozen standings (rank, rating, interval, games)."""
        ladder = self.get_object()
        season = rating_selectors.ended_seasons([ladder]).filter(number=int(number)).first()
        if season is None:
            raise NotFound(f"ladder {ladder.pk} has no finished season {number}")
        data = {
            **SeasonSerializer(season).data,
            "standings": SeasonStandingSerializer(
                rating_selectors.season_standings(season), many=True
            ).data,
        }
        return Response(data)
