"""A seat's CPU time, the clock its decisions are charged by (``docs/bot-protocol.md``).

Wall-clock time depends on the host: on a busy machine a bot gets fewer cycles per second and
would lose on time through no fault of its own. CPU time does not: a decision is charged what
the seat's processes actually ran. Two sources, best first:

* the seat's cgroup (``cpu.stat`` ``usage_usec`` in v2, ``cpuacct.usage`` in v1): the kernel's
  own monotonic total over every task that ever ran in the group, in micro/nanoseconds;
* without one, the process tree under the seat's first process, read from ``/proc``: each
  process's ``utime + stime`` plus ``cutime + cstime`` (its reaped children), in clock ticks.

A tree reading can miss time: a process that was reaped between two reads, or an orphan that
left the tree (only outside the sandbox, where the bot is not its own pid namespace's init).
:class:`CpuClock` therefore never lets a reading go below an earlier one, so a decision is
never charged negative time, and the parent-first walk can only ever under-count for a moment
(a child's time moves into its parent's ``cutime`` when it is reaped), never count it twice.
"""

from __future__ import annotations

import contextlib
import os
from collections.abc import Callable

TICKS_PER_SECOND = os.sysconf("SC_CLK_TCK")


def children_of(pid: int) -> list[int]:
    """The direct children of ``pid`` (all its threads' children)."""
    found: list[int] = []
    with contextlib.suppress(OSError):
        for task in os.listdir(f"/proc/{pid}/task"):
            with contextlib.suppress(OSError), open(f"/proc/{pid}/task/{task}/children") as f:
                found += [int(child) for child in f.read().split()]
    return found


def _process_ticks(pid: int) -> int | None:
    """utime + stime + cutime + cstime of one process (all its threads), None when gone."""
    try:
        with open(f"/proc/{pid}/stat", "rb") as stat:
            text = stat.read()
    except OSError:
        return None
    # The command name (field 2) may hold spaces and parentheses: fields follow its last ')'.
    fields = text[text.rfind(b")") + 2 :].split()
    try:
        return int(fields[11]) + int(fields[12]) + int(fields[13]) + int(fields[14])
    except (IndexError, ValueError):
        return None


def tree_cpu_seconds(root: int) -> float | None:
    """CPU seconds used by ``root`` and every process below it; None when ``root`` is gone.

    Parents are read before their children, so a child reaped during the walk is missed for
    this one reading rather than counted both in itself and in its parent's ``cutime``.
    """
    total = _process_ticks(root)
    if total is None:
        return None
    pending = children_of(root)
    seen = {root}
    while pending:
        pid = pending.pop()
        if pid in seen:
            continue
        seen.add(pid)
        ticks = _process_ticks(pid)
        if ticks is not None:
            total += ticks
            pending += children_of(pid)
    return total / TICKS_PER_SECOND


class CpuClock:
    """A monotonic CPU-seconds reading from ``source`` (None: the source cannot tell).

    Once a reading has been taken, a later source failure (the seat's processes are gone)
    returns the last reading rather than None: time spent is never given back.
    """

    def __init__(self, source: Callable[[], float | None]) -> None:
        self._source = source
        self._last: float | None = None

    def read(self) -> float | None:
        value = self._source()
        if value is None:
            return self._last
        if self._last is None or value > self._last:
            self._last = value
        return self._last
