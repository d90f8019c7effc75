"""Users: Django's user with room to grow (a custom model cannot be swapped in later)."""

from __future__ import annotations

from typing import TypeAlias

from django.contrib.auth.models import AbstractUser, AnonymousUser

ORGANISERS_GROUP = "organisers"


class User(AbstractUser):
    """A person who owns bots, asks for challenges and (as an organiser) runs tournaments."""

    class Meta:
        db_table = "accounts_user"


# Whoever makes a request: a signed-in user or an anonymous visitor (``request.user``).  Reads
# and the services that answer visitors too take this; services that act for a user take User.
Visitor: TypeAlias = User | AnonymousUser
