"""Misbehaving bot programs (tests/workers/bots/) and short time controls for runner tests."""

from __future__ import annotations

import pytest

from tests.workers.programs import BOTS, FAST, program, random_bot  # noqa: F401
from workers.launch import LocalLauncher


@pytest.fixture
def launcher() -> LocalLauncher:
    return LocalLauncher()
