"""Warm seats: bot processes kept between matches, so a match need not start every bot afresh.

A fresh sandbox and interpreter per seat per match was most of a short match's cost (75 of a
4-player Batavia match's 122 ms, issue 29). A bot whose manifest says ``"matches": "many"``
loops over matches (``docs/bot-protocol.md``, "Many matches in one process"), so a worker
process keeps a bounded set of such processes (:class:`SeatPool`), each still in its own
sandbox with its own seat uid and cgroup, frozen while it waits, and gives one to the next
match that seats the same bot version (the same artifact too).

What a warm seat may carry from one match to the next is only what it received itself: it is
always the same version in its own sandbox, never shared between seats (two seats of one
version in one match are two processes), and the runner sends it exactly the messages of its
own seat. A seat that misbehaved between matches (exited, wrote to stdout after its
``{"done": true}``, hit a limit, holds more memory than an idle seat may) is ended when that
is seen, and its next match starts cold; the match it was checked out for is not affected.
Each match has its own clock, thinking budget, decision count and CPU charge (the runner
counts CPU from the seat's reading when the match took it); memory and process limits are
those of the sandbox at every moment. A seat is also ended after ``max_matches`` matches,
``idle_seconds`` without a match, when its version is ended (:meth:`SeatPool.end_version`), or
when the process rlimit on CPU time leaves no room for another whole match (the runner does
not offer to keep it then).

The pool is per worker process (``workers.matches.job.worker_seats``): a Celery pool process
plays one match at a time, so nothing here is shared between processes. :func:`warm_versions`
tells which bot versions this process holds warm (for routing a match to a worker that can
seat it warm).
"""

from __future__ import annotations

import atexit
import contextlib
import dataclasses
import logging
import os
import select
import threading
import time
import weakref
from collections.abc import Callable, Mapping
from dataclasses import dataclass, field

from ladder.settings_table import env_int
from workers.launch import BotProcess, BotProgram, Launcher, LaunchError, Limits

logger = logging.getLogger(__name__)

MIB = 1024 * 1024
POOL_SLOTS = range(16, 64)
"""Seat slots (seat uids ``uid_base + slot``) the pool hands out: above the slots a runner
without a pool uses (the seat index), so a cold match in the same process never sweeps the uid
of a warm seat; below ``workers.sandbox.SLOTS_PER_BLOCK``. At most this many seats of the pool
(warm and in a match) exist at once."""


@dataclass(frozen=True)
class SeatPoolConfig:
    """How many warm seats a worker process keeps, and for how long.

    ``max_seats`` is the most idle warm seats at once (0: no warm seats; every match starts
    every bot afresh); ``max_matches`` the matches one process may play; ``idle_seconds`` how
    long an idle seat waits for its next match; ``max_idle_memory_bytes`` the memory an idle
    seat may hold (more, and it is ended rather than kept: idle seats hold worker memory).
    """

    max_seats: int = 8
    max_matches: int = 50
    idle_seconds: float = 300.0
    max_idle_memory_bytes: int = 256 * MIB

    @classmethod
    def from_environment(cls, environ: Mapping[str, str] | None = None) -> SeatPoolConfig:
        """The ``MONSOON_WARM_SEAT*`` settings (``ladder/settings_table.py``)."""
        return cls(
            max_seats=max(0, env_int("MONSOON_WARM_SEATS", environ=environ)),
            max_matches=max(1, env_int("MONSOON_WARM_SEAT_MATCHES", environ=environ)),
            idle_seconds=float(env_int("MONSOON_WARM_SEAT_IDLE_SECONDS", environ=environ)),
            max_idle_memory_bytes=env_int("MONSOON_WARM_SEAT_MEMORY_MB", environ=environ) * MIB,
        )


SeatKey = tuple[object, ...]
"""What makes two programs the same warm seat: version, directory (the artifact), command,
environment and limits."""


def seat_key(program: BotProgram, limits: Limits) -> SeatKey | None:
    """The key a warm seat of ``program`` is kept under; None: it plays one match a process."""
    if not program.many:
        return None
    return (
        program.version_id,
        str(program.directory),
        program.command,
        tuple(sorted(program.env.items())),
        limits,
    )


@dataclass(eq=False)
class _Warm:
    key: SeatKey | None
    version_id: int | None
    directory: str
    proc: BotProcess
    slot: int
    matches: int = 0
    idle_since: float = 0.0


@dataclass
class PoolCounts:
    """What a pool has done, for the benchmarks and the metrics."""

    cold: int = 0
    warm: int = 0
    ended: dict[str, int] = field(default_factory=dict)
    """Why seats were ended: ``misbehaved``, ``matches``, ``idle``, ``evicted``, ..."""


_pools: weakref.WeakSet[SeatPool] = weakref.WeakSet()


class _Slots:
    """The process's free pool slots, shared by all its pools.

    A seat's uid is the process's uid block plus its slot, and every launcher of a process
    draws on the same block: two pools numbering their seats each from the first slot would
    launch on each other's warm seats' uids, and a launch sweeps its uid. A forked child claims
    a block of its own, so it starts with every slot free.
    """

    def __init__(self) -> None:
        self._reset()
        os.register_at_fork(after_in_child=self._reset)

    def _reset(self) -> None:
        self._lock = threading.Lock()
        self._free: list[int] = list(reversed(POOL_SLOTS))

    def take(self) -> int | None:
        with self._lock:
            return self._free.pop() if self._free else None

    def give(self, slot: int) -> None:
        with self._lock:
            if slot not in self._free:
                self._free.append(slot)


_slots = _Slots()


def warm_versions() -> set[int]:
    """The bot version ids this process holds warm seats of (idle ones, ready for a match)."""
    found: set[int] = set()
    for pool in list(_pools):
        found |= pool.warm_versions()
    return found


def idle_count() -> int:
    """Idle warm seats in this process (every pool's)."""
    return sum(pool.idle_count() for pool in list(_pools))


def idle_memory_bytes() -> int:
    """The memory this process's idle warm seats hold together (where the sandbox counts it)."""
    return sum(pool.idle_memory_bytes() for pool in list(_pools))


@atexit.register
def _close_all() -> None:
    for pool in list(_pools):
        pool.close()


class SeatPool:
    """A worker process's warm seats (a ``workers.launch.SeatSource`` for the runner).

    ``check_out`` gives the runner an idle warm process of the same program and limits where
    there is a sound one, else launches a cold one; ``check_in`` takes it back after the match
    and keeps it frozen (``reusable``) or ends it. Thread-safe: :meth:`warm_versions` may be
    read from another thread while a match is played.
    """

    def __init__(
        self,
        launcher: Launcher,
        config: SeatPoolConfig | None = None,
        *,
        clock: Callable[[], float] = time.monotonic,
    ) -> None:
        self.launcher = launcher
        self.config = config if config is not None else SeatPoolConfig()
        self.clock = clock
        self.counts = PoolCounts()
        self._idle: list[_Warm] = []
        """Least recently used first."""
        self._busy: dict[int, _Warm] = {}
        """Seats in a match, by ``id`` of their process."""
        self._lock = threading.RLock()
        _pools.add(self)

    # --- the runner's side ----------------------------------------------------------------
    def check_out(
        self, program: BotProgram, *, slot: int, limits: Limits, cold: bool = False
    ) -> tuple[BotProcess, bool]:
        """A warm idle process of ``program`` (``True``) if a sound one waits, else a fresh one.

        ``slot`` (the seat index) is ignored: the pool numbers its own seats (:data:`POOL_SLOTS`).
        """
        del slot
        key = seat_key(program, limits)
        with self._lock:
            self._expire()
            if key is not None and program.version_id is not None:
                self._end_replaced(program.version_id, str(program.directory))
            while not cold and key is not None:
                seat = next((s for s in reversed(self._idle) if s.key == key), None)
                if seat is None:
                    break
                self._idle.remove(seat)
                problem = _between_matches(seat.proc)
                if problem is not None:
                    logger.info("warm seat of %s ended: %s", program.name, problem)
                    self._end(seat, "misbehaved")
                    continue
                reset = getattr(seat.proc, "reset_peak_memory", None)
                if callable(reset):
                    reset()
                self._busy[id(seat.proc)] = seat
                self.counts.warm += 1
                return seat.proc, True
            seat_slot = _slots.take()
            if seat_slot is None and self._idle:
                self._end(self._idle.pop(0), "evicted")
                seat_slot = _slots.take()
            if seat_slot is None:
                raise LaunchError(f"all {len(POOL_SLOTS)} seat slots of this worker are in use")
        try:
            proc = self.launcher.launch(program, slot=seat_slot, limits=limits)
        except BaseException:
            _slots.give(seat_slot)
            raise
        with self._lock:
            self._busy[id(proc)] = _Warm(
                key, program.version_id, str(program.directory), proc, seat_slot
            )
            self.counts.cold += 1
        return proc, False

    def keeps(self, program: BotProgram) -> bool:
        """Whether the runner should offer to keep ``program``'s process (``end`` with next)."""
        return program.many and self.config.max_seats > 0

    def check_in(self, program: BotProgram, proc: BotProcess, *, reusable: bool) -> None:
        """Keep ``proc`` frozen for another match of its program, or end it."""
        with self._lock:
            seat = self._busy.pop(id(proc), None)
            if seat is None:  # not the pool's own: end it as a plain launcher would
                proc.terminate_all()
                return
            seat.matches += 1
            reason = self._refusal(seat, reusable)
            if reason is not None:
                self._end(seat, reason)
                return
            seat.idle_since = self.clock()
            self._idle.append(seat)
            while len(self._idle) > self.config.max_seats:
                self._end(self._idle.pop(0), "evicted")
            self._expire()

    def _refusal(self, seat: _Warm, reusable: bool) -> str | None:
        """Why the seat just checked in is not kept (None: keep it), freezing it if kept."""
        if not reusable or seat.key is None or self.config.max_seats <= 0:
            return "not_reusable"
        if seat.matches >= self.config.max_matches:
            return "matches"
        seat.proc.freeze()
        if seat.proc.limit_hit() is not None:
            return "misbehaved"
        memory = getattr(seat.proc, "memory_bytes", None)
        held = memory() if callable(memory) else None
        if held is not None and held > self.config.max_idle_memory_bytes:
            return "memory"
        return None

    # --- upkeep ----------------------------------------------------------------------------
    def sweep(self) -> None:
        """End the idle seats that waited longer than ``idle_seconds`` (also done at every
        check-out and check-in)."""
        with self._lock:
            self._expire()

    def end_version(self, version_id: int) -> int:
        """End every idle warm seat of a bot version (it was retired or replaced); how many."""
        with self._lock:
            ending = [seat for seat in self._idle if seat.version_id == version_id]
            for seat in ending:
                self._idle.remove(seat)
                self._end(seat, "version")
            return len(ending)

    def close(self) -> None:
        """End every idle seat (a worker process that stops); seats in a match are the
        runner's until it checks them in, then ended too."""
        with self._lock:
            idle, self._idle = self._idle, []
            for seat in idle:
                self._end(seat, "closed")
            self.config = dataclasses.replace(self.config, max_seats=0)

    def warm_versions(self) -> set[int]:
        """Version ids of this pool's idle warm seats."""
        with self._lock:
            return {s.version_id for s in self._idle if s.version_id is not None}

    def idle_count(self) -> int:
        with self._lock:
            return len(self._idle)

    def idle_memory_bytes(self) -> int:
        """The memory every idle warm seat holds together (where the sandbox counts it)."""
        total = 0
        with self._lock:
            for seat in self._idle:
                memory = getattr(seat.proc, "memory_bytes", None)
                held = memory() if callable(memory) else None
                total += held or 0
        return total

    def _expire(self) -> None:
        horizon = self.clock() - self.config.idle_seconds
        for seat in [s for s in self._idle if s.idle_since < horizon]:
            self._idle.remove(seat)
            self._end(seat, "idle")

    def _end_replaced(self, version_id: int, directory: str) -> None:
        """A version now played from another artifact: its old warm seats are stale."""
        for seat in [s for s in self._idle if s.version_id == version_id]:
            if seat.directory != directory:
                self._idle.remove(seat)
                self._end(seat, "version")

    def _end(self, seat: _Warm, reason: str) -> None:
        self.counts.ended[reason] = self.counts.ended.get(reason, 0) + 1
        try:
            seat.proc.terminate_all()
        finally:
            _slots.give(seat.slot)


def _between_matches(proc: BotProcess) -> str | None:
    """What a kept process did wrong while it waited, or None (the check at check-out).

    Between its ``{"done": true}`` and the next ``start`` a bot must write nothing on stdout
    (the protocol's channel), must not exit, and its sandbox must not have seen a limit hit.
    Stderr is free as in a match: what it writes there after ``done`` goes to its next match's
    captured stderr, which only its owner reads (a bot frozen right after ``done`` may well
    write it only once thawed, so it cannot be told from that match's own).
    """
    if proc.poll() is not None:
        return "it exited"
    if proc.limit_hit() is not None:
        return f"it hit a limit ({proc.limit_hit()})"
    with contextlib.suppress(OSError, ValueError):
        readable, _, _ = select.select([proc.stdout], [], [], 0)
        if readable:
            return "it wrote between matches"
    return None
