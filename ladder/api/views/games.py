"""``/api/v1/games/``: the games of the engine registry."""

from __future__ import annotations

from django.urls import reverse
from drf_spectacular.types import OpenApiTypes
from drf_spectacular.utils import (
    OpenApiParameter,
    OpenApiResponse,
    extend_schema,
    extend_schema_view,
)
from rest_framework import permissions, viewsets
from rest_framework.decorators import action
from rest_framework.exceptions import NotFound
from rest_framework.request import Request
from rest_framework.response import Response

from engine.core import GameSpec
from engine.registry import all_games
from engine.schemas import load_schema
from ladder.api.serializers.games import GameSerializer
from ladder.api.views.common import DocumentedQueryOnly
from ladder.ladders.models import Ladder


@extend_schema_view(
    retrieve=extend_schema(
        parameters=[OpenApiParameter("name", str, OpenApiParameter.PATH, description="game name")]
    )
)
class GameViewSet(DocumentedQueryOnly, viewsets.ViewSet):
    """The games of the engine registry, with their ladders."""

    lookup_field = "name"
    permission_classes = [permissions.AllowAny]

    def _describe(self, spec: GameSpec, ladder_ids: dict[str, list[int]]) -> dict[str, object]:
        schema = reverse("game-schema", kwargs={"name": spec.name})
        return {
            "name": spec.name,
            "title": spec.title,
            "summary": spec.summary,
            "min_players": spec.min_players,
            "max_players": spec.max_players,
            "variants": list(spec.variants),
            "ladders": ladder_ids.get(spec.name, []),
            "schema": self.request.build_absolute_uri(schema),
        }

    def _ladder_ids(self) -> dict[str, list[int]]:
        ids: dict[str, list[int]] = {}
        for pk, game in Ladder.objects.order_by("num_players").values_list("pk", "game"):
            ids.setdefault(game, []).append(pk)
        return ids

    @extend_schema(responses=GameSerializer(many=True))
    def list(self, request: Request) -> Response:
        ids = self._ladder_ids()
        return Response([self._describe(spec, ids) for spec in all_games().values()])

    @extend_schema(responses=GameSerializer)
    def retrieve(self, request: Request, name: str | None = None) -> Response:
        spec = all_games().get(name or "")
        if spec is None:
            raise NotFound(f"no game named {name!r}")
        return Response(self._describe(spec, self._ladder_ids()))

    @extend_schema(
        parameters=[OpenApiParameter("name", str, OpenApiParameter.PATH, description="game name")],
        responses={
            (200, "application/json"): OpenApiResponse(
                OpenApiTypes.OBJECT,
                description="The game's JSON Schema (draft 2020-12): what a bot is sent "
                "(`$defs/observation`), what a spectator sees (`$defs/public_view`) and what a "
                "bot may answer (`$defs/action`), every key described, with a real example.",
            ),
            404: OpenApiResponse(description="no game of that name"),
        },
    )
    # Not named ``schema``: that attribute of every DRF view is its OpenAPI generator.
    @action(detail=True, methods=["get"], url_path="schema", url_name="schema")
    def observation_schema(self, request: Request, name: str | None = None) -> Response:
        """The observation, public view and action schema of one game."""
        spec = all_games().get(name or "")
        if spec is None:
            raise NotFound(f"no game named {name!r}")
        return Response(load_schema(spec.name))
