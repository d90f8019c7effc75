"""The worker's side of the ladder boundary: the typed spec it plays, and the runner's outcome
as the one typed result the ladder records (forfeits last, their code in a column)."""

from __future__ import annotations

import pytest

from engine.log import replay
from ladder.lifecycle import flow
from ladder.lifecycle.types import InvalidResult, MatchResult
from ladder.matches import selectors
from ladder.matches import services as match_services
from ladder.matches.models import Match
from tests.factories import ladder_for, make_active_version, make_bot
from tests.workers.programs import FAST, program, random_bot
from workers.matches.runner import run_match
from workers.matches.tasks import result_of

pytestmark = pytest.mark.usefixtures("isolated_media")


@pytest.fixture
def table(alice, bob, olivia):
    versions = [
        make_active_version(make_bot(owner, f"runner-{owner.username}"))
        for owner in (alice, bob, olivia)
    ]
    return match_services.create_match(ladder_for(players=3), versions, seed=11)


def test_the_runners_outcome_is_recorded_with_its_forfeit(table, launcher):
    outcome = run_match(
        table.game,
        table.seed,
        [random_bot(), program("crash_midgame"), random_bot()],
        variant=table.variant,
        launcher=launcher,
        time_controls=FAST,
    )
    result = flow.record_result(match_id=table.pk, result=result_of(outcome))
    assert result.recorded, result.message
    table.refresh_from_db()
    assert table.status == Match.Status.FINISHED
    seats = list(table.seats.order_by("seat"))
    assert [s.score for s in seats] == outcome.scores
    assert seats[1].place == 3 and seats[1].forfeit_reason.startswith("crash:")
    assert [s.forfeit_code for s in seats] == ["", "crash", ""]
    assert "bug in my bot" in seats[1].stderr
    stored = selectors.match_log(table)
    assert stored == outcome.log and "stderr" not in stored["result"]
    replay(stored)


def test_the_ladders_spec_is_typed_and_in_seat_order(table):
    spec = flow.spec(match_id=table.pk)
    assert spec.match_id == table.pk and spec.game == table.game and spec.seed == table.seed
    assert [seat.seat for seat in spec.seats] == [0, 1, 2]
    assert spec.seats[0].command == ("python3", "main.py")
    labels = [seat.bot_version.label for seat in table.seats.order_by("seat")]
    assert spec.names == labels


def test_the_spec_is_read_in_one_query(table, django_assert_num_queries):
    """Each match's spec is read in the worker after the claim: one round trip, not two."""
    with django_assert_num_queries(1):
        spec = flow.spec(match_id=table.pk)
    assert [seat.seat for seat in spec.seats] == [0, 1, 2]
    with pytest.raises(Match.DoesNotExist):
        flow.spec(match_id=table.pk + 1000)


def test_an_illegal_action_forfeit_keeps_its_code(table, launcher):
    outcome = run_match(
        table.game,
        table.seed,
        [random_bot(), program("illegal"), random_bot()],
        variant=table.variant,
        launcher=launcher,
        time_controls=FAST,
    )
    result = result_of(outcome)
    assert result.forfeit_codes == ("", "illegal_action", "")
    assert flow.record_result(match_id=table.pk, result=result).recorded
    seat = table.seats.get(seat=1)
    assert seat.forfeit_reason.startswith("illegal_action:") and seat.place == 3
    assert seat.forfeit_code == "illegal_action"


def test_a_result_missing_a_seat_is_refused_where_it_is_built():
    with pytest.raises(InvalidResult, match="one entry per seat"):
        MatchResult(scores=(1, 2), ranking=(1,), forfeits=(None, None), stderr=("", ""), log={})
