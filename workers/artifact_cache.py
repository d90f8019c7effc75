"""Unpacked bot artifacts on a worker's disk, one directory per sha256.

A worker plays the same bot versions again and again; fetching and unpacking each artifact
once per worker (not once per match) keeps a match's start-up to the sandbox's own cost. The
directory name is the artifact's sha256, and the bytes are checked against it before anything
is written, so a cache entry can never hold other code than the version it is named after.

Entries are made in a temporary directory beside the cache and renamed into place, so two
worker processes unpacking the same artifact at once both end with one complete directory, and
a worker killed half-way leaves only a temporary directory (swept on the next start-up).
Everything is world-readable: the sandbox runs each seat as its own uid. Members the archive
marks executable get 0755, everything else 0644: no other mode bit of an upload reaches disk.
"""

from __future__ import annotations

import contextlib
import errno
import hashlib
import os
import re
import shutil
import tempfile
from collections.abc import Callable
from pathlib import Path

from ladder.bots.artifacts import Member, UploadLimits, artifact_members, printable

SHA256 = re.compile(r"^[0-9a-f]{64}$")
DIR_MODE = 0o755
FILE_MODE = 0o644
EXECUTABLE_MODE = 0o755  # an archive member marked executable (a compiled bot); nothing more
PARTIAL_PREFIX = ".partial-"
# File-system refusals caused by the archive's names, not by the host.
ARTIFACT_ERRNOS = frozenset(
    {errno.ENAMETOOLONG, errno.ENOTDIR, errno.EEXIST, errno.EISDIR, errno.EILSEQ, errno.EINVAL}
)


class ArtifactError(Exception):
    """The stored artifact is missing, unreadable or not what its version says it is."""


class ArtifactCache:
    """Unpacked artifacts under ``root``; :meth:`directory` fetches and unpacks on a miss."""

    def __init__(self, root: Path, limits: UploadLimits | None = None) -> None:
        self.root = Path(root)
        self.limits = limits or UploadLimits(
            max_bytes=64 * 1024 * 1024, max_files=10_000, max_unpacked_bytes=256 * 1024 * 1024
        )

    def _prepare_root(self) -> None:
        self.root.mkdir(parents=True, exist_ok=True)
        with contextlib.suppress(PermissionError):
            self.root.chmod(DIR_MODE)

    def sweep_partial(self) -> int:
        """Remove half-made entries left by a killed worker; returns how many."""
        if not self.root.is_dir():
            return 0
        removed = 0
        for entry in self.root.iterdir():
            if entry.name.startswith(PARTIAL_PREFIX):
                shutil.rmtree(entry, ignore_errors=True)
                removed += 1
        return removed

    def path_for(self, sha256: str) -> Path:
        if not SHA256.match(sha256):
            raise ArtifactError(f"{sha256!r} is not a sha256 digest")
        return self.root / sha256

    def directory(self, sha256: str, kind: str, fetch: Callable[[], bytes]) -> Path:
        """The unpacked directory of an artifact, fetching it with ``fetch()`` if not cached."""
        target = self.path_for(sha256)
        if target.is_dir():
            return target
        try:
            data = fetch()
        except Exception as exc:  # storage backends raise anything from OSError to botocore's
            raise ArtifactError(f"cannot fetch artifact {sha256[:12]}: {exc}") from exc
        if hashlib.sha256(data).hexdigest() != sha256:
            raise ArtifactError(f"the stored artifact does not match its sha256 {sha256[:12]}")
        try:
            members = artifact_members(kind, data, self.limits)
        except ValueError as exc:
            raise ArtifactError(f"artifact {sha256[:12]} cannot be unpacked: {exc}") from exc
        self._prepare_root()
        partial = Path(tempfile.mkdtemp(prefix=PARTIAL_PREFIX, dir=self.root))
        try:
            partial.chmod(DIR_MODE)
            self._write_members(partial, members, sha256)
            for folder, _dirs, _files in os.walk(partial):
                os.chmod(folder, DIR_MODE)
            try:
                partial.rename(target)
            except OSError:
                if not target.is_dir():  # not "another worker won the race"
                    raise
        finally:
            shutil.rmtree(partial, ignore_errors=True)
        return target

    @staticmethod
    def _write_members(folder: Path, members: dict[str, Member], sha256: str) -> None:
        """Write the files; a name the file system refuses is the artifact's fault.

        Uploads are checked for every such rule, so this only meets artifacts stored before
        the checks existed or changed in storage. Their failure would repeat on every try,
        so it is an :class:`ArtifactError` (the version is rejected), never a host failure;
        a full disk or a permission problem stays the host's.
        """
        for name, member in members.items():
            path = folder / name
            try:
                path.parent.mkdir(parents=True, exist_ok=True, mode=DIR_MODE)
                path.write_bytes(member.content)
            except OSError as exc:
                if exc.errno in ARTIFACT_ERRNOS:
                    raise ArtifactError(
                        f"artifact {sha256[:12]} cannot be unpacked: {printable(name)!r}: "
                        f"{exc.strerror}"
                    ) from exc
                raise
            path.chmod(EXECUTABLE_MODE if member.executable else FILE_MODE)
