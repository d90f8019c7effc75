"""The match lifecycle's shared vocabulary agrees with the runner, and "over" is said once."""

from __future__ import annotations

from bots.forfeits import FORFEIT_CODES
from ladder.matches.models import Match, MatchSeat


def test_the_forfeit_column_takes_every_code_of_the_protocol():
    """The runner and the ladder read one tuple (``bots.forfeits``); the column's choices are
    made from it when the model loads, and the migration must list the same."""
    field = MatchSeat._meta.get_field("forfeit_code")
    assert [code for code, _ in field.choices or []] == list(FORFEIT_CODES)


def test_a_match_is_over_when_finished_failed_or_cancelled():
    over = set(Match.Status.over())
    assert over == {Match.Status.FINISHED, Match.Status.FAILED, Match.Status.CANCELLED}
    for status in Match.Status:
        assert Match(status=status).is_over == (status in over)
