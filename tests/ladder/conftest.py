"""The ladder tests' one rule: each test's uploads and match logs go to its own folders.

Personas (``alice``, ``bob``, ``olivia``, ``sam``, ``api_clients``) are the suite's, in
``tests/conftest.py``; objects come from ``tests/factories.py``.
"""

from __future__ import annotations

from pathlib import Path

import pytest


@pytest.fixture(autouse=True)
def _isolated_media(isolated_media: Path) -> None:
    """Every ladder test stores its uploads and logs in its own folders."""
