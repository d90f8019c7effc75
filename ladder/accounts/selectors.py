"""Reads for accounts."""

from __future__ import annotations

from typing import Any

from ladder.accounts.models import ORGANISERS_GROUP


def is_organiser(user: Any) -> bool:
    """Organisers (the ``organisers`` group) and staff may run tournaments."""
    if not getattr(user, "is_authenticated", False):
        return False
    return bool(user.is_staff or user.groups.filter(name=ORGANISERS_GROUP).exists())
