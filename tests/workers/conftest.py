"""Misbehaving bot programs (tests/workers/bots/) and short time controls for runner tests."""

from __future__ import annotations

from pathlib import Path

import pytest

from workers.launch import BotProgram, LocalLauncher
from workers.matches.reference import reference_bot
from workers.matches.runner import TimeControls

BOTS = Path(__file__).parent / "bots"
FAST = TimeControls(startup_ms=3_000, move_ms=100, bank_ms=300, wall_factor=3)
"""Short clocks; the wall-clock backstop at 3x (not 10x) so bots that sleep time out sooner."""


def program(name: str) -> BotProgram:
    """A test bot from tests/workers/bots/NAME.py."""
    return BotProgram(BOTS, ("python3", f"{name}.py"), name)


def random_bot() -> BotProgram:
    return reference_bot("random")


@pytest.fixture
def launcher() -> LocalLauncher:
    return LocalLauncher()
