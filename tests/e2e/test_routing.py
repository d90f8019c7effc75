"""A match routed to a warm worker reaches it through the worker's direct queue.

A real Celery worker that consumes only the ``validation`` queue (and, as every worker, its own
direct queue ``<node>.dq2``) plays a match only if the router sent it there. The warm seats are
advertised the way a pool process does after a match (``workers.routing.Advertiser``); the
router runs in this process, as in the web process that sends the match after commit.
"""

from __future__ import annotations

import pytest

from ladder.accounts.services import create_user
from ladder.bots import services as bot_services
from ladder.fleet.models import WorkerNode
from ladder.matches import services as match_services
from ladder.matches.models import Match
from tests.e2e.stack import REFERENCE, Status, wait_for
from tests.factories import accept, ladder_for, make_bot
from tests.workers.sandbox_helpers import needs_sandbox
from workers import routing

pytestmark = [
    needs_sandbox,
    pytest.mark.e2e,
    pytest.mark.django_db(transaction=True),
]


def test_a_match_reaches_the_free_warm_worker_through_its_direct_queue(
    fleet, redis_server, monkeypatch
):
    monkeypatch.setattr(routing.route_task, "_paused_until", 0.0)  # earlier tests' Redis restarts
    owner = create_user("alice")
    source = (REFERENCE / "random" / "main.py").read_bytes()
    versions = []
    for i in range(2):
        bot = make_bot(owner, f"random-{i}", "packet_row")
        version = bot_services.upload_version(bot, user=owner, filename="main.py", data=source)
        validated = bot_services.validate_version(version.pk, validator=accept)
        assert validated is not None
        versions.append(validated)
    fleet.worker("w1", queues="validation", concurrency=1)  # never reads the shared match queue
    node = WorkerNode.objects.get(name__startswith="w1@").name
    redis = routing.client_for(redis_server.url)
    warm = routing.Advertiser(warm_versions=lambda: {versions[0].pk}, client=lambda: redis)
    warm.task_finished(node)  # what w1's pool process writes after a match, idle with warm seats

    ladder = ladder_for("packet_row", 2)
    routed = match_services.create_match(ladder, versions, seed=1)
    cold = match_services.create_match(ladder, versions, seed=2)  # the one free slot is taken

    wait_for(
        lambda: Match.objects.get(pk=routed.pk).status == Status.FINISHED, 60, "the routed match"
    )
    routed.refresh_from_db()
    assert routed.worker.startswith(f"{node}/")
    assert Match.objects.get(pk=cold.pk).status == Status.QUEUED
    assert redis.llen("matches") == 1  # the cold match waits in the shared queue
