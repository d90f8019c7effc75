"""Sending a match to a worker that holds warm seats for its bot versions, when one is free.

A worker process that keeps bot processes alive between matches (warm seats, per bot version)
plays a match of those versions without starting them again. Two halves meet in Redis (the
broker's, so nothing more to run):

* **The advertisement** (:class:`Advertiser`, in every pool process of a worker): after each
  task, while the process is idle, it writes the version ids it holds warm and one free slot
  under its name (``node/pid``), with a time to live that a timer thread renews; when a task
  starts, the process is busy and withdraws. A dead worker's advertisement lapses by itself.
* **The router** (:class:`WarmRouter`, ``CELERY_TASK_ROUTES``, called by Celery in the process
  that sends ``monsoon.run_match``, by task object or by name): it reads the match's seated
  version ids (one query) and, in one Redis script, picks the advertised process with a free
  slot that holds the most of them warm and takes its slot (so one advertisement draws at most
  one match). The match goes to that process's node's direct queue (``worker_direct``:
  ``<node>.dq2``, which every worker consumes beside its shared queues).

Anything else (no advertisement, none with a free slot or a warm version, Redis or the
database failing, a broker that is not Redis) leaves the route to the static table: the shared
``matches`` queue. Routing never makes a send fail and never starves cold matches: a warm worker
consumes the shared queues too, in turn with its direct queue, and it is routed no more matches
than it has advertised free slots, re-advertised only after it has finished one.
"""

from __future__ import annotations

import functools
import logging
import os
import threading
import time
from collections.abc import Callable, Collection, Mapping, Sequence
from typing import Any

import redis
from celery.utils.nodenames import worker_direct
from kombu import Queue
from redis.backoff import NoBackoff
from redis.retry import Retry

from workers import seats

logger = logging.getLogger(__name__)

TASK = "monsoon.run_match"
PREFIX = "monsoon:warm:"
REGISTRY = PREFIX + "processes"
"""The set of advertising processes' names; a name whose slot key has lapsed is dropped."""
REFRESH_SECONDS = 5.0
"""How often an idle process renews its advertisement."""
TTL_SECONDS = 3 * REFRESH_SECONDS
"""How long an advertisement outlives its last renewal (a dead worker's, at most this)."""
REDIS_TIMEOUT_SECONDS = 0.25
"""A send waits at most about this long on the routing's Redis before using the shared queue."""
PAUSE_AFTER_ERROR_SECONDS = 30.0
"""After a Redis error the router does not try again for this long: a broker that is down
must not cost every send a timeout."""

WarmVersions = Callable[[], Collection[int]]
"""What a worker process holds warm: the ids of the bot versions it has seats for."""
RedisFactory = Callable[[], "redis.Redis | None"]
"""The routing's Redis client, or None when the broker is not Redis (routing is off)."""

# KEYS[1]: the registry. ARGV[1]: the key prefix; ARGV[2..]: the match's version ids.
# Returns {process name, warm versions} of the chosen process, its free slot taken; or nil.
_CHOOSE = """
local best, best_hits = nil, 0
for _, name in ipairs(redis.call('SMEMBERS', KEYS[1])) do
  local free = redis.call('GET', ARGV[1] .. name .. ':free')
  if not free then
    redis.call('SREM', KEYS[1], name)
  elseif tonumber(free) > 0 then
    local hits = 0
    for i = 2, #ARGV do
      hits = hits + redis.call('SISMEMBER', ARGV[1] .. name .. ':versions', ARGV[i])
    end
    if hits > best_hits then best, best_hits = name, hits end
  end
end
if best then
  redis.call('DECR', ARGV[1] .. best .. ':free')
  return {best, best_hits}
end
return nil
"""

# KEYS[1], KEYS[2]: a process's slot and versions keys. ARGV[1]: time to live in ms.
# 1 when renewed, 0 when the advertisement has lapsed (to be written again).
_RENEW = """
if redis.call('EXISTS', KEYS[1]) == 0 then return 0 end
redis.call('PEXPIRE', KEYS[1], ARGV[1])
redis.call('PEXPIRE', KEYS[2], ARGV[1])
return 1
"""


def slot_key(process: str) -> str:
    return f"{PREFIX}{process}:free"


def versions_key(process: str) -> str:
    return f"{PREFIX}{process}:versions"


def node_of(process: str) -> str:
    """``match-1@host/1234`` -> ``match-1@host``: the worker node a process belongs to."""
    return process.rsplit("/", 1)[0]


@functools.cache
def client_for(url: str) -> redis.Redis:
    """One client per process and URL, that fails fast: short timeouts and no retries (the
    client's default retries with backoff would hold a send for seconds)."""
    return redis.Redis.from_url(
        url,
        socket_timeout=REDIS_TIMEOUT_SECONDS,
        socket_connect_timeout=REDIS_TIMEOUT_SECONDS,
        retry=Retry(NoBackoff(), 0),
    )


def broker_redis() -> redis.Redis | None:
    """A client of the broker's Redis (one per process and URL), or None for another broker."""
    from workers.celery_app import app

    url = str(app.conf.broker_url or "").split(";")[0]  # the first of failover URLs
    if not url.startswith(("redis://", "rediss://", "unix://")):
        return None
    return client_for(url)


def seated_versions(match_id: int) -> list[int]:
    """The bot version ids seated in a match (one indexed query)."""
    from ladder.matches.models import MatchSeat

    return list(
        MatchSeat.objects.filter(match_id=match_id).values_list("bot_version_id", flat=True)
    )


class WarmRouter:
    """A Celery router: ``monsoon.run_match`` to a free warm worker's direct queue, else None.

    None lets Celery try the next router of ``CELERY_TASK_ROUTES`` (the static table).
    """

    def __init__(
        self,
        client: RedisFactory = broker_redis,
        versions_of: Callable[[int], Sequence[int]] = seated_versions,
    ) -> None:
        self.client, self.versions_of = client, versions_of
        self._paused_until = 0.0

    def __call__(
        self,
        name: str,
        args: Sequence[Any] | None,
        kwargs: Mapping[str, Any] | None,
        options: Mapping[str, Any] | None,
        task: object = None,
        **_rest: object,
    ) -> dict[str, Queue] | None:
        if name != TASK or (options and options.get("queue")):
            return None  # another task, or a sender that named its queue
        match_id = (list(args or ()) or [(kwargs or {}).get("match_id")])[0]
        if not isinstance(match_id, int) or time.monotonic() < self._paused_until:
            return None
        try:
            process = self.choose(match_id)
        except redis.RedisError as exc:
            self._paused_until = time.monotonic() + PAUSE_AFTER_ERROR_SECONDS
            logger.warning("warm routing off for %.0f s: %s", PAUSE_AFTER_ERROR_SECONDS, exc)
            return None
        except Exception:  # a send must never fail for its routing
            logger.exception("routing match %s failed; it goes to the shared queue", match_id)
            return None
        if process is None:
            return None
        return {"queue": worker_direct(node_of(process))}

    def choose(self, match_id: int) -> str | None:
        """The advertising process chosen for the match (its free slot taken), or None."""
        client = self.client()
        if client is None or not client.scard(REGISTRY):
            return None  # nothing advertised: no query for the seats
        versions = self.versions_of(match_id)
        if not versions:
            return None
        chosen = client.eval(_CHOOSE, 1, REGISTRY, PREFIX, *versions)
        if not chosen:
            return None
        process = chosen[0].decode() if isinstance(chosen[0], bytes) else str(chosen[0])
        logger.debug("match %s to %s (%s of its versions warm)", match_id, process, chosen[1])
        return process


route_task = WarmRouter()
"""The router ``CELERY_TASK_ROUTES`` names (``workers.routing.route_task``)."""


def seats_warm_versions() -> set[int]:
    """The versions this process's warm seat pools hold idle (:func:`workers.seats.warm_versions`),
    read at every advertisement."""
    return seats.warm_versions()


class Advertiser:
    """One worker process's advertisement of its warm versions and free slot.

    Called at task boundaries (:func:`on_task_start`, :func:`on_task_end`) and by a timer
    (:meth:`renew`); thread-safe. Redis failures are logged and otherwise ignored: without an
    advertisement the process simply gets shared-queue matches.
    """

    def __init__(
        self,
        *,
        warm_versions: WarmVersions = seats_warm_versions,
        client: RedisFactory = broker_redis,
        ttl_seconds: float = TTL_SECONDS,
        slots: int = 1,
    ) -> None:
        self.warm_versions, self.client = warm_versions, client
        self.ttl_ms = max(1, round(ttl_seconds * 1000))
        self.slots = slots
        self.process: str | None = None
        """``node/pid``; known from the first task (nothing is warm before it)."""
        self.advertised = False
        self.busy = False
        self._lock = threading.Lock()

    def _guarded(self, what: str, call: Callable[[redis.Redis, str], object]) -> object:
        """``call(client, process)``; None when there is nothing to call or Redis failed."""
        client = self.client()
        if client is None or self.process is None:
            return None
        try:
            return call(client, self.process)
        except (redis.RedisError, OSError) as exc:
            logger.warning("could not %s warm seats: %s", what, exc)
            return None

    def task_started(self) -> None:
        """The process is busy: it leaves the routing until its task is over."""
        with self._lock:
            self.busy = True
            self._withdraw()

    def task_finished(self, node: str | None) -> None:
        """The process is idle again: advertise what it holds warm now (or nothing)."""
        with self._lock:
            self.busy = False
            if node:
                self.process = f"{node}/{os.getpid()}"
            self._advertise()

    def renew(self) -> None:
        """The timer: keep an idle process's advertisement alive (written again if lapsed)."""
        with self._lock:
            if self.busy or not self.advertised:
                return
            renewed = self._guarded(
                "renew",
                lambda client, process: client.eval(
                    _RENEW, 2, slot_key(process), versions_key(process), self.ttl_ms
                ),
            )
            if renewed == 0:
                self._advertise()

    def withdraw(self) -> None:
        """The process is going away."""
        with self._lock:
            self._withdraw()

    def _advertise(self) -> None:
        versions = sorted(set(self.warm_versions()))
        if not versions:
            self._withdraw()
            return
        self.advertised = True

        def write(client: redis.Redis, process: str) -> None:
            with client.pipeline(transaction=True) as pipe:
                pipe.delete(versions_key(process))
                pipe.sadd(versions_key(process), *versions)
                pipe.pexpire(versions_key(process), self.ttl_ms)
                pipe.set(slot_key(process), self.slots, px=self.ttl_ms)
                pipe.sadd(REGISTRY, process)
                pipe.execute()

        self._guarded("advertise", write)

    def _withdraw(self) -> None:
        if not self.advertised:
            return
        self.advertised = False

        def delete(client: redis.Redis, process: str) -> None:
            with client.pipeline(transaction=True) as pipe:
                pipe.delete(slot_key(process), versions_key(process))
                pipe.srem(REGISTRY, process)
                pipe.execute()

        self._guarded("withdraw", delete)


_advertiser: Advertiser | None = None
_stop = threading.Event()


def _renew_forever(advertiser: Advertiser, interval: float) -> None:
    while not _stop.wait(interval):
        advertiser.renew()


def start_advertising(**_kwargs: object) -> None:
    """``worker_process_init``: this pool process advertises from now on, renewed by a timer."""
    global _advertiser
    _advertiser = Advertiser(warm_versions=seats_warm_versions, client=broker_redis)
    _stop.clear()
    threading.Thread(
        target=_renew_forever, args=(_advertiser, REFRESH_SECONDS), name="warm-adverts", daemon=True
    ).start()


def on_task_start(**_kwargs: object) -> None:
    """``task_prerun``: busy."""
    if _advertiser is not None:
        _advertiser.task_started()


def on_task_end(sender: object = None, **_kwargs: object) -> None:
    """``task_postrun``: idle; the task's request names the worker node."""
    if _advertiser is not None:
        request = getattr(sender, "request", None)
        _advertiser.task_finished(getattr(request, "hostname", None))


def stop_advertising(**_kwargs: object) -> None:
    """``worker_process_shutdown``: withdraw and stop the timer."""
    _stop.set()
    if _advertiser is not None:
        _advertiser.withdraw()


def connect() -> None:
    """Connect a pool process's advertisement to the worker's signals (``workers.celery_app``)."""
    from celery.signals import (
        task_postrun,
        task_prerun,
        worker_process_init,
        worker_process_shutdown,
    )

    worker_process_init.connect(start_advertising, weak=False)
    task_prerun.connect(on_task_start, weak=False)
    task_postrun.connect(on_task_end, weak=False)
    worker_process_shutdown.connect(stop_advertising, weak=False)
