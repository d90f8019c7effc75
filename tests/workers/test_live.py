"""Live spectating from the worker's side: the match's progress is published while it is played.

Personas: alice uploads two reference bots; a spectator reads what the worker published. The
publisher is a thread with its own database connection, so these tests commit for real.
"""

from __future__ import annotations

import json
import threading

import pytest

from engine.log import viewer_decision
from ladder.ladders.services import sync_ladders
from ladder.lifecycle import flow
from ladder.matches import logstore
from ladder.matches import services as match_services
from ladder.matches.models import Match, MatchLog, MatchProgress
from tests.factories import ladder_for
from tests.workers.programs import upload_reference, validated
from tests.workers.sandbox_helpers import needs_sandbox
from workers.matches import tasks as match_tasks
from workers.matches.live import LivePublisher
from workers.matches.records import Progress

pytestmark = pytest.mark.django_db(transaction=True)


@pytest.fixture(autouse=True)
def _ladders():
    sync_ladders()  # a transactional test may start from an emptied database


@pytest.fixture
def two_active(alice):
    return [
        validated(upload_reference(alice, "pr-random", "random")),
        validated(upload_reference(alice, "pr-greedy", "greedy")),
    ]


@pytest.fixture
def publishes(monkeypatch):
    """Every progress the worker published, as the ladder received it (then stored as usual)."""
    seen: list[dict] = []
    real = match_services.publish_progress
    lock = threading.Lock()

    def spy(match_id, *, worker, decisions, forfeits):
        ours = real(match_id, worker=worker, decisions=decisions, forfeits=forfeits)
        stored = MatchProgress.objects.filter(match_id=match_id).first()
        with lock:
            seen.append({"ours": ours, "decisions": stored.decisions if stored else None})
        return ours

    monkeypatch.setattr(match_services, "publish_progress", spy)
    return seen


@needs_sandbox
def test_a_running_match_publishes_prefixes_of_its_final_log(two_active, settings, publishes):
    settings.MONSOON_LIVE_INTERVAL_SECONDS = 0.01
    match = match_services.create_match(ladder_for("packet_row", 2), two_active, seed=5)

    match_tasks.run_match.apply(args=(match.pk,))

    match.refresh_from_db()
    assert match.status == Match.Status.FINISHED, match.status_reason
    log = json.loads(logstore.read_json(MatchLog.objects.get(match=match).name))
    public = [viewer_decision(d) for d in log["decisions"]]
    stored = [p["decisions"] for p in publishes if p["ours"]]
    assert stored, "nothing was published during a match of several hundred decisions"
    lengths = [len(s) for s in stored]
    assert lengths == sorted(lengths) and len(set(lengths)) == len(lengths)
    for decisions in stored:
        assert decisions == public[: len(decisions)]
    # Once the result is recorded the progress row is gone: the log tells it all.
    assert not MatchProgress.objects.filter(match=match).exists()


@needs_sandbox
def test_a_match_shorter_than_the_interval_is_never_published(two_active, settings, publishes):
    settings.MONSOON_LIVE_INTERVAL_SECONDS = 600
    match = match_services.create_match(ladder_for("packet_row", 2), two_active, seed=6)
    match_tasks.run_match.apply(args=(match.pk,))
    match.refresh_from_db()
    assert match.status == Match.Status.FINISHED
    assert publishes == []


def test_the_publisher_stops_when_the_match_is_no_longer_its_own(two_active):
    match = match_services.create_match(ladder_for("packet_row", 2), two_active, seed=7)
    assert match_services.claim_match(match.pk, worker="host-a/1")
    decision = {"seat": 0, "action": "pass", "by": "bot", "ms": 1.5, "debug": "my plan"}
    progress = [Progress(decisions=(decision,), forfeits=(None, None))]

    mine = LivePublisher(match.pk, "host-a/1", interval=1)
    mine.watch(lambda: progress[-1])
    assert mine.publish_once()
    row = MatchProgress.objects.get(match=match)
    assert row.decisions == [{"seat": 0, "action": "pass", "by": "bot", "ms": 1.5}]

    stranger = LivePublisher(match.pk, "host-b/9", interval=1)
    stranger.watch(lambda: progress[-1])
    assert not stranger.publish_once()

    flow.record_failure(match_id=match.pk, reason="worker lost")
    assert not MatchProgress.objects.filter(match=match).exists()
    progress.append(Progress(decisions=(decision, decision), forfeits=(None, None)))
    assert not mine.publish_once()  # the match went back to the queue: not ours any more
    assert not MatchProgress.objects.filter(match=match).exists()
