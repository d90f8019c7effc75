"""Version tests played end to end in-process: an owner's bot with a strong and a weak version.

:func:`play_pending` stands in for the workers: it claims each queued version-test match, plays
it with the engine (each seat's version mapped to a built-in policy) and records the result
through the real ``ladder.lifecycle.flow.record_result`` with the on-commit callbacks executed,
so ``flow.match_over`` drives the test exactly as on the Celery path.
"""

from __future__ import annotations

import random
from collections.abc import Iterator
from pathlib import Path

import pytest

from ladder.versus import services
from tests.browser import browser  # noqa: F401  (the browser tests' fixture)


@pytest.fixture(autouse=True)
def _media(isolated_media: Path) -> None:
    """Uploads of every test here go to a folder of its own."""


@pytest.fixture(autouse=True)
def _seeded(monkeypatch: pytest.MonkeyPatch) -> Iterator[None]:
    """Pair seeds from a fixed sequence, so every run of a test plays the same games."""
    rng = random.Random(20261125)
    monkeypatch.setattr(services, "new_seed", lambda: rng.randint(0, 2**62))
    yield
