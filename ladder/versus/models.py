"""Version tests: "is my new version better than my current one?", settled by paired matches.

A :class:`VersionTest` pits a bot's candidate version against its baseline version in pairs of
unranked matches (kind ``versus``): both matches of a pair share a seed and swap the two versions'
seats.  Each finished pair adds one to a cell of the pentanomial (``pairs``), and the sequential
test (:mod:`ladder.versus.sprt`) decides after every pair whether to stop.
"""

from __future__ import annotations

from django.conf import settings
from django.db import models


def empty_pentanomial() -> list[int]:
    return [0, 0, 0, 0, 0]


class VersionTest(models.Model):
    class Status(models.TextChoices):
        RUNNING = "running", "running"
        ACCEPTED = "accepted", "better (H1 accepted)"
        REJECTED = "rejected", "not better (H0 accepted)"
        INCONCLUSIVE = "inconclusive", "inconclusive (game cap reached)"
        CANCELLED = "cancelled", "cancelled"

    owner = models.ForeignKey(
        settings.AUTH_USER_MODEL, on_delete=models.CASCADE, related_name="version_tests"
    )
    bot = models.ForeignKey("bots.Bot", on_delete=models.PROTECT, related_name="version_tests")
    candidate = models.ForeignKey(
        "bots.BotVersion", on_delete=models.PROTECT, related_name="tests_as_candidate"
    )
    baseline = models.ForeignKey(
        "bots.BotVersion", on_delete=models.PROTECT, related_name="tests_as_baseline"
    )
    ladder = models.ForeignKey(
        "ladders.Ladder",
        on_delete=models.PROTECT,
        related_name="version_tests",
        help_text="the table size; seats beyond the two versions hold copies of the baseline",
    )
    elo0 = models.FloatField(help_text="H0: the candidate is this many Elo better (or less)")
    elo1 = models.FloatField(help_text="H1: the candidate is at least this many Elo better")
    alpha = models.FloatField(help_text="chance of accepting H1 when H0 holds")
    beta = models.FloatField(help_text="chance of accepting H0 when H1 holds")
    max_games = models.PositiveIntegerField(help_text="the test stops inconclusive here")
    status = models.CharField(max_length=12, choices=Status.choices, default=Status.RUNNING)
    status_reason = models.TextField(blank=True)
    pairs = models.JSONField(
        default=empty_pentanomial,
        help_text="finished pairs by candidate points: [0, 1/2, 1, 3/2, 2]",
    )
    next_pair = models.PositiveIntegerField(default=0, help_text="index of the next pair to start")
    void_pairs = models.PositiveIntegerField(
        default=0, help_text="pairs with a failed or cancelled match, never counted"
    )
    llr = models.FloatField(default=0.0, help_text="log-likelihood ratio after the last pair")
    elo = models.FloatField(null=True, blank=True)
    elo_low = models.FloatField(null=True, blank=True)
    elo_high = models.FloatField(null=True, blank=True)
    created_at = models.DateTimeField(auto_now_add=True)
    finished_at = models.DateTimeField(null=True, blank=True)

    class Meta:
        ordering = ["-id"]
        indexes = [
            models.Index(fields=["owner", "created_at"]),
            models.Index(fields=["owner", "status"]),
        ]

    def __str__(self) -> str:
        return f"version test {self.pk} ({self.bot_id}: {self.candidate_id} vs {self.baseline_id})"

    @property
    def pair_count(self) -> int:
        return sum(self.pairs)

    @property
    def games_counted(self) -> int:
        return 2 * sum(self.pairs)


class VersionTestGame(models.Model):
    """One match of a pair: which seats the two versions took, and the candidate's game score.

    ``counted`` is the claim: the match's result is taken into the test by the one conditional
    update that turns it true, so a result reported twice is counted once.
    """

    test = models.ForeignKey(VersionTest, on_delete=models.CASCADE, related_name="games")
    match = models.OneToOneField(
        "matches.Match", on_delete=models.PROTECT, related_name="version_test_game"
    )
    pair = models.PositiveIntegerField()
    leg = models.PositiveSmallIntegerField(help_text="0 or 1: the seats are swapped in leg 1")
    candidate_seat = models.PositiveSmallIntegerField()
    baseline_seat = models.PositiveSmallIntegerField()
    counted = models.BooleanField(default=False)
    score = models.FloatField(
        null=True, blank=True, help_text="1, 1/2 or 0 for the candidate; empty if void"
    )
    void = models.BooleanField(default=False, help_text="the match failed or was cancelled")

    class Meta:
        ordering = ["test", "pair", "leg"]
        constraints = [
            models.UniqueConstraint(fields=["test", "pair", "leg"], name="one_match_per_leg")
        ]

    def __str__(self) -> str:
        return f"pair {self.pair} leg {self.leg} of version test {self.test_id}"
