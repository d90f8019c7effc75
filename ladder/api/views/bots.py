"""``/api/v1/bots/``: bots, their uploads, head-to-head records and ratings."""

from __future__ import annotations

from typing import Any

from django.db.models import QuerySet
from django.http import Http404
from drf_spectacular.utils import extend_schema
from rest_framework import mixins, permissions, status, viewsets
from rest_framework.decorators import action
from rest_framework.exceptions import APIException
from rest_framework.parsers import FormParser, MultiPartParser
from rest_framework.request import Request
from rest_framework.response import Response
from rest_framework.serializers import BaseSerializer
from rest_framework.throttling import BaseThrottle, ScopedRateThrottle

from ladder.api.filters import CharFilter, StrictFilterSet
from ladder.api.serializers.bots import BotSerializer, BotUpdateSerializer, UploadSerializer
from ladder.api.serializers.matches import HeadToHeadSerializer
from ladder.api.serializers.ratings import RatingPointSerializer, RatingsQuerySerializer
from ladder.api.serializers.versions import BotVersionSerializer
from ladder.api.views.common import ID_PATTERN, ListFiltersOnly, OwnerOrStaffWrites
from ladder.bots import selectors as bot_selectors
from ladder.bots import services as bot_services
from ladder.bots.models import Bot
from ladder.core.errors import ServiceError
from ladder.core.throttles import UploadThrottle, refund_upload
from ladder.matches import selectors as match_selectors
from ladder.ratings import selectors as rating_selectors


class BotFilter(StrictFilterSet):
    owner = CharFilter(field_name="owner__username")

    class Meta:
        model = Bot
        fields = ["game", "owner", "is_public"]


class BotViewSet(
    ListFiltersOnly,
    mixins.ListModelMixin,
    mixins.RetrieveModelMixin,
    mixins.CreateModelMixin,
    mixins.UpdateModelMixin,
    viewsets.GenericViewSet,
):
    """Bots: public ones for everybody, your own too; create and edit your own."""

    lookup_value_regex = ID_PATTERN

    serializer_class = BotSerializer
    permission_classes = [permissions.IsAuthenticatedOrReadOnly, OwnerOrStaffWrites]
    filterset_class = BotFilter
    throttle_scope: str | None = None  # set per action (uploads)

    def get_queryset(self) -> QuerySet[Bot]:
        return bot_selectors.visible_bots(self.request.user).order_by("name")

    def get_serializer_class(self) -> type[BaseSerializer[Any]]:
        if self.action in ("update", "partial_update"):
            return BotUpdateSerializer
        return BotSerializer

    def get_throttles(self) -> list[BaseThrottle]:
        if self.action == "create":
            self.throttle_scope = "bots"  # the site's new-bot form shares this budget
            return [ScopedRateThrottle()]
        return super().get_throttles()

    def perform_create(self, serializer: BaseSerializer[Bot]) -> None:
        data = serializer.validated_data
        serializer.instance = bot_services.create_bot(
            self.request.user,
            name=data["name"],
            game=data["game"],
            description=data.get("description", ""),
            is_public=data.get("is_public", True),
        )

    def update(self, request: Request, *args: object, **kwargs: object) -> Response:
        bot = self.get_object()
        # Bound to the bot, so its own name is not "already taken" by itself.
        serializer = BotUpdateSerializer(bot, data=request.data, partial=True)
        serializer.is_valid(raise_exception=True)
        bot = bot_services.update_bot(bot, user=request.user, **serializer.validated_data)
        return Response(BotSerializer(bot, context={"request": request}).data)

    @extend_schema(responses=BotVersionSerializer(many=True))
    @action(detail=True, methods=["get"], pagination_class=None)
    def versions(self, request: Request, pk: str | None = None) -> Response:
        bot = self.get_object()
        versions = bot_selectors.visible_versions(request.user, bot)
        return Response(
            BotVersionSerializer(versions, many=True, context={"request": request}).data
        )

    @extend_schema(
        request={"multipart/form-data": UploadSerializer}, responses={201: BotVersionSerializer}
    )
    @action(
        detail=True,
        methods=["post"],
        parser_classes=[MultiPartParser, FormParser],
        throttle_classes=[UploadThrottle],
    )
    def upload(self, request: Request, pk: str | None = None) -> Response:
        """Upload a new version; it is validated in the sandbox before it plays.

        A refused upload (a bad file, a full quota) does not use up the upload rate.
        """
        try:
            bot = self.get_object()
            serializer = UploadSerializer(data=request.data)
            serializer.is_valid(raise_exception=True)
            upload = serializer.validated_data["artifact"]
            data = bot_services.read_upload(upload)  # a file over the limit is refused unread
            version = bot_services.upload_version(
                bot, user=request.user, filename=upload.name, data=data
            )
        except (APIException, ServiceError, Http404):
            refund_upload(request)
            raise
        return Response(
            BotVersionSerializer(version, context={"request": request}).data,
            status=status.HTTP_201_CREATED,
        )

    @extend_schema(responses=HeadToHeadSerializer(many=True))
    @action(detail=True, methods=["get"], url_path="head-to-head", pagination_class=None)
    def head_to_head(self, request: Request, pk: str | None = None) -> Response:
        """Finished matches against each opponent bot you may see: ahead, behind, tied."""
        bot = self.get_object()
        return Response(match_selectors.head_to_head_for(request.user, bot.pk))

    @extend_schema(parameters=[RatingsQuerySerializer], responses=RatingPointSerializer(many=True))
    @action(detail=True, methods=["get"], pagination_class=None)
    def ratings(self, request: Request, pk: str | None = None) -> Response:
        """Rating history of every version of the bot (optionally ``?ladder=ID``)."""
        bot = self.get_object()
        query = RatingsQuerySerializer(data=request.query_params)
        query.is_valid(raise_exception=True)
        points = rating_selectors.rating_history(bot.pk, query.validated_data.get("ladder"))
        return Response(RatingPointSerializer(points, many=True).data)
