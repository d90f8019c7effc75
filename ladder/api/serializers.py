"""API serializers: shapes only; every write goes through a service."""

from __future__ import annotations

from typing import Any

from django.contrib.auth.models import AnonymousUser
from django.urls import reverse
from drf_spectacular.utils import extend_schema_field
from rest_framework import serializers
from rest_framework.fields import empty

from ladder.accounts.models import Visitor
from ladder.api.filters import MAX_FILTER_INT as MAX_ID
from ladder.bots.models import Bot, BotVersion
from ladder.bots.selectors import (
    PRIVATE_BOT_NAME,
    bot_named_for,
    can_see_private_details,
    visible_bot_name,
)
from ladder.ladders.models import Ladder
from ladder.matches import selectors as match_selectors
from ladder.matches.models import Match, MatchSeat
from ladder.ratings.models import RatingPoint
from ladder.tournaments import selectors as tournament_selectors
from ladder.tournaments.models import Entrant, Tournament


def viewer_of(serializer: serializers.BaseSerializer[Any]) -> Visitor:
    """Who the answer is for: the request's user, else (serialised outside a request) nobody,
    so private bots stay unnamed by default."""
    request = serializer.context.get("request")
    user = getattr(request, "user", None)
    return user if user is not None else AnonymousUser()


class GameSerializer(serializers.Serializer):
    name = serializers.CharField()
    title = serializers.CharField()
    summary = serializers.CharField()
    min_players = serializers.IntegerField()
    max_players = serializers.IntegerField()
    variants = serializers.ListField(child=serializers.CharField())
    ladders = serializers.ListField(
        child=serializers.IntegerField(), help_text="ladder ids, one per player count"
    )
    schema = serializers.CharField(
        help_text="URL of the game's observation, public view and action JSON Schema"
    )


class PublicByDefaultField(serializers.BooleanField):
    """``is_public``, true when left out, whatever the body's type.

    DRF reads a boolean missing from a form body as an unticked checkbox (false), so
    ``curl -d name=mybot -d game=borneo`` made a private bot while the same JSON made a public
    one; left out is now left out, and the default applies to both."""

    default_empty_html = empty


class BotSerializer(serializers.ModelSerializer):
    owner = serializers.CharField(source="owner.username", read_only=True)
    is_public = PublicByDefaultField(
        required=False,
        default=True,
        help_text="public bots play ranked ladder matches; private ones play challenges only",
    )

    class Meta:
        model = Bot
        fields = ["id", "name", "game", "description", "is_public", "owner", "created_at"]
        read_only_fields = ["id", "owner", "created_at"]


class BotUpdateSerializer(serializers.ModelSerializer):
    class Meta:
        model = Bot
        fields = ["name", "description", "is_public"]
        extra_kwargs = {
            "name": {"required": False},
            "description": {"required": False},
            "is_public": {"required": False},
        }


class BotVersionSerializer(serializers.ModelSerializer):
    bot = serializers.IntegerField(source="bot_id", read_only=True)
    failure_reason = serializers.SerializerMethodField(
        help_text="why validation rejected the version (owner and staff only)"
    )
    smoke_log = serializers.SerializerMethodField(
        help_text="URL of the validation smoke match's game log (null: none was kept)"
    )

    class Meta:
        model = BotVersion
        fields = [
            "id",
            "bot",
            "number",
            "status",
            "kind",
            "size",
            "sha256",
            "command",
            "file_count",
            "unpacked_size",
            "uploaded_at",
            "validated_at",
            "failure_reason",
            "smoke_log",
        ]
        read_only_fields = fields

    @extend_schema_field(serializers.CharField(allow_null=True))
    def get_failure_reason(self, version: BotVersion) -> str | None:
        request = self.context.get("request")
        user = getattr(request, "user", None)
        if user is None:  # serialised outside a request: nobody to show private details to
            return None
        return version.failure_reason if can_see_private_details(user, version.bot) else None

    @extend_schema_field(serializers.URLField(allow_null=True))
    def get_smoke_log(self, version: BotVersion) -> str | None:
        """A link, not the storage's object name: where the object lives is the server's own."""
        if not version.smoke_log:
            return None
        path = reverse("version-smoke-log", args=[version.pk])
        request = self.context.get("request")
        return request.build_absolute_uri(path) if request is not None else path


class RatingsQuerySerializer(serializers.Serializer):
    ladder = serializers.IntegerField(
        required=False, min_value=0, max_value=MAX_ID, help_text="only this ladder's points"
    )


class RoundQuerySerializer(serializers.Serializer):
    round = serializers.IntegerField(
        required=False, min_value=1, max_value=MAX_ID, help_text="only this round's matches"
    )


class UploadSerializer(serializers.Serializer):
    artifact = serializers.FileField(
        help_text="a .py file, or a .zip / .tar.gz with main.py or a monsoon.json manifest"
    )


class LadderSerializer(serializers.ModelSerializer):
    class Meta:
        model = Ladder
        fields = [
            "id",
            "game",
            "num_players",
            "variant",
            "schedule_enabled",
            "schedule_weight",
            "target_games",
            "season_start",
        ]
        read_only_fields = fields


class SeasonSerializer(serializers.Serializer):
    """A finished season of a ladder (its standings at ``.../seasons/<number>/``)."""

    number = serializers.IntegerField()
    started_at = serializers.DateTimeField()
    ended_at = serializers.DateTimeField()
    start = serializers.CharField(help_text="how the season's ratings began: carry, reset or ''")
    bots = serializers.IntegerField(help_text="bots in its final standings")


class SeasonStandingSerializer(serializers.Serializer):
    rank = serializers.IntegerField()
    bot = serializers.IntegerField(source="bot_id")
    bot_name = serializers.CharField(source="bot.name")
    owner = serializers.CharField(source="bot.owner.username")
    version = serializers.IntegerField(source="bot_version_id")
    version_number = serializers.IntegerField(source="bot_version.number")
    rating = serializers.FloatField()
    low = serializers.FloatField()
    high = serializers.FloatField()
    games = serializers.IntegerField()
    provisional = serializers.BooleanField()


class SeasonDetailSerializer(SeasonSerializer):
    standings = SeasonStandingSerializer(many=True)


class StandingSerializer(serializers.Serializer):
    rank = serializers.IntegerField()
    bot = serializers.IntegerField(source="rating.bot_version.bot_id")
    bot_name = serializers.CharField(source="rating.bot_version.bot.name")
    owner = serializers.CharField(source="rating.bot_version.bot.owner.username")
    version = serializers.IntegerField(source="rating.bot_version_id")
    version_number = serializers.IntegerField(source="rating.bot_version.number")
    rating = serializers.FloatField(source="rating.rating")
    low = serializers.FloatField(source="rating.low")
    high = serializers.FloatField(source="rating.high")
    games = serializers.IntegerField(source="rating.games")
    provisional = serializers.BooleanField(source="rating.provisional")


class RatingPointSerializer(serializers.ModelSerializer):
    version = serializers.IntegerField(source="bot_version_id")
    version_number = serializers.IntegerField(source="bot_version.number")
    kind = serializers.SerializerMethodField()

    class Meta:
        model = RatingPoint
        fields = [
            "ladder",
            "version",
            "version_number",
            "kind",
            "match",
            "fit",
            "rating",
            "low",
            "high",
            "games",
            "created_at",
        ]

    def get_kind(self, point: RatingPoint) -> str:
        return "fit" if point.fit_id else "live"


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
        return visible_bot_name(seat.bot_version, viewer_of(self))

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


class ChallengeSerializer(serializers.Serializer):
    bots = serializers.ListField(
        child=serializers.IntegerField(),
        min_length=1,
        max_length=16,
        help_text="bot ids in seat order: at least one yours, the others public",
    )


class TokenSerializer(serializers.Serializer):
    username = serializers.CharField()
    token = serializers.CharField()
    is_organiser = serializers.BooleanField()


class WorkerNodeSerializer(serializers.Serializer):
    name = serializers.CharField(help_text="Celery's worker name (name@host)")
    hostname = serializers.CharField()
    pid = serializers.IntegerField()
    slots = serializers.IntegerField(help_text="matches it can play at once")
    queues = serializers.ListField(child=serializers.CharField())
    sandbox = serializers.CharField(help_text="bwrap, or none (bots unsandboxed)")
    sandbox_problem = serializers.CharField(help_text="why bots cannot be sandboxed there")
    storage_problem = serializers.CharField(
        help_text="why that host cannot read stored bot artifacts (its versions and matches fail)"
    )
    started_at = serializers.DateTimeField()
    last_seen = serializers.DateTimeField()
    stopped_at = serializers.DateTimeField(allow_null=True)
    alive = serializers.BooleanField(help_text="heard from within three heartbeats")
    running_matches = serializers.ListField(child=serializers.IntegerField())


# --- tournaments ---------------------------------------------------------------------------------


class TournamentProgressSerializer(serializers.Serializer):
    status = serializers.CharField()
    current_round = serializers.IntegerField()
    rounds = serializers.IntegerField(allow_null=True, help_text="known once started")
    matches_done = serializers.IntegerField(help_text="finished (or cancelled) matches")
    matches_created = serializers.IntegerField()
    matches_total = serializers.IntegerField(allow_null=True, help_text="known once started")


class TournamentSerializer(serializers.ModelSerializer):
    organiser = serializers.CharField(source="organiser.username", read_only=True)
    entrant_count = serializers.SerializerMethodField()

    class Meta:
        model = Tournament
        fields = [
            "id",
            "name",
            "description",
            "organiser",
            "game",
            "num_players",
            "variant",
            "ladder",
            "format",
            "duplicate",
            "games_per_pairing",
            "rounds",
            "advance",
            "registration_opens_at",
            "registration_closes_at",
            "time_zone",
            "starts_at",
            "is_public",
            "ranked",
            "status",
            "status_reason",
            "current_round",
            "planned_rounds",
            "planned_matches",
            "entrant_count",
            "created_at",
            "started_at",
            "finished_at",
        ]
        read_only_fields = fields

    def get_entrant_count(self, tournament: Tournament) -> int:
        return tournament.entrants.count()


class TournamentDetailSerializer(TournamentSerializer):
    progress = serializers.SerializerMethodField()

    class Meta(TournamentSerializer.Meta):
        fields = [*TournamentSerializer.Meta.fields, "progress"]
        read_only_fields = fields

    @extend_schema_field(TournamentProgressSerializer)
    def get_progress(self, tournament: Tournament) -> dict[str, object]:
        return tournament_selectors.progress(tournament)


class TournamentCreateSerializer(serializers.Serializer):
    """Shapes only: the service checks the game, player count, variant, format and dates."""

    name = serializers.CharField(max_length=100, required=False, allow_blank=True)
    description = serializers.CharField(max_length=4000, required=False, allow_blank=True)
    game = serializers.CharField(max_length=40)
    num_players = serializers.IntegerField(help_text="players per table")
    variant = serializers.CharField(max_length=40, required=False, allow_blank=True)
    format = serializers.CharField(help_text="round_robin, swiss or elimination")
    duplicate = serializers.BooleanField(required=False, default=False)
    games_per_pairing = serializers.IntegerField(required=False, default=1)
    rounds = serializers.IntegerField(
        required=False,
        allow_null=True,
        default=None,
        help_text="Swiss only; default from the field size",
    )
    advance = serializers.IntegerField(
        required=False, default=1, help_text="elimination: top n of each table advance"
    )
    registration_opens_at = serializers.DateTimeField(required=False, allow_null=True)
    registration_closes_at = serializers.DateTimeField(required=False, allow_null=True)
    time_zone = serializers.CharField(required=False, max_length=64)
    starts_at = serializers.DateTimeField()
    is_public = serializers.BooleanField(required=False, default=True)
    ranked = serializers.BooleanField(
        required=False, default=False, help_text="count the matches on the ladder's ratings"
    )


class EntrantSerializer(serializers.Serializer):
    """An entrant; a bot the reader may not name reads "a private bot", with no bot id, owner
    or version."""

    id = serializers.IntegerField()
    bot = serializers.SerializerMethodField()
    bot_name = serializers.SerializerMethodField()
    owner = serializers.SerializerMethodField()
    status = serializers.CharField()
    invited = serializers.SerializerMethodField()
    version = serializers.SerializerMethodField()
    version_number = serializers.SerializerMethodField()
    seed = serializers.IntegerField(allow_null=True)
    seed_rating = serializers.FloatField(allow_null=True)
    dropped_reason = serializers.CharField()
    registered_at = serializers.DateTimeField()

    def _named(self, entrant: Entrant) -> bool:
        return bot_named_for(viewer_of(self), entrant.bot)

    def get_invited(self, entrant: Entrant) -> bool:
        return entrant.invited_by_id is not None

    @extend_schema_field(serializers.IntegerField(allow_null=True))
    def get_bot(self, entrant: Entrant) -> int | None:
        return entrant.bot_id if self._named(entrant) else None

    @extend_schema_field(serializers.CharField())
    def get_bot_name(self, entrant: Entrant) -> str:
        return visible_bot_name(entrant.bot, viewer_of(self))

    @extend_schema_field(serializers.CharField(allow_null=True))
    def get_owner(self, entrant: Entrant) -> str | None:
        return entrant.bot.owner.username if self._named(entrant) else None

    @extend_schema_field(serializers.IntegerField(allow_null=True))
    def get_version(self, entrant: Entrant) -> int | None:
        return entrant.version_id if self._named(entrant) else None

    @extend_schema_field(serializers.IntegerField(allow_null=True))
    def get_version_number(self, entrant: Entrant) -> int | None:
        if entrant.version is None or not self._named(entrant):
            return None
        return entrant.version.number


class RegisterSerializer(serializers.Serializer):
    bot = serializers.IntegerField(help_text="your bot's id (organisers: any public bot)")


class ReasonSerializer(serializers.Serializer):
    reason = serializers.CharField(required=False, allow_blank=True, max_length=2000)


class TournamentEntrantRefSerializer(serializers.Serializer):
    entrant = serializers.IntegerField()
    bot = serializers.IntegerField(allow_null=True, help_text="null for a private bot")
    bot_name = serializers.CharField()
    owner = serializers.CharField(allow_null=True)
    version = serializers.IntegerField(allow_null=True)
    version_number = serializers.IntegerField(allow_null=True)
    seed = serializers.IntegerField(allow_null=True)


class TournamentTableMatchSerializer(serializers.Serializer):
    match = serializers.IntegerField()
    game = serializers.IntegerField()
    rotation = serializers.IntegerField()
    block = serializers.IntegerField()
    attempt = serializers.IntegerField()
    status = serializers.CharField()
    seating = serializers.ListField(
        child=serializers.IntegerField(), help_text="entrant ids in seat order"
    )
    places = serializers.ListField(child=serializers.IntegerField(), allow_null=True)


class TournamentTableSerializer(serializers.Serializer):
    table = serializers.IntegerField()
    entrants = TournamentEntrantRefSerializer(many=True)
    matches = TournamentTableMatchSerializer(many=True)


class TournamentRoundSerializer(serializers.Serializer):
    number = serializers.IntegerField()
    status = serializers.CharField()
    created_at = serializers.DateTimeField()
    completed_at = serializers.DateTimeField(allow_null=True)
    byes = TournamentEntrantRefSerializer(many=True)
    tables = TournamentTableSerializer(many=True)


class TournamentStandingSerializer(serializers.Serializer):
    rank = serializers.IntegerField()
    entrant = serializers.IntegerField()
    bot = serializers.IntegerField(allow_null=True, help_text="null for a private bot")
    bot_name = serializers.CharField()
    owner = serializers.CharField(allow_null=True)
    version = serializers.IntegerField(allow_null=True)
    version_number = serializers.IntegerField(allow_null=True)
    seed = serializers.IntegerField(allow_null=True)
    points = serializers.FloatField()
    games = serializers.FloatField()
    byes = serializers.IntegerField()
    forfeits = serializers.IntegerField()
    opponents_score = serializers.FloatField()
    buchholz = serializers.FloatField()
    direct = serializers.FloatField(help_text="direct encounter within its tied group")
    stage = serializers.IntegerField(allow_null=True, help_text="elimination: last round reached")
    stage_points = serializers.FloatField(allow_null=True)
    p_first = serializers.FloatField(allow_null=True, help_text="bootstrap P(finishing first)")
    rank_low = serializers.IntegerField(allow_null=True)
    rank_high = serializers.IntegerField(allow_null=True)


class CrossCellSerializer(serializers.Serializer):
    opponent = serializers.IntegerField()
    games = serializers.IntegerField()
    ahead = serializers.IntegerField()
    behind = serializers.IntegerField()
    tied = serializers.IntegerField()
    points = serializers.FloatField()


class CrossRowSerializer(serializers.Serializer):
    entrant = serializers.IntegerField()
    cells = CrossCellSerializer(many=True)


class CrossTableSerializer(serializers.Serializer):
    entrants = TournamentEntrantRefSerializer(many=True)
    rows = CrossRowSerializer(many=True)


class TournamentMatchSerializer(serializers.Serializer):
    round = serializers.IntegerField(source="round.number")
    table = serializers.IntegerField()
    game = serializers.IntegerField()
    rotation = serializers.IntegerField()
    block = serializers.IntegerField()
    attempt = serializers.IntegerField()
    superseded = serializers.BooleanField(help_text="replaced by a re-run after a failure")
    entrants = serializers.ListField(child=serializers.IntegerField())
    match = MatchSerializer()


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
