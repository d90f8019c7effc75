"""Ratings per bot version per ladder, their history, and the record of each refit."""

from __future__ import annotations

from django.db import models


class Rating(models.Model):
    """The current rating of one bot version on one ladder (Elo scale).

    ``mu``/``sd`` are the model's natural units (the matchmaker's uncertainty); ``rating``,
    ``low`` and ``high`` are the shown Elo figure and its 95% interval.  ``source`` says whether
    the last refit set it or live updates have moved it since.
    """

    class Source(models.TextChoices):
        LIVE = "live", "live update"
        FIT = "fit", "history-wide fit"

    ladder = models.ForeignKey("ladders.Ladder", on_delete=models.CASCADE, related_name="ratings")
    bot_version = models.ForeignKey(
        "bots.BotVersion", on_delete=models.CASCADE, related_name="ratings"
    )
    mu = models.FloatField(default=0.0)
    sd = models.FloatField()
    rating = models.FloatField()
    low = models.FloatField()
    high = models.FloatField()
    games = models.PositiveIntegerField(default=0)
    provisional = models.BooleanField(default=True)
    source = models.CharField(max_length=4, choices=Source.choices, default=Source.LIVE)
    updated_at = models.DateTimeField(auto_now=True)

    class Meta:
        constraints = [
            models.UniqueConstraint(fields=["ladder", "bot_version"], name="one_rating_per_ladder")
        ]
        indexes = [models.Index(fields=["ladder", "-rating"])]

    def __str__(self) -> str:
        return f"{self.bot_version} on {self.ladder}: {self.rating:.0f}"


class RatingFit(models.Model):
    """One history-wide refit of a ladder."""

    ladder = models.ForeignKey("ladders.Ladder", on_delete=models.CASCADE, related_name="fits")
    matches = models.PositiveIntegerField()
    versions = models.PositiveIntegerField()
    bootstrap_samples = models.PositiveIntegerField()
    seconds = models.FloatField()
    created_at = models.DateTimeField(auto_now_add=True)

    class Meta:
        ordering = ["-id"]

    def __str__(self) -> str:
        return f"refit of ladder {self.ladder_id}: {self.matches} matches, {self.versions} versions"


class RatingPoint(models.Model):
    """One point of a version's rating history: after a match (live) or a refit."""

    ladder = models.ForeignKey("ladders.Ladder", on_delete=models.CASCADE, related_name="+")
    bot_version = models.ForeignKey(
        "bots.BotVersion", on_delete=models.CASCADE, related_name="rating_points"
    )
    match = models.ForeignKey(
        "matches.Match",
        null=True,
        blank=True,
        on_delete=models.CASCADE,
        related_name="rating_points",
    )
    fit = models.ForeignKey(
        RatingFit, null=True, blank=True, on_delete=models.CASCADE, related_name="points"
    )
    rating = models.FloatField()
    low = models.FloatField()
    high = models.FloatField()
    games = models.PositiveIntegerField()
    created_at = models.DateTimeField(auto_now_add=True)

    class Meta:
        ordering = ["id"]
        indexes = [models.Index(fields=["bot_version", "ladder", "id"])]

    def __str__(self) -> str:
        after = f"match {self.match_id}" if self.match_id else f"refit {self.fit_id}"
        return f"version {self.bot_version_id} on ladder {self.ladder_id} after {after}"


class Season(models.Model):
    """One season of a ladder: its final standings are frozen when staff end it.

    The current season is the one with no ``ended_at``; a ladder that never ended a season has
    no row yet (its first season starts with the ladder).  ``priors`` holds the belief each
    version started the season with (version id -> [mu, sd], natural units) when the ratings
    were carried over, so a refit within the season starts from them instead of from zero.
    """

    ladder = models.ForeignKey("ladders.Ladder", on_delete=models.CASCADE, related_name="seasons")
    number = models.PositiveIntegerField()
    started_at = models.DateTimeField()
    ended_at = models.DateTimeField(null=True, blank=True)
    start = models.CharField(
        max_length=5, blank=True, help_text="carry or reset: how this season's ratings began"
    )
    priors = models.JSONField(default=dict, blank=True)

    class Meta:
        ordering = ["ladder", "-number"]
        constraints = [
            models.UniqueConstraint(fields=["ladder", "number"], name="one_season_number"),
            models.UniqueConstraint(
                fields=["ladder"],
                condition=models.Q(ended_at__isnull=True),
                name="one_current_season",
            ),
        ]

    def __str__(self) -> str:
        return f"season {self.number} of {self.ladder}"


class SeasonStanding(models.Model):
    """A bot's place in a season's final standings, frozen when the season ended."""

    season = models.ForeignKey(Season, on_delete=models.CASCADE, related_name="standings")
    bot = models.ForeignKey("bots.Bot", on_delete=models.CASCADE, related_name="season_standings")
    bot_version = models.ForeignKey(
        "bots.BotVersion", on_delete=models.CASCADE, related_name="season_standings"
    )
    rank = models.PositiveIntegerField()
    rating = models.FloatField()
    low = models.FloatField()
    high = models.FloatField()
    games = models.PositiveIntegerField()
    provisional = models.BooleanField(default=False)

    class Meta:
        ordering = ["season", "rank"]
        constraints = [
            models.UniqueConstraint(fields=["season", "bot"], name="one_standing_per_bot")
        ]

    def __str__(self) -> str:
        return f"{self.bot} #{self.rank} in {self.season}"
