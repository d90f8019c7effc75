"""Budgets that count rows hold under real concurrency (PostgreSQL, one thread a request).

Without the lock on the user's row, 40 parallel ``POST bots/`` created 31 bots against a limit
of 20 an hour: each request counted before any other had inserted.
"""

from __future__ import annotations

import threading
from collections.abc import Callable

import pytest
from django.db import connection, connections

from ladder.bots import services as bot_services
from ladder.bots.models import Bot, BotVersion
from ladder.core.errors import RateLimited
from tests.factories import make_bot

REQUESTS = 40
LIMIT = 20


def race(action: Callable[[int], object]) -> list[str]:
    """Run ``action(i)`` for i < REQUESTS in as many threads released at once."""
    start = threading.Barrier(REQUESTS)
    outcomes: list[str] = []

    def one(i: int) -> None:
        try:
            start.wait()
            action(i)
            outcomes.append("created")
        except RateLimited as exc:
            assert exc.retry_after and exc.retry_after > 0
            outcomes.append("refused")
        finally:
            connections.close_all()

    threads = [threading.Thread(target=one, args=(i,)) for i in range(REQUESTS)]
    for thread in threads:
        thread.start()
    for thread in threads:
        thread.join()
    return outcomes


@pytest.fixture
def postgres_only():
    if connection.vendor != "postgresql":
        pytest.skip("row locks need PostgreSQL")


@pytest.mark.django_db(transaction=True)
def test_parallel_bot_creation_never_exceeds_the_hourly_limit(postgres_only, alice, settings):
    settings.MONSOON_BOTS_PER_HOUR = LIMIT
    outcomes = race(lambda i: bot_services.create_bot(alice, name=f"swarm-{i}", game="batavia"))
    assert outcomes.count("created") == LIMIT and outcomes.count("refused") == REQUESTS - LIMIT
    assert Bot.objects.filter(owner=alice).count() == LIMIT


@pytest.mark.django_db(transaction=True)
def test_parallel_uploads_never_exceed_the_hourly_limit(
    postgres_only, alice, settings, monkeypatch
):
    # Forty compile checks at once on a loaded two-core machine: give each time enough.
    monkeypatch.setattr("ladder.bots.source_check.CHILD_WALL_SECONDS", 120)
    bots = [make_bot(alice, f"uploader-{i}") for i in range(4)]
    settings.MONSOON_UPLOADS_PER_HOUR = LIMIT
    outcomes = race(
        lambda i: bot_services.upload_version(
            bots[i % len(bots)], user=alice, filename="main.py", data=f"print({i})\n".encode()
        )
    )
    assert outcomes.count("created") == LIMIT and outcomes.count("refused") == REQUESTS - LIMIT
    assert BotVersion.objects.filter(bot__owner=alice).count() == LIMIT
