"""``/api/v1/tournaments/``: organisers create and run tournaments; owners enter bots."""

from __future__ import annotations

from typing import Any

from django.db.models import QuerySet
from drf_spectacular.utils import OpenApiParameter, extend_schema
from rest_framework import mixins, permissions, status, viewsets
from rest_framework.decorators import action
from rest_framework.request import Request
from rest_framework.response import Response
from rest_framework.serializers import BaseSerializer
from rest_framework.views import APIView

from ladder.accounts.selectors import is_organiser
from ladder.api.filters import MAX_FILTER_INT, ChoiceFilter, StrictFilterSet
from ladder.api.pagination import IdCursorPagination
from ladder.api.serializers.tournaments import (
    CrossTableSerializer,
    EntrantSerializer,
    ReasonSerializer,
    RegisterSerializer,
    RoundQuerySerializer,
    TournamentCreateSerializer,
    TournamentDetailSerializer,
    TournamentMatchSerializer,
    TournamentRoundSerializer,
    TournamentSerializer,
    TournamentStandingSerializer,
)
from ladder.api.views.common import ID_PATTERN, ListFiltersOnly
from ladder.tournaments import selectors as tournament_selectors
from ladder.tournaments import services as tournament_services
from ladder.tournaments.models import Tournament
from ladder.tournaments.tournament_settings import TournamentSettings


class TournamentMatchPages(IdCursorPagination):
    ordering = "id"
    page_size = 100
    page_size_query_param = "page_size"
    max_page_size = 500


class TournamentFilter(StrictFilterSet):
    """``?pairing=`` filters by the tournament's format: ``?format=`` is DRF's renderer switch
    (``?format=swiss`` asked for a renderer named swiss and got a 404)."""

    pairing = ChoiceFilter(field_name="format", choices=Tournament.Format.choices)

    class Meta:
        model = Tournament
        fields = ["status", "game"]


class OrganisersCreate(permissions.BasePermission):
    """Creating a tournament is for organisers and staff: refused (403) before the body is read,
    so a visitor never learns the form's fields from a 400. The service checks it again."""

    message = "only organisers and staff can create tournaments"

    def has_permission(self, request: Request, view: APIView) -> bool:
        return getattr(view, "action", None) != "create" or is_organiser(request.user)


class TournamentViewSet(
    ListFiltersOnly, mixins.ListModelMixin, mixins.RetrieveModelMixin, viewsets.GenericViewSet
):
    """Scheduled tournaments: organisers create and run them; owners enter their bots."""

    lookup_value_regex = ID_PATTERN

    filterset_class = TournamentFilter
    permission_classes = [permissions.IsAuthenticatedOrReadOnly, OrganisersCreate]

    def get_queryset(self) -> QuerySet[Tournament]:
        if self.action == "list":
            return tournament_selectors.listed_tournaments(self.request.user)
        return Tournament.objects.select_related("organiser")  # unlisted: reachable by id

    def get_serializer_class(self) -> type[BaseSerializer[Any]]:
        return TournamentSerializer if self.action == "list" else TournamentDetailSerializer

    @extend_schema(request=TournamentCreateSerializer, responses={201: TournamentDetailSerializer})
    def create(self, request: Request) -> Response:
        """Organisers and staff only (403 otherwise); the settings are checked by the service."""
        serializer = TournamentCreateSerializer(data=request.data)
        serializer.is_valid(raise_exception=True)
        tournament = tournament_services.create_tournament(
            request.user, settings=TournamentSettings(**serializer.validated_data)
        )
        return Response(TournamentDetailSerializer(tournament).data, status=status.HTTP_201_CREATED)

    @extend_schema(methods=["GET"], responses=EntrantSerializer(many=True))
    @extend_schema(methods=["POST"], request=RegisterSerializer, responses={201: EntrantSerializer})
    @action(detail=True, methods=["get", "post"], pagination_class=None)
    def entrants(self, request: Request, pk: str | None = None) -> Response:
        """GET: the entrants; POST ``{"bot": id}``: enter your bot (organisers: invite one)."""
        tournament = self.get_object()
        if request.method == "GET":
            return Response(
                EntrantSerializer(
                    tournament_selectors.entrants(tournament),
                    many=True,
                    context={"request": request},
                ).data
            )
        serializer = RegisterSerializer(data=request.data)
        serializer.is_valid(raise_exception=True)
        entrant = tournament_services.register_entrant(
            tournament.pk, user=request.user, bot_id=serializer.validated_data["bot"]
        )
        entrant = tournament_selectors.entrants(tournament).get(pk=entrant.pk)
        return Response(
            EntrantSerializer(entrant, context={"request": request}).data,
            status=status.HTTP_201_CREATED,
        )

    @extend_schema(
        request=None,
        responses={204: None},
        parameters=[
            OpenApiParameter(
                "bot_id",
                {"type": "integer", "minimum": 0, "maximum": MAX_FILTER_INT},
                OpenApiParameter.PATH,
            )
        ],
    )
    @action(
        detail=True,
        methods=["delete"],
        url_path=r"entrants/(?P<bot_id>[0-9]+)",
        permission_classes=[permissions.IsAuthenticated],
    )
    def unregister(
        self, request: Request, pk: str | None = None, bot_id: str | None = None
    ) -> Response:
        """Withdraw a bot before the start (its owner, or the organiser)."""
        tournament = self.get_object()
        tournament_services.unregister_entrant(
            tournament.pk, user=request.user, bot_id=int(bot_id or 0)
        )
        return Response(status=status.HTTP_204_NO_CONTENT)

    @extend_schema(responses=TournamentRoundSerializer(many=True))
    @action(detail=True, methods=["get"], pagination_class=None)
    def rounds(self, request: Request, pk: str | None = None) -> Response:
        """Rounds with their tables, seatings, match statuses and byes."""
        return Response(tournament_selectors.rounds(self.get_object(), request.user))

    @extend_schema(responses=TournamentStandingSerializer(many=True))
    @action(detail=True, methods=["get"], pagination_class=None)
    def standings(self, request: Request, pk: str | None = None) -> Response:
        """Points, tie-breaks, bootstrap P(first) and 95% rank interval (docs/tournaments.md)."""
        return Response(tournament_selectors.standings(self.get_object(), request.user))

    @extend_schema(responses=CrossTableSerializer)
    @action(detail=True, methods=["get"], pagination_class=None)
    def crosstable(self, request: Request, pk: str | None = None) -> Response:
        """For every pair that met: games, ahead, behind, tied, points scored."""
        return Response(tournament_selectors.crosstable(self.get_object(), request.user))

    @extend_schema(
        responses=TournamentMatchSerializer(many=True),
        parameters=[RoundQuerySerializer],
    )
    @action(detail=True, methods=["get"], pagination_class=TournamentMatchPages)
    def matches(self, request: Request, pk: str | None = None) -> Response:
        """Every match with its round, table and block, re-runs included; ``?round=N``."""
        tournament = self.get_object()
        query = RoundQuerySerializer(data=request.query_params)
        query.is_valid(raise_exception=True)
        qs = tournament_selectors.tournament_matches(tournament, query.validated_data.get("round"))
        page = self.paginate_queryset(qs)
        return self.get_paginated_response(
            TournamentMatchSerializer(page, many=True, context={"request": request}).data
        )

    def _control(self, request: Request, operation: str) -> Response:
        tournament = self.get_object()
        serializer = ReasonSerializer(data=request.data)
        serializer.is_valid(raise_exception=True)
        reason = serializer.validated_data.get("reason", "")
        if operation == "resume":
            tournament = tournament_services.resume_tournament(tournament.pk, user=request.user)
        elif operation == "pause":
            tournament = tournament_services.pause_tournament(
                tournament.pk, user=request.user, reason=reason
            )
        else:
            tournament = tournament_services.cancel_tournament(
                tournament.pk, user=request.user, reason=reason
            )
        return Response(TournamentDetailSerializer(tournament).data)

    @extend_schema(request=ReasonSerializer, responses=TournamentDetailSerializer)
    @action(detail=True, methods=["post"], permission_classes=[permissions.IsAuthenticated])
    def pause(self, request: Request, pk: str | None = None) -> Response:
        """Hold the matches not yet started (the organiser or staff)."""
        return self._control(request, "pause")

    @extend_schema(request=None, responses=TournamentDetailSerializer)
    @action(detail=True, methods=["post"], permission_classes=[permissions.IsAuthenticated])
    def resume(self, request: Request, pk: str | None = None) -> Response:
        return self._control(request, "resume")

    @extend_schema(request=ReasonSerializer, responses=TournamentDetailSerializer)
    @action(detail=True, methods=["post"], permission_classes=[permissions.IsAuthenticated])
    def cancel(self, request: Request, pk: str | None = None) -> Response:
        """Cancel unplayed matches; the played ones and their standings stay."""
        return self._control(request, "cancel")
