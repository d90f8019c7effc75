"""Serializers of challenges (``/api/v1/challenges/``)."""

from __future__ import annotations

from rest_framework import serializers


class ChallengeSerializer(serializers.Serializer):
    bots = serializers.ListField(
        child=serializers.IntegerField(),
        min_length=1,
        max_length=16,
        help_text="bot ids in seat order: at least one yours, the others public",
    )
