"""Writes for ladders."""

from __future__ import annotations

from engine.registry import all_games
from ladder.ladders.models import Ladder


def sync_ladders() -> list[Ladder]:
    """Make sure every registered game has a ladder for each of its player counts.

    Existing ladders (and their settings) are kept; returns the ladders created.
    """
    created = []
    for spec in all_games().values():
        for count in spec.player_counts:
            ladder, was_created = Ladder.objects.get_or_create(
                game=spec.name,
                num_players=count,
                defaults={"variant": spec.default_variant},
            )
            if was_created:
                created.append(ladder)
    return created
