"""Serializers of tournaments: settings, entrants, rounds, standings, cross tables."""

from __future__ import annotations

from collections.abc import Callable

from drf_spectacular.utils import extend_schema_field
from rest_framework import serializers

from ladder.api.filters import MAX_FILTER_INT as MAX_ID
from ladder.api.serializers.common import viewer_of
from ladder.api.serializers.matches import MatchSerializer
from ladder.bots.selectors import bot_named_for, visible_bot_name
from ladder.tournaments import selectors as tournament_selectors
from ladder.tournaments.models import Entrant, Tournament
from ladder.tournaments.tournament_settings import TournamentSettings


class RoundQuerySerializer(serializers.Serializer):
    round = serializers.IntegerField(
        required=False, min_value=1, max_value=MAX_ID, help_text="only this round's matches"
    )


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


# The shape of each tournament setting in the API; the list of settings is TournamentSettings'
# (a setting added there and not here fails at import, so none is forgotten).
_SETTING_SHAPES: dict[str, Callable[[], serializers.Field]] = {
    "name": lambda: serializers.CharField(max_length=100, required=False, allow_blank=True),
    "description": lambda: serializers.CharField(max_length=4000, required=False, allow_blank=True),
    "game": lambda: serializers.CharField(max_length=40),
    "num_players": lambda: serializers.IntegerField(help_text="players per table"),
    "variant": lambda: serializers.CharField(max_length=40, required=False, allow_blank=True),
    "format": lambda: serializers.CharField(help_text="round_robin, swiss or elimination"),
    "duplicate": lambda: serializers.BooleanField(required=False, default=False),
    "games_per_pairing": lambda: serializers.IntegerField(required=False, default=1),
    "rounds": lambda: serializers.IntegerField(
        required=False,
        allow_null=True,
        default=None,
        help_text="Swiss only; default from the field size",
    ),
    "advance": lambda: serializers.IntegerField(
        required=False, default=1, help_text="elimination: top n of each table advance"
    ),
    "registration_opens_at": lambda: serializers.DateTimeField(required=False, allow_null=True),
    "registration_closes_at": lambda: serializers.DateTimeField(required=False, allow_null=True),
    "time_zone": lambda: serializers.CharField(required=False, max_length=64),
    "starts_at": lambda: serializers.DateTimeField(),
    "is_public": lambda: serializers.BooleanField(required=False, default=True),
    "ranked": lambda: serializers.BooleanField(
        required=False, default=False, help_text="count the matches on the ladder's ratings"
    ),
}

TournamentCreateSerializer = type(
    "TournamentCreateSerializer",
    (serializers.Serializer,),
    {
        "__module__": __name__,
        "__doc__": "Shapes only: the service checks the game, player count, variant, format "
        "and dates.",
        **{name: _SETTING_SHAPES[name]() for name in TournamentSettings.field_names()},
    },
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


class TournamentStandingSerializer(TournamentEntrantRefSerializer):
    """An entrant (the reference's fields, as its reader may see them) with its standing."""

    rank = serializers.IntegerField()
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
