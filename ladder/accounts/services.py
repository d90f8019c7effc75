"""Writes for accounts: creating users, API tokens, the organisers group."""

from __future__ import annotations

from django.contrib.auth.models import Group
from django.db import transaction
from rest_framework.authtoken.models import Token

from ladder.accounts.models import ORGANISERS_GROUP, User
from ladder.core.errors import ServiceError


@transaction.atomic
def create_user(username: str, password: str | None = None, *, email: str = "") -> User:
    """A new user with an API token; refuses a taken name (case-insensitively)."""
    if User.objects.filter(username__iexact=username).exists():
        raise ServiceError(f"the user name {username!r} is taken")
    user = User.objects.create_user(username=username, email=email, password=password)
    Token.objects.create(user=user)
    return user


def api_token(user: User) -> str:
    """The user's API token, created on first use."""
    token, _ = Token.objects.get_or_create(user=user)
    return token.key


@transaction.atomic
def rotate_token(user: User) -> str:
    """Replace the user's token (the old one stops working at once)."""
    Token.objects.filter(user=user).delete()
    return Token.objects.create(user=user).key


def set_organiser(user: User, organiser: bool = True) -> None:
    group, _ = Group.objects.get_or_create(name=ORGANISERS_GROUP)
    if organiser:
        user.groups.add(group)
    else:
        user.groups.remove(group)
