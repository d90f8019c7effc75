"""Tournaments at an injected clock, and an in-process worker.

:func:`play_pending` is the stand-in for the workers: it claims each queued tournament match,
plays it with the engine and built-in policies, and records the result through
``ladder.lifecycle.flow.record_result`` with the on-commit callbacks executed, so
``flow.match_over`` drives the tournament exactly as it will on the Celery path.
"""

from __future__ import annotations

import pytest

from tests.factories import make_active_version, make_bot


@pytest.fixture(autouse=True)
def _isolated_media(isolated_media: object) -> None:
    """Every tournament test stores its uploads and logs in its own folders."""


@pytest.fixture
def field(db, alice, bob):
    """Seven public batavia bots with active versions, owned by alice and bob."""
    bots = []
    for i in range(7):
        owner = alice if i % 2 == 0 else bob
        bot = make_bot(owner, f"bot-{i}")
        make_active_version(bot)
        bots.append(bot)
    return bots
