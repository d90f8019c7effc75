"""Serializers of rating histories."""

from __future__ import annotations

from rest_framework import serializers

from ladder.api.filters import MAX_FILTER_INT as MAX_ID
from ladder.ratings.models import RatingPoint


class RatingsQuerySerializer(serializers.Serializer):
    ladder = serializers.IntegerField(
        required=False, min_value=0, max_value=MAX_ID, help_text="only this ladder's points"
    )


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
