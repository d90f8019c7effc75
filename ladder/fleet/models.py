"""The worker processes that play matches, as they report themselves."""

from __future__ import annotations

from django.db import models


class WorkerNode(models.Model):
    """One Celery worker (a host and its main process) and what it offers.

    Workers write this row themselves at start-up and on every heartbeat; operators read it to
    see which machines are playing, how many match slots each has and which are gone quiet.
    """

    name = models.CharField(max_length=200, unique=True, help_text="Celery's worker name")
    hostname = models.CharField(max_length=200)
    pid = models.PositiveIntegerField()
    slots = models.PositiveSmallIntegerField(help_text="matches it can play at once")
    queues = models.JSONField(default=list)
    sandbox = models.CharField(max_length=20, help_text="bwrap, or none (unsandboxed)")
    sandbox_problem = models.TextField(blank=True, help_text="why bots cannot be sandboxed")
    storage_problem = models.TextField(
        blank=True, help_text="why this host cannot read the stored bot artifacts"
    )
    started_at = models.DateTimeField()
    last_seen = models.DateTimeField()
    stopped_at = models.DateTimeField(null=True, blank=True)

    class Meta:
        ordering = ["-last_seen"]

    def __str__(self) -> str:
        return self.name
