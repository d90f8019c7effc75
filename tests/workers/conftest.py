"""Misbehaving bot programs (tests/workers/bots/) and short time controls for runner tests."""

from __future__ import annotations

import pytest

from workers.launch import LocalLauncher


@pytest.fixture
def launcher() -> LocalLauncher:
    return LocalLauncher()
