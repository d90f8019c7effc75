"""Game logs in object storage, zstd-compressed, one object per match.

A log is the seed and every action of a match (plus what each seat saw), 10-30 KB of JSON that
compresses to 1-3 KB.  At a million matches that is gigabytes the matches table should not carry:
the row (``MatchLog``) keeps only where the object is, its codec and its sizes, and the object goes
to the ``match_logs`` storage (a folder on one host, an S3-compatible bucket in production).

Objects are named after the match id, so recording a result twice (a retried task) overwrites the
same object instead of leaving a second one; the storage is configured to overwrite.
"""

from __future__ import annotations

import gzip
import json
from dataclasses import dataclass
from typing import Any

import zstandard
from django.core.files.base import ContentFile
from django.core.files.storage import Storage, storages

STORAGE_ALIAS = "match_logs"
ZSTD = "zstd"
# Level 9: measured on a 4-player Batavia log (13.6 KB of JSON), 1,520 bytes in 0.4 ms against
# gzip -6's 1,679 bytes in 7 ms; levels above 15 save another 6% at 10-30x the time.
ZSTD_LEVEL = 9


class UnreadableLog(Exception):
    """The stored object is missing or does not decompress: the reason is shown to the reader."""


@dataclass(frozen=True)
class StoredLog:
    """Where a log went and what it weighs (raw JSON and stored bytes)."""

    name: str
    codec: str
    size: int
    stored_size: int


def log_storage() -> Storage:
    return storages[STORAGE_ALIAS]


def object_name(match_id: int) -> str:
    """Spread objects over folders of 1,000 so no directory listing grows without bound."""
    return f"{match_id // 1000:06d}/{match_id}.json.zst"


def smoke_object_name(version_id: int) -> str:
    """A bot version's smoke match (validation) has no match id: it is named after the version."""
    return f"smoke/{version_id // 1000:06d}/{version_id}.json.zst"


def encode(log: dict[str, Any]) -> bytes:
    return json.dumps(log, separators=(",", ":")).encode()


def store(match_id: int, log: dict[str, Any]) -> StoredLog:
    """Compress and write one match's log; safe to repeat for the same match."""
    raw = encode(log)
    packed = zstandard.ZstdCompressor(level=ZSTD_LEVEL).compress(raw)
    return store_compressed(match_id, packed, size=len(raw))


def store_compressed(match_id: int, packed: bytes, *, size: int) -> StoredLog:
    return _save(object_name(match_id), packed, size=size)


def store_smoke(version_id: int, log: dict[str, Any]) -> StoredLog:
    """Compress and write a bot version's smoke match log; safe to repeat for the same version."""
    raw = encode(log)
    packed = zstandard.ZstdCompressor(level=ZSTD_LEVEL).compress(raw)
    return _save(smoke_object_name(version_id), packed, size=len(raw))


def _save(name: str, packed: bytes, *, size: int) -> StoredLog:
    stored = log_storage().save(name, ContentFile(packed))
    return StoredLog(name=stored, codec=ZSTD, size=size, stored_size=len(packed))


def read_compressed(name: str) -> bytes:
    """The stored (zstd) bytes of one log, as the API hands them to a client that accepts zstd."""
    try:
        with log_storage().open(name, "rb") as handle:
            return handle.read()
    except (FileNotFoundError, OSError) as exc:
        raise UnreadableLog(f"the log object {name} cannot be read ({exc})") from exc


def decompress(packed: bytes) -> bytes:
    try:
        return zstandard.ZstdDecompressor().decompress(packed)
    except zstandard.ZstdError as exc:
        raise UnreadableLog(f"the stored log does not decompress ({exc})") from exc


def read_json(name: str) -> bytes:
    return decompress(read_compressed(name))


def zstd_for_client(raw: bytes) -> bytes:
    """A log rewritten for one reader (a private bot's seat unnamed), packed as stored ones are."""
    return zstandard.ZstdCompressor(level=ZSTD_LEVEL).compress(raw)


def gzip_for_client(raw: bytes) -> bytes:
    """For clients that accept gzip but not zstd (level 6: a few ms for the largest logs)."""
    return gzip.compress(raw, 6)


def delete(name: str) -> None:
    log_storage().delete(name)
