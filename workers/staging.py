"""Making a host directory readable by a sandbox's unprivileged seat uid.

bubblewrap runs as the seat uid and resolves every bind source by path, even one handed over
as an open descriptor (a mount cannot cross user namespaces, so bwrap re-resolves the fd's
path). A bot unpacked under a private directory (``/root/...``, pytest's ``0700`` temp dirs) or
with ``0600`` files is therefore out of its own sandbox's reach. Rather than loosen the
permissions of the worker's own directories, such a directory is copied into a fresh
``0711`` holder (a name no one else can list) with world-readable modes; directories that
anyone can already read are mounted as they are, at no cost.

Copies never follow the bot's symlinks (they are copied as links and resolve inside the
sandbox) and skip anything but files, directories and links (a FIFO would block the copy).
"""

from __future__ import annotations

import atexit
import functools
import os
import shutil
import stat
import tempfile
from pathlib import Path

STAGING_ROOT = Path("/tmp")
"""Where copies go: world-traversable on every Linux host (``1777``)."""


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


def stage_copy(source: Path, prefix: str) -> tuple[Path, Path]:
    """Copy ``source`` somewhere any uid can read; returns (the copy, its holder to delete)."""
    holder = Path(tempfile.mkdtemp(prefix=prefix, dir=STAGING_ROOT))
    target = holder / source.name
    try:
        shutil.copytree(source, target, symlinks=True, ignore=_skip_special)
        for root, _dirs, files in os.walk(target):
            os.chmod(root, 0o755)
            for name in files:
                path = os.path.join(root, name)
                if not os.path.islink(path):
                    executable = os.stat(path).st_mode & stat.S_IXUSR
                    os.chmod(path, 0o755 if executable else 0o644)
        os.chmod(holder, 0o711)
    except BaseException:
        shutil.rmtree(holder, ignore_errors=True)
        raise
    return target, holder


def readable_copy(source: Path, prefix: str) -> tuple[Path, Path | None]:
    """``source`` itself when anyone can read it, else a staged copy and its holder."""
    if readable_by_anyone(source):
        return source, None
    return stage_copy(source, prefix)


@functools.cache
def readable_package(source: Path) -> Path:
    """A repository package the sandbox can mount: the package or one copy per worker process.

    The copy keeps ``__pycache__`` (and the sources' mtimes), so bots still start from
    compiled bytecode; it is removed when the worker exits.
    """
    path, holder = readable_copy(source, "monsoon-package-")
    if holder is not None:
        atexit.register(shutil.rmtree, holder, True)
    return path
