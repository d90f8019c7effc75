"""``/api/v1/versions/``: bot versions and their smoke-match logs."""

from __future__ import annotations

from django.db.models import QuerySet
from django.http import HttpResponse
from drf_spectacular.types import OpenApiTypes
from drf_spectacular.utils import OpenApiResponse, extend_schema
from rest_framework import viewsets
from rest_framework.decorators import action
from rest_framework.exceptions import NotFound
from rest_framework.request import Request

from ladder.api.serializers.versions import BotVersionSerializer
from ladder.api.serializers.versus import RefusalSerializer
from ladder.api.views.common import ID_PATTERN, ListFiltersOnly, stored_log_response
from ladder.bots import selectors as bot_selectors
from ladder.bots.models import BotVersion


class BotVersionViewSet(ListFiltersOnly, viewsets.ReadOnlyModelViewSet):
    """A bot version's status (and, for its owner, why it was rejected)."""

    lookup_value_regex = ID_PATTERN

    serializer_class = BotVersionSerializer
    filterset_fields = ["bot", "status"]

    def get_queryset(self) -> QuerySet[BotVersion]:
        return bot_selectors.visible_versions(self.request.user)

    @extend_schema(
        responses={
            (200, "application/json"): OpenApiResponse(
                OpenApiTypes.OBJECT,
                description="The game log of the version's validation smoke match "
                "(docs/game-log.md): seat 0 is the version, the others the reference random "
                "bot. zstd- or gzip-encoded when the client accepts it.",
            ),
            503: OpenApiResponse(
                RefusalSerializer, description="the stored log cannot be read (the reason)"
            ),
        }
    )
    @action(detail=True, methods=["get"], url_path="smoke-log", url_name="smoke-log")
    def smoke_log(self, request: Request, pk: str | None = None) -> HttpResponse:
        """The log of the smoke match that validated (or rejected) this version.

        Seen by whoever may see the version, as on the site's smoke page: everyone for a version
        of a public bot that played, the owner and staff alone for a private bot's or a rejected
        or pending version. Versions validated before logs were kept have none (404).
        """
        version = self.get_object()
        if not version.smoke_log:
            raise NotFound("this version has no stored smoke match")
        return stored_log_response(
            request, version.smoke_log, filename=f"smoke-version-{version.pk}.json"
        )
