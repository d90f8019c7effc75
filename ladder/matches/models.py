"""Matches, their seats and their logs."""

from __future__ import annotations

from django.conf import settings
from django.db import models

from bots.forfeits import FORFEIT_CODES


class Match(models.Model):
    """One game between bot versions, from scheduling to result.

    Statuses: ``new`` (created, not yet handed to the workers), ``queued`` (sent to the queue),
    ``running`` (claimed by a worker, with a lease), then ``finished`` (a result, possibly with
    forfeits), ``failed`` (infrastructure failed too often: never a result) or ``cancelled``.
    """

    class Status(models.TextChoices):
        NEW = "new", "new"
        QUEUED = "queued", "queued"
        RUNNING = "running", "running"
        FINISHED = "finished", "finished"
        FAILED = "failed", "failed"
        CANCELLED = "cancelled", "cancelled"

        @classmethod
        def over(cls) -> tuple[str, ...]:
            """The statuses of a match that is over: the one definition of "over"."""
            return (cls.FINISHED, cls.FAILED, cls.CANCELLED)

    class Kind(models.TextChoices):
        LADDER = "ladder", "ladder"
        CHALLENGE = "challenge", "challenge"
        TOURNAMENT = "tournament", "tournament"
        VERSUS = "versus", "version test"

    # No index of its own: the (ladder, id) index below leads with it.
    ladder = models.ForeignKey(
        "ladders.Ladder", on_delete=models.PROTECT, related_name="matches", db_index=False
    )
    game = models.CharField(max_length=40)
    variant = models.CharField(max_length=40)
    seed = models.BigIntegerField()
    kind = models.CharField(max_length=12, choices=Kind.choices, default=Kind.LADDER)
    ranked = models.BooleanField(default=True)
    status = models.CharField(max_length=10, choices=Status.choices, default=Status.NEW)
    requested_by = models.ForeignKey(
        settings.AUTH_USER_MODEL,
        null=True,
        blank=True,
        on_delete=models.SET_NULL,
        related_name="requested_matches",
        db_index=False,  # only challenges have one: the partial index below holds just those
    )
    created_at = models.DateTimeField(auto_now_add=True)
    queued_at = models.DateTimeField(null=True, blank=True)
    sent_at = models.DateTimeField(
        null=True, blank=True, help_text="when its id was last sent to the broker again"
    )
    started_at = models.DateTimeField(null=True, blank=True)
    finished_at = models.DateTimeField(null=True, blank=True)
    attempts = models.PositiveSmallIntegerField(default=0)
    worker = models.CharField(max_length=200, blank=True, help_text="who ran (or runs) it")
    lease_expires_at = models.DateTimeField(null=True, blank=True)
    status_reason = models.TextField(blank=True, help_text="why it failed or was cancelled")
    rated = models.BooleanField(default=False, help_text="whether ratings counted this result")

    class Meta:
        ordering = ["-id"]
        verbose_name_plural = "matches"
        # Every index costs bytes on each of a million rows (docs/scale.md), so each one here
        # serves a query: lists by ladder or game newest first, and the few unfinished matches
        # (the sweeps, the queue, lists of failed or cancelled ones) by status.  Finished
        # matches are almost all of them: a list of those walks the primary key backwards.
        # Ids ascend in the indexes, as they are created: PostgreSQL reads them backwards for
        # "newest first" just as fast, and a new id then lands on the rightmost page, which
        # splits 90/10; descending, every new id landed on the first page of its ladder, which
        # split 50/50 and left the index half empty (56 bytes a match instead of 31).
        indexes = [
            models.Index(
                fields=["status", "id"],
                name="matches_unfinished_idx",
                condition=~models.Q(status="finished"),
            ),
            models.Index(fields=["ladder", "id"], name="matches_ladder_id_idx"),
            models.Index(fields=["game", "id"], name="matches_game_id_idx"),
            models.Index(
                fields=["requested_by"],
                name="matches_requested_by_idx",
                condition=models.Q(requested_by__isnull=False),
            ),
        ]

    def __str__(self) -> str:
        return f"match {self.pk} ({self.game}, {self.status})"

    @property
    def is_over(self) -> bool:
        return self.status in self.Status.over()


class MatchSeat(models.Model):
    """A bot version in one seat of a match, with its own outcome and (private) stderr.

    The seats are the one record of a result: the match's ranking and scores are read from
    their ``place`` and ``score`` (``ladder.matches.selectors.ranking_of``), not kept twice.
    """

    # Neither foreign key has an index of its own: the unique (match, seat) constraint and the
    # (bot_version, match) index lead with them.
    match = models.ForeignKey(Match, on_delete=models.CASCADE, related_name="seats", db_index=False)
    seat = models.PositiveSmallIntegerField()
    bot_version = models.ForeignKey(
        "bots.BotVersion", on_delete=models.PROTECT, related_name="seats", db_index=False
    )
    score = models.FloatField(null=True, blank=True)
    place = models.PositiveSmallIntegerField(null=True, blank=True)
    forfeit_code = models.CharField(
        max_length=20,
        choices=[(code, code.replace("_", " ")) for code in FORFEIT_CODES],
        blank=True,
        db_default="",  # rows written by SQL alone (the scale benchmark's COPY) did not forfeit
        help_text="why the seat forfeited (empty: it did not)",
    )
    forfeit_reason = models.TextField(blank=True, help_text="the runner's words for the forfeit")
    stderr = models.TextField(blank=True, help_text="shown to the bot's owner only")

    class Meta:
        ordering = ["match", "seat"]
        constraints = [models.UniqueConstraint(fields=["match", "seat"], name="one_bot_per_seat")]
        indexes = [models.Index(fields=["bot_version", "match"])]

    def __str__(self) -> str:
        return f"seat {self.seat} of match {self.match_id}"


class MatchLog(models.Model):
    """Where a match's game log is: an object in the ``match_logs`` storage (see logstore.py).

    The log itself is not in the database: a million of them is gigabytes that every backup,
    vacuum and replica would carry for rows nobody queries.
    """

    class Codec(models.TextChoices):
        ZSTD = "zstd", "zstd-compressed JSON"

    match = models.OneToOneField(
        Match, on_delete=models.CASCADE, related_name="log", primary_key=True
    )
    name = models.CharField(max_length=200, help_text="object name in the match_logs storage")
    codec = models.CharField(max_length=8, choices=Codec.choices, default=Codec.ZSTD)
    size = models.PositiveIntegerField(help_text="bytes of the uncompressed JSON")
    stored_size = models.PositiveIntegerField(help_text="bytes of the stored object")

    def __str__(self) -> str:
        return f"log of match {self.match_id} ({self.codec}, {self.stored_size} bytes)"


class MatchProgress(models.Model):
    """A running match as far as it has gone, published by its worker for live spectators.

    Only the public part of each decision (seat, action, thinking time, who decided) and the
    forfeits so far; the seed stays unpublished until the match is over, so the hidden cards
    cannot be re-simulated by a spectator. The row exists while the match runs: recording the
    result, a failure or a cancel deletes it, so it costs nothing once the match is over.
    """

    match = models.OneToOneField(
        Match, on_delete=models.CASCADE, related_name="progress", primary_key=True
    )
    decisions = models.JSONField(default=list)
    forfeits = models.JSONField(default=list)
    updated_at = models.DateTimeField()

    def __str__(self) -> str:
        return f"progress of match {self.match_id} ({len(self.decisions)} decisions)"
