"""The PettingZoo adapter passes PettingZoo's own API and seed tests for every game."""

from __future__ import annotations

import random

import pytest
from pettingzoo.test import api_test, seed_test

from engine.registry import all_games
from rl.pettingzoo import decode_observation, env, rank_rewards

GAMES = [(spec.name, spec.min_players) for spec in all_games().values()]


@pytest.mark.filterwarnings("error::UserWarning")
@pytest.mark.parametrize(("game", "players"), GAMES)
def test_pettingzoo_api_test_passes(game, players):
    """Without warnings: observations are numpy arrays in a Box, the mask is in infos."""
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
    assert environment.observation_space(agent).contains(observed)
    assert decode_observation(observed) == environment.game_state.observation(seat)
    legal = environment.game_state.legal_actions()
    mask = environment.infos[agent]["action_mask"]
    chosen = [environment.vocabulary[i] for i, bit in enumerate(mask) if bit]
    assert sorted(map(str, chosen)) == sorted(map(str, legal))


TABLES = [(spec.name, n) for spec in all_games().values() for n in spec.player_counts]


def test_the_reward_tables_cover_every_player_count_of_every_game():
    for spec in all_games().values():
        assert {n for game, n in TABLES if game == spec.name} == set(spec.player_counts)


@pytest.mark.parametrize(("game", "players"), TABLES)
def test_a_full_episode_pays_rank_rewards_read_from_the_environment(game, players):
    """Every agent's reward is read back through ``last()`` (the environment's own
    accumulated rewards) and checked against the final ranking: +1 for rank 1 down to -1
    for rank n of n, linear in rank, ties sharing their rank's reward."""
    environment = env(game, players)
    environment.reset(seed=5)
    chooser = random.Random(5)  # random play ends every game; always-first can loop forever
    final: dict[str, float] = {}
    for agent in environment.agent_iter():
        _, reward, terminated, truncated, info = environment.last()
        assert not truncated
        if terminated:
            final[agent] = reward
            environment.step(None)
            continue
        assert reward == 0.0  # nothing is paid before the end
        environment.step(chooser.choice(info["action_mask"].nonzero()[0].tolist()))
    assert sorted(final) == sorted(environment.possible_agents)
    ranking = environment.game_state.ranking()
    assert len(ranking) == players
    expected = [1.0 - 2.0 * (rank - 1) / (players - 1) for rank in ranking]
    assert [final[a] for a in environment.possible_agents] == pytest.approx(expected)


def test_an_endless_game_is_truncated_after_max_cycles_with_no_reward():
    # Always taking the first legal action exchanges silk for spice and back, 12 times a round
    # (East Indiaman's anti-stall ruling ends it there): a game far longer than 60 cycles.
    environment = env("east_indiaman", 2, max_cycles=60)
    environment.reset(seed=5)
    decisions = 0
    for _agent in environment.agent_iter():
        _, reward, terminated, truncated, info = environment.last()
        if terminated or truncated:
            assert truncated and not terminated and reward == 0.0
            environment.step(None)
            continue
        environment.step(int(info["action_mask"].nonzero()[0][0]))
        decisions += 1
    assert decisions == 60
    assert not environment.game_state.is_terminal()


def test_rank_rewards_are_linear_in_rank_and_ties_share():
    assert rank_rewards([1, 2, 3, 4]) == [1.0, pytest.approx(1 / 3), pytest.approx(-1 / 3), -1.0]
    assert rank_rewards([1, 1, 3]) == [1.0, 1.0, -1.0]


def test_an_out_of_range_action_is_refused_clearly():
    environment = env("batavia", 3)
    environment.reset(seed=1)
    with pytest.raises(ValueError, match="action must be an index"):
        environment.step(10_000)
