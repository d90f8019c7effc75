"""Reads for accounts."""

from __future__ import annotations

from django.db.models import QuerySet

from ladder.accounts.models import ORGANISERS_GROUP, OrganiserRequest, User, Visitor
from ladder.core.errors import NotAllowed


def is_organiser(user: Visitor) -> bool:
    """Organisers (the ``organisers`` group) and staff may run tournaments."""
    if not isinstance(user, User):
        return False
    return bool(user.is_staff or user.groups.filter(name=ORGANISERS_GROUP).exists())


def signed_in(user: Visitor, *, to: str) -> User:
    """The user, or :class:`NotAllowed` ("log in to ...") for an anonymous visitor.

    Services that act for someone take ``request.user`` as it comes and check here, so an
    anonymous caller gets a clear refusal whatever view forgot to require a login.
    """
    if not isinstance(user, User):
        raise NotAllowed(f"log in to {to}")
    return user


def pending_request(user: Visitor) -> OrganiserRequest | None:
    """The user's organiser request that staff have not decided yet, if any."""
    if not isinstance(user, User):
        return None
    return OrganiserRequest.objects.filter(
        user=user, status=OrganiserRequest.Status.PENDING
    ).first()


def unannounced_decisions(user: Visitor) -> QuerySet[OrganiserRequest]:
    """Decisions on the user's organiser requests they have not been told about yet."""
    if not isinstance(user, User):
        return OrganiserRequest.objects.none()
    return OrganiserRequest.objects.filter(user=user, notified_at__isnull=True).exclude(
        status=OrganiserRequest.Status.PENDING
    )
