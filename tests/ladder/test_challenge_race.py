"""The hourly challenge limit holds under real concurrency (PostgreSQL, one thread a request)."""

from __future__ import annotations

import threading

import pytest
from django.db import connection, connections

from ladder.core.errors import RateLimited
from ladder.matches.models import Match
from ladder.matches.services import create_challenge
from tests.factories import make_active_version, make_bot

REQUESTS = 40


@pytest.mark.django_db(transaction=True)
def test_parallel_challenges_never_exceed_the_hourly_limit(alice, settings):
    if connection.vendor != "postgresql":
        pytest.skip("row locks need PostgreSQL")
    settings.MONSOON_CHALLENGES_PER_HOUR = 20
    bots = [make_bot(alice, f"racer-{i}") for i in range(3)]
    for bot in bots:
        make_active_version(bot)
    ids = [b.pk for b in bots]
    start = threading.Barrier(REQUESTS)
    outcomes: list[str] = []

    def ask() -> None:
        try:
            start.wait()
            create_challenge(alice, ids)
            outcomes.append("created")
        except RateLimited:
            outcomes.append("refused")
        finally:
            connections.close_all()

    threads = [threading.Thread(target=ask) for _ in range(REQUESTS)]
    for thread in threads:
        thread.start()
    for thread in threads:
        thread.join()
    assert outcomes.count("created") == 20 and outcomes.count("refused") == 20
    assert Match.objects.filter(kind=Match.Kind.CHALLENGE, requested_by=alice).count() == 20
