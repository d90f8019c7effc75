"""The PettingZoo adapter passes PettingZoo's own API and seed tests for every game."""

from __future__ import annotations

import pytest
from pettingzoo.test import api_test, seed_test

from engine.registry import all_games
from rl.pettingzoo import decode_observation, env, rank_rewards

GAMES = [(spec.name, spec.min_players) for spec in all_games().values()]


@pytest.mark.parametrize(("game", "players"), GAMES)
def test_pettingzoo_api_test_passes(game, players):
    api_test(env(game, players), num_cycles=300)


@pytest.mark.parametrize(("game", "players"), GAMES)
def test_pettingzoo_seed_test_passes(game, players):
    seed_test(lambda: env(game, players), num_cycles=100)


@pytest.mark.parametrize(("game", "players"), GAMES)
def test_observation_decodes_to_the_players_own_view(game, players):
    environment = env(game, players)
    environment.reset(seed=3)
    agent = environment.agent_selection
    seat = environment.possible_agents.index(agent)
    observed = environment.observe(agent)
    assert decode_observation(observed["observation"]) == environment.state.observation(seat)
    legal = environment.state.legal_actions()
    chosen = [environment.vocabulary[i] for i, bit in enumerate(observed["action_mask"]) if bit]
    assert sorted(map(str, chosen)) == sorted(map(str, legal))


def test_a_full_episode_pays_rank_rewards():
    environment = env("batavia", 3)
    environment.reset(seed=5)
    for agent in environment.agent_iter():
        _, _, terminated, truncated, _ = environment.last()
        if terminated or truncated:
            environment.step(None)
            continue
        mask = environment.observe(agent)["action_mask"]
        environment.step(int(mask.nonzero()[0][0]))
    ranking = environment.state.ranking()
    assert rank_rewards(ranking) == [1.0 - (r - 1) for r in ranking]
    assert rank_rewards([1, 2, 3, 4]) == [1.0, pytest.approx(1 / 3), pytest.approx(-1 / 3), -1.0]
    assert rank_rewards([1, 1, 3]) == [1.0, 1.0, -1.0]


def test_an_out_of_range_action_is_refused_clearly():
    environment = env("batavia", 3)
    environment.reset(seed=1)
    with pytest.raises(ValueError, match="action must be an index"):
        environment.step(10_000)
