"""Writes for accounts: creating users, API tokens, the organisers group."""

from __future__ import annotations

from django.contrib.auth.models import Group
from django.db import transaction
from rest_framework.authtoken.models import Token

from ladder.accounts.models import ORGANISERS_GROUP, User, Visitor
from ladder.accounts.selectors import signed_in
from ladder.core.errors import ServiceError


@transaction.atomic
def create_user(username: str, *, password: str | None = None, email: str = "") -> User:
    """A new user with an API token; refuses a taken name (case-insensitively)."""
    if User.objects.filter(username__iexact=username).exists():
        raise ServiceError(f"the user name {username!r} is taken")
    user = User.objects.create_user(username=username, email=email, password=password)
    Token.objects.create(user=user)
    return user


def api_token(user: Visitor) -> str:
    """The user's API token, created on first use."""
    token, _ = Token.objects.get_or_create(user=signed_in(user, to="see your API token"))
    return token.key


@transaction.atomic
def rotate_token(user: Visitor) -> str:
    """Replace the user's token (the old one stops working at once)."""
    owner = signed_in(user, to="replace your API token")
    Token.objects.filter(user=owner).delete()
    return Token.objects.create(user=owner).key


def set_organiser(user: User, *, organiser: bool = True) -> None:
    """Add the user to the organisers group (or, with ``organiser=False``, take them out)."""
    group, _ = Group.objects.get_or_create(name=ORGANISERS_GROUP)
    if organiser:
        user.groups.add(group)
    else:
        user.groups.remove(group)
