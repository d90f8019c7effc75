"""Inspect an uploaded bot artifact before anything is stored.

An upload is a single ``.py`` file, or a ``.zip`` / ``.tar.gz`` holding ``main.py`` or a
``monsoon.json`` manifest that names the command, e.g. ``{"command": ["python3", "bot/run.py"]}``
(optionally with ``"game": "batavia"``).  Everything here works on bytes in memory with hard
limits, never extracts to disk and never runs the code: archives are checked member by member
for size, count, paths (absolute, ``..``, backslashes), links and device files, and compressed
streams are inflated with a cap so a zip or gzip bomb costs at most the cap.
"""

from __future__ import annotations

import io
import json
import stat
import tarfile
import zipfile
import zlib
from dataclasses import dataclass, field
from pathlib import PurePosixPath

MANIFEST_NAME = "monsoon.json"
DEFAULT_ENTRY = "main.py"


class UploadRejected(ValueError):
    """The upload is refused; the message tells the user exactly why."""


@dataclass(frozen=True)
class UploadLimits:
    max_bytes: int = 2 * 1024 * 1024
    max_files: int = 200
    max_unpacked_bytes: int = 20 * 1024 * 1024


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


def artifact_members(kind: str, data: bytes, limits: UploadLimits) -> dict[str, bytes]:
    """The files of a stored artifact by relative path, checked as strictly as an upload.

    Workers unpack artifacts with this (never with ``extractall``), so an artifact that was
    tampered with in storage meets the same path, link and size checks as a fresh upload.
    """
    if kind == "py":
        return {DEFAULT_ENTRY: data}
    if kind == "zip":
        return _zip_members(data, limits)
    if kind == "tar.gz":
        return _tar_members(data, limits)
    raise UploadRejected(f"unknown artifact kind {kind!r}")


def _check_source(name: str, data: bytes) -> None:
    """A Python source must be UTF-8 and compile (compiling never runs it)."""
    try:
        text = data.decode("utf-8")
    except UnicodeDecodeError as exc:
        raise UploadRejected(f"{name} is not valid UTF-8 (byte {exc.start})") from None
    if not text.strip():
        raise UploadRejected(f"{name} is empty")
    try:
        compile(text, name, "exec", dont_inherit=True)
    except SyntaxError as exc:
        raise UploadRejected(f"{name} has a syntax error on line {exc.lineno}: {exc.msg}") from None
    except (ValueError, RecursionError, MemoryError) as exc:
        raise UploadRejected(f"{name} cannot be compiled: {type(exc).__name__}") from None


def _inspect_python(data: bytes, limits: UploadLimits) -> ArtifactInfo:
    _check_source(DEFAULT_ENTRY, data)
    return ArtifactInfo(
        kind="py",
        command=["python3", DEFAULT_ENTRY],
        file_count=1,
        unpacked_size=len(data),
        files=(DEFAULT_ENTRY,),
    )


def _safe_member_name(raw: str) -> str:
    """The normalised relative path of an archive member, or a rejection."""
    if not raw or "\x00" in raw:
        raise UploadRejected("the archive has a member with an empty or invalid name")
    if "\\" in raw:
        raise UploadRejected(f"archive member {raw!r} uses backslashes; use '/' in paths")
    if raw.startswith("/") or (len(raw) > 1 and raw[1] == ":"):
        raise UploadRejected(f"archive member {raw!r} has an absolute path")
    parts = [part for part in PurePosixPath(raw).parts if part != "."]
    if ".." in parts:
        raise UploadRejected(f"archive member {raw!r} climbs out of the archive with '..'")
    if not parts:
        raise UploadRejected(f"archive member {raw!r} has no file name")
    return "/".join(parts)


class _Budget:
    """Counts files and unpacked bytes across an archive against the limits."""

    def __init__(self, limits: UploadLimits) -> None:
        self.limits = limits
        self.files = 0
        self.total = 0

    def add_file(self, name: str, size: int) -> None:
        self.files += 1
        if self.files > self.limits.max_files:
            raise UploadRejected(f"the archive holds more than {self.limits.max_files} files")
        self.total += size
        if self.total > self.limits.max_unpacked_bytes:
            raise UploadRejected(
                f"the archive unpacks to more than {self.limits.max_unpacked_bytes} bytes "
                f"(at {name!r})"
            )


def _zip_members(data: bytes, limits: UploadLimits) -> dict[str, bytes]:
    try:
        archive = zipfile.ZipFile(io.BytesIO(data))
    except (zipfile.BadZipFile, ValueError, OSError):
        raise UploadRejected("the file is not a readable zip archive") from None
    budget = _Budget(limits)
    members: dict[str, bytes] = {}
    with archive:
        for info in archive.infolist():
            name = _safe_member_name(info.filename)
            mode = info.external_attr >> 16
            if stat.S_ISLNK(mode):
                raise UploadRejected(f"archive member {name!r} is a symbolic link")
            # Many zip tools store only permission bits (no file type): those are plain files.
            if stat.S_IFMT(mode) not in (0, stat.S_IFREG, stat.S_IFDIR):
                raise UploadRejected(f"archive member {name!r} is not a regular file")
            if info.is_dir():
                continue
            if info.flag_bits & 0x1:
                raise UploadRejected(f"archive member {name!r} is encrypted")
            budget.add_file(name, info.file_size)
            members[name] = _read_zip_member(archive, info, name, limits, budget)
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
    except (zipfile.BadZipFile, NotImplementedError, RuntimeError, OSError, EOFError,
            zlib.error) as exc:
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


def _tar_members(data: bytes, limits: UploadLimits) -> dict[str, bytes]:
    # Tar headers take 512 bytes per member on top of the content.
    cap = limits.max_unpacked_bytes + 1024 * (limits.max_files + 2)
    raw = _gunzip_capped(data, cap)
    budget = _Budget(limits)
    members: dict[str, bytes] = {}
    try:
        with tarfile.open(fileobj=io.BytesIO(raw), mode="r:") as archive:
            for info in archive:
                name = _safe_member_name(info.name)
                if info.issym() or info.islnk():
                    raise UploadRejected(f"archive member {name!r} is a link")
                if info.isdir():
                    continue
                if not info.isreg():
                    raise UploadRejected(f"archive member {name!r} is not a regular file")
                budget.add_file(name, info.size)
                stream = archive.extractfile(info)
                members[name] = stream.read() if stream is not None else b""
    except tarfile.TarError as exc:
        raise UploadRejected(f"the file is not a readable .tar.gz archive: {exc}") from None
    return members


def _read_manifest(members: dict[str, bytes]) -> tuple[list[str], str | None]:
    try:
        manifest = json.loads(members[MANIFEST_NAME].decode("utf-8"))
    except (UnicodeDecodeError, json.JSONDecodeError) as exc:
        raise UploadRejected(f"{MANIFEST_NAME} is not valid UTF-8 JSON: {exc}") from None
    if not isinstance(manifest, dict):
        raise UploadRejected(f"{MANIFEST_NAME} must be a JSON object")
    command = manifest.get("command")
    if isinstance(command, str):
        command = command.split()
    if (
        not isinstance(command, list)
        or not command
        or not all(isinstance(arg, str) and arg for arg in command)
        or len(command) > 32
    ):
        raise UploadRejected(
            f'{MANIFEST_NAME} must name the command, e.g. {{"command": ["python3", "main.py"]}}'
        )
    game = manifest.get("game")
    if game is not None and not isinstance(game, str):
        raise UploadRejected(f"{MANIFEST_NAME}: 'game' must be a string")
    return command, game


def _finish(members: dict[str, bytes], kind: str) -> ArtifactInfo:
    if not members:
        raise UploadRejected("the archive is empty")
    # Archives made with a single top folder ("mybot/main.py") are accepted as they are:
    # the command names paths relative to the archive root.
    if MANIFEST_NAME in members:
        command, game = _read_manifest(members)
        script = next((arg for arg in command if arg.endswith(".py")), None)
        if script is not None and _safe_member_name(script) not in members:
            raise UploadRejected(f"{MANIFEST_NAME} runs {script!r}, which is not in the archive")
    elif DEFAULT_ENTRY in members:
        command, game = ["python3", DEFAULT_ENTRY], None
    else:
        raise UploadRejected(
            f"the archive needs {DEFAULT_ENTRY} at its top level or a {MANIFEST_NAME} manifest "
            "naming the command"
        )
    for name, content in members.items():
        if name.endswith(".py"):
            _check_source(name, content)
    return ArtifactInfo(
        kind=kind,
        command=command,
        file_count=len(members),
        unpacked_size=sum(len(content) for content in members.values()),
        declared_game=game,
        files=tuple(sorted(members)),
    )
