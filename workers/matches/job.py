"""One ladder match on a worker, from its spec to its outcome, without Celery or the ORM.

:mod:`workers.matches.tasks` reads the spec (``ladder.lifecycle.flow.spec``) and records
the outcome; what lies between is here so the benchmarks' local process pool and the Celery task
play a match in exactly the same way: artifacts from the worker's cache, every seat in the
sandbox the settings name, the runner's default time controls and limits.
"""

from __future__ import annotations

import functools
import logging
from collections.abc import Callable
from pathlib import Path

from ladder.lifecycle.types import MatchSpec
from workers.artifact_cache import ArtifactCache
from workers.launch import BotProgram, Launcher, LocalLauncher
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
        result.append(BotProgram(directory, seat.command, seat.name))
    return result


def play(
    spec: MatchSpec,
    *,
    launcher: Launcher,
    cache: ArtifactCache,
    fetch: Fetch,
    watch: Callable[[Callable[[], Progress]], None] | None = None,
    time_controls: TimeControls = DEFAULT_TIME_CONTROLS,
) -> MatchOutcome:
    """Play the match a spec describes; bot failures are forfeits inside the outcome.

    ``watch`` receives the running match's progress source (see ``run_match``);
    ``time_controls`` is the clock (the Celery task passes the settings' budgets).

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
    )
