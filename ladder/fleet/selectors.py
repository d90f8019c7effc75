"""Reads for the worker fleet: who is up, and what each one is playing now."""

from __future__ import annotations

from datetime import datetime, timedelta
from typing import Any

from django.conf import settings
from django.db.models import Q
from django.utils import timezone

from ladder.fleet.models import WorkerNode
from ladder.matches.models import Match


def is_alive(node: WorkerNode, now: datetime | None = None) -> bool:
    now = now or timezone.now()
    silence = timedelta(seconds=3 * settings.MONSOON_WORKER_HEARTBEAT_SECONDS)
    return node.stopped_at is None and node.last_seen >= now - silence


def fleet(now: datetime | None = None) -> list[dict[str, Any]]:
    """Every known worker with whether it is alive and the ids of the matches it runs."""
    now = now or timezone.now()
    running: dict[str, list[int]] = {}
    for match_id, worker in Match.objects.filter(status=Match.Status.RUNNING).values_list(
        "pk", "worker"
    ):
        running.setdefault(worker.split("/", 1)[0], []).append(match_id)
    rows = []
    for node in WorkerNode.objects.filter(
        Q(stopped_at__isnull=True) | Q(stopped_at__gte=now - timedelta(days=1))
    ):
        rows.append(
            {
                "name": node.name,
                "hostname": node.hostname,
                "pid": node.pid,
                "slots": node.slots,
                "queues": node.queues,
                "sandbox": node.sandbox,
                "sandbox_problem": node.sandbox_problem,
                "storage_problem": node.storage_problem,
                "started_at": node.started_at,
                "last_seen": node.last_seen,
                "stopped_at": node.stopped_at,
                "alive": is_alive(node, now),
                "running_matches": sorted(running.get(node.name, [])),
            }
        )
    return rows
