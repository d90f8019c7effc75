"""Users: Django's user with room to grow (a custom model cannot be swapped in later)."""

from __future__ import annotations

from typing import TypeAlias

from django.conf import settings
from django.contrib.auth.models import AbstractUser, AnonymousUser
from django.db import models

ORGANISERS_GROUP = "organisers"


class User(AbstractUser):
    """A person who owns bots, asks for challenges and (as an organiser) runs tournaments."""

    class Meta:
        db_table = "accounts_user"


# Whoever makes a request: a signed-in user or an anonymous visitor (``request.user``).  Reads
# and the services that answer visitors too take this; services that act for a user take User.
Visitor: TypeAlias = User | AnonymousUser


class OrganiserRequest(models.Model):
    """A user's request to become an organiser (to run tournaments); staff decide in the admin.

    ``notified_at`` is set once the user has been told the decision (a message on their next
    page), so each decision is announced exactly once.
    """

    class Status(models.TextChoices):
        PENDING = "pending", "waiting for staff"
        APPROVED = "approved", "approved"
        DECLINED = "declined", "declined"

    user = models.ForeignKey(
        settings.AUTH_USER_MODEL, on_delete=models.CASCADE, related_name="organiser_requests"
    )
    reason = models.TextField(max_length=2000, help_text="what the user means to organise")
    status = models.CharField(max_length=8, choices=Status.choices, default=Status.PENDING)
    created_at = models.DateTimeField(auto_now_add=True)
    decided_at = models.DateTimeField(null=True, blank=True)
    decided_by = models.ForeignKey(
        settings.AUTH_USER_MODEL,
        null=True,
        blank=True,
        on_delete=models.SET_NULL,
        related_name="+",
    )
    notified_at = models.DateTimeField(null=True, blank=True)

    class Meta:
        ordering = ["-created_at", "-id"]
        constraints = [
            models.UniqueConstraint(
                fields=["user"],
                condition=models.Q(status="pending"),
                name="one_pending_organiser_request",
            )
        ]
        indexes = [models.Index(fields=["user", "notified_at"])]

    def __str__(self) -> str:
        return f"{self.user} asks to organise ({self.status})"
