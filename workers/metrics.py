"""A worker's own metrics for Prometheus: matches it played, their length, seats' memory and CPU.

Celery's prefork pool plays matches in child processes, each with its own memory, so the
metrics use prometheus-client's multiprocess mode: every process writes its samples to files in
``PROMETHEUS_MULTIPROC_DIR`` (one folder per worker, emptied when the worker starts), and the
worker's main process serves the sum of them all on ``MONSOON_WORKER_METRICS_PORT``
(``/metrics``, any path). One exporter per worker, however many pool processes it has;
Prometheus scrapes every worker (docs/deploy.md, "Operations"). Without a port nothing is served
and the samples are kept in memory only (a worker started for a test or by hand).

The ladder-wide figures (queues, matches over, forfeits, heartbeats) come from the database
through the web's ``/metrics/`` (``ladder.operations.collector``), not from here.
"""

from __future__ import annotations

import logging
import os
from pathlib import Path

from django.conf import settings
from prometheus_client import CollectorRegistry, Counter, Gauge, Histogram, multiprocess

from ladder.lifecycle.types import MatchSpec
from workers import seats
from workers.matches.runner import MatchOutcome

logger = logging.getLogger(__name__)

if os.environ.get("PROMETHEUS_MULTIPROC_DIR"):
    # The metrics below open their files there as they are made (the unlabelled ones at once).
    Path(os.environ["PROMETHEUS_MULTIPROC_DIR"]).mkdir(parents=True, exist_ok=True)

MATCH_SECONDS = Histogram(
    "monsoon_worker_match_duration_seconds",
    "Wall time of a match on this worker, start of the first bot to the last exit.",
    ["game"],
    buckets=(1, 2, 5, 10, 20, 30, 60, 120, 300, 600, 1200, 1800),
)
MATCH_DECISIONS = Histogram(
    "monsoon_worker_match_decisions",
    "Decisions the bots made in one match.",
    ["game"],
    buckets=(10, 25, 50, 100, 200, 400, 800, 1600, 3200),
)
SEAT_MEMORY = Histogram(
    "monsoon_worker_seat_peak_memory_bytes",
    "Peak memory of one seat over its match (the seat's cgroup: every process of the bot).",
    ["game"],
    buckets=tuple(2**n * 1024 * 1024 for n in range(2, 12)),  # 4 MiB .. 2 GiB
)
SEAT_CPU = Histogram(
    "monsoon_worker_seat_cpu_seconds",
    "CPU seconds one seat used over its match (the seat's cgroup).",
    ["game"],
    buckets=(0.05, 0.1, 0.25, 0.5, 1, 2, 5, 10, 30, 60, 120, 300),
)
MATCHES = Counter(
    "monsoon_worker_matches",
    "Matches this worker finished playing (result) or gave up on (infrastructure).",
    ["game", "outcome"],
)
FORFEITS = Counter(
    "monsoon_worker_forfeits",
    "Seats that forfeited on this worker, by reason code.",
    ["game", "reason"],
)
VALIDATION_SECONDS = Histogram(
    "monsoon_validation_latency_seconds",
    "Upload to verdict (active or rejected) of the versions this worker validated.",
    buckets=(1, 2, 5, 10, 20, 30, 60, 120, 300, 600, 1800, 3600),
)
PLAYING = Gauge(
    "monsoon_worker_matches_playing",
    "Matches being played on this worker now (its busy slots).",
    multiprocess_mode="livesum",
)
WARM_SEATS = Gauge(
    "monsoon_worker_warm_seats",
    'Idle warm seats this worker keeps between matches (docs/workers.md, "Warm seats").',
    multiprocess_mode="livesum",
)
WARM_SEAT_MEMORY = Gauge(
    "monsoon_worker_warm_seat_memory_bytes",
    "Memory the idle warm seats of this worker hold (their cgroups' current usage).",
    multiprocess_mode="livesum",
)


def forfeit_code(reason: str) -> str:
    """The code of a forfeit reason (``"<code>: <message>"``): a small set of label values."""
    return reason.split(":", 1)[0].strip()[:40] or "unknown"


def observe_match(spec: MatchSpec, outcome: MatchOutcome) -> None:
    """Count a played match: its length, decisions, each seat's memory and CPU, its forfeits."""
    game = spec.game
    MATCHES.labels(game, "finished").inc()
    MATCH_SECONDS.labels(game).observe(sum(outcome.phases_s.values()))
    MATCH_DECISIONS.labels(game).observe(len(outcome.log.get("decisions", ())))
    for peak, cpu in outcome.seat_usage:
        if peak is not None:
            SEAT_MEMORY.labels(game).observe(peak)
        if cpu is not None:
            SEAT_CPU.labels(game).observe(cpu)
    for reason in outcome.forfeits:
        if reason:
            FORFEITS.labels(game, forfeit_code(reason)).inc()
    WARM_SEATS.set(seats.idle_count())
    WARM_SEAT_MEMORY.set(seats.idle_memory_bytes())


def multiprocess_dir() -> Path | None:
    folder = os.environ.get("PROMETHEUS_MULTIPROC_DIR", "")
    return Path(folder) if folder else None


def on_worker_init(**_kwargs: object) -> None:
    """``worker_init`` (main process, before the pool forks): empty the folder of a past run.

    Files left by a worker that died would otherwise be summed in as if still alive.
    """
    folder = multiprocess_dir()
    if folder is None:
        return
    folder.mkdir(parents=True, exist_ok=True)
    for stale in folder.glob("*.db"):
        stale.unlink(missing_ok=True)


def on_worker_ready(**_kwargs: object) -> None:
    """``worker_ready`` (main process): serve every process's samples on the metrics port."""
    port = settings.MONSOON_WORKER_METRICS_PORT
    if not port:
        return
    from prometheus_client import start_http_server

    registry = CollectorRegistry()
    multiprocess.MultiProcessCollector(registry)
    start_http_server(port, addr=settings.MONSOON_WORKER_METRICS_ADDRESS, registry=registry)
    logger.info("worker metrics on port %s", port)


def on_process_exit(pid: int | None = None, **_kwargs: object) -> None:
    """``worker_process_shutdown`` (a pool process ending): drop its live gauges' files."""
    if multiprocess_dir() is not None:
        multiprocess.mark_process_dead(pid or os.getpid())


def connect() -> None:
    from celery.signals import worker_init, worker_process_shutdown, worker_ready

    worker_init.connect(on_worker_init, weak=False)
    worker_ready.connect(on_worker_ready, weak=False)
    worker_process_shutdown.connect(on_process_exit, weak=False)
