"""Writes for the worker fleet: workers announce themselves, beat and sign off."""

from __future__ import annotations

from collections.abc import Sequence

from django.utils import timezone

from ladder.fleet.models import WorkerNode


def worker_started(
    name: str,
    *,
    hostname: str,
    pid: int,
    slots: int,
    queues: Sequence[str],
    sandbox: str,
    sandbox_problem: str = "",
    storage_problem: str = "",
) -> WorkerNode:
    """A worker came up (or came back under the same name): its row, reset."""
    now = timezone.now()
    node, _ = WorkerNode.objects.update_or_create(
        name=name[:200],
        defaults={
            "hostname": hostname[:200],
            "pid": pid,
            "slots": slots,
            "queues": list(queues),
            "sandbox": sandbox,
            "sandbox_problem": sandbox_problem,
            "storage_problem": storage_problem,
            "started_at": now,
            "last_seen": now,
            "stopped_at": None,
        },
    )
    return node


def worker_heartbeat(name: str) -> bool:
    """The worker is alive; False if it has no row (it should announce itself again)."""
    return bool(
        WorkerNode.objects.filter(name=name[:200]).update(last_seen=timezone.now(), stopped_at=None)
    )


def worker_storage_problem(*, name: str, problem: str) -> None:
    """What this worker found wrong with its artifact store ("" once it can read it again)."""
    WorkerNode.objects.filter(name=name[:200]).update(storage_problem=problem)


def worker_stopped(name: str) -> None:
    WorkerNode.objects.filter(name=name[:200]).update(stopped_at=timezone.now())
