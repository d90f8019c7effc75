"""Helpers shared by the serializers of several resources."""

from __future__ import annotations

from typing import Any

from django.contrib.auth.models import AnonymousUser
from rest_framework import serializers

from ladder.accounts.models import Visitor


def viewer_of(serializer: serializers.BaseSerializer[Any]) -> Visitor:
    """Who the answer is for: the request's user, else (serialised outside a request) nobody,
    so private bots stay unnamed by default."""
    request = serializer.context.get("request")
    user = getattr(request, "user", None)
    return user if user is not None else AnonymousUser()
