"""Version tests under real concurrency (PostgreSQL, one thread a caller): a match announced by
many callers at once counts once, both legs of a pair finishing together fold the pair once,
and parallel starts respect the one-running-test limit."""

from __future__ import annotations

import functools
import threading
from collections.abc import Callable

import pytest
from django.db import connection, connections

from bots.builtin import get_policy
from ladder.core.errors import RateLimited
from ladder.ladders.services import sync_ladders
from ladder.lifecycle import flow
from ladder.versus import services
from ladder.versus.models import VersionTest, VersionTestGame
from tests.versus.play import bot_with_versions, engine_record

pytestmark = pytest.mark.django_db(transaction=True)
CALLERS = 8


def together(calls: list[Callable[[], None]]) -> list[str]:
    """Run every call in its own thread, released at once; what each ended with."""
    barrier = threading.Barrier(len(calls))
    outcomes: list[str] = []

    def run(call: Callable[[], None]) -> None:
        try:
            barrier.wait()
            call()
            outcomes.append("ok")
        except RateLimited:
            outcomes.append("refused")
        finally:
            connections.close_all()

    threads = [threading.Thread(target=run, args=(call,)) for call in calls]
    for thread in threads:
        thread.start()
    for thread in threads:
        thread.join()
    return outcomes


@pytest.fixture
def postgres() -> None:
    if connection.vendor != "postgresql":
        pytest.skip("row locks need PostgreSQL")
    sync_ladders()  # a transactional test may start from an emptied database


def test_a_pair_announced_by_many_callers_at_once_counts_once(postgres, alice):
    _, (baseline, candidate) = bot_with_versions(alice)
    test = services.start_test(user=alice, candidate_id=candidate.pk, baseline_id=baseline.pk)
    legs = list(VersionTestGame.objects.filter(test=test, pair=0).select_related("match"))
    for leg in legs:
        policies = [get_policy("random", leg.match.game)] * 2
        # Recorded by the worker; the hook calls come below, all at once.
        flow.record_result(match_id=leg.match_id, result=engine_record(leg.match, policies))
    calls: list[Callable[[], None]] = [
        functools.partial(services.match_over, match_id=leg.match_id)
        for leg in legs
        for _ in range(CALLERS // 2)
    ]
    assert together(calls) == ["ok"] * CALLERS
    test.refresh_from_db()
    assert sum(test.pairs) == 1
    assert VersionTestGame.objects.filter(test=test, pair=0, counted=True).count() == 2


def test_parallel_starts_leave_one_running_test(postgres, alice):
    _, (baseline, candidate) = bot_with_versions(alice)

    def start() -> None:
        services.start_test(user=alice, candidate_id=candidate.pk, baseline_id=baseline.pk)

    outcomes = together([start] * CALLERS)
    assert sorted(outcomes) == ["ok"] + ["refused"] * (CALLERS - 1)
    assert VersionTest.objects.filter(owner=alice, status=VersionTest.Status.RUNNING).count() == 1
