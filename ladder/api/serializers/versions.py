"""Serializers of bot versions (``/api/v1/versions/``)."""

from __future__ import annotations

from django.urls import reverse
from drf_spectacular.utils import extend_schema_field
from rest_framework import serializers

from ladder.bots.models import BotVersion
from ladder.bots.selectors import can_see_private_details


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
