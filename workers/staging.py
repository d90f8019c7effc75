"""Staging what a seat mounts: copies under a neutral host folder that the seat uid can read.

Two reasons to copy rather than bind a bot's (or the repository's) own folder:

* **Permissions.** bubblewrap runs as the seat uid and resolves every bind source by path, even
  one handed over as an open descriptor (a mount cannot cross user namespaces, so bwrap
  re-resolves the fd's path). A bot unpacked under a private directory (``/root/...``,
  pytest's ``0700`` temp dirs) or with ``0600`` files would be out of its own sandbox's reach.
* **What the seat learns.** Inside the sandbox ``/proc/self/mountinfo`` shows, for each bind
  mount, the source's path on its host file system: binding the checkout's ``engine`` or the
  artifact cache's folder told a bot where the worker's checkout is and how its owner's files
  are named. A copy in ``<staging root>/<random>/bot`` tells it nothing.

The staging root is :data:`SEAT_STAGING` (``/run/monsoon-seats``) where the worker may create
it (a root worker), else a ``monsoon-seats`` folder of the system's temporary directory. It is
``0711``: seat uids may pass through it to the copy they were given but list nothing, so one
seat cannot find another's copy. Copies never follow the bot's symlinks (they are copied as
links and resolve inside the sandbox) and skip anything but files, directories and links (a
FIFO would block the copy). Each copy's holder is registered with its owner (pid and start
time) beside the root, so that :func:`sweep_stale_copies` can remove those of a dead worker.
"""

from __future__ import annotations

import atexit
import contextlib
import functools
import os
import shutil
import stat
import tempfile
from pathlib import Path

SEAT_STAGING = Path("/run/monsoon-seats")
"""Where copies go on a root worker; the folder name says nothing of the host's layout."""
OWNERS = ".owners"
"""The folder (in the staging root) with one note per holder: its worker's pid and start."""


def readable_by_anyone(directory: Path) -> bool:
    """True when a uid that is neither owner nor group member can read all of ``directory``.

    Every ancestor must be ``o+x``; every directory inside ``o+rx``; every file ``o+r``.
    """
    resolved = directory.resolve()
    for parent in resolved.parents:
        if not os.stat(parent).st_mode & stat.S_IXOTH:
            return False
    for root, dirs, files in os.walk(resolved):
        for name in [*dirs, *files]:
            mode = os.lstat(os.path.join(root, name)).st_mode
            if stat.S_ISDIR(mode) and mode & 0o005 != 0o005:
                return False
            if stat.S_ISREG(mode) and not mode & stat.S_IROTH:
                return False
        if os.stat(root).st_mode & 0o005 != 0o005:
            return False
    return True


def _skip_special(directory: str, names: list[str]) -> set[str]:
    """copytree ``ignore``: leave out FIFOs, sockets and devices."""
    skipped = set()
    for name in names:
        mode = os.lstat(os.path.join(directory, name)).st_mode
        if not (stat.S_ISREG(mode) or stat.S_ISDIR(mode) or stat.S_ISLNK(mode)):
            skipped.add(name)
    return skipped


def _make_root(root: Path) -> Path:
    root.mkdir(mode=0o711, parents=True, exist_ok=True)
    info = root.lstat()
    if stat.S_ISLNK(info.st_mode) or info.st_uid != os.geteuid():
        raise PermissionError(f"{root} is not a folder of this worker's own")
    os.chmod(root, 0o711)
    (root / OWNERS).mkdir(mode=0o700, exist_ok=True)
    return root


@functools.cache
def staging_root() -> Path:
    """The folder copies are made in (created ``0711`` on first use)."""
    try:
        return _make_root(SEAT_STAGING)
    except OSError:
        return _make_root(Path(tempfile.gettempdir()) / f"monsoon-seats-{os.geteuid()}")


def _owner_tag() -> str:
    from workers.cgroups import process_start  # the one reading of /proc/PID/stat

    return f"{os.getpid()} {process_start(os.getpid()) or 0}"


def stage_copy(source: Path, name: str) -> tuple[Path, Path]:
    """Copy ``source`` to ``<staging root>/<random>/<name>`` for any uid to read; returns (the
    copy, its holder to delete)."""
    root = staging_root()
    holder = Path(tempfile.mkdtemp(dir=root))
    (root / OWNERS / holder.name).write_text(_owner_tag())
    target = holder / name
    try:
        shutil.copytree(source, target, symlinks=True, ignore=_skip_special)
        for directory, _dirs, files in os.walk(target):
            os.chmod(directory, 0o755)
            for file in files:
                path = os.path.join(directory, file)
                if not os.path.islink(path):
                    executable = os.stat(path).st_mode & stat.S_IXUSR
                    os.chmod(path, 0o755 if executable else 0o644)
        os.chmod(holder, 0o711)
    except BaseException:
        remove_copy(holder)
        raise
    return target, holder


def remove_copy(holder: Path) -> None:
    """Delete a copy made by :func:`stage_copy` and its owner's note."""
    shutil.rmtree(holder, ignore_errors=True)
    with contextlib.suppress(OSError):
        (holder.parent / OWNERS / holder.name).unlink()


def bot_copy(source: Path) -> tuple[Path, Path]:
    """A seat's own copy of its bot's folder (always a copy: see the module docstring)."""
    return stage_copy(source, "bot")


_packages: dict[tuple[int, Path], Path] = {}


def readable_package(source: Path) -> Path:
    """A repository package for the sandbox: one copy per worker process, kept until it exits.

    The copy keeps ``__pycache__`` (and the sources' mtimes), so bots still start from
    compiled bytecode. Keyed by pid: a forked worker makes its own, which no other process
    removes under it.
    """
    key = (os.getpid(), source)
    if key not in _packages:
        path, holder = stage_copy(source, source.name)
        atexit.register(remove_copy, holder)
        _packages[key] = path
    return _packages[key]


def sweep_stale_copies() -> list[Path]:
    """Remove the copies whose worker process is gone (a crash skips their removal)."""
    from workers.cgroups import process_start

    root = staging_root()
    removed = []
    with contextlib.suppress(OSError):
        for note in (root / OWNERS).iterdir():
            try:
                pid, started = (int(part) for part in note.read_text().split())
            except (OSError, ValueError):
                continue
            if process_start(pid) != started:
                remove_copy(root / note.name)
                removed.append(root / note.name)
    return removed
