"""One ladder match on a worker, from its spec to its outcome, without Celery or the ORM.

:mod:`workers.matches.tasks` reads the spec (``ladder.lifecycle.flow.spec``) and records
the outcome; what lies between is here so the benchmarks' local process pool and the Celery task
play a match in exactly the same way: artifacts from the worker's cache, every seat in the
sandbox the settings name, the runner's default time controls and limits.
"""

from __future__ import annotations

import functools
import json
import logging
import os
from collections.abc import Callable
from pathlib import Path

from bots.manifest import MANIFEST_NAME, UploadRejected, manifest_matches
from ladder.lifecycle.types import MatchSpec
from workers.artifact_cache import ArtifactCache
from workers.launch import BotProgram, Launcher, LocalLauncher, SeatSource
from workers.matches.records import Progress
from workers.matches.runner import DEFAULT_TIME_CONTROLS, MatchOutcome, TimeControls, run_match

logger = logging.getLogger(__name__)

Fetch = Callable[[int], bytes]
"""Reads a bot version's stored artifact by version id."""


@functools.cache
def worker_launcher(sandbox: str) -> Launcher:
    """One launcher per worker process (a ``BwrapLauncher`` claims its own block of seat uids)."""
    if sandbox == "none":
        logger.warning("MONSOON_SANDBOX=none: bots run as plain processes, NOT sandboxed")
        return LocalLauncher()
    from workers.sandbox import BwrapLauncher

    return BwrapLauncher()


_seat_pools: dict[tuple[int, int], tuple[Launcher, SeatSource | None]] = {}
"""Warm-seat pools by process id (a forked pool process makes its own: the seats are its
parent's children) and ``id`` of their launcher (kept here, so the id stays its own)."""


def worker_seats(launcher: Launcher) -> SeatSource | None:
    """One warm-seat pool per worker process and launcher; None with ``MONSOON_WARM_SEATS=0``."""
    from workers.seats import SeatPool, SeatPoolConfig

    key = (os.getpid(), id(launcher))
    if key not in _seat_pools:
        config = SeatPoolConfig.from_environment()
        pool = SeatPool(launcher, config) if config.max_seats > 0 else None
        _seat_pools[key] = (launcher, pool)
    return _seat_pools[key][1]


@functools.cache
def plays_many(directory: Path) -> bool:
    """Whether the unpacked artifact's manifest says ``"matches": "many"`` (once per artifact:
    a cache directory is named by its content hash). No manifest, or a bad one: one match."""
    try:
        manifest = json.loads((directory / MANIFEST_NAME).read_bytes())
        return isinstance(manifest, dict) and manifest_matches(manifest) == "many"
    except (OSError, ValueError, UploadRejected):
        return False


@functools.cache
def worker_cache(root: str) -> ArtifactCache:
    """One artifact cache per worker process, swept of what a killed process left half-made."""
    cache = ArtifactCache(Path(root))
    cache.sweep_partial()
    return cache


def programs(spec: MatchSpec, cache: ArtifactCache, fetch: Fetch) -> list[BotProgram]:
    """The seats' bot programs, unpacked from the cache (fetched once per artifact)."""
    result = []
    for seat in spec.seats:
        directory = cache.directory(
            seat.sha256, seat.kind, functools.partial(fetch, seat.version_id)
        )
        result.append(
            BotProgram(
                directory,
                seat.command,
                seat.name,
                many=plays_many(directory),
                version_id=seat.version_id,
            )
        )
    return result


def play(
    spec: MatchSpec,
    *,
    launcher: Launcher,
    cache: ArtifactCache,
    fetch: Fetch,
    watch: Callable[[Callable[[], Progress]], None] | None = None,
    time_controls: TimeControls = DEFAULT_TIME_CONTROLS,
    seats: SeatSource | None = None,
) -> MatchOutcome:
    """Play the match a spec describes; bot failures are forfeits inside the outcome.

    ``watch`` receives the running match's progress source (see ``run_match``);
    ``time_controls`` is the clock (the Celery task passes the settings' budgets).
    ``seats`` hands out the seats' processes; by default this process's warm-seat pool for
    ``launcher`` (:func:`worker_seats`), so bots that play many matches are kept warm
    (``workers.launch.LauncherSeats(launcher)`` starts every seat afresh).

    Raises for infrastructure only: an artifact that cannot be fetched or unpacked
    (:class:`~workers.artifact_cache.ArtifactError`), a host that cannot sandbox
    (``SandboxUnavailable``), or a spec the engine refuses.
    """
    return run_match(
        spec.game,
        spec.seed,
        programs(spec, cache, fetch),
        variant=spec.variant,
        launcher=launcher,
        names=spec.names,
        watch=watch,
        time_controls=time_controls,
        seats=seats if seats is not None else worker_seats(launcher),
    )
