"""Writes for accounts: creating users, API tokens, the organisers group."""

from __future__ import annotations

from django.contrib.auth.models import Group
from django.db import transaction
from django.utils import timezone
from rest_framework.authtoken.models import Token

from ladder.accounts.models import ORGANISERS_GROUP, OrganiserRequest, User, Visitor
from ladder.accounts.selectors import is_organiser, pending_request, signed_in
from ladder.core.errors import Conflict, NotAllowed, ServiceError


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


def request_organiser(user: Visitor, *, reason: str) -> OrganiserRequest:
    """Ask staff to make the user an organiser; one request waits at a time."""
    asker = signed_in(user, to="ask to become an organiser")
    reason = reason.strip()
    if not reason:
        raise ServiceError("say what you would like to organise, so staff can decide")
    with transaction.atomic():
        User.objects.select_for_update().get(pk=asker.pk)  # one request at a time per user
        if is_organiser(asker):
            raise Conflict("you are an organiser already")
        if pending_request(asker) is not None:
            raise Conflict("your earlier request is still waiting for staff")
        return OrganiserRequest.objects.create(user=asker, reason=reason)


def decide_organiser_request(request_id: int, *, staff: Visitor, approve: bool) -> OrganiserRequest:
    """Staff approve (the user joins the organisers group) or decline a waiting request."""
    if not (isinstance(staff, User) and staff.is_staff):
        raise NotAllowed("only staff decide organiser requests")
    with transaction.atomic():
        req = OrganiserRequest.objects.select_for_update().select_related("user").get(pk=request_id)
        if req.status != OrganiserRequest.Status.PENDING:
            raise Conflict(f"this request was {req.status} already")
        req.status = (
            OrganiserRequest.Status.APPROVED if approve else OrganiserRequest.Status.DECLINED
        )
        req.decided_at = timezone.now()
        req.decided_by = staff
        req.save(update_fields=["status", "decided_at", "decided_by"])
        if approve:
            set_organiser(req.user)
        return req


def mark_notified(request_ids: list[int]) -> None:
    """The user has been told these decisions; they are not announced again."""
    OrganiserRequest.objects.filter(pk__in=request_ids, notified_at__isnull=True).update(
        notified_at=timezone.now()
    )
