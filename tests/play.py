"""Ladder matches recorded with a result chosen by the test (a fixed finishing order)."""

from __future__ import annotations

from ladder.lifecycle import flow
from ladder.lifecycle.types import MatchResult
from ladder.matches import services as match_services
from tests.factories import ladder_for


def fixed_result(match, order_by_bot):
    """A record where bots finish in the order of ``order_by_bot`` (names, best first)."""
    seats = list(match.seats.select_related("bot_version__bot").order_by("seat"))
    ranking = [order_by_bot.index(s.bot_version.bot.name) + 1 for s in seats]
    return MatchResult(
        scores=tuple(10 - r for r in ranking),
        ranking=tuple(ranking),
        forfeits=(None,) * 3,
        stderr=("",) * 3,
        log=None,
    )


def play(field, names, order, seed=1):
    match = match_services.create_match(ladder_for(players=3), [field[n] for n in names], seed=seed)
    flow.record_result(match_id=match.pk, result=fixed_result(match, [f"bot-{n}" for n in order]))
    return match
