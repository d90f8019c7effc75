"""Small assertions shared by the test packages (plain functions: import them)."""

from __future__ import annotations

import contextlib
import re
import subprocess
import sys
from collections.abc import Iterator
from pathlib import Path
from typing import Any, TypeVar

T = TypeVar("T")


def search(pattern: str, text: str, flags: int = 0) -> re.Match[str]:
    """``re.search`` that fails the test, naming the pattern, when nothing matches."""
    found = re.search(pattern, text, flags)
    assert found is not None, f"nothing matches {pattern!r}"
    return found


def present(value: T | None, what: str = "the value") -> T:
    """``value``, failing the test when it is None (a query's ``.first()``, a JSON field)."""
    assert value is not None, f"{what} is missing"
    return value


def use_match_log_folder(settings: Any, folder: Path) -> None:
    """Game logs written under ``settings`` go to ``folder``, overwritable like a bucket's
    objects (a re-recorded match rewrites its log)."""
    settings.STORAGES = {
        **settings.STORAGES,
        "match_logs": {
            "BACKEND": "django.core.files.storage.FileSystemStorage",
            "OPTIONS": {"location": folder, "allow_overwrite": True},
        },
    }


@contextlib.contextmanager
def cpu_hogs(count: int = 2) -> Iterator[list[subprocess.Popen[bytes]]]:
    """``count`` processes that spin on a CPU each until the block ends (then killed).

    The load a busy 2-core CI machine puts beside a test: what must not change a test's
    outcome (a bot's forfeit, an upload's verdict).
    """
    hogs = [subprocess.Popen([sys.executable, "-c", "while True: pass"]) for _ in range(count)]
    try:
        yield hogs
    finally:
        for hog in hogs:
            hog.kill()
            hog.wait()
