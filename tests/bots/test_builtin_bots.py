"""Built-in bots: legal play, and the greedy heuristics beat random clearly."""

from __future__ import annotations

import pytest

from bots.builtin import UnknownBot, get_policy
from engine.match import play_match
from engine.registry import all_games


def greedy_win_rate(game: str, players: int, games: int) -> float:
    """Share of games the greedy seat wins outright or shares first, seats rotated."""
    greedy, random = get_policy("greedy", game), get_policy("random", game)
    wins = 0
    for seed in range(games):
        seat = seed % players
        policies = [greedy if s == seat else random for s in range(players)]
        state, _ = play_match(game, seed, policies)
        wins += state.ranking()[seat] == 1
    return wins / games


@pytest.mark.parametrize("game", ["batavia"])
def test_greedy_beats_random_clearly(game):
    players = all_games()[game].max_players - 1
    rate = greedy_win_rate(game, players, 120)
    assert rate > 2 / players, f"greedy won {rate:.0%} against {players - 1} random bots"


def test_unknown_bot_names_are_refused_with_the_choices():
    with pytest.raises(UnknownBot, match="built-in bots: random, greedy"):
        get_policy("alphazero", "batavia")
