"""``/api/v1/version-tests/``: is my new version better than my current one?

Thin wrappers: reads from :mod:`ladder.versus.selectors`, writes through
:mod:`ladder.versus.services`.  A test is seen by its owner and staff only; anyone else gets the
404 a missing test gets.
"""

from __future__ import annotations

from typing import cast

from django.db.models import QuerySet
from drf_spectacular.utils import OpenApiResponse, extend_schema, extend_schema_view
from rest_framework import mixins, permissions, status, viewsets
from rest_framework.decorators import action
from rest_framework.request import Request
from rest_framework.response import Response

from ladder.accounts.models import User
from ladder.api.pagination import IdCursorPagination
from ladder.api.serializers.versus import (
    RefusalSerializer,
    VersionTestCreateSerializer,
    VersionTestSerializer,
)
from ladder.api.views.common import ListFiltersOnly
from ladder.versus import selectors, services
from ladder.versus.models import VersionTest


class NewestTestsFirst(IdCursorPagination):
    ordering = "-id"
    page_size = 50
    page_size_query_param = "page_size"
    max_page_size = 200


@extend_schema_view(
    list=extend_schema(summary="Your version tests, newest first"),
    retrieve=extend_schema(
        summary="One of your version tests",
        responses={200: VersionTestSerializer},
    ),
)
class VersionTestViewSet(
    ListFiltersOnly, mixins.ListModelMixin, mixins.RetrieveModelMixin, viewsets.GenericViewSet
):
    """Paired, unranked matches between two versions of your bot, stopped by a sequential
    test (SPRT); the result is the Elo difference with its 95% interval."""

    permission_classes = [permissions.IsAuthenticated]
    serializer_class = VersionTestSerializer
    pagination_class = NewestTestsFirst
    lookup_value_regex = r"[0-9]+"

    def get_queryset(self) -> QuerySet[VersionTest]:
        if getattr(self, "swagger_fake_view", False):  # schema generation has no user
            return VersionTest.objects.none()
        return selectors.visible_tests(cast(User, self.request.user))

    @extend_schema(
        summary="Start a version test",
        request=VersionTestCreateSerializer,
        responses={
            201: VersionTestSerializer,
            409: OpenApiResponse(RefusalSerializer, description="a version not validated"),
            429: OpenApiResponse(
                RefusalSerializer,
                description="a test of yours is still running, or the daily budget is spent; "
                "`Retry-After` says when to try again",
            ),
        },
    )
    def create(self, request: Request) -> Response:
        serializer = VersionTestCreateSerializer(data=request.data)
        serializer.is_valid(raise_exception=True)
        data = serializer.validated_data
        test = services.start_test(
            user=cast(User, request.user),
            candidate_id=data["candidate"],
            baseline_id=data["baseline"],
            players=data.get("players"),
            elo0=data["elo0"],
            elo1=data["elo1"],
            alpha=data["alpha"],
            beta=data["beta"],
            max_games=data.get("max_games"),
        )
        return Response(
            VersionTestSerializer(self.get_queryset().get(pk=test.pk)).data,
            status=status.HTTP_201_CREATED,
        )

    @extend_schema(
        summary="Cancel a running version test",
        request=None,
        responses={
            200: VersionTestSerializer,
            409: OpenApiResponse(RefusalSerializer, description="the test is already over"),
        },
    )
    @action(detail=True, methods=["post"])
    def cancel(self, request: Request, pk: str | None = None) -> Response:
        test = self.get_object()
        services.cancel_test(user=cast(User, request.user), test_id=test.pk)
        return Response(VersionTestSerializer(self.get_queryset().get(pk=test.pk)).data)
