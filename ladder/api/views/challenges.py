"""``/api/v1/challenges/``: challenges between bots."""

from __future__ import annotations

from django.db.models import QuerySet
from drf_spectacular.utils import extend_schema
from rest_framework import mixins, permissions, status, viewsets
from rest_framework.request import Request
from rest_framework.response import Response
from rest_framework.throttling import BaseThrottle, ScopedRateThrottle

from ladder.accounts.selectors import signed_in
from ladder.api.serializers.challenges import ChallengeSerializer
from ladder.api.serializers.matches import MatchDetailSerializer, MatchSerializer
from ladder.api.views.common import ListFiltersOnly
from ladder.api.views.matches import NewestFirst
from ladder.matches import selectors as match_selectors
from ladder.matches import services as match_services
from ladder.matches.models import Match


class ChallengeViewSet(ListFiltersOnly, mixins.ListModelMixin, viewsets.GenericViewSet):
    """Unranked matches you asked for: one of your bots against any public bots."""

    permission_classes = [permissions.IsAuthenticated]
    serializer_class = MatchSerializer
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

    @extend_schema(request=ChallengeSerializer, responses={201: MatchDetailSerializer})
    def create(self, request: Request) -> Response:
        serializer = ChallengeSerializer(data=request.data)
        serializer.is_valid(raise_exception=True)
        match = match_services.create_challenge(request.user, serializer.validated_data["bots"])
        match = match_selectors.with_seats(Match.objects.filter(pk=match.pk)).get()
        return Response(
            MatchDetailSerializer(match, context={"request": request}).data,
            status=status.HTTP_201_CREATED,
        )
