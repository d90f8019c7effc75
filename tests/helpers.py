"""Small assertions shared by the test packages (plain functions: import them)."""

from __future__ import annotations

import re
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
