"""Shared fixtures for engine tests: every registered game at every player count."""

from __future__ import annotations

import pytest

from tests.engine.tables import (
    GAME_TABLES,
    table_id,
)


@pytest.fixture(params=GAME_TABLES, ids=table_id)
def table(request: pytest.FixtureRequest) -> tuple[str, int, str]:
    return request.param
