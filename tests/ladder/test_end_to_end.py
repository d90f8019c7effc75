"""The ladder loop in-process: matchmaker -> engine -> record_result -> refit -> API standings.

Until the sandboxed runner lands, the built-in policies stand in for uploaded bots and results
reach the ladder through ``record_result``, the function the workers will call.
"""

from __future__ import annotations

import random

from bots.builtin import get_policy
from engine.match import play_match
from ladder.accounts.services import create_user
from ladder.ladders.models import Ladder
from ladder.lifecycle import flow
from ladder.lifecycle.types import MatchResult
from ladder.matches.models import Match
from ladder.matches.services import claim_match
from ladder.ratings import matchmaking
from ladder.ratings.services import refit_ladder
from tests.factories import api_client as client_for
from tests.factories import ladder_for, make_active_version, make_bot
from tests.helpers import present

POLICY_OF = {
    "greedy-1": "greedy",
    "greedy-2": "greedy",
    "random-1": "random",
    "random-2": "random",
    "random-3": "random",
    "random-4": "random",
}


def run_queued_matches() -> int:
    played = 0
    for match in Match.objects.filter(status=Match.Status.QUEUED).order_by("pk"):
        assert claim_match(match.pk, worker="test-worker")
        seats = list(match.seats.select_related("bot_version__bot").order_by("seat"))
        policies = [get_policy(POLICY_OF[s.bot_version.bot.name], match.game) for s in seats]
        state, log = play_match(
            match.game,
            match.seed,
            policies,
            variant=match.variant,
            seat_names=[s.bot_version.label for s in seats],
        )
        n = len(seats)
        outcome = flow.record_result(
            match_id=match.pk,
            result=MatchResult(
                scores=tuple(state.scores()),
                ranking=tuple(state.ranking()),
                forfeits=(None,) * n,
                stderr=("",) * n,
                log=log,
            ),
        )
        assert outcome.recorded
        played += 1
    return played


def test_greedy_bots_rise_to_the_top(db):
    Ladder.objects.exclude(game="batavia", num_players=3).update(schedule_enabled=False)
    for name in POLICY_OF:
        make_active_version(make_bot(create_user(f"owner-of-{name}"), name))
    rng = random.Random(2026)
    played = 0
    while played < 60:
        matchmaking.fill_queue(capacity=10, rng=rng)
        played += run_queued_matches()
    ladder = ladder_for(players=3)
    refit_ladder(ladder.pk, samples=30, seed=1)
    table = client_for(None).get(f"/api/v1/ladders/{ladder.pk}/standings/").json()["results"]
    assert len(table) == 6 and sum(row["games"] for row in table) == 3 * played
    top_two = {row["bot_name"] for row in table[:2]}
    assert top_two == {"greedy-1", "greedy-2"}, table
    for row in table:
        assert row["low"] < row["rating"] < row["high"]
    # Every match's log is public once finished and replays to the recorded result.
    match = present(Match.objects.filter(status=Match.Status.FINISHED).first())
    assert client_for(None).get(f"/api/v1/matches/{match.pk}/log/").status_code == 200
