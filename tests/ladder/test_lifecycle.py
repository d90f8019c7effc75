"""The match lifecycle's shared vocabulary agrees with the runner, and "over" is said once."""

from __future__ import annotations

from ladder.lifecycle.types import FORFEIT_CODES
from ladder.matches.models import Match, MatchSeat
from workers.matches.protocol import FORFEIT_CODES as RUNNER_CODES


def test_the_ladders_forfeit_codes_are_the_runners():
    """The ladder cannot import the workers, so it keeps its own copy: this keeps them equal."""
    assert FORFEIT_CODES == RUNNER_CODES
    choices = [code for code, _ in MatchSeat._meta.get_field("forfeit_code").choices or []]
    assert choices == list(RUNNER_CODES)


def test_a_match_is_over_when_finished_failed_or_cancelled():
    over = set(Match.Status.over())
    assert over == {Match.Status.FINISHED, Match.Status.FAILED, Match.Status.CANCELLED}
    for status in Match.Status:
        assert Match(status=status).is_over == (status in over)
