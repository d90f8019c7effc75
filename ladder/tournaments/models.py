"""Scheduled tournaments: the event, its entrants, its rounds and the matches they played.

Tournament matches are ordinary :class:`~ladder.matches.models.Match` rows (kind ``tournament``)
run by the workers like any other; :class:`TournamentMatch` links each to its round, table, game
and duplicate block.  Workflow lives in ``services.py``; nothing happens in ``save()``.
"""

from __future__ import annotations

from django.conf import settings
from django.db import models


class Tournament(models.Model):
    """An event set up by an organiser.

    Statuses: ``scheduled`` (registration may be open; nothing frozen yet), ``running`` (versions
    frozen, rounds being played), ``paused`` (no new match handed to the workers), ``finished``
    (final standings stored, never changed again) or ``cancelled`` (played matches kept).
    """

    class Format(models.TextChoices):
        ROUND_ROBIN = "round_robin", "round robin"
        SWISS = "swiss", "Swiss"
        ELIMINATION = "elimination", "single elimination"

    class Status(models.TextChoices):
        SCHEDULED = "scheduled", "scheduled"
        RUNNING = "running", "running"
        PAUSED = "paused", "paused"
        FINISHED = "finished", "finished"
        CANCELLED = "cancelled", "cancelled"

    name = models.CharField(max_length=100)
    description = models.TextField(blank=True, max_length=4000)
    organiser = models.ForeignKey(
        settings.AUTH_USER_MODEL, on_delete=models.PROTECT, related_name="organised_tournaments"
    )
    ladder = models.ForeignKey(
        "ladders.Ladder",
        on_delete=models.PROTECT,
        related_name="tournaments",
        help_text="the game and table size; matches are filed under it",
    )
    game = models.CharField(max_length=40)
    num_players = models.PositiveSmallIntegerField(help_text="players per table")
    variant = models.CharField(max_length=40)
    format = models.CharField(max_length=12, choices=Format.choices)
    duplicate = models.BooleanField(
        default=False, help_text="replay each deal in every seat rotation so card luck cancels"
    )
    games_per_pairing = models.PositiveSmallIntegerField(
        default=1,
        help_text="round robin: rotation sets per table; Swiss and elimination: games "
        "per table per round",
    )
    rounds = models.PositiveSmallIntegerField(
        null=True, blank=True, help_text="Swiss rounds (empty: a default from the field size)"
    )
    advance = models.PositiveSmallIntegerField(
        default=1, help_text="elimination: how many of each table go through"
    )
    registration_opens_at = models.DateTimeField()
    registration_closes_at = models.DateTimeField()
    starts_at = models.DateTimeField(help_text="versions are frozen and round 1 starts here")
    time_zone = models.CharField(
        max_length=64,
        default="UTC",
        help_text="the organiser's IANA zone: the edit form shows the times in it",
    )
    is_public = models.BooleanField(
        default=True, help_text="unlisted tournaments are reachable by their link but not listed"
    )
    ranked = models.BooleanField(
        default=False, help_text="whether its matches count on the ladder's ratings"
    )
    seed = models.BigIntegerField(help_text="derives every match seed and the bootstrap's")
    status = models.CharField(max_length=10, choices=Status.choices, default=Status.SCHEDULED)
    status_reason = models.TextField(blank=True, help_text="why it paused or was cancelled")
    current_round = models.PositiveSmallIntegerField(default=0)
    planned_rounds = models.PositiveSmallIntegerField(
        null=True, blank=True, help_text="known once started"
    )
    planned_matches = models.PositiveIntegerField(
        null=True, blank=True, help_text="known once started; re-runs after failures not counted"
    )
    schedule = models.JSONField(
        null=True,
        blank=True,
        help_text="round robin: every round's tables and byes, fixed at the start",
    )
    created_at = models.DateTimeField(auto_now_add=True)
    started_at = models.DateTimeField(null=True, blank=True)
    finished_at = models.DateTimeField(null=True, blank=True)
    final_standings = models.JSONField(
        null=True, blank=True, help_text="snapshot when finished or cancelled"
    )
    final_crosstable = models.JSONField(null=True, blank=True)

    class Meta:
        ordering = ["-starts_at", "-id"]
        indexes = [
            models.Index(fields=["status", "starts_at"]),
            models.Index(fields=["is_public", "-starts_at"]),
        ]

    def __str__(self) -> str:
        return self.name

    @property
    def is_over(self) -> bool:
        return self.status in (self.Status.FINISHED, self.Status.CANCELLED)


class Entrant(models.Model):
    """A bot in a tournament; the version it plays is frozen when the tournament starts."""

    class Status(models.TextChoices):
        REGISTERED = "registered", "registered"
        PLAYING = "playing", "playing"
        DROPPED = "dropped", "dropped"

    tournament = models.ForeignKey(Tournament, on_delete=models.CASCADE, related_name="entrants")
    bot = models.ForeignKey("bots.Bot", on_delete=models.PROTECT, related_name="tournament_entries")
    invited_by = models.ForeignKey(
        settings.AUTH_USER_MODEL,
        null=True,
        blank=True,
        on_delete=models.SET_NULL,
        related_name="+",
        help_text="the organiser who invited it (empty: registered by its owner)",
    )
    registered_at = models.DateTimeField(auto_now_add=True)
    status = models.CharField(max_length=10, choices=Status.choices, default=Status.REGISTERED)
    version = models.ForeignKey(
        "bots.BotVersion",
        null=True,
        blank=True,
        on_delete=models.PROTECT,
        related_name="tournament_entries",
        help_text="frozen at the start",
    )
    seed = models.PositiveSmallIntegerField(
        null=True, blank=True, help_text="1 = highest ladder rating at the start"
    )
    seed_rating = models.FloatField(null=True, blank=True)
    dropped_reason = models.TextField(blank=True)

    class Meta:
        ordering = ["tournament", "seed", "registered_at", "id"]
        constraints = [
            models.UniqueConstraint(fields=["tournament", "bot"], name="one_entry_per_bot")
        ]

    def __str__(self) -> str:
        return f"{self.bot} in {self.tournament}"


class Round(models.Model):
    """One round; its byes are the entrant ids that sat out (with the points of a bye)."""

    class Status(models.TextChoices):
        RUNNING = "running", "running"
        COMPLETE = "complete", "complete"

    tournament = models.ForeignKey(Tournament, on_delete=models.CASCADE, related_name="round_set")
    number = models.PositiveSmallIntegerField()
    status = models.CharField(max_length=10, choices=Status.choices, default=Status.RUNNING)
    byes = models.JSONField(default=list, blank=True, help_text="entrant ids with a bye")
    created_at = models.DateTimeField(auto_now_add=True)
    completed_at = models.DateTimeField(null=True, blank=True)

    class Meta:
        ordering = ["tournament", "number"]
        constraints = [
            models.UniqueConstraint(fields=["tournament", "number"], name="one_round_number")
        ]

    def __str__(self) -> str:
        return f"round {self.number} of {self.tournament}"


class TournamentMatch(models.Model):
    """A match of a tournament, in its round, table, game, duplicate block and seat rotation.

    A match that failed on infrastructure is replaced by a fresh one (same seats, same seed); the
    old link stays with ``superseded`` set, so the history is kept and exactly one live match fills
    each slot.
    """

    tournament = models.ForeignKey(
        Tournament, on_delete=models.CASCADE, related_name="tournament_matches"
    )
    round = models.ForeignKey(Round, on_delete=models.CASCADE, related_name="tournament_matches")
    table = models.PositiveSmallIntegerField(help_text="0-based table of the round")
    game = models.PositiveSmallIntegerField(help_text="0-based game (block) at the table")
    rotation = models.PositiveSmallIntegerField(default=0, help_text="seat rotation in the block")
    block = models.PositiveIntegerField(
        help_text="matches of one block share a seed; the bootstrap resamples blocks whole"
    )
    entrants = models.JSONField(help_text="entrant ids in seat order")
    match = models.OneToOneField(
        "matches.Match", on_delete=models.PROTECT, related_name="tournament_match"
    )
    attempt = models.PositiveSmallIntegerField(default=0, help_text="re-runs after failures")
    superseded = models.BooleanField(default=False)

    class Meta:
        ordering = ["round", "table", "game", "rotation", "attempt"]
        constraints = [
            models.UniqueConstraint(
                fields=["round", "table", "game", "rotation"],
                condition=models.Q(superseded=False),
                name="one_live_match_per_slot",
            )
        ]
        indexes = [models.Index(fields=["tournament", "superseded"])]

    def __str__(self) -> str:
        return f"{self.tournament} r{self.round.number} t{self.table} g{self.game}"
