"""The runner's record is what the ladder stores: record_result accepts it, forfeits last."""

from __future__ import annotations

import pytest

from engine.log import replay
from ladder.matches import selectors
from ladder.matches import services as match_services
from ladder.matches.models import Match
from tests.ladder.conftest import (  # noqa: F401  (fixtures)
    _isolated_media,
    alice,
    bob,
    ladder_for,
    make_active_version,
    make_bot,
    olivia,
)
from tests.workers.conftest import FAST, program, random_bot
from workers.matches.runner import run_match


@pytest.fixture
def table(alice, bob, olivia):  # noqa: F811
    versions = [
        make_active_version(make_bot(owner, f"runner-{owner.username}"))
        for owner in (alice, bob, olivia)
    ]
    return match_services.create_match(ladder_for(players=3), versions, seed=11)


def test_record_result_accepts_the_runners_record_with_a_forfeit(table, launcher):
    outcome = run_match(
        table.game,
        table.seed,
        [random_bot(), program("crash_midgame"), random_bot()],
        variant=table.variant,
        launcher=launcher,
        time_controls=FAST,
    )
    result = match_services.record_result(table.pk, outcome.record())
    assert result.recorded, result.message
    table.refresh_from_db()
    assert table.status == Match.Status.FINISHED
    seats = list(table.seats.order_by("seat"))
    assert [s.score for s in seats] == outcome.scores
    assert seats[1].place == 3 and seats[1].forfeit_reason.startswith("crash:")
    assert "bug in my bot" in seats[1].stderr
    stored = selectors.match_log(table)
    assert stored == outcome.log and "stderr" not in stored["result"]
    replay(stored)
