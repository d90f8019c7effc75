"""Serializers of matches, their seats and live progress (``/api/v1/matches/``)."""

from __future__ import annotations

from drf_spectacular.utils import extend_schema_field
from rest_framework import serializers

from ladder.api.serializers.common import viewer_of
from ladder.bots.selectors import PRIVATE_BOT_NAME, bot_named_for
from ladder.matches import selectors as match_selectors
from ladder.matches.models import Match, MatchSeat


class SeatSerializer(serializers.ModelSerializer):
    """A seat; a bot the reader may not name (``bot_named_for``) reads "a private bot", with
    no bot id, version id or version number."""

    bot = serializers.SerializerMethodField()
    bot_name = serializers.SerializerMethodField()
    version = serializers.SerializerMethodField()
    version_number = serializers.SerializerMethodField()

    class Meta:
        model = MatchSeat
        fields = [
            "seat",
            "bot",
            "bot_name",
            "version",
            "version_number",
            "score",
            "place",
            "forfeit_reason",
        ]

    def _named(self, seat: MatchSeat) -> bool:
        return bot_named_for(viewer_of(self), seat.bot_version.bot)

    @extend_schema_field(serializers.IntegerField(allow_null=True))
    def get_bot(self, seat: MatchSeat) -> int | None:
        return seat.bot_version.bot_id if self._named(seat) else None

    @extend_schema_field(serializers.CharField())
    def get_bot_name(self, seat: MatchSeat) -> str:
        """Two private bots of one match read "private bot 1" and "private bot 2": the name
        depends on the match's other seats, read once per match (they are prefetched)."""
        names = self._names_by_match.get(seat.match_id)
        if names is None:
            seats = list(seat.match.seats.all())
            names = match_selectors.seat_bot_names(seats, viewer_of(self))
            self._names_by_match[seat.match_id] = names
        return names[seat.seat]

    @property
    def _names_by_match(self) -> dict[int, dict[int, str]]:
        if not hasattr(self, "_seat_names"):
            self._seat_names: dict[int, dict[int, str]] = {}
        return self._seat_names

    @extend_schema_field(serializers.IntegerField(allow_null=True))
    def get_version(self, seat: MatchSeat) -> int | None:
        return seat.bot_version_id if self._named(seat) else None

    @extend_schema_field(serializers.IntegerField(allow_null=True))
    def get_version_number(self, seat: MatchSeat) -> int | None:
        return seat.bot_version.number if self._named(seat) else None


class MatchSerializer(serializers.ModelSerializer):
    seats = SeatSerializer(many=True, read_only=True)
    seed = serializers.SerializerMethodField(
        help_text="published once the match is over (it determines every hidden card)"
    )
    ranking = serializers.SerializerMethodField(
        help_text="place per seat (1 = best, forfeits last), once the match has a result"
    )
    scores = serializers.SerializerMethodField(
        help_text="final score per seat, once the match has a result"
    )

    class Meta:
        model = Match
        fields = [
            "id",
            "ladder",
            "game",
            "variant",
            "seed",
            "kind",
            "ranked",
            "status",
            "created_at",
            "queued_at",
            "started_at",
            "finished_at",
            "seats",
            "ranking",
            "scores",
            "rated",
        ]
        read_only_fields = fields

    @extend_schema_field(serializers.IntegerField(allow_null=True))
    def get_seed(self, match: Match) -> int | None:
        return match.seed if match.is_over else None

    @extend_schema_field(serializers.ListField(child=serializers.IntegerField(), allow_null=True))
    def get_ranking(self, match: Match) -> list[int] | None:
        return match_selectors.ranking_of(match)

    @extend_schema_field(serializers.ListField(child=serializers.FloatField(), allow_null=True))
    def get_scores(self, match: Match) -> list[int | float] | None:
        return match_selectors.scores_of(match)


class MatchDetailSerializer(MatchSerializer):
    class Meta(MatchSerializer.Meta):
        fields = [*MatchSerializer.Meta.fields, "attempts", "status_reason", "requested_by"]
        read_only_fields = fields


class HeadToHeadSerializer(serializers.Serializer):
    opponent = serializers.IntegerField(
        allow_null=True,
        help_text=f"null: the one row of every opponent you read as {PRIVATE_BOT_NAME!r}",
    )
    opponent_name = serializers.CharField()
    matches = serializers.IntegerField()
    ahead = serializers.IntegerField()
    behind = serializers.IntegerField()
    tied = serializers.IntegerField()


class SeatStderrSerializer(serializers.Serializer):
    """Only seats of the reader's own bots (staff: every seat) are ever listed."""

    seat = serializers.IntegerField()
    bot_name = serializers.CharField()
    stderr = serializers.CharField()


class LiveQuerySerializer(serializers.Serializer):
    since = serializers.IntegerField(
        required=False,
        default=0,
        min_value=0,
        max_value=1_000_000,
        help_text="decisions you already have: only later ones are returned",
    )


class LiveDecisionSerializer(serializers.Serializer):
    seat = serializers.IntegerField()
    action = serializers.JSONField(help_text="the engine's action, as in the game log")
    ms = serializers.FloatField(required=False, help_text="thinking time, when a bot decided")
    by = serializers.CharField(required=False, help_text="bot, forced or fallback")


class LiveSerializer(serializers.Serializer):
    """A match being played, as far as its worker has published it (about once a second)."""

    status = serializers.CharField()
    run = serializers.CharField(
        help_text="the attempt; when it changes the match restarted: drop what you have"
    )
    total = serializers.IntegerField(help_text="decisions played so far")
    since = serializers.IntegerField()
    decisions = LiveDecisionSerializer(many=True, help_text="decisions since+1 .. total")
    forfeits = serializers.ListField(child=serializers.CharField(allow_null=True))
    updated_at = serializers.DateTimeField(allow_null=True)
    log = serializers.CharField(
        allow_blank=True, help_text="the game log's URL once the match is finished"
    )
