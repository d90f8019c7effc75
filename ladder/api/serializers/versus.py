"""Serializers of version tests (``/api/v1/version-tests/``)."""

from __future__ import annotations

from django.conf import settings
from rest_framework import serializers

from ladder.versus import selectors, services
from ladder.versus.models import VersionTest


class RefusalSerializer(serializers.Serializer):
    """The body of every refusal (the shared ``Error`` shape): what is wrong and a code."""

    detail = serializers.CharField()
    code = serializers.CharField(required=False)


class VersionTestCreateSerializer(serializers.Serializer):
    """What a client may set; the service checks the rest (ownership, status, limits)."""

    candidate = serializers.IntegerField(help_text="id of the new version (yours)")
    baseline = serializers.IntegerField(help_text="id of the version to beat, same bot")
    players = serializers.IntegerField(
        required=False,
        min_value=2,
        max_value=16,
        help_text="table size; default the game's smallest. Extra seats hold baseline copies",
    )
    elo0 = serializers.FloatField(
        required=False, default=services.DEFAULT_ELO0, help_text="H0: gain of at most this Elo"
    )
    elo1 = serializers.FloatField(
        required=False, default=services.DEFAULT_ELO1, help_text="H1: gain of at least this Elo"
    )
    alpha = serializers.FloatField(
        required=False, default=services.DEFAULT_ALPHA, help_text="false-accept rate"
    )
    beta = serializers.FloatField(
        required=False, default=services.DEFAULT_BETA, help_text="false-reject rate"
    )
    max_games = serializers.IntegerField(
        required=False,
        help_text=f"even game cap (default {settings.MONSOON_VERSUS_DEFAULT_MAX_GAMES}, "
        f"at most {settings.MONSOON_VERSUS_MAX_GAMES})",
    )


class VersionTestSerializer(serializers.ModelSerializer):
    bot = serializers.CharField(source="bot.name")
    candidate = serializers.IntegerField(source="candidate_id")
    candidate_number = serializers.IntegerField(source="candidate.number")
    baseline = serializers.IntegerField(source="baseline_id")
    baseline_number = serializers.IntegerField(source="baseline.number")
    game = serializers.CharField(source="ladder.game")
    players = serializers.IntegerField(source="ladder.num_players")
    pairs = serializers.ListField(
        child=serializers.IntegerField(),
        help_text="finished pairs by the candidate's points in them: [0, 1/2, 1, 3/2, 2]",
    )
    games = serializers.IntegerField(source="games_counted", help_text="games counted")
    games_in_flight = serializers.SerializerMethodField()
    lower_bound = serializers.SerializerMethodField(help_text="stop for H0 at or below")
    upper_bound = serializers.SerializerMethodField(help_text="stop for H1 at or above")
    elo = serializers.FloatField(allow_null=True, help_text="candidate minus baseline")
    elo_low = serializers.FloatField(allow_null=True, help_text="95% interval; null: unbounded")
    elo_high = serializers.FloatField(allow_null=True, help_text="95% interval; null: unbounded")

    class Meta:
        model = VersionTest
        fields = (
            "id",
            "bot",
            "game",
            "players",
            "candidate",
            "candidate_number",
            "baseline",
            "baseline_number",
            "status",
            "status_reason",
            "elo0",
            "elo1",
            "alpha",
            "beta",
            "max_games",
            "pairs",
            "void_pairs",
            "games",
            "games_in_flight",
            "llr",
            "lower_bound",
            "upper_bound",
            "elo",
            "elo_low",
            "elo_high",
            "created_at",
            "finished_at",
        )
        read_only_fields = fields

    def get_games_in_flight(self, test: VersionTest) -> int:
        return self._progress(test).games_in_flight

    def get_lower_bound(self, test: VersionTest) -> float:
        return self._progress(test).lower_bound

    def get_upper_bound(self, test: VersionTest) -> float:
        return self._progress(test).upper_bound

    def _progress(self, test: VersionTest) -> selectors.Progress:
        """One query per test for its three progress fields, not three."""
        cached = self._progress_by_test.get(test.pk)
        if cached is None:
            cached = self._progress_by_test[test.pk] = selectors.progress(test)
        return cached

    @property
    def _progress_by_test(self) -> dict[int, selectors.Progress]:
        root = self.parent or self
        cache: dict[int, selectors.Progress] | None = getattr(root, "_progress_cache", None)
        if cache is None:
            cache = {}
            root._progress_cache = cache  # type: ignore[attr-defined]
        return cache
