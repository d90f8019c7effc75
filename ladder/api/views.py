"""REST API views (``/api/v1/``): thin wrappers around selectors (reads) and services (writes)."""

from __future__ import annotations

import json
from typing import Any

from django.db.models import QuerySet
from django.http import HttpResponse
from django.shortcuts import get_object_or_404
from django.urls import reverse
from django.utils.cache import patch_vary_headers
from drf_spectacular.types import OpenApiTypes
from drf_spectacular.utils import (
    OpenApiParameter,
    OpenApiResponse,
    extend_schema,
    extend_schema_view,
)
from rest_framework import mixins, permissions, status, viewsets
from rest_framework.authtoken.views import ObtainAuthToken
from rest_framework.decorators import action
from rest_framework.exceptions import NotFound, PermissionDenied
from rest_framework.generics import GenericAPIView
from rest_framework.parsers import FormParser, MultiPartParser
from rest_framework.request import Request
from rest_framework.response import Response
from rest_framework.serializers import BaseSerializer
from rest_framework.throttling import BaseThrottle, ScopedRateThrottle
from rest_framework.views import APIView

from engine.core import GameSpec
from engine.registry import all_games
from engine.schemas import load_schema
from ladder.accounts.selectors import is_organiser, signed_in
from ladder.accounts.services import api_token, rotate_token
from ladder.api import serializers as s
from ladder.api.caching import public_cache
from ladder.api.filters import (
    MAX_FILTER_INT,
    CharFilter,
    ChoiceFilter,
    IntegerFilter,
    IsoDateTimeFilter,
    StrictFilterSet,
)
from ladder.api.pagination import IdCursorPagination, StrictLimitOffsetPagination
from ladder.api.parsers import SafeJSONParser
from ladder.api.versus_serializers import RefusalSerializer
from ladder.bots import selectors as bot_selectors
from ladder.bots import services as bot_services
from ladder.bots.models import Bot, BotVersion
from ladder.fleet import selectors as fleet_selectors
from ladder.ladders.models import Ladder
from ladder.matches import logstore
from ladder.matches import selectors as match_selectors
from ladder.matches import services as match_services
from ladder.matches.models import Match
from ladder.ratings import selectors as rating_selectors
from ladder.tournaments import selectors as tournament_selectors
from ladder.tournaments import services as tournament_services
from ladder.tournaments.models import Tournament

# Ids in URLs are digits: anything else is a 404 from the router, never a database error.
ID_PATTERN = r"[0-9]+"


class ListFiltersOnly(GenericAPIView):
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


@extend_schema_view(
    retrieve=extend_schema(
        parameters=[OpenApiParameter("name", str, OpenApiParameter.PATH, description="game name")]
    )
)
class GameViewSet(viewsets.ViewSet):
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

    @extend_schema(responses=s.GameSerializer(many=True))
    def list(self, request: Request) -> Response:
        ids = self._ladder_ids()
        return Response([self._describe(spec, ids) for spec in all_games().values()])

    @extend_schema(responses=s.GameSerializer)
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

    serializer_class = s.BotSerializer
    permission_classes = [permissions.IsAuthenticatedOrReadOnly, OwnerOrStaffWrites]
    filterset_class = BotFilter
    throttle_scope: str | None = None  # set per action (uploads)

    def get_queryset(self) -> QuerySet[Bot]:
        return bot_selectors.visible_bots(self.request.user).order_by("name")

    def get_serializer_class(self) -> type[BaseSerializer[Any]]:
        if self.action in ("update", "partial_update"):
            return s.BotUpdateSerializer
        return s.BotSerializer

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
        serializer = s.BotUpdateSerializer(bot, data=request.data, partial=True)
        serializer.is_valid(raise_exception=True)
        bot = bot_services.update_bot(bot, request.user, **serializer.validated_data)
        return Response(s.BotSerializer(bot, context={"request": request}).data)

    @extend_schema(responses=s.BotVersionSerializer(many=True))
    @action(detail=True, methods=["get"], pagination_class=None)
    def versions(self, request: Request, pk: str | None = None) -> Response:
        bot = self.get_object()
        versions = bot_selectors.visible_versions(request.user, bot)
        return Response(
            s.BotVersionSerializer(versions, many=True, context={"request": request}).data
        )

    @extend_schema(
        request={"multipart/form-data": s.UploadSerializer}, responses={201: s.BotVersionSerializer}
    )
    @action(
        detail=True,
        methods=["post"],
        parser_classes=[MultiPartParser, FormParser],
        throttle_classes=[ScopedRateThrottle],
        throttle_scope="uploads",
    )
    def upload(self, request: Request, pk: str | None = None) -> Response:
        """Upload a new version; it is validated in the sandbox before it plays."""
        bot = self.get_object()
        serializer = s.UploadSerializer(data=request.data)
        serializer.is_valid(raise_exception=True)
        upload = serializer.validated_data["artifact"]
        limit = bot_services.upload_limits().max_bytes
        if upload.size > limit:  # refuse before reading it into memory
            return Response(
                {
                    "detail": f"the upload is {upload.size} bytes; the limit is {limit} bytes",
                    "code": "invalid",
                },
                status=status.HTTP_400_BAD_REQUEST,
            )
        data = upload.read(limit + 1)
        version = bot_services.upload_version(bot, request.user, filename=upload.name, data=data)
        return Response(
            s.BotVersionSerializer(version, context={"request": request}).data,
            status=status.HTTP_201_CREATED,
        )

    @extend_schema(responses=s.HeadToHeadSerializer(many=True))
    @action(detail=True, methods=["get"], url_path="head-to-head", pagination_class=None)
    def head_to_head(self, request: Request, pk: str | None = None) -> Response:
        """Finished matches against each opponent bot you may see: ahead, behind, tied."""
        bot = self.get_object()
        return Response(match_selectors.head_to_head_for(request.user, bot.pk))

    @extend_schema(
        parameters=[s.RatingsQuerySerializer], responses=s.RatingPointSerializer(many=True)
    )
    @action(detail=True, methods=["get"], pagination_class=None)
    def ratings(self, request: Request, pk: str | None = None) -> Response:
        """Rating history of every version of the bot (optionally ``?ladder=ID``)."""
        bot = self.get_object()
        query = s.RatingsQuerySerializer(data=request.query_params)
        query.is_valid(raise_exception=True)
        points = rating_selectors.rating_history(bot.pk, query.validated_data.get("ladder"))
        return Response(s.RatingPointSerializer(points, many=True).data)


class BotVersionViewSet(ListFiltersOnly, viewsets.ReadOnlyModelViewSet):
    """A bot version's status (and, for its owner, why it was rejected)."""

    lookup_value_regex = ID_PATTERN

    serializer_class = s.BotVersionSerializer

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
        return _stored_log_response(
            request, version.smoke_log, filename=f"smoke-version-{version.pk}.json"
        )


class StandingsPages(StrictLimitOffsetPagination):
    default_limit = 100
    max_limit = 1000


class LadderViewSet(ListFiltersOnly, viewsets.ReadOnlyModelViewSet):
    """One ladder per game and player count."""

    lookup_value_regex = ID_PATTERN

    queryset = Ladder.objects.all()
    serializer_class = s.LadderSerializer
    filterset_fields = ["game", "num_players"]
    pagination_class = None

    @extend_schema(responses=s.StandingSerializer(many=True))
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

    @extend_schema(responses=s.SeasonSerializer(many=True))
    @action(detail=True, methods=["get"])
    @public_cache
    def seasons(self, request: Request, pk: str | None = None) -> Response:
        """The ladder's finished seasons, newest first (the current one is the live standings)."""
        ladder = self.get_object()
        seasons = rating_selectors.ended_seasons([ladder])
        return Response(s.SeasonSerializer(seasons, many=True).data)

    @extend_schema(
        responses=s.SeasonDetailSerializer,
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
            **s.SeasonSerializer(season).data,
            "standings": s.SeasonStandingSerializer(
                rating_selectors.season_standings(season), many=True
            ).data,
        }
        return Response(data)


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
        return s.MatchDetailSerializer if self.action == "retrieve" else s.MatchSerializer

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
        return _stored_log_response(
            request,
            stored.name,
            filename=f"match-{match.pk}.json",
            unnamed=unnamed,
        )

    @extend_schema(parameters=[s.LiveQuerySerializer], responses=s.LiveSerializer)
    @action(detail=True, methods=["get"])
    def live(self, request: Request, pk: str | None = None) -> Response:
        """A running match's moves so far, for spectators: poll with ``?since=`` what you have.

        Workers publish about once a second. Decisions carry the seat, the action, the thinking
        time and who decided; the seed (and with it the hidden cards) is published with the log
        when the match is over, and ``log`` then gives its URL.
        """
        query = s.LiveQuerySerializer(data=request.query_params)
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
        response = Response(s.LiveSerializer(body).data)
        response["Cache-Control"] = "no-cache"
        return response

    @extend_schema(responses=s.SeatStderrSerializer(many=True))
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

    @extend_schema(request=None, responses=s.MatchDetailSerializer)
    @action(detail=True, methods=["post"], permission_classes=[IsStaff])
    def cancel(self, request: Request, pk: str | None = None) -> Response:
        match = self.get_object()
        if not match_services.cancel_match(match.pk, reason=f"cancelled by {request.user}"):
            return Response(
                {"detail": f"match {match.pk} is {match.status}; nothing to cancel"},
                status=status.HTTP_409_CONFLICT,
            )
        match.refresh_from_db()
        return Response(s.MatchDetailSerializer(match, context={"request": request}).data)

    @extend_schema(request=None, responses={201: s.MatchDetailSerializer})
    @action(detail=True, methods=["post"], permission_classes=[IsStaff])
    def rerun(self, request: Request, pk: str | None = None) -> Response:
        match = self.get_object()
        again = match_services.rerun_match(match.pk, requested_by=request.user)
        return Response(
            s.MatchDetailSerializer(again, context={"request": request}).data,
            status=status.HTTP_201_CREATED,
        )


class ChallengeViewSet(mixins.ListModelMixin, viewsets.GenericViewSet):
    """Unranked matches you asked for: one of your bots against any public bots."""

    permission_classes = [permissions.IsAuthenticated]
    serializer_class = s.MatchSerializer
    pagination_class = NewestFirst

    def get_queryset(self) -> QuerySet[Match]:
        if getattr(self, "swagger_fake_view", False):  # schema generation has no user
            return Match.objects.none()
        return match_selectors.with_seats(
            Match.objects.filter(
                kind=Match.Kind.CHALLENGE,
                requested_by=signed_in(self.request.user, to="see your challenges"),
            )
        )

    def get_throttles(self) -> list[BaseThrottle]:
        if self.action == "create":
            self.throttle_scope = "challenges"
            return [ScopedRateThrottle()]
        return super().get_throttles()

    @extend_schema(request=s.ChallengeSerializer, responses={201: s.MatchDetailSerializer})
    def create(self, request: Request) -> Response:
        serializer = s.ChallengeSerializer(data=request.data)
        serializer.is_valid(raise_exception=True)
        match = match_services.create_challenge(request.user, serializer.validated_data["bots"])
        match = match_selectors.with_seats(Match.objects.filter(pk=match.pk)).get()
        return Response(
            s.MatchDetailSerializer(match, context={"request": request}).data,
            status=status.HTTP_201_CREATED,
        )


class TokenView(ObtainAuthToken):
    """Your API token for your user name and password. After repeated failed logins from an
    address or for an account, further attempts are refused with 429 for a while."""

    # django-axes marks the request it is given as locked out, and DRF hands it its own wrapper:
    # the mark is copied onto Django's request so AxesMiddleware answers with the lockout page.

    parser_classes = [SafeJSONParser, FormParser, MultiPartParser]
    # Anyone may ask (the credentials are the body), and no session is read: the schema marks
    # it public, and a browser's login cookie without a CSRF token does not turn it into a 403.
    permission_classes = [permissions.AllowAny]
    authentication_classes: list[type[Any]] = []

    def finalize_response(
        self, request: Request, response: Response, *args: object, **kwargs: object
    ) -> Response:
        for name in ("axes_locked_out", "axes_credentials"):
            if hasattr(request, name):
                setattr(request._request, name, getattr(request, name))
        return super().finalize_response(request, response, *args, **kwargs)


class MeView(APIView):
    """Who you are, your API token; POST rotates the token."""

    permission_classes = [permissions.IsAuthenticated]

    @extend_schema(responses=s.TokenSerializer)
    def get(self, request: Request) -> Response:
        return Response(
            {
                "username": request.user.username,
                "token": api_token(request.user),
                "is_organiser": is_organiser(request.user),
            }
        )

    @extend_schema(request=None, responses=s.TokenSerializer)
    def post(self, request: Request) -> Response:
        return Response(
            {
                "username": request.user.username,
                "token": rotate_token(request.user),
                "is_organiser": is_organiser(request.user),
            }
        )


class WorkersView(APIView):
    """The worker fleet (staff only): each worker's host, match slots, liveness and matches."""

    permission_classes = [IsStaff]

    @extend_schema(responses=s.WorkerNodeSerializer(many=True))
    def get(self, request: Request) -> Response:
        return Response(s.WorkerNodeSerializer(fleet_selectors.fleet(), many=True).data)


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


class TournamentViewSet(
    ListFiltersOnly, mixins.ListModelMixin, mixins.RetrieveModelMixin, viewsets.GenericViewSet
):
    """Scheduled tournaments: organisers create and run them; owners enter their bots."""

    lookup_value_regex = ID_PATTERN

    filterset_class = TournamentFilter

    def get_queryset(self) -> QuerySet[Tournament]:
        if self.action == "list":
            return tournament_selectors.listed_tournaments(self.request.user)
        return Tournament.objects.select_related("organiser")  # unlisted: reachable by id

    def get_serializer_class(self) -> type[BaseSerializer[Any]]:
        return s.TournamentSerializer if self.action == "list" else s.TournamentDetailSerializer

    @extend_schema(
        request=s.TournamentCreateSerializer, responses={201: s.TournamentDetailSerializer}
    )
    def create(self, request: Request) -> Response:
        """Organisers and staff only (403 otherwise); the settings are checked by the service."""
        serializer = s.TournamentCreateSerializer(data=request.data)
        serializer.is_valid(raise_exception=True)
        tournament = tournament_services.create_tournament(
            request.user, **serializer.validated_data
        )
        return Response(
            s.TournamentDetailSerializer(tournament).data, status=status.HTTP_201_CREATED
        )

    @extend_schema(methods=["GET"], responses=s.EntrantSerializer(many=True))
    @extend_schema(
        methods=["POST"], request=s.RegisterSerializer, responses={201: s.EntrantSerializer}
    )
    @action(detail=True, methods=["get", "post"], pagination_class=None)
    def entrants(self, request: Request, pk: str | None = None) -> Response:
        """GET: the entrants; POST ``{"bot": id}``: enter your bot (organisers: invite one)."""
        tournament = self.get_object()
        if request.method == "GET":
            return Response(
                s.EntrantSerializer(
                    tournament_selectors.entrants(tournament),
                    many=True,
                    context={"request": request},
                ).data
            )
        serializer = s.RegisterSerializer(data=request.data)
        serializer.is_valid(raise_exception=True)
        entrant = tournament_services.register_entrant(
            tournament.pk, request.user, serializer.validated_data["bot"]
        )
        entrant = tournament_selectors.entrants(tournament).get(pk=entrant.pk)
        return Response(
            s.EntrantSerializer(entrant, context={"request": request}).data,
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
        tournament_services.unregister_entrant(tournament.pk, request.user, int(bot_id or 0))
        return Response(status=status.HTTP_204_NO_CONTENT)

    @extend_schema(responses=s.TournamentRoundSerializer(many=True))
    @action(detail=True, methods=["get"], pagination_class=None)
    def rounds(self, request: Request, pk: str | None = None) -> Response:
        """Rounds with their tables, seatings, match statuses and byes."""
        return Response(tournament_selectors.rounds(self.get_object(), request.user))

    @extend_schema(responses=s.TournamentStandingSerializer(many=True))
    @action(detail=True, methods=["get"], pagination_class=None)
    def standings(self, request: Request, pk: str | None = None) -> Response:
        """Points, tie-breaks, bootstrap P(first) and 95% rank interval (docs/tournaments.md)."""
        return Response(tournament_selectors.standings(self.get_object(), request.user))

    @extend_schema(responses=s.CrossTableSerializer)
    @action(detail=True, methods=["get"], pagination_class=None)
    def crosstable(self, request: Request, pk: str | None = None) -> Response:
        """For every pair that met: games, ahead, behind, tied, points scored."""
        return Response(tournament_selectors.crosstable(self.get_object(), request.user))

    @extend_schema(
        responses=s.TournamentMatchSerializer(many=True),
        parameters=[s.RoundQuerySerializer],
    )
    @action(detail=True, methods=["get"], pagination_class=TournamentMatchPages)
    def matches(self, request: Request, pk: str | None = None) -> Response:
        """Every match with its round, table and block, re-runs included; ``?round=N``."""
        tournament = self.get_object()
        query = s.RoundQuerySerializer(data=request.query_params)
        query.is_valid(raise_exception=True)
        qs = tournament_selectors.tournament_matches(tournament, query.validated_data.get("round"))
        page = self.paginate_queryset(qs)
        return self.get_paginated_response(
            s.TournamentMatchSerializer(page, many=True, context={"request": request}).data
        )

    def _control(self, request: Request, operation: str) -> Response:
        tournament = self.get_object()
        serializer = s.ReasonSerializer(data=request.data)
        serializer.is_valid(raise_exception=True)
        reason = serializer.validated_data.get("reason", "")
        if operation == "resume":
            tournament = tournament_services.resume_tournament(tournament.pk, request.user)
        elif operation == "pause":
            tournament = tournament_services.pause_tournament(
                tournament.pk, request.user, reason=reason
            )
        else:
            tournament = tournament_services.cancel_tournament(
                tournament.pk, request.user, reason=reason
            )
        return Response(s.TournamentDetailSerializer(tournament).data)

    @extend_schema(request=s.ReasonSerializer, responses=s.TournamentDetailSerializer)
    @action(detail=True, methods=["post"], permission_classes=[permissions.IsAuthenticated])
    def pause(self, request: Request, pk: str | None = None) -> Response:
        """Hold the matches not yet started (the organiser or staff)."""
        return self._control(request, "pause")

    @extend_schema(request=None, responses=s.TournamentDetailSerializer)
    @action(detail=True, methods=["post"], permission_classes=[permissions.IsAuthenticated])
    def resume(self, request: Request, pk: str | None = None) -> Response:
        return self._control(request, "resume")

    @extend_schema(request=s.ReasonSerializer, responses=s.TournamentDetailSerializer)
    @action(detail=True, methods=["post"], permission_classes=[permissions.IsAuthenticated])
    def cancel(self, request: Request, pk: str | None = None) -> Response:
        """Cancel unplayed matches; the played ones and their standings stay."""
        return self._control(request, "cancel")


def _accepted_encodings(header: str) -> set[str]:
    """Content codings a client accepts (``q=0`` refuses one), from its Accept-Encoding header."""
    accepted = set()
    for part in header.split(","):
        coding, _, params = part.strip().partition(";")
        if params.strip().replace(" ", "") in ("q=0", "q=0.0", "q=0.00", "q=0.000"):
            continue
        if coding.strip():
            accepted.add(coding.strip().lower())
    return accepted


def _stored_log_response(
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
        accepted = _accepted_encodings(request.headers.get("Accept-Encoding", ""))
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
