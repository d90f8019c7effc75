"""The greedy Packet Row bot must clearly beat uniformly random play."""

from __future__ import annotations

import pytest

from bots.builtin import get_policy, random_policy
from engine.match import Policy, play_match

GAMES = 60


@pytest.mark.parametrize(("players", "required"), [(2, 0.75), (3, 0.6), (4, 0.45), (5, 0.4)])
def test_greedy_beats_random(players, required):
    """One greedy seat against random ones, rotating seats; wins share first place."""
    greedy = get_policy("greedy", "packet_row")
    wins = 0
    for seed in range(GAMES):
        seat = seed % players
        policies: list[Policy] = [random_policy] * players
        policies[seat] = greedy
        state, _log = play_match("packet_row", 1000 + seed, policies)
        wins += state.ranking()[seat] == 1
    # A random seat wins 1/players of the time; greedy must do far better.
    assert wins / GAMES >= required, f"greedy won {wins}/{GAMES} at {players} players"


def test_greedy_against_itself_finishes_games():
    greedy = get_policy("greedy", "packet_row")
    for players in (2, 5):
        state, log = play_match("packet_row", 7, [greedy] * players)
        assert state.is_terminal() and log["result"]["ranking"]
