"""A worker's report of itself: name, host, match slots, queues and whether it can sandbox.

Connected to Celery's ``worker_ready`` and ``worker_shutdown`` signals in the worker's main
process, and to ``worker_process_init`` in each pool process (:func:`sweep_seats`); a daemon
thread renews ``last_seen`` every ``MONSOON_WORKER_HEARTBEAT_SECONDS`` so operators can tell a
quiet worker from a dead one (``ladder.fleet.selectors.fleet``).

The same thread is the worker's watchdog: a worker whose consumer has stopped (a shutdown, or
Celery's "Unrecoverable error" after a broker connection is lost) and that is still alive
``MONSOON_WORKER_STOP_GRACE_SECONDS`` later has wedged in its shutdown (a known way for the
Redis transport to hang). It exits hard, so its supervisor (systemd, Docker) starts a fresh
one; its matches' leases expire and the reaper re-queues them.
"""

from __future__ import annotations

import logging
import os
import socket
import threading
import time

from celery.signals import worker_process_init, worker_ready, worker_shutdown
from django.conf import settings
from django.db import DatabaseError, connections

logger = logging.getLogger(__name__)
_stop = threading.Event()


def _sandbox_report() -> tuple[str, str]:
    if settings.MONSOON_SANDBOX == "none":
        return "none", "MONSOON_SANDBOX=none: bots run unsandboxed"
    from workers.cgroups import seat_bounds_problem
    from workers.sandbox import sandbox_problem

    return "bwrap", sandbox_problem() or seat_bounds_problem() or ""


def sweep_seats(**_kwargs: object) -> None:
    """End the seats that dead worker processes left behind (:func:`workers.cgroups.sweep_stale`).

    ``worker_process_init``: every pool process does it as it starts, so the replacement of a
    pool process killed mid-match (SIGKILL, the OOM killer) ends its predecessor's frozen seats
    before it plays. Never fatal: a failure is logged and the process goes on.
    """
    if settings.MONSOON_SANDBOX == "none":
        return
    from workers.cgroups import sweep_stale_seats
    from workers.staging import sweep_stale_copies

    try:
        removed = sweep_stale_seats()
        sweep_stale_copies()
    except OSError as exc:
        logger.error("could not sweep stale seat cgroups: %s", exc)
        return
    if removed:
        logger.warning("ended the seats of dead worker processes: %s", [str(p) for p in removed])


def _storage_problem() -> str:
    from ladder.bots.selectors import artifact_store_problem

    return artifact_store_problem() or ""


def _queues(consumer: object) -> list[str]:
    queues = getattr(getattr(consumer, "task_consumer", None), "queues", None)
    return sorted(q.name for q in queues) if queues is not None else []


def _announce(name: str, slots: int, queues: list[str]) -> None:
    from ladder.fleet.services import worker_started

    sandbox, problem = _sandbox_report()
    worker_started(
        name,
        hostname=socket.gethostname(),
        pid=os.getpid(),
        slots=slots,
        queues=queues,
        sandbox=sandbox,
        sandbox_problem=problem,
        storage_problem=_storage_problem(),
    )
    if problem and sandbox == "bwrap":
        logger.error("this worker cannot sandbox bots and will fail their matches: %s", problem)


def _stopping(controller: object) -> bool:
    """Whether the worker's consumer has left its running state."""
    from celery.bootsteps import RUN  # type: ignore[attr-defined]  # not in celery-types

    blueprint = getattr(controller, "blueprint", None)
    return blueprint is not None and blueprint.state != RUN


def _beat(name: str, slots: int, queues: list[str], controller: object = None) -> None:
    from ladder.fleet.services import worker_heartbeat, worker_storage_problem

    stopping_since: float | None = None
    while not _stop.wait(settings.MONSOON_WORKER_HEARTBEAT_SECONDS):
        if controller is not None and _stopping(controller):
            stopping_since = stopping_since or time.monotonic()
            if time.monotonic() - stopping_since > settings.MONSOON_WORKER_STOP_GRACE_SECONDS:
                logger.critical(
                    "the worker has been stopping for over %s s; exiting hard so "
                    "that its supervisor restarts it",
                    settings.MONSOON_WORKER_STOP_GRACE_SECONDS,
                )
                os._exit(1)
            continue
        try:
            if not worker_heartbeat(name):
                _announce(name, slots, queues)
            else:  # a store mounted (or lost) since start-up shows on the next beat
                worker_storage_problem(name=name, problem=_storage_problem())
        except DatabaseError as exc:  # the database is away for a while: try again next beat
            logger.warning("worker heartbeat failed: %s", exc)
            connections.close_all()
    connections.close_all()


def on_ready(sender: object = None, **_kwargs: object) -> None:
    """``worker_ready``: the worker (its consumer) announces itself and starts its heartbeat."""
    sweep_seats()
    controller = getattr(sender, "controller", None)
    name = str(getattr(sender, "hostname", None) or getattr(controller, "hostname", "worker"))
    slots = int(getattr(controller, "concurrency", 1) or 1)
    queues = _queues(sender)
    try:
        _announce(name, slots, queues)
    except DatabaseError as exc:
        logger.warning("could not register the worker yet: %s", exc)
    _stop.clear()
    threading.Thread(
        target=_beat, args=(name, slots, queues, controller), name="fleet-heartbeat", daemon=True
    ).start()


def on_shutdown(sender: object = None, **_kwargs: object) -> None:
    """``worker_shutdown``: stop the heartbeat and sign the worker off the fleet table."""
    from ladder.fleet.services import worker_stopped

    _stop.set()
    name = getattr(sender, "hostname", None)
    if name:
        try:
            worker_stopped(name)
        except DatabaseError as exc:
            logger.warning("could not sign the worker off: %s", exc)


def connect() -> None:
    """Connect the worker's start and stop signals (``workers.celery_app`` does, once)."""
    worker_process_init.connect(sweep_seats, weak=False)
    worker_ready.connect(on_ready, weak=False)
    worker_shutdown.connect(on_shutdown, weak=False)
