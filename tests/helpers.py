"""Small assertions shared by the test packages (plain functions: import them)."""

from __future__ import annotations

import re
from typing import TypeVar

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
