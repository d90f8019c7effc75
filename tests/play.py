"""Ladder matches recorded with a result chosen by the test (a fixed finishing order)."""

from __future__ import annotations

from ladder.matches import services as match_services
from tests.factories import ladder_for


def fixed_result(match, order_by_bot):
    """A record where bots finish in the order of ``order_by_bot`` (names, best first)."""
    seats = list(match.seats.select_related("bot_version__bot").order_by("seat"))
    ranking = [order_by_bot.index(s.bot_version.bot.name) + 1 for s in seats]
    return {
        "scores": [10 - r for r in ranking],
        "ranking": ranking,
        "forfeits": [None] * 3,
        "log": None,
        "stderr": [""] * 3,
    }


def play(field, names, order, seed=1):
    match = match_services.create_match(ladder_for(players=3), [field[n] for n in names], seed=seed)
    match_services.record_result(match.pk, fixed_result(match, [f"bot-{n}" for n in order]))
    return match
