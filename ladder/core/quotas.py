"""Per-user budgets that count rows ("20 bots an hour"), exact under concurrency.

A count followed by an insert races: 40 parallel requests all count 0..19 before any of them
inserts, and 31 bots were created against a limit of 20. :func:`hold_quota` first locks the
user's row (``SELECT ... FOR UPDATE``), so one user's concurrent requests queue there and each
counts what the ones before it inserted; other users are not held up. It must run inside the
``transaction.atomic()`` block that inserts the row, so the lock is held until the commit.

Every service that checks such a budget and creates the counted row uses it: bot creation,
uploads, challenges and version tests.
"""

from __future__ import annotations

import math
from datetime import timedelta

from django.contrib.auth import get_user_model
from django.contrib.auth.base_user import AbstractBaseUser
from django.db import transaction
from django.db.models import Model, QuerySet
from django.utils import timezone

from ladder.core.errors import RateLimited


def lock_user(user: AbstractBaseUser) -> None:
    """Hold ``user``'s row until the surrounding transaction ends (queues their requests)."""
    if not transaction.get_connection().in_atomic_block:
        raise RuntimeError("lock_user must run inside transaction.atomic()")
    get_user_model().objects.select_for_update().only("pk").get(pk=user.pk)


def hold_quota(
    user: AbstractBaseUser,
    rows: QuerySet[Model],
    *,
    limit: int,
    window: timedelta,
    what: str,
    field: str = "created_at",
) -> None:
    """Lock ``user`` and raise :class:`RateLimited` when ``rows`` has ``limit`` or more rows
    whose ``field`` lies within the last ``window``; ``Retry-After`` is when the oldest of
    them leaves the window. ``what`` names the budget: "at most 20 {what} an hour"."""
    lock_user(user)
    now = timezone.now()
    recent = list(
        rows.filter(**{f"{field}__gte": now - window}).order_by(field).values_list(field, flat=True)
    )
    if len(recent) < limit:
        return
    # The budget has room again once all but limit - 1 of them have left the window.
    frees_at = recent[len(recent) - limit] + window if limit > 0 else now + window
    wait = max(1, math.ceil((frees_at - now).total_seconds()))
    period = _period(window)
    raise RateLimited(
        f"at most {limit} {what} {period}; the next one is possible in {wait} s",
        retry_after=wait,
    )


def _period(window: timedelta) -> str:
    if window == timedelta(hours=1):
        return "an hour"
    if window == timedelta(days=1):
        return "a day"
    return f"in {int(window.total_seconds())} s"
