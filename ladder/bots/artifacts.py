"""Inspect an uploaded bot artifact before anything is stored.

An upload is a single ``.py`` file, or a ``.zip`` / ``.tar.gz`` holding ``main.py`` or a
``monsoon.json`` manifest that names the command, e.g. ``{"command": ["python3", "bot/run.py"]}``
(optionally with ``"game": "batavia"``).  Everything here works on bytes in memory with hard
limits, never extracts to disk and never runs or compiles the code in this process
(:mod:`ladder.bots.source_check` compiles in a limited child): archives are checked member
by member for size, count, paths (absolute, ``..``, backslashes, name length, depth,
file/folder clashes), links and device files, and compressed streams are inflated with a
cap so a zip or gzip bomb costs at most the cap.
"""

from __future__ import annotations

import io
import json
import shlex
import stat
import tarfile
import unicodedata
import zipfile
import zlib
from dataclasses import dataclass, field
from pathlib import PurePosixPath

from bots.manifest import (
    MANIFEST_NAME,
    UploadRejected,
    describe_character,
    manifest_command,
    unsafe_character,
)
from ladder.bots.source_check import first_syntax_problem

__all__ = ["MANIFEST_NAME", "UploadRejected", "manifest_command"]

DEFAULT_ENTRY = "main.py"
# What every file system a worker may unpack onto accepts: a name component of at most 255
# bytes (NAME_MAX on ext4, xfs, tmpfs), a path well under PATH_MAX once the cache's own
# directory is put in front, and a depth that no real bot needs.
MAX_NAME_BYTES = 255
MAX_PATH_BYTES = 1024
MAX_DEPTH = 32
EXECUTABLE_BITS = stat.S_IXUSR | stat.S_IXGRP | stat.S_IXOTH


@dataclass(frozen=True)
class UploadLimits:
    max_bytes: int = 2 * 1024 * 1024
    max_files: int = 200
    max_unpacked_bytes: int = 20 * 1024 * 1024


@dataclass(frozen=True)
class Member:
    """One file of an archive: its bytes, and whether it may be executed.

    Only the executable bit survives from an archive's modes: a compiled bot
    (``{"command": ["./mybot"]}``) needs it; setuid, setgid, sticky and write bits never
    reach a worker's disk.
    """

    content: bytes
    executable: bool = False


@dataclass(frozen=True)
class ArtifactInfo:
    kind: str  # "py" | "zip" | "tar.gz"
    command: list[str]
    file_count: int
    unpacked_size: int
    declared_game: str | None = None
    files: tuple[str, ...] = field(default=(), repr=False)


def inspect_upload(filename: str, data: bytes, limits: UploadLimits) -> ArtifactInfo:
    """Check an upload and describe it, or raise :class:`UploadRejected` with the reason."""
    if not data:
        raise UploadRejected("the uploaded file is empty")
    if len(data) > limits.max_bytes:
        raise UploadRejected(
            f"the upload is {len(data)} bytes; the limit is {limits.max_bytes} bytes"
        )
    lower = filename.lower()
    if lower.endswith(".py"):
        return _inspect_python(data, limits)
    if lower.endswith(".zip"):
        return _finish(_zip_members(data, limits), "zip")
    if lower.endswith((".tar.gz", ".tgz")):
        return _finish(_tar_members(data, limits), "tar.gz")
    raise UploadRejected(
        f"unsupported file type {filename!r}: upload a .py file, a .zip or a .tar.gz archive"
    )


def artifact_members(kind: str, data: bytes, limits: UploadLimits) -> dict[str, Member]:
    """The files of a stored artifact by relative path, checked as strictly as an upload.

    Workers unpack artifacts with this (never with ``extractall``), so an artifact that was
    tampered with in storage meets the same path, link and size checks as a fresh upload.
    """
    if kind == "py":
        return {DEFAULT_ENTRY: Member(data)}
    if kind == "zip":
        return _zip_members(data, limits)
    if kind == "tar.gz":
        return _tar_members(data, limits)
    raise UploadRejected(f"unknown artifact kind {kind!r}")


def _check_text(name: str, data: bytes) -> None:
    """A Python source must be UTF-8 and not empty."""
    try:
        data.decode("utf-8")
    except UnicodeDecodeError as exc:
        raise UploadRejected(f"{printable(name)} is not valid UTF-8 (byte {exc.start})") from None
    if not data.strip():
        raise UploadRejected(f"{printable(name)} is empty")


def _check_sources(sources: dict[str, bytes]) -> None:
    """Every Python source must compile; compiled in a limited child, never in this process."""
    for name, data in sources.items():
        _check_text(name, data)
    problem = first_syntax_problem(sources)
    if problem is None:
        return
    where = printable(problem.name) or "the upload"
    if problem.line is not None:
        raise UploadRejected(f"{where} has a syntax error on line {problem.line}: {problem.error}")
    raise UploadRejected(f"{where} cannot be compiled: {problem.error}")


def _inspect_python(data: bytes, limits: UploadLimits) -> ArtifactInfo:
    _check_sources({DEFAULT_ENTRY: data})
    return ArtifactInfo(
        kind="py",
        command=["python3", DEFAULT_ENTRY],
        file_count=1,
        unpacked_size=len(data),
        files=(DEFAULT_ENTRY,),
    )


def printable(text: str) -> str:
    """``text`` safe to show and store: undecodable bytes (lone surrogates) escaped."""
    return text.encode("utf-8", "backslashreplace").decode("utf-8")


def _safe_member_name(raw: str) -> str:
    """The normalised relative path of an archive member, or a rejection.

    Every rule a worker's file system would enforce later is checked here, so an archive
    accepted at upload always unpacks: a refusal on the worker would repeat on every try.
    """
    shown = printable(raw)
    if not raw:
        raise UploadRejected("the archive has a member with an empty name")
    if "\x00" in raw:
        raise UploadRejected(f"archive member {shown!r} has a NUL byte in its name")
    try:
        raw.encode("utf-8")
    except UnicodeEncodeError:
        raise UploadRejected(
            f"archive member {shown!r} has a name that is not UTF-8; rename it"
        ) from None
    if "\\" in raw:
        raise UploadRejected(f"archive member {shown!r} uses backslashes; use '/' in paths")
    if raw.startswith("/") or (len(raw) > 1 and raw[1] == ":"):
        raise UploadRejected(f"archive member {shown!r} has an absolute path")
    parts = [part for part in PurePosixPath(raw).parts if part != "."]
    if ".." in parts:
        raise UploadRejected(f"archive member {shown!r} climbs out of the archive with '..'")
    if not parts:
        raise UploadRejected(f"archive member {shown!r} has no file name")
    bad_char = unsafe_character(raw)
    if bad_char is not None:
        raise UploadRejected(
            f"archive member {shown!r} has a control or format character "
            f"({describe_character(bad_char)}) in its name"
        )
    for part in parts:
        if len(part.encode("utf-8")) > MAX_NAME_BYTES:
            raise UploadRejected(
                f"archive member {shown[:80]!r}...: a file or folder name is longer than "
                f"{MAX_NAME_BYTES} bytes"
            )
    name = "/".join(parts)
    if len(parts) > MAX_DEPTH:
        raise UploadRejected(
            f"archive member {shown[:80]!r}... is {len(parts)} levels deep; the limit is "
            f"{MAX_DEPTH}"
        )
    if len(name.encode("utf-8")) > MAX_PATH_BYTES:
        raise UploadRejected(
            f"archive member {shown[:80]!r}... has a path longer than {MAX_PATH_BYTES} bytes"
        )
    return name


def _is_top_folder(raw: str) -> bool:
    """Whether an archive's folder entry names the archive's own top (``.`` or ``./``)."""
    return raw not in ("", "/") and all(part == "." for part in PurePosixPath(raw).parts)


class _Tree:
    """The paths an archive has laid out so far, to refuse members that cannot coexist.

    ``a`` as a file next to ``a/b.txt``, or the same file twice, cannot both be written;
    refused at upload, they would fail on every worker.
    """

    def __init__(self) -> None:
        self.files: set[str] = set()
        self.folders: set[str] = set()
        self.spellings: dict[str, str] = {}  # NFC form -> the path as the archive spelt it

    def _claim(self, path: str) -> None:
        """``café`` in two Unicode spellings (NFC ``\\u00e9``, NFD ``e\\u0301``) reads the same on
        every screen but names two files: refused, naming both."""
        normal = unicodedata.normalize("NFC", path)
        seen = self.spellings.setdefault(normal, path)
        if seen != path:
            raise UploadRejected(
                f"archive members {printable(path)!r} and {printable(seen)!r} are one name once "
                "normalised (Unicode NFC): rename one"
            )

    def add(self, name: str, *, folder: bool) -> None:
        parents = name.split("/")[:-1]
        for depth in range(1, len(parents) + 1):
            prefix = "/".join(parents[:depth])
            self._claim(prefix)
            if prefix in self.files:
                raise UploadRejected(
                    f"archive member {printable(name)!r} lies inside {printable(prefix)!r}, "
                    "which is a file"
                )
            self.folders.add(prefix)
        self._claim(name)
        if name in (self.folders if not folder else self.files):
            raise UploadRejected(f"archive member {printable(name)!r} is both a file and a folder")
        if folder:
            self.folders.add(name)
            return
        if name in self.files:
            raise UploadRejected(f"the archive holds {printable(name)!r} twice")
        self.files.add(name)


class _Budget:
    """Counts entries and unpacked bytes across an archive against the limits.

    Folders count like files: each is an entry to check and a directory to make on every
    worker (30,000 empty folders once passed a limit that counted files only).
    """

    def __init__(self, limits: UploadLimits) -> None:
        self.limits = limits
        self.entries = 0
        self.total = 0

    def add_folder(self) -> None:
        self._count()

    def _count(self) -> None:
        self.entries += 1
        if self.entries > self.limits.max_files:
            raise UploadRejected(
                f"the archive holds more than {self.limits.max_files} files and folders"
            )

    def add_file(self, name: str, size: int) -> None:
        self._count()
        self.total += size
        if self.total > self.limits.max_unpacked_bytes:
            raise UploadRejected(
                f"the archive unpacks to more than {self.limits.max_unpacked_bytes} bytes "
                f"(at {name!r})"
            )


def _zip_members(data: bytes, limits: UploadLimits) -> dict[str, Member]:
    try:
        archive = zipfile.ZipFile(io.BytesIO(data))
    except (zipfile.BadZipFile, ValueError, OSError):
        raise UploadRejected("the file is not a readable zip archive") from None
    budget = _Budget(limits)
    tree = _Tree()
    members: dict[str, Member] = {}
    with archive:
        for info in archive.infolist():
            # zipfile cuts a name at a NUL; the archive's own spelling keeps it.
            name = _safe_member_name(info.orig_filename)
            mode = info.external_attr >> 16
            if stat.S_ISLNK(mode):
                raise UploadRejected(f"archive member {name!r} is a symbolic link")
            # Many zip tools store only permission bits (no file type): those are plain files.
            if stat.S_IFMT(mode) not in (0, stat.S_IFREG, stat.S_IFDIR):
                raise UploadRejected(f"archive member {name!r} is not a regular file")
            tree.add(name, folder=info.is_dir())
            if info.is_dir():
                budget.add_folder()
                continue
            if info.flag_bits & 0x1:
                raise UploadRejected(f"archive member {name!r} is encrypted")
            budget.add_file(name, info.file_size)
            content = _read_zip_member(archive, info, name, limits, budget)
            members[name] = Member(content, executable=bool(mode & stat.S_IXUSR))
    return members


def _read_zip_member(
    archive: zipfile.ZipFile,
    info: zipfile.ZipInfo,
    name: str,
    limits: UploadLimits,
    budget: _Budget,
) -> bytes:
    """Read one member with a cap: the size in the header may lie."""
    allowed = limits.max_unpacked_bytes - (budget.total - info.file_size)
    try:
        with archive.open(info) as stream:
            content = stream.read(allowed + 1)
    except (
        zipfile.BadZipFile,
        NotImplementedError,
        RuntimeError,
        OSError,
        EOFError,
        zlib.error,
    ) as exc:
        raise UploadRejected(f"archive member {name!r} cannot be read: {exc}") from None
    if len(content) > allowed or len(content) != info.file_size:
        raise UploadRejected(
            f"archive member {name!r} unpacks to more than its declared size or past the "
            f"{limits.max_unpacked_bytes}-byte limit"
        )
    return content


def _gunzip_capped(data: bytes, cap: int) -> bytes:
    inflater = zlib.decompressobj(wbits=31)
    try:
        out = inflater.decompress(data, cap + 1)
    except zlib.error:
        raise UploadRejected("the file is not a readable .tar.gz archive") from None
    if len(out) > cap:
        raise UploadRejected(f"the archive unpacks to more than {cap} bytes")
    if not inflater.eof:
        raise UploadRejected("the .tar.gz archive is truncated")
    return out


def _tar_members(data: bytes, limits: UploadLimits) -> dict[str, Member]:
    # Tar headers take 512 bytes per member on top of the content.
    cap = limits.max_unpacked_bytes + 1024 * (limits.max_files + 2)
    raw = _gunzip_capped(data, cap)
    budget = _Budget(limits)
    tree = _Tree()
    members: dict[str, Member] = {}
    try:
        with tarfile.open(fileobj=io.BytesIO(raw), mode="r:") as archive:
            for info in archive:
                if info.isdir() and _is_top_folder(info.name):
                    continue  # `tar czf mybot.tar.gz .` records the folder itself as "."
                name = _safe_member_name(info.name)
                if info.issym() or info.islnk():
                    raise UploadRejected(f"archive member {name!r} is a link")
                if not info.isdir() and not info.isreg():
                    raise UploadRejected(f"archive member {name!r} is not a regular file")
                tree.add(name, folder=info.isdir())
                if info.isdir():
                    budget.add_folder()
                    continue
                budget.add_file(name, info.size)
                stream = archive.extractfile(info)
                content = stream.read() if stream is not None else b""
                members[name] = Member(content, executable=bool(info.mode & stat.S_IXUSR))
    except tarfile.TarError as exc:
        raise UploadRejected(
            f"the file is not a readable .tar.gz archive: {printable(str(exc))}"
        ) from None
    return members


def _read_manifest(members: dict[str, Member]) -> tuple[list[str], str | None]:
    try:
        manifest = json.loads(members[MANIFEST_NAME].content.decode("utf-8"))
    # ValueError covers bad UTF-8 and bad JSON, and also the integer of more than 4,300 digits
    # that Python refuses to convert (neither of the other two).
    except (ValueError, RecursionError) as exc:
        raise UploadRejected(
            f"{MANIFEST_NAME} is not valid UTF-8 JSON: {printable(str(exc))[:200]}"
        ) from None
    command = manifest_command(manifest)
    game = manifest.get("game")
    if game is not None and not isinstance(game, str):
        raise UploadRejected(f"{MANIFEST_NAME}: 'game' must be a string")
    return command, game


def _check_command_files(command: list[str], members: dict[str, Member]) -> None:
    """Refuse a manifest whose command runs a Python file the archive does not hold (the
    first ``.py`` it names; later ones may be the bot's own arguments).

    An argument that is a path (``bot/run.py``) must name a member exactly: it is run from the
    archive's root. A shell command line (``sh -c "cd bot && exec python3 main.py"``) is split
    into words as the shell would; a ``.py`` word there may be relative to a folder the script
    changes into, so it is accepted when the archive holds it at the root or in any folder.
    What the shell really does is not second-guessed: this catches a misspelt or forgotten
    file, the mistake an author makes, before a version is stored and validated.
    """
    for arg in command:
        if not any(char.isspace() for char in arg):
            if arg.endswith(".py"):
                if _member_name_or_none(arg) not in members:
                    raise UploadRejected(
                        f"{MANIFEST_NAME} runs {arg!r}, which is not in the archive"
                    )
                return
            continue
        try:
            words = shlex.split(arg)
        except ValueError:  # unbalanced quotes: the shell will say so when the bot starts
            continue
        for word in words:
            if not word.endswith(".py") or word.startswith(("$", "/")):
                continue
            name = _member_name_or_none(word)
            if name is None or not any(m == name or m.endswith("/" + name) for m in members):
                raise UploadRejected(
                    f"{MANIFEST_NAME}: the shell command runs {word!r}, which is not in the "
                    "archive (at its top level or in any folder)"
                )
            return


def _member_name_or_none(path: str) -> str | None:
    try:
        return _safe_member_name(path)
    except UploadRejected:
        return None


def _finish(members: dict[str, Member], kind: str) -> ArtifactInfo:
    if not members:
        raise UploadRejected("the archive is empty")
    # Archives made with a single top folder ("mybot/main.py") are accepted as they are:
    # the command names paths relative to the archive root.
    if MANIFEST_NAME in members:
        command, game = _read_manifest(members)
        _check_command_files(command, members)
    elif DEFAULT_ENTRY in members:
        command, game = ["python3", DEFAULT_ENTRY], None
    else:
        raise UploadRejected(
            f"the archive needs {DEFAULT_ENTRY} at its top level or a {MANIFEST_NAME} manifest "
            "naming the command"
        )
    _check_sources({name: m.content for name, m in members.items() if name.endswith(".py")})
    return ArtifactInfo(
        kind=kind,
        command=command,
        file_count=len(members),
        unpacked_size=sum(len(member.content) for member in members.values()),
        declared_game=game,
        files=tuple(sorted(members)),
    )
