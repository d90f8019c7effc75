"""Bots and their immutable versions."""

from __future__ import annotations

from django.conf import settings
from django.db import models


class Bot(models.Model):
    """A named bot for one game, owned by a user.  Its versions hold the code."""

    owner = models.ForeignKey(
        settings.AUTH_USER_MODEL, on_delete=models.PROTECT, related_name="bots"
    )
    name = models.SlugField(max_length=40, unique=True)
    game = models.CharField(max_length=40)
    description = models.TextField(blank=True, max_length=2000)
    is_public = models.BooleanField(
        default=True,
        help_text="public bots play ranked games and can be challenged by anyone; private bots "
        "are seen by their owner only and play challenges only",
    )
    created_at = models.DateTimeField(auto_now_add=True)

    class Meta:
        ordering = ["name"]
        indexes = [models.Index(fields=["game", "is_public"])]

    def __str__(self) -> str:
        return self.name


class BotVersion(models.Model):
    """One uploaded artifact of a bot.  Never edited after upload except for its status."""

    class Status(models.TextChoices):
        PENDING = "pending", "pending validation"
        VALIDATING = "validating", "validating"
        ACTIVE = "active", "active"
        REJECTED = "rejected", "rejected"
        RETIRED = "retired", "retired"

    class Kind(models.TextChoices):
        PYTHON = "py", "single Python file"
        ZIP = "zip", "zip archive"
        TAR_GZ = "tar.gz", "gzipped tar archive"

    bot = models.ForeignKey(Bot, on_delete=models.PROTECT, related_name="versions")
    number = models.PositiveIntegerField()
    artifact = models.FileField(upload_to="bots/", max_length=200)
    kind = models.CharField(max_length=8, choices=Kind.choices)
    sha256 = models.CharField(max_length=64)
    size = models.PositiveIntegerField(help_text="bytes of the uploaded artifact")
    command = models.JSONField(help_text="how the sandbox starts the bot (argv in the artifact)")
    file_count = models.PositiveIntegerField(default=1)
    unpacked_size = models.PositiveIntegerField(default=0)
    status = models.CharField(max_length=12, choices=Status.choices, default=Status.PENDING)
    failure_reason = models.TextField(blank=True, help_text="why validation rejected it")
    uploaded_at = models.DateTimeField(auto_now_add=True)
    validated_at = models.DateTimeField(null=True, blank=True)
    validation_started_at = models.DateTimeField(
        null=True, blank=True, help_text="when a worker took it (its lease starts here)"
    )
    validation_error = models.TextField(
        blank=True,
        help_text="the last failure of validation that was not the bot's (retried); the same "
        "one MONSOON_VALIDATION_SAME_FAILURES times in a row rejects the version",
    )
    validation_error_count = models.PositiveSmallIntegerField(
        default=0, help_text="how many times in a row validation failed with validation_error"
    )
    validation_sent_at = models.DateTimeField(
        null=True, blank=True, help_text="when its id was last sent to the broker again"
    )
    smoke_log = models.CharField(
        max_length=200,
        blank=True,
        default="",
        help_text="object name of the validation smoke match's log in the match_logs storage "
        "(empty: none kept)",
    )

    class Meta:
        ordering = ["bot", "-number"]
        constraints = [
            models.UniqueConstraint(fields=["bot", "number"], name="version_number_per_bot")
        ]
        indexes = [models.Index(fields=["status"])]

    def __str__(self) -> str:
        return f"{self.bot.name} v{self.number}"

    @property
    def label(self) -> str:
        return f"{self.bot.name} v{self.number}"
