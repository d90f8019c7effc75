"""Serializers of API tokens (``/api/v1/auth/token/``)."""

from __future__ import annotations

from rest_framework import serializers


class TokenSerializer(serializers.Serializer):
    username = serializers.CharField()
    token = serializers.CharField()
    is_organiser = serializers.BooleanField()
