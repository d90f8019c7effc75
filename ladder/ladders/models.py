"""Ladders: one per game and player count, with the matchmaker's per-ladder settings."""

from __future__ import annotations

from django.db import models


class Ladder(models.Model):
    """A ranked ladder for one game at one table size.

    Bots of the game play on every enabled ladder of that game; each ladder keeps its own ratings,
    since a bot's strength at a two-player table says little about a five-player one.
    """

    game = models.CharField(max_length=40)
    num_players = models.PositiveSmallIntegerField()
    variant = models.CharField(max_length=40, help_text="the variant ranked games use")
    schedule_enabled = models.BooleanField(
        default=True, help_text="whether the matchmaker schedules ranked games on this ladder"
    )
    schedule_weight = models.PositiveIntegerField(
        default=1, help_text="relative share of the match queue this ladder gets"
    )
    target_games = models.PositiveIntegerField(
        default=100, help_text="ranked games each new version should reach; the neediest go first"
    )

    class SeasonStart(models.TextChoices):
        CARRY = "carry", "carry ratings over, with widened uncertainty"
        RESET = "reset", "reset every rating"

    season_start = models.CharField(
        max_length=5,
        choices=SeasonStart.choices,
        default=SeasonStart.CARRY,
        help_text="what the next season starts from when staff end the current one",
    )
    created_at = models.DateTimeField(auto_now_add=True)

    class Meta:
        ordering = ["game", "num_players"]
        constraints = [
            models.UniqueConstraint(fields=["game", "num_players"], name="one_ladder_per_table")
        ]

    def __str__(self) -> str:
        return f"{self.game} ({self.num_players} players)"
