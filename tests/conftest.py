"""Suite-wide fixtures."""

from __future__ import annotations

import pytest


@pytest.fixture(autouse=True)
def _fresh_throttles():
    """Throttle counts live in the cache: each test starts with a full budget, so a test's
    outcome never depends on how many sign-ups or bots the tests before it made."""
    from django.core.cache import cache

    cache.clear()
    yield
