"""Serializers of bots and their uploads (``/api/v1/bots/``)."""

from __future__ import annotations

from rest_framework import serializers
from rest_framework.fields import empty

from ladder.bots.models import Bot


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


class UploadSerializer(serializers.Serializer):
    artifact = serializers.FileField(
        help_text="a .py file, or a .zip / .tar.gz with main.py or a monsoon.json manifest"
    )
