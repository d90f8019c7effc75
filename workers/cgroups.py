"""Per-seat cgroups: the seat's total memory and task count bounded, and the seat frozen at will.

rlimits bound each process (address space, process count per uid), but not what a seat uses
in total: one seat could hold 3 x 800 MB in three processes under a 1 GiB ``RLIMIT_AS``. A
cgroup per seat caps the seat's real memory (tmpfs pages it writes included: the kernel charges
shmem to the cgroup of the task that touched it) and its number of tasks; its counters say
afterwards whether a cap was hit, which :meth:`SeatCgroup.limit_hit` turns into the runner's
``memory_limit`` / ``process_limit`` reasons. The same group lets the runner freeze a seat that
is not deciding (:meth:`SeatCgroup.freeze`), so that a bot cannot compute during other seats'
turns.

Two backends, chosen by :func:`find_tree` once per worker process:

* **cgroup v2**, when the v2 hierarchy offers the ``memory`` and ``pids`` controllers and the
  worker can create groups with them: under the hierarchy's root (a root worker in the host's
  cgroup namespace) or under an empty group delegated through ``MONSOON_CGROUP_PARENT``
  (:func:`use_delegated_parent`).
  Limits ``memory.max``, ``memory.swap.max=0``, ``pids.max``; freezing by ``cgroup.freeze``.
* **cgroup v1** (hybrid hosts, where ``memory`` and ``pids`` are bound to v1 hierarchies), when
  the worker can create groups below its own group in both: ``memory.limit_in_bytes`` (and
  ``memory.memsw.limit_in_bytes`` when swap accounting is on, so swap is no way around it),
  ``pids.max``; freezing by ``freezer.state`` when the v1 ``freezer`` hierarchy is writable too.

Otherwise :func:`cgroup_tree` returns None with the reason, and :func:`seat_bounds_problem`
makes ladder launches refuse to start (see ``docs/sandbox.md``).
"""

from __future__ import annotations

import contextlib
import functools
import itertools
import logging
import os
import signal
import time
from abc import ABC, abstractmethod
from dataclasses import dataclass, field
from pathlib import Path
from typing import Protocol

from workers.launch import Limits

logger = logging.getLogger(__name__)

CONTROLLERS = ("memory", "pids")
SANDBOX_GROUP = "monsoon-sandbox"
EXTRA_TASKS = 1
"""bwrap itself runs in the seat's cgroup too."""
ALLOW_UNBOUNDED_ENV = "MONSOON_ALLOW_UNBOUNDED_SEATS"
"""Set to ``1`` on a development machine to run sandboxed bots with per-process limits only."""
_names = itertools.count()
SWEEP_PATIENCE_S = 2.0
"""How long a sweep waits for a stale seat's tasks to die (they do within milliseconds of the
thaw); kept short because pool processes sweep while starting, and Celery gives a starting
pool process 4 s (``worker_proc_alive_timeout``) before it counts it as failed."""


class SeatCgroup(ABC):
    """One seat's cgroup(s): join before exec, freeze/thaw, read the verdict, remove."""

    final: str | None = None
    """The verdict kept by :meth:`remove` ("" for none), since the counters go with the group."""
    peak: int | None = None
    """The seat's peak memory in bytes, kept by :meth:`remove` where the kernel reports it."""
    cpu: float | None = None
    """The seat's CPU seconds (all its tasks), kept by :meth:`remove` where reported."""

    @abstractmethod
    def join(self) -> None:
        """Move the calling process in; runs in the child between fork and exec."""

    @property
    @abstractmethod
    def can_freeze(self) -> bool:
        """Whether :meth:`freeze` is available (a freezer for this seat)."""

    @abstractmethod
    def freeze(self) -> None:
        """Stop every task of the seat (asynchronous: the kernel stops them within moments)."""

    @abstractmethod
    def thaw(self) -> None:
        """Let the seat run again."""

    @abstractmethod
    def _verdict(self) -> str | None:
        """The limit the live group's counters show as hit, if any."""

    @abstractmethod
    def _peak_now(self) -> int | None:
        """The live group's peak memory, where the kernel reports it."""

    def _cpu_now(self) -> float | None:
        """The live group's CPU seconds, where the kernel reports them (cgroup v2's cpu.stat)."""
        return None

    @abstractmethod
    def memory_bytes(self) -> int | None:
        """The memory the live seat holds now (a warm seat's share of the worker's memory)."""

    def reset_peak(self) -> bool:
        """Start counting the peak afresh (a warm seat's next match); whether the kernel can.

        cgroup v1 resets ``memory.max_usage_in_bytes`` when written; cgroup v2's ``memory.peak``
        resets only for the descriptor that wrote it (Linux 6.12), which the readers here do not
        keep open, so v2 says no and a warm seat's peak is that of its whole life.
        """
        return False

    @abstractmethod
    def _remove_groups(self) -> None:
        """Delete the (by now empty) group directories."""

    @abstractmethod
    def _procs_file(self) -> Path:
        """A ``cgroup.procs`` that lists every process of the seat."""

    def members(self) -> list[int] | None:
        """The seat's live processes (zombies are out of the group), None if unreadable.

        Every process of the seat is in its group: the seat joins before bwrap is exec'd, children
        inherit the group, and nothing in the sandbox can move itself out (no cgroupfs, no
        capability). So an empty group means the seat uid runs nothing, and the uid's sweep over
        all of ``/proc`` (a few ms per seat on a busy host) can be skipped.
        """
        try:
            return [int(pid) for pid in self._procs_file().read_text().split()]
        except (OSError, ValueError):
            return None

    def limit_hit(self) -> str | None:
        """``memory_limit`` after an OOM in the seat, ``process_limit`` after a refused fork."""
        if self.final is not None:
            return self.final or None
        return self._verdict()

    def peak_memory_bytes(self) -> int | None:
        """The most memory the seat held at once (kept after :meth:`remove`)."""
        return self.peak if self.final is not None else self._peak_now()

    def cpu_seconds(self) -> float | None:
        """CPU time every task of the seat has used (monotonic; kept after :meth:`remove`).

        The runner charges each decision by it (:mod:`workers.cputime`); the metrics report it.
        None where the host does not count it per seat.
        """
        return self.cpu if self.final is not None else self._cpu_now()

    def remove(self) -> None:
        """Keep the verdict and the peak, then delete the groups; safe to call twice."""
        if self.final is not None:
            return
        self.peak = self._peak_now()
        self.cpu = self._cpu_now()
        self.final = self._verdict() or ""
        self._remove_groups()


class SeatTree(Protocol):
    """Where seat cgroups are made: one :class:`SeatCgroup` per running seat."""

    @property
    def kind(self) -> str:
        """``v2`` or ``v1``."""
        ...

    @property
    def can_freeze(self) -> bool:
        """Whether its seats can be frozen by cgroup (else the sandbox falls back to signals)."""
        ...

    @property
    def bases(self) -> tuple[Path, ...]:
        """The ``monsoon-sandbox`` group(s) seat groups are made in (one per hierarchy)."""
        ...

    def seat(self, limits: Limits) -> SeatCgroup:
        """A fresh group holding ``limits`` for one seat (raises OSError when refused)."""
        ...


def _rmdir(path: Path) -> None:
    """Delete a cgroup directory, waiting briefly for its last tasks to be torn down."""
    for _ in range(100):
        try:
            path.rmdir()
            return
        except FileNotFoundError:
            return
        except OSError:
            time.sleep(0.01)


def _open_control(path: Path) -> int | None:
    """A write descriptor for a control file opened once (a freeze is then one ``pwrite``)."""
    try:
        return os.open(path, os.O_WRONLY | os.O_CLOEXEC)
    except OSError:
        return None


def _write_control(fd: int | None, value: bytes) -> None:
    if fd is not None:
        with contextlib.suppress(OSError):
            os.pwrite(fd, value, 0)


def _open_reader(path: Path) -> int | None:
    """A read descriptor for a counter read at every decision (then one ``pread`` a reading:
    opening the file each time cost the runner ~45 us a reading on a busy host)."""
    try:
        return os.open(path, os.O_RDONLY | os.O_CLOEXEC)
    except OSError:
        return None


def _pread_counter(fd: int | None, name: bytes | None = None) -> int | None:
    """The number in a counter file read afresh from offset 0 (``name``: its line's name)."""
    if fd is None:
        return None
    try:
        text = os.pread(fd, 4096, 0)
    except OSError:
        return None
    if name is None:
        first = text.split()[:1]
        return int(first[0]) if first and first[0].isdigit() else None
    for line in text.splitlines():
        key, _, value = line.partition(b" ")
        if key == name and value.strip().isdigit():
            return int(value)
    return None


def _close(fd: int | None) -> None:
    if fd is not None:
        with contextlib.suppress(OSError):
            os.close(fd)


def _counters(path: Path) -> dict[str, int]:
    """A cgroup ``*.events`` (or ``memory.oom_control``) file as {name: count}."""
    try:
        text = path.read_text()
    except OSError:
        return {}
    counters = {}
    for line in text.splitlines():
        name, _, value = line.partition(" ")
        with contextlib.suppress(ValueError):
            counters[name] = int(value)
    return counters


def _read_int(path: Path) -> int | None:
    try:
        return int(path.read_text().split()[0])
    except (OSError, ValueError, IndexError):
        return None


def process_start(pid: int) -> int | None:
    """When ``pid`` started (clock ticks since boot), None when it is gone.

    A pid alone may be reused by an unrelated process after its owner died; the pair of pid
    and start time names one process for the life of the host.
    """
    try:
        with open(f"/proc/{pid}/stat", "rb") as stat:
            text = stat.read()
        return int(text[text.rindex(b")") + 2 :].split()[19])
    except (OSError, ValueError, IndexError):
        return None


@functools.cache
def _owner_tag(pid: int) -> str:
    """This process's part of its seat group names: ``<pid>-<start time>``."""
    return f"{pid}-{process_start(pid) or 0}"


def _new_name() -> str:
    """A seat group name unique on the host, naming the worker process that owns it.

    ``seat-<pid>-<start time>-<counter>``: :func:`sweep_stale` removes a group whose owner is
    gone (a worker killed by SIGKILL, or by the OOM killer, never removes its seats itself).
    """
    return f"seat-{_owner_tag(os.getpid())}-{next(_names)}"


def owner_alive(name: str) -> bool | None:
    """Whether the worker process that made seat group ``name`` still runs (None: not a seat).

    Names of older workers (``seat-<pid>-<counter>``) are judged by the pid alone.
    """
    parts = name.split("-")
    if parts[0] != "seat" or len(parts) not in (3, 4) or not all(p.isdigit() for p in parts[1:]):
        return None
    started = process_start(int(parts[1]))
    if started is None:
        return False
    return len(parts) == 3 or started == int(parts[2])


def _thaw_group(group: Path) -> None:
    """Let every task of ``group`` run (and so die): v2 ``cgroup.freeze``, v1 ``freezer.state``."""
    for control, value in (("cgroup.freeze", b"0"), ("freezer.state", b"THAWED")):
        fd = _open_control(group / control)
        _write_control(fd, value)
        _close(fd)


def thaw_seat_groups_of(pid: int) -> None:
    """Thaw the seat groups (below ``monsoon-sandbox``) that process ``pid`` is frozen in.

    A task frozen by the v1 freezer stays in the kernel's freezer wait, deaf even to SIGKILL,
    until its group is thawed; a sweep of a seat uid calls this before it kills, so that a warm
    seat whose pool never ended it (a pool dropped, a worker killed) can still be ended. Groups
    outside ``monsoon-sandbox`` are never touched: they are not seats.
    """
    try:
        lines = Path(f"/proc/{pid}/cgroup").read_text().splitlines()
        mountinfo = Path("/proc/self/mountinfo").read_text()
    except OSError:
        return  # gone meanwhile
    for line in lines:
        parts = line.split(":", 2)
        if len(parts) != 3 or SANDBOX_GROUP not in parts[2].split("/"):
            continue
        if parts[1] == "":
            mount = _cgroup2_mount(mountinfo)
            group = None if mount is None else mount / parts[2].lstrip("/")
        elif "freezer" in parts[1].split(","):
            group = _v1_group_path("freezer", parts[2], _v1_mounts(mountinfo))
        else:
            continue
        if group is not None:
            _thaw_group(group)


def _tasks_of(groups: list[Path]) -> set[int]:
    found: set[int] = set()
    for group in groups:
        with contextlib.suppress(OSError, ValueError):
            found.update(int(pid) for pid in (group / "cgroup.procs").read_text().split())
    return found


def _kill_member(pid: int, groups: list[Path]) -> None:
    """SIGKILL ``pid`` if it is (still) in one of ``groups``, through a pidfd: never a stranger
    that took over a pid number freed meanwhile."""
    try:
        pidfd = os.pidfd_open(pid)
    except OSError:
        return
    try:
        if pid in _tasks_of(groups):
            signal.pidfd_send_signal(pidfd, signal.SIGKILL)
    except OSError:
        pass
    finally:
        os.close(pidfd)


def end_group(groups: list[Path], *, patience: float = SWEEP_PATIENCE_S) -> bool:
    """Thaw, kill every task of and remove one seat's group(s); True when all are gone.

    For v1 the seat has a group of the same name in each hierarchy (``groups``): the freezer
    one is thawed first, since a task frozen by the v1 freezer cannot even die.
    """
    for group in groups:
        _thaw_group(group)
        kill = _open_control(group / "cgroup.kill")  # v2 on Linux 5.14+: the whole group at once
        _write_control(kill, b"1")
        _close(kill)
    deadline = time.monotonic() + patience
    while (tasks := _tasks_of(groups)) and time.monotonic() < deadline:
        for pid in tasks:
            _kill_member(pid, groups)
        time.sleep(0.01)
    for group in groups:
        _rmdir(group)
    return not any(group.exists() for group in groups)


def sweep_stale(*bases: Path | None, patience: float = SWEEP_PATIENCE_S) -> list[Path]:
    """End the seats of dead worker processes: thaw, kill and remove their groups.

    A worker killed by SIGKILL (or the OOM killer) cannot remove its seats: their groups stay,
    frozen ones with their bwrap and bot still in them (``--die-with-parent`` sends SIGKILL,
    which a task frozen by the v1 freezer does not act on until thawed). Every worker process
    calls this when it starts (:func:`sweep_stale_seats`). Only groups whose owner (pid and start
    time, in the name) is gone are touched: the seats of live workers are theirs. ``bases`` are
    the ``monsoon-sandbox`` groups, one per hierarchy (v1 groups of one seat share a name).
    """
    present = [base for base in bases if base is not None]
    names: set[str] = set()
    for base in present:
        with contextlib.suppress(OSError):
            names.update(
                child.name
                for child in base.iterdir()
                if child.is_dir() and owner_alive(child.name) is False
            )
    removed = []
    for name in sorted(names):
        groups = [base / name for base in present if (base / name).is_dir()]
        if end_group(groups, patience=patience):
            removed += groups
        else:
            logger.error("could not end the stale seat group(s) %s", [str(g) for g in groups])
    return removed


# --- cgroup v2 ------------------------------------------------------------------------------


@dataclass(eq=False)
class V2SeatCgroup(SeatCgroup):
    """A seat's cgroup v2 group: memory and pids in one directory, ``cgroup.freeze``."""

    path: Path
    _freeze_fd: int | None = field(default=None, repr=False)
    _cpu_fd: int | None = field(default=None, repr=False)

    def __post_init__(self) -> None:
        self._freeze_fd = _open_control(self.path / "cgroup.freeze")
        self._cpu_fd = _open_reader(self.path / "cpu.stat")

    @property
    def procs(self) -> str:
        """The file a process writes ``0`` to in order to move itself in."""
        return str(self.path / "cgroup.procs")

    def join(self) -> None:
        with open(self.procs, "w") as procs:
            procs.write("0")

    @property
    def can_freeze(self) -> bool:
        return self._freeze_fd is not None

    def freeze(self) -> None:
        _write_control(self._freeze_fd, b"1")

    def thaw(self) -> None:
        _write_control(self._freeze_fd, b"0")

    def _verdict(self) -> str | None:
        memory = _counters(self.path / "memory.events")
        if memory.get("oom", 0) or memory.get("oom_kill", 0):
            return "memory_limit"
        if _counters(self.path / "pids.events").get("max", 0):
            return "process_limit"
        return None

    def _peak_now(self) -> int | None:
        return _read_int(self.path / "memory.peak")

    def memory_bytes(self) -> int | None:
        return _read_int(self.path / "memory.current")

    def _cpu_now(self) -> float | None:
        """``usage_usec`` of ``cpu.stat``, which every v2 group has (no controller needed)."""
        usec = _pread_counter(self._cpu_fd, b"usage_usec")
        return usec / 1e6 if usec is not None else None

    def _procs_file(self) -> Path:
        return self.path / "cgroup.procs"

    def _remove_groups(self) -> None:
        self.thaw()
        _close(self._freeze_fd)
        _close(self._cpu_fd)
        self._freeze_fd = self._cpu_fd = None
        _rmdir(self.path)


@dataclass(frozen=True)
class CgroupTree:
    """A cgroup v2 group whose children get memory and pids limits: one child per seat."""

    base: Path
    kind: str = "v2"

    @property
    def can_freeze(self) -> bool:
        return (self.base / "cgroup.freeze").exists()

    @property
    def bases(self) -> tuple[Path, ...]:
        return (self.base,)

    def seat(self, limits: Limits) -> V2SeatCgroup:
        path = self.base / _new_name()
        path.mkdir()
        try:
            (path / "memory.max").write_text(str(limits.memory_bytes))
            swap = path / "memory.swap.max"
            if swap.exists():
                swap.write_text("0")
            group_kill = path / "memory.oom.group"
            if group_kill.exists():
                group_kill.write_text("1")  # an OOM ends the whole seat, not one random task
            (path / "pids.max").write_text(str(limits.processes + EXTRA_TASKS))
        except OSError:
            path.rmdir()
            raise
        return V2SeatCgroup(path)


def _cgroup2_mount(mountinfo: str) -> Path | None:
    """The mount point of the cgroup v2 hierarchy in ``/proc/self/mountinfo`` text."""
    for line in mountinfo.splitlines():
        fields = line.split()
        if " - " in line and line.split(" - ", 1)[1].split()[0] == "cgroup2":
            return Path(fields[4])
    return None


def _own_cgroup(cgroup_file: str) -> str | None:
    """This process's v2 cgroup path (the ``0::`` line of ``/proc/self/cgroup``)."""
    for line in cgroup_file.splitlines():
        if line.startswith("0::"):
            return line[3:]
    return None


def _enable(group: Path) -> None:
    """Let ``group``'s children use the memory and pids controllers."""
    enabled = (group / "cgroup.subtree_control").read_text().split()
    missing = [c for c in CONTROLLERS if c not in enabled]
    if missing:
        (group / "cgroup.subtree_control").write_text(" ".join(f"+{c}" for c in missing))


def _find_v2(
    *, mountinfo: str, own_cgroup: str, delegated: str | None, is_root: bool
) -> tuple[CgroupTree | None, str]:
    if delegated:
        parent = Path(delegated)
    else:
        mount = _cgroup2_mount(mountinfo)
        own = _own_cgroup(own_cgroup)
        if mount is None or own is None:
            return None, "no cgroup v2 hierarchy is mounted"
        if own != "/" or not is_root:
            return None, (
                f"the worker's cgroup v2 group {own!r} is not the root and no empty "
                "group was delegated through MONSOON_CGROUP_PARENT"
            )
        parent = mount
    try:
        available = (parent / "cgroup.controllers").read_text().split()
    except OSError as exc:
        return None, f"cannot read {parent}/cgroup.controllers: {exc.strerror}"
    missing = [c for c in CONTROLLERS if c not in available]
    if missing:
        return None, (
            f"cgroup v2 at {parent} offers {' '.join(available) or 'no controllers'}, "
            f"not {' and '.join(missing)} (they are bound to cgroup v1 hierarchies)"
        )
    try:
        _enable(parent)
        base = parent / SANDBOX_GROUP
        base.mkdir(exist_ok=True)
        _enable(base)
    except OSError as exc:
        return None, f"cannot set up cgroups under {parent}: {exc.strerror or exc}"
    sweep_stale(base)
    return CgroupTree(base), f"cgroup v2: per-seat memory and pids limits and freezer under {base}"


# --- cgroup v1 ------------------------------------------------------------------------------


@dataclass(eq=False)
class V1SeatCgroup(SeatCgroup):
    """A seat's groups in the v1 ``memory``, ``pids`` and (optional) ``freezer`` hierarchies."""

    memory: Path
    pids: Path
    freezer: Path | None = None
    cpuacct: Path | None = None
    _freeze_fd: int | None = field(default=None, repr=False)
    _cpu_fd: int | None = field(default=None, repr=False)

    def __post_init__(self) -> None:
        if self.freezer is not None:
            self._freeze_fd = _open_control(self.freezer / "freezer.state")
        if self.cpuacct is not None:
            self._cpu_fd = _open_reader(self.cpuacct / "cpuacct.usage")

    @property
    def paths(self) -> list[Path]:
        return [p for p in (self.memory, self.pids, self.freezer, self.cpuacct) if p is not None]

    def join(self) -> None:
        """Move the calling (single-threaded, just forked) process in.

        ``0`` written to ``tasks`` moves the calling thread, which the kernel does without the
        global lock a move through ``cgroup.procs`` takes (its cost was ~3 ms per hierarchy
        here); the forked child has one thread, so that moves the whole process.
        """
        for path in self.paths:
            with open(path / "tasks", "w") as tasks:
                tasks.write("0")

    @property
    def can_freeze(self) -> bool:
        return self._freeze_fd is not None

    def freeze(self) -> None:
        _write_control(self._freeze_fd, b"FROZEN")

    def thaw(self) -> None:
        _write_control(self._freeze_fd, b"THAWED")

    def _verdict(self) -> str | None:
        oom = _counters(self.memory / "memory.oom_control")
        if oom.get("oom_kill", 0) or oom.get("under_oom", 0):
            return "memory_limit"
        if _counters(self.pids / "pids.events").get("max", 0):
            return "process_limit"
        return None

    def _peak_now(self) -> int | None:
        return _read_int(self.memory / "memory.max_usage_in_bytes")

    def memory_bytes(self) -> int | None:
        return _read_int(self.memory / "memory.usage_in_bytes")

    def reset_peak(self) -> bool:
        try:
            (self.memory / "memory.max_usage_in_bytes").write_text("0")
        except OSError:
            return False
        return True

    def _cpu_now(self) -> float | None:
        """``cpuacct.usage`` (nanoseconds), where the v1 ``cpuacct`` hierarchy is writable."""
        nsec = _pread_counter(self._cpu_fd)
        return nsec / 1e9 if nsec is not None else None

    def _procs_file(self) -> Path:
        return self.memory / "cgroup.procs"

    def _remove_groups(self) -> None:
        self.thaw()  # a frozen v1 task cannot even die
        _close(self._freeze_fd)
        _close(self._cpu_fd)
        self._freeze_fd = self._cpu_fd = None
        for path in self.paths:
            _rmdir(path)


@dataclass(frozen=True)
class V1Tree:
    """``monsoon-sandbox`` groups below the worker's own group in each v1 hierarchy."""

    memory: Path
    pids: Path
    freezer: Path | None = None
    cpuacct: Path | None = None
    kind: str = "v1"

    @property
    def can_freeze(self) -> bool:
        return self.freezer is not None

    @property
    def bases(self) -> tuple[Path, ...]:
        """The ``monsoon-sandbox`` group of each hierarchy, the freezer's first."""
        return tuple(
            p for p in (self.freezer, self.memory, self.pids, self.cpuacct) if p is not None
        )

    @property
    def swap_accounted(self) -> bool:
        """Whether ``memory.memsw.*`` exists (the kernel counts swap: it is bounded too)."""
        return (self.memory / "memory.memsw.limit_in_bytes").exists()

    def seat(self, limits: Limits) -> V1SeatCgroup:
        name = _new_name()
        made: list[Path] = []
        try:
            memory = self.memory / name
            memory.mkdir()
            made.append(memory)
            # memory+swap may never be below memory: set memory first, then the sum to it.
            (memory / "memory.limit_in_bytes").write_text(str(limits.memory_bytes))
            memsw = memory / "memory.memsw.limit_in_bytes"
            if memsw.exists():
                memsw.write_text(str(limits.memory_bytes))
            pids = self.pids / name
            pids.mkdir()
            made.append(pids)
            (pids / "pids.max").write_text(str(limits.processes + EXTRA_TASKS))
            freezer = None
            if self.freezer is not None:
                freezer = self.freezer / name
                freezer.mkdir()
                made.append(freezer)
            cpuacct = None
            if self.cpuacct is not None:
                cpuacct = self.cpuacct / name
                cpuacct.mkdir()
                made.append(cpuacct)
        except OSError:
            for path in reversed(made):
                with contextlib.suppress(OSError):
                    path.rmdir()
            raise
        return V1SeatCgroup(memory, pids, freezer, cpuacct)


@dataclass(frozen=True)
class _V1Mount:
    point: Path
    root: str


def _v1_mounts(mountinfo: str) -> dict[str, _V1Mount]:
    """The v1 hierarchies in mountinfo text: {controller: mount point and mounted root}."""
    found: dict[str, _V1Mount] = {}
    for line in mountinfo.splitlines():
        if " - " not in line:
            continue
        before, after = line.split(" - ", 1)
        fields, tail = before.split(), after.split()
        if len(fields) < 5 or len(tail) < 3 or tail[0] != "cgroup":
            continue
        for option in tail[2].split(","):
            found.setdefault(option, _V1Mount(Path(fields[4]), fields[3]))
    return found


def _v1_own(cgroup_file: str) -> dict[str, str]:
    """This process's group per v1 controller, from ``/proc/self/cgroup``."""
    own: dict[str, str] = {}
    for line in cgroup_file.splitlines():
        parts = line.split(":", 2)
        if len(parts) == 3 and parts[1]:
            for controller in parts[1].split(","):
                own[controller] = parts[2]
    return own


def _v1_group_path(controller: str, path: str, mounts: dict[str, _V1Mount]) -> Path | None:
    """Where v1 group ``path`` (as ``/proc/PID/cgroup`` names it) of ``controller``'s
    hierarchy lies in this process's file system; None when it is not mounted here."""
    mount = mounts.get(controller)
    if mount is None:
        return None
    root = mount.root.rstrip("/")
    if path != root and not path.startswith(root + "/"):
        return None
    return mount.point / path[len(root) :].lstrip("/")


def _v1_group(controller: str, mounts: dict[str, _V1Mount], own: dict[str, str]) -> Path:
    """``monsoon-sandbox`` below our own group in ``controller``'s hierarchy (created)."""
    if controller not in mounts or controller not in own:
        raise LookupError(f"no cgroup v1 {controller} hierarchy is mounted")
    path = own[controller]
    group = _v1_group_path(controller, path, mounts)
    if group is None:
        raise LookupError(f"our v1 {controller} group {path!r} lies outside its mount")
    base = group / SANDBOX_GROUP
    probe = base / f"probe-{os.getpid()}"
    try:
        base.mkdir(exist_ok=True)
        probe.mkdir()  # the base may exist already (made by root): can *we* make seats in it?
        probe.rmdir()
    except OSError as exc:
        raise LookupError(
            f"cannot create {base}: {exc.strerror or exc} (the v1 {controller} hierarchy "
            "must be writable by the worker: run it as root)"
        ) from exc
    return base


KEEP_FROZEN = "keep-frozen"
"""An empty v1 freezer group kept frozen for good (see :func:`_hold_freezer_active`)."""


def _hold_freezer_active(base: Path | None) -> None:
    """Keep one (empty) v1 freezer group frozen, so that seat freezes stay cheap.

    The kernel switches its freezer code on and off with a static key while any v1 group is
    frozen; each switch patches kernel text, which made every freeze and every thaw of a seat
    cost about 80 us here. With one group frozen for good the key stays on, and a seat's
    freeze or thaw is a write of about 1 us (``benchmarks/sandbox_bench.py`` prints both).
    """
    if base is None:
        return
    hold = base / KEEP_FROZEN
    try:
        hold.mkdir(exist_ok=True)
        (hold / "freezer.state").write_text("FROZEN")
    except OSError as exc:
        logger.warning("cannot keep %s frozen (%s): seat freezes cost more", hold, exc)


def _find_v1(*, mountinfo: str, own_cgroup: str) -> tuple[V1Tree | None, str]:
    mounts = _v1_mounts(mountinfo)
    own = _v1_own(own_cgroup)
    try:
        memory = _v1_group("memory", mounts, own)
        pids = _v1_group("pids", mounts, own)
    except LookupError as exc:
        return None, str(exc)
    try:
        freezer: Path | None = _v1_group("freezer", mounts, own)
    except LookupError as exc:
        logger.warning("seats cannot be frozen by cgroup (%s): signals are used instead", exc)
        freezer = None
    else:
        _hold_freezer_active(freezer)
    try:
        cpuacct: Path | None = _v1_group("cpuacct", mounts, own)
    except LookupError as exc:
        logger.warning("no per-seat CPU account (%s): CPU time is read from /proc", exc)
        cpuacct = None
    tree = V1Tree(memory, pids, freezer, cpuacct)
    sweep_stale(*tree.bases)
    parts = [
        "cgroup v1: per-seat memory",
        "(swap included)" if tree.swap_accounted else "(no swap accounting)",
        "and pids limits",
        f"and freezer under {memory.parent}" if freezer else f"under {memory.parent}, no freezer",
    ]
    return tree, " ".join(parts)


# --- choosing ------------------------------------------------------------------------------


def find_tree(
    *,
    mountinfo: str,
    own_cgroup: str,
    delegated: str | None,
    is_root: bool,
) -> tuple[SeatTree | None, str]:
    """Where seat cgroups can live, or None and why not (arguments make it testable).

    cgroup v2 first; a v1 hybrid host next, unless a v2 group was explicitly delegated.
    """
    tree, why_v2 = _find_v2(
        mountinfo=mountinfo, own_cgroup=own_cgroup, delegated=delegated, is_root=is_root
    )
    if tree is not None or delegated:
        return tree, why_v2
    v1, why_v1 = _find_v1(mountinfo=mountinfo, own_cgroup=own_cgroup)
    if v1 is not None:
        return v1, why_v1
    return None, f"{why_v2}; and {why_v1}"


_found: tuple[SeatTree | None, str] | None = None
_delegated_parent = ""


def use_delegated_parent(path: str) -> None:
    """Look for seat groups under ``path``, an empty cgroup v2 group delegated to this worker
    (empty: none, the hierarchy's root for a root worker).

    The server's ``MONSOON_CGROUP_PARENT`` setting, which ``workers/apps.py`` hands over when a
    worker process starts: this module is part of the bot authors' kit and reads nothing of the
    server's settings itself. A changed parent is looked up afresh.
    """
    global _delegated_parent, _found
    if path != _delegated_parent:
        _delegated_parent = path
        _found = None


def cgroup_tree() -> tuple[SeatTree | None, str]:
    """This host's seat cgroup tree (looked up once per worker process) and a description."""
    global _found
    if _found is None:
        try:
            mountinfo = Path("/proc/self/mountinfo").read_text()
            own = Path("/proc/self/cgroup").read_text()
        except OSError as exc:
            _found = (None, f"cannot read /proc: {exc.strerror}")
        else:
            _found = find_tree(
                mountinfo=mountinfo,
                own_cgroup=own,
                delegated=_delegated_parent or None,
                is_root=os.geteuid() == 0,
            )
    return _found


def sweep_stale_seats() -> list[Path]:
    """At the start of every worker process: end the seats dead worker processes left behind.

    Connected to Celery's ``worker_process_init`` (each pool process, replacements of crashed
    ones included) and run in the worker's main process at ``worker_ready``; the demo runs it
    after stopping its worker. The tree is looked up again, as a forked process inherits its
    parent's answer.
    """
    tree, _ = cgroup_tree()
    return sweep_stale(*tree.bases) if tree is not None else []


def unbounded_seats_allowed() -> bool:
    """The documented development override (``MONSOON_ALLOW_UNBOUNDED_SEATS=1``)."""
    return os.environ.get(ALLOW_UNBOUNDED_ENV, "") == "1"


def seat_bounds_problem() -> str | None:
    """None when each seat's total memory and tasks can be bounded here, else why not.

    Ladder launches refuse to start on such a host (rlimits alone let one seat hold many
    times its memory limit in several processes); a development machine may set
    ``MONSOON_ALLOW_UNBOUNDED_SEATS=1`` to accept per-process limits.
    """
    tree, why = cgroup_tree()
    if tree is not None or unbounded_seats_allowed():
        return None
    return (
        f"this host cannot bound a seat's total memory and processes ({why}); refusing to run "
        "bots with per-process limits only. Run the worker as root on a host with cgroup v2 "
        "(or v1 memory and pids hierarchies), or delegate a cgroup v2 group through "
        f"MONSOON_CGROUP_PARENT; on a development machine set {ALLOW_UNBOUNDED_ENV}=1"
    )
