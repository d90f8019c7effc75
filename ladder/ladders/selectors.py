"""Reads for ladders."""

from __future__ import annotations

from django.db.models import QuerySet

from ladder.ladders.models import Ladder


def ladders(game: str | None = None) -> QuerySet[Ladder]:
    qs = Ladder.objects.all()
    if game:
        qs = qs.filter(game=game)
    return qs


def schedulable_ladders() -> QuerySet[Ladder]:
    return Ladder.objects.filter(schedule_enabled=True, schedule_weight__gt=0)
