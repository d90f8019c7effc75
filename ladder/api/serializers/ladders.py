"""Serializers of ladders, seasons and standings (``/api/v1/ladders/``)."""

from __future__ import annotations

from rest_framework import serializers

from ladder.ladders.models import Ladder


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
