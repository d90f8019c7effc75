"""Shared fixtures for engine tests: every registered game at every player count."""

from __future__ import annotations

import pytest

from tests.engine.tables import (  # noqa: F401
    GAME_TABLES,
    _playable,
    random_playout,
    table_id,
)


@pytest.fixture(params=GAME_TABLES, ids=table_id)
def table(request: pytest.FixtureRequest) -> tuple[str, int, str]:
    return request.param
