"""cgroup v2 memory and pids limits per seat, where the host hands us a writable tree.

rlimits bound each process (address space, process count per uid), but not what a seat uses
in total, and they leave no record of being hit. A cgroup per seat caps the seat's real memory
(tmpfs pages included) and its number of tasks, and its ``memory.events`` / ``pids.events``
counters say afterwards whether the cap was reached, which :meth:`SeatCgroup.limit_hit` turns
into the runner's ``memory_limit`` / ``process_limit`` reasons.

Only cgroup v2 is used, and only when it is really available: the v2 hierarchy must offer the
``memory`` and ``pids`` controllers, and the worker must be able to create cgroups with them,
either under the root of the hierarchy (a root worker in the host's cgroup namespace) or under
an empty cgroup delegated to it through ``MONSOON_CGROUP_PARENT``. Otherwise
:func:`cgroup_tree` returns None together with the reason, and the sandbox relies on rlimits.
"""

from __future__ import annotations

import contextlib
import itertools
import os
import time
from dataclasses import dataclass
from pathlib import Path

from workers.launch import Limits

CONTROLLERS = ("memory", "pids")
SANDBOX_GROUP = "monsoon-sandbox"
EXTRA_TASKS = 1
"""bwrap itself runs in the seat's cgroup too."""
_names = itertools.count()


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


@dataclass(frozen=True)
class CgroupTree:
    """A cgroup whose children get memory and pids limits: one child per running seat."""

    base: Path

    def seat(self, limits: Limits) -> SeatCgroup:
        """A fresh cgroup holding ``limits`` for one seat (raises OSError when refused)."""
        path = self.base / f"seat-{os.getpid()}-{next(_names)}"
        path.mkdir()
        try:
            (path / "memory.max").write_text(str(limits.memory_bytes))
            swap = path / "memory.swap.max"
            if swap.exists():
                swap.write_text("0")
            (path / "pids.max").write_text(str(limits.processes + EXTRA_TASKS))
        except OSError:
            path.rmdir()
            raise
        return SeatCgroup(path)


@dataclass
class SeatCgroup:
    """One seat's cgroup: join it before exec, read its counters, remove it afterwards."""

    path: Path
    final: str | None = None

    @property
    def procs(self) -> str:
        """The file a process writes ``0`` to in order to move itself in."""
        return str(self.path / "cgroup.procs")

    def join(self) -> None:
        """Move the calling process in; runs in the child between fork and exec."""
        with open(self.procs, "w") as procs:
            procs.write("0")

    def limit_hit(self) -> str | None:
        """``memory_limit`` after an OOM in the seat, ``process_limit`` after a refused fork."""
        if self.final is not None:
            return self.final or None
        memory = _counters(self.path / "memory.events")
        if memory.get("oom", 0) or memory.get("oom_kill", 0):
            return "memory_limit"
        if _counters(self.path / "pids.events").get("max", 0):
            return "process_limit"
        return None

    def remove(self) -> None:
        """Keep the verdict, then delete the (by now empty) cgroup."""
        self.final = self.limit_hit() or ""
        for _ in range(100):
            try:
                self.path.rmdir()
                return
            except FileNotFoundError:
                return
            except OSError:
                time.sleep(0.01)  # the last tasks are still being torn down


def _counters(path: Path) -> dict[str, int]:
    """A cgroup ``*.events`` file as {name: count}; empty when unreadable."""
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


def find_tree(
    *,
    mountinfo: str,
    own_cgroup: str,
    delegated: str | None,
    is_root: bool,
) -> tuple[CgroupTree | None, str]:
    """Where seat cgroups can live, or None and why not (arguments make it testable)."""
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
    return CgroupTree(base), f"per-seat memory and pids limits under {base}"


_found: tuple[CgroupTree | None, str] | None = None


def cgroup_tree() -> tuple[CgroupTree | None, str]:
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
                delegated=os.environ.get("MONSOON_CGROUP_PARENT"),
                is_root=os.geteuid() == 0,
            )
    return _found
