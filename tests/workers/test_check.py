"""``python -m workers.check``: what a health check of a worker host (or a running worker) reads.

Each failure is named; the exit status is 1 when any check fails.
"""

from __future__ import annotations

import json
import socket
from datetime import timedelta

import pytest
from django.utils import timezone

from ladder.fleet.services import worker_started, worker_stopped
from workers import check

pytestmark = pytest.mark.django_db


def closed_port() -> int:
    with socket.socket() as sock:
        sock.bind(("127.0.0.1", 0))
        return int(sock.getsockname()[1])


@pytest.fixture
def host_ok(monkeypatch):
    """The sandbox and seat checks are the sandbox tests' business: here they pass."""
    monkeypatch.setattr(check, "_sandbox", lambda: None)
    monkeypatch.setattr(check, "_seats", lambda: None)


def test_an_unreachable_broker_fails_the_check_and_says_so(settings, host_ok, capsys):
    settings.CELERY_BROKER_URL = f"redis://127.0.0.1:{closed_port()}/0"
    results = check.run_checks()
    assert results["database"] == "OK"
    assert results["broker"].startswith("the broker did not answer")
    assert check.main([]) == 1
    printed = json.loads(capsys.readouterr().out)
    assert printed["status"] == "fail" and printed["checks"]["broker"] == results["broker"]


def test_a_named_worker_must_be_signed_on_and_beating(settings, host_ok, monkeypatch):
    monkeypatch.setattr(check, "_broker", lambda: None)
    assert check.run_checks("w@host")["heartbeat"] == "no worker named 'w@host' has signed on"
    worker_started("w@host", hostname="host", pid=1, slots=2, queues=["matches"], sandbox="bwrap")
    assert check.run_checks("w@host")["heartbeat"] == "OK"
    from ladder.fleet.models import WorkerNode

    silence = 3 * settings.MONSOON_WORKER_HEARTBEAT_SECONDS + 1
    WorkerNode.objects.update(last_seen=timezone.now() - timedelta(seconds=silence))
    assert "silent" in check.run_checks("w@host")["heartbeat"]
    worker_stopped("w@host")
    assert check.run_checks("w@host")["heartbeat"] == "worker 'w@host' has signed off"
