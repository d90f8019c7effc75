"""The greedy Borneo bot must clearly beat random play, in every variant, and play legally."""

from __future__ import annotations

import pytest

from bots.builtin import get_policy
from engine.match import play_match

GAMES = 60


@pytest.mark.parametrize(
    ("num_players", "variant"),
    [(3, "standard"), (4, "blackbeard"), (5, "standard"), (3, "four-merchants+blackbeard")],
)
def test_greedy_beats_random_over_seeded_games(num_players, variant):
    greedy = get_policy("greedy", "borneo")
    random = get_policy("random", "borneo")
    wins = 0
    for seed in range(GAMES):
        seat = seed % num_players  # the greedy bot tries every seat
        policies = [random] * num_players
        policies[seat] = greedy
        state, _log = play_match("borneo", seed, policies, variant=variant)
        wins += state.ranking()[seat] == 1
    # a random seat would win about 1/num_players of the games
    assert wins >= 0.8 * GAMES, f"greedy won only {wins}/{GAMES} at {num_players} players"


def test_greedy_against_itself_finishes_every_variant():
    greedy = get_policy("greedy", "borneo")
    for variant in ("standard", "four-merchants", "blackbeard", "four-merchants+blackbeard"):
        for seed in range(3):
            state, log = play_match("borneo", seed, [greedy] * 3, variant=variant)
            assert state.is_terminal() and len(log["decisions"]) < 600
