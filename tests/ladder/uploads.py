"""Upload limits and a look at what an upload stored (the upload and source-check tests)."""

from __future__ import annotations

import os

from ladder.bots.artifacts import (
    UploadLimits,
)

LIMITS = UploadLimits(max_bytes=64 * 1024, max_files=10, max_unpacked_bytes=256 * 1024)


def stored_files(settings) -> list[str]:
    root = settings.MEDIA_ROOT
    return [os.path.join(d, f) for d, _, files in os.walk(root) for f in files]
