"""Serializers of the games (``/api/v1/games/``)."""

from __future__ import annotations

from rest_framework import serializers


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
