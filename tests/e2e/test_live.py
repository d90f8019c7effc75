"""Watching a match live while a real worker plays it (Celery worker process, Redis, sandbox).

Personas: alice's two steady bots (30 ms a move) play; a spectator polls the public API the way
the match page does, and sees the moves arrive while the match is running, each one a prefix of
the log the worker finally records.
"""

from __future__ import annotations

import pytest

from engine.log import replay
from ladder.accounts.services import create_user
from ladder.matches.models import Match
from tests.e2e.stack import queue_matches, steady_versions, wait_for
from tests.factories import api_client as client_for
from tests.workers.sandbox_helpers import needs_sandbox

pytestmark = [
    needs_sandbox,
    pytest.mark.e2e,
    pytest.mark.django_db(transaction=True),
]


def test_a_spectator_sees_moves_while_the_worker_plays(fleet):
    alice = create_user("alice", password="alice-password-1")
    (match,) = queue_matches(steady_versions(alice), 1)
    fleet.worker("w1", MONSOON_LIVE_INTERVAL_SECONDS="0.3")
    spectator = client_for(None)
    url = f"/api/v1/matches/{match.pk}/live/"
    seen: list[dict] = []

    def moves_grew_while_running() -> bool:
        body = spectator.get(url).json()
        if body["status"] == "running" and body["total"]:
            seen.append(body)
        return len({body["total"] for body in seen}) >= 3 or body["status"] == "finished"

    wait_for(moves_grew_while_running, 120, "moves published while the match runs")
    assert len({body["total"] for body in seen}) >= 3, "the moves did not arrive while it ran"
    wait_for(
        lambda: Match.objects.get(pk=match.pk).status == Match.Status.FINISHED,
        120,
        "the match to finish",
    )
    finished = spectator.get(url).json()
    assert finished["decisions"] == [] and finished["log"].endswith(f"/{match.pk}/log/")
    log = spectator.get(finished["log"]).json()
    replay(log)
    actions = [d["action"] for d in log["decisions"]]
    for body in seen:
        assert [d["action"] for d in body["decisions"]] == actions[: body["total"]]
        assert "seed" not in body
