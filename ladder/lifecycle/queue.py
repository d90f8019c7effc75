"""Ids handed to the workers after commit, by Celery task name: the ladder imports no worker code.

A queued match's id goes to ``monsoon.run_match``, a pending version's id to
``monsoon.validate_bot_version`` (both defined in ``workers/matches/tasks.py``). The message is
sent through Celery's current app: in a process with a broker configured that is the workers'
app (``workers/celery_app.py``, imported at start-up by the workers' Django app), so its
settings and routes apply. Without a broker nothing is sent and ids wait in the database.

Sending happens on commit, so a worker never receives an id whose row it cannot see yet. A
broker that cannot be reached loses nothing: the database is the queue, and the reaper
(``monsoon.reap``) sends again whatever waited too long (``matches_to_resend``,
``versions_to_resend``).

Tests capture what would be sent by replacing :func:`send` (``tests/conftest.py``'s ``sent``).
"""

from __future__ import annotations

import logging

from celery import current_app
from django.conf import settings
from django.db import transaction
from kombu.exceptions import OperationalError as BrokerError

logger = logging.getLogger(__name__)

RUN_MATCH = "monsoon.run_match"
VALIDATE_VERSION = "monsoon.validate_bot_version"


def send(task: str, object_id: int) -> None:
    """Hand an id to the broker now; when it is unreachable the id waits for the reaper."""
    if not settings.CELERY_BROKER_URL:
        logger.debug("no broker configured; %s(%s) waits in the database", task, object_id)
        return
    try:
        current_app.send_task(task, args=(object_id,), retry=True)
    except BrokerError as exc:
        logger.warning(
            "could not send %s(%s) to the broker (%s); the reaper sends it later",
            task,
            object_id,
            exc,
        )


def match_after_commit(match_id: int) -> None:
    """Send a queued match to the workers once the transaction that queued it commits."""
    transaction.on_commit(lambda: send(RUN_MATCH, match_id))


def validation_after_commit(version_id: int) -> None:
    """Send a pending version to the workers once the transaction that stored it commits."""
    transaction.on_commit(lambda: send(VALIDATE_VERSION, version_id))
