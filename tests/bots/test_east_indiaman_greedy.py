"""The greedy East Indiaman bot must clearly beat random play and never stall a game."""

from __future__ import annotations

import pytest

from bots.builtin import get_policy
from engine.match import play_match

GAMES = 45


@pytest.mark.parametrize("num_players", [2, 3, 4])
def test_greedy_beats_random_over_seeded_games(num_players):
    greedy = get_policy("greedy", "east_indiaman")
    random = get_policy("random", "east_indiaman")
    wins = 0
    for seed in range(GAMES):
        seat = seed % num_players  # the greedy bot tries every seat
        policies = [random] * num_players
        policies[seat] = greedy
        state, _log = play_match("east_indiaman", seed, policies)
        wins += state.ranking()[seat] == 1
    # a random seat would win about 1/num_players of the games
    assert wins >= 0.75 * GAMES, f"greedy won only {wins}/{GAMES} at {num_players} players"


def test_greedy_tables_finish_in_a_bounded_number_of_decisions():
    greedy = get_policy("greedy", "east_indiaman")
    for seed in range(10):
        state, log = play_match("east_indiaman", seed, [greedy] * 4)
        assert state.is_terminal() and len(log["decisions"]) < 400
