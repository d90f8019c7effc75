"""The Celery tasks that play matches: ids in, state in the database, safe to run twice.

``run_match`` follows ``ladder.lifecycle.flow`` step by step: it claims its match (only one
worker moves it from ``queued`` to ``running``), reads its typed spec, renews its lease while it
plays, and records the :class:`~ladder.lifecycle.types.MatchResult` it builds from the runner's
outcome through ``flow.record_result``, the one service function for results. While it plays, a
:class:`~workers.matches.live.LivePublisher` thread publishes its progress for live spectators.
A bot's failure is a forfeit inside the result; anything else that goes wrong (artifact storage, the
sandbox, the database, the worker dying) is an infrastructure failure and never a result: the
match goes back to the queue until it has used its attempts.

``validate_bot_version`` plays the smoke match of a pending version the same way (claimed by
``ladder.bots.services.validate_version``). The ladder sends both tasks their ids by name
(``ladder.lifecycle.queue``). The beat tasks that keep the ladder turning are in
:mod:`workers.tasks`.
"""

from __future__ import annotations

import contextlib
import contextvars
import logging
import os
import threading
import time
from collections.abc import Callable
from dataclasses import replace
from typing import TypeVar

from celery import Task
from celery.exceptions import SoftTimeLimitExceeded
from django.conf import settings
from django.db import DatabaseError, InterfaceError, OperationalError, connections

from ladder.lifecycle.types import MatchResult
from ladder.operations.logcontext import MatchContext, bind_match
from workers import metrics
from workers.celery_app import app
from workers.matches import job
from workers.matches.live import LivePublisher
from workers.matches.runner import DEFAULT_TIME_CONTROLS, MatchOutcome, TimeControls

logger = logging.getLogger(__name__)
T = TypeVar("T")

DB_TROUBLE = (OperationalError, InterfaceError)
"""Database errors that mean "unreachable for now" (not a bug): wait and try again."""
RECORD_PATIENCE_S = 300
"""How long a worker keeps trying to record a finished match while the database is away; past
that the lease expires and the match is played again (recording is idempotent)."""


def _with_database_patience(
    call: Callable[[], T], what: str, patience_s: float = RECORD_PATIENCE_S
) -> T:
    """``call()``, retried with backoff while the database is unreachable."""
    deadline = time.monotonic() + patience_s
    delay = 0.25
    while True:
        try:
            return call()
        except DB_TROUBLE as exc:
            if time.monotonic() + delay > deadline:
                raise
            logger.warning(
                "%s: the database is unreachable (%s); retrying in %.1f s", what, exc, delay
            )
            connections.close_all()
            time.sleep(delay)
            delay = min(delay * 2, 5.0)


class LeaseKeeper:
    """Renews a running match's lease from a thread until the match is over."""

    def __init__(self, match_id: int, worker: str, lease_seconds: int) -> None:
        self.match_id, self.worker, self.lease_seconds = match_id, worker, lease_seconds
        self._stop = threading.Event()
        self._thread = threading.Thread(
            # In a copy of the context: its log lines name the match (ladder.operations.logcontext).
            target=contextvars.copy_context().run,
            args=(self._run,),
            name=f"lease-{match_id}",
            daemon=True,
        )

    def _run(self) -> None:
        from ladder.matches.services import renew_lease

        try:
            while not self._stop.wait(max(self.lease_seconds / 4, 0.5)):
                try:
                    if not renew_lease(
                        self.match_id, worker=self.worker, lease_seconds=self.lease_seconds
                    ):
                        logger.warning("match %s is no longer ours to run", self.match_id)
                        return
                except DatabaseError as exc:
                    logger.warning("could not renew the lease of match %s: %s", self.match_id, exc)
                    connections.close_all()
        finally:
            connections.close_all()

    def __enter__(self) -> LeaseKeeper:
        self._thread.start()
        return self

    def __exit__(self, *exc: object) -> None:
        self._stop.set()
        self._thread.join()


def match_time_controls() -> TimeControls:
    """The runner's clock with the budgets the settings name (the task's time limit rests on
    them: ``ladder.core.match_bounds``)."""
    return replace(
        DEFAULT_TIME_CONTROLS,
        startup_ms=round(settings.MONSOON_MATCH_STARTUP_SECONDS * 1000),
        match_budget_ms=round(settings.MONSOON_MATCH_THINKING_BUDGET_SECONDS * 1000),
        wall_factor=settings.MONSOON_DECISION_WALL_FACTOR,
    )


def _worker_name(task: Task) -> str:
    return f"{task.request.hostname or 'worker'}/{os.getpid()}"


def _fail(match_id: int, reason: str) -> str:
    from ladder.lifecycle import flow

    logger.error("match %s: infrastructure failure: %s", match_id, reason)
    return _with_database_patience(
        lambda: flow.record_failure(match_id=match_id, reason=reason), f"match {match_id}"
    )


def result_of(outcome: MatchOutcome) -> MatchResult:
    """The runner's outcome as the ladder records it, checked once here (forfeits applied)."""
    return MatchResult(
        scores=tuple(outcome.scores),
        ranking=tuple(outcome.ranking),
        forfeits=tuple(outcome.forfeits),
        stderr=tuple(outcome.stderr),
        log=outcome.log,
    )


@app.task(
    bind=True,
    name="monsoon.run_match",
    max_retries=None,
    soft_time_limit=settings.MONSOON_MATCH_TIME_LIMIT,
    time_limit=settings.MONSOON_MATCH_TIME_LIMIT + 60,
)
def run_match(self: Task, match_id: int) -> str:
    """Play one queued match in the sandbox and record its result exactly once."""
    from ladder.lifecycle import flow

    worker = _worker_name(self)
    lease = settings.MONSOON_MATCH_LEASE_SECONDS
    try:
        claimed = flow.claim(match_id=match_id, worker=worker, lease_seconds=lease)
    except DB_TROUBLE as exc:
        connections.close_all()
        raise self.retry(exc=exc, countdown=min(2 ** min(self.request.retries, 5), 30)) from exc
    if not claimed:
        return f"match {match_id} was not queued; nothing to do"
    with bind_match(match_id, (), worker) as bound, metrics.PLAYING.track_inprogress():
        return _play_claimed(match_id, worker, lease, bound)


def _play_claimed(match_id: int, worker: str, lease: int, bound: MatchContext) -> str:
    """Play a match this worker has claimed and record its outcome (or its failure)."""
    from ladder.bots.selectors import artifact_bytes
    from ladder.lifecycle import flow

    live = LivePublisher(match_id, worker, settings.MONSOON_LIVE_INTERVAL_SECONDS)
    game = "unknown"
    with LeaseKeeper(match_id, worker, lease), live:
        try:
            spec = flow.spec(match_id=match_id)
            game = spec.game
            bound.version_ids = tuple(seat.version_id for seat in spec.seats)
            logger.info("playing match %s (%s)", match_id, spec.game)
            played = job.play(
                spec,
                launcher=job.worker_launcher(settings.MONSOON_SANDBOX),
                cache=job.worker_cache(str(settings.MONSOON_ARTIFACT_CACHE)),
                fetch=artifact_bytes,
                watch=live.watch,
                time_controls=match_time_controls(),
            )
            result = result_of(played)
        except SoftTimeLimitExceeded:
            metrics.MATCHES.labels(game, "infrastructure_failure").inc()
            return f"match {match_id}: " + _fail(
                match_id, f"the match took longer than {settings.MONSOON_MATCH_TIME_LIMIT} s"
            )
        except Exception as exc:
            metrics.MATCHES.labels(game, "infrastructure_failure").inc()
            return f"match {match_id}: " + _fail(match_id, f"{type(exc).__name__}: {exc}")
    recorded = _with_database_patience(
        lambda: flow.record_result(match_id=match_id, result=result), f"recording match {match_id}"
    )
    metrics.observe_match(spec, played)
    logger.info("match %s: %s", match_id, recorded.message)
    return recorded.message


@app.task(
    bind=True,
    name="monsoon.validate_bot_version",
    max_retries=20,
    soft_time_limit=300,
    time_limit=360,
)
def validate_bot_version(self: Task, version_id: int) -> str:
    """The smoke match of a pending version; a failure of the host leaves it pending."""
    from ladder.bots.services import ArtifactStoreMissing, validate_version
    from ladder.fleet.services import worker_storage_problem
    from workers.matches.validation import validate_artifact

    try:
        version = validate_version(version_id, validator=validate_artifact)
    except ArtifactStoreMissing as exc:  # this host's failure: shown on the fleet, then retried
        with contextlib.suppress(DatabaseError):
            worker_storage_problem(name=str(self.request.hostname or ""), problem=str(exc))
        connections.close_all()
        logger.error("this worker cannot read the artifact store: %s", exc)
        raise self.retry(
            exc=exc, countdown=min(5 * 2 ** min(self.request.retries, 5), 300)
        ) from exc
    except Exception as exc:  # the version is back to pending: the host failed, not the bot
        connections.close_all()
        logger.warning("validating version %s failed on this worker: %s", version_id, exc)
        raise self.retry(
            exc=exc, countdown=min(5 * 2 ** min(self.request.retries, 5), 300)
        ) from exc
    if version is None:
        return f"version {version_id} was not pending; nothing to do"
    if version.validated_at is not None:
        latency = (version.validated_at - version.uploaded_at).total_seconds()
        metrics.VALIDATION_SECONDS.observe(max(latency, 0.0))
    return f"version {version_id}: {version.status}"
