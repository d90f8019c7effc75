"""The generic search (bots.mcts): legal, deterministic given its seed, within its budget,
and its paired comparison really compares the same determinizations."""

from __future__ import annotations

import itertools
import time

import pytest

from bots.builtin import get_policy
from bots.mcts import _best, _ranked, placement_rewards, search, width
from engine.registry import all_games, get_game
from engine.rng import Rng


def _midgame(game: str, decisions: int = 6):
    """A state a few greedy decisions in, where the mover has a real choice."""
    spec = get_game(game)
    state = spec.new_state(11, spec.min_players)
    greedy, rng = get_policy("greedy", game), Rng(3)
    made = 0
    while made < decisions or len(state.legal_actions()) < 2:
        seat = state.current_player()
        assert seat is not None
        state.apply(greedy(state.observation(seat), state.legal_actions(), rng))
        made += 1
    return state


@pytest.mark.parametrize("game", list(all_games()))
def test_search_is_deterministic_given_its_seed_and_legal(game):
    state = _midgame(game)
    seat = state.current_player()
    policy = get_policy("greedy", game)
    runs = [
        search(
            state.determinize(seat, Rng(5)),
            seat,
            Rng(9),
            budget_s=60.0,
            max_iterations=12,
            policy=policy,
        )
        for _ in range(2)
    ]
    assert runs[0] == runs[1]
    action, iterations = runs[0]
    assert action in state.legal_actions() and iterations == 12


def test_search_keeps_to_its_budget():
    state = _midgame("batavia")
    seat = state.current_player()
    began = time.perf_counter()
    action, iterations = search(
        state, seat, Rng(1), budget_s=0.05, policy=get_policy("greedy", "batavia")
    )
    elapsed = time.perf_counter() - began
    assert action in state.legal_actions() and iterations >= 1
    # The deadline is checked between playouts: one playout past it at most (a whole game).
    assert elapsed < 0.05 + 0.5


def test_best_compares_candidates_only_on_the_sweeps_both_played():
    # The heuristic's choice (0) was poor on sweeps 0-1 and good on 2-3, where candidate 2 was
    # played (it joined late, or was illegal before); there 2 is worse than 0, so it must not
    # be chosen although its mean is above 0's overall mean.
    first = {0: 0.0, 1: 0.0, 2: 1.0, 3: 1.0}
    assert _best([first, {0: 0.0, 1: 0.0, 2: 0.9, 3: 0.9}, {2: 0.8, 3: 0.8}]) == 0
    # Candidate 1 beats 0 by 0.05 on average over the same sweeps: chosen.
    assert _best([first, {0: 0.1, 1: 0.1, 2: 1.0, 3: 1.0}, {2: 0.8, 3: 0.8}]) == 1
    # Too few pairs are not evidence enough: the heuristic's choice stays.
    assert _best([{0: 0.0}, {0: 1.0}]) == 0
    assert _best([{0: 0.0, 1: 0.0, 2: 0.0}, {0: 1.0, 1: 1.0, 2: 1.0}]) == 0


def test_best_needs_a_gain_clear_of_its_noise():
    base = {sweep: 0.5 for sweep in range(6)}
    # Mean gain +0.1 but swinging +-0.6 from sweep to sweep: one lucky draw, not evidence.
    noisy = {sweep: 0.5 + (0.7 if sweep % 2 else -0.5) for sweep in range(6)}
    assert _best([base, noisy]) == 0
    # A smaller gain that holds on every sweep overrules the heuristic...
    steady = {sweep: 0.55 + 0.01 * (sweep % 2) for sweep in range(6)}
    assert _best([base, noisy, steady]) == 2
    # ...and among candidates that clear the bar, the larger mean gain wins.
    better = {sweep: 0.6 + 0.01 * (sweep % 2) for sweep in range(6)}
    assert _best([base, steady, better]) == 2


def test_width_grows_with_sweeps_but_never_past_the_legal_moves():
    assert width(0, 30) == 2 and width(0, 1) == 1
    assert [width(s, 30) for s in range(6)] == [2, 2, 3, 3, 4, 4]
    assert width(1000, 7) == 7


def test_placement_rewards_rank_first_and_keep_score_order():
    state = _midgame("packet_row", 0)
    while state.current_player() is not None:
        state.apply(state.legal_actions()[0])
    rewards = placement_rewards(state)
    ranking = state.ranking()
    best = ranking.index(min(ranking))
    assert max(rewards) == rewards[best] and all(0 <= r <= 1 for r in rewards)


@pytest.mark.parametrize("game", list(all_games()))
def test_root_candidates_are_each_legal_action_once(game):
    """The heuristic is asked about ever smaller sub-lists of the legal actions; whatever it
    answers, the candidates are exactly the legal actions. (Packet Row's greedy answered
    'pass' where passing was illegal once the areas were gone from the list: the search then
    met a root move illegal in every determinization, and never tried the takes.)"""
    spec = get_game(game)
    greedy = get_policy("greedy", game)
    for seed in range(3):
        state = spec.new_state(seed, spec.min_players)
        rng = Rng(seed)
        while not state.is_terminal():
            legal = state.legal_actions()
            seat = state.current_player()
            assert seat is not None
            if len(legal) > 1:
                ranked = _ranked(state, seat, legal, greedy, Rng(7))
                order = list(itertools.islice(ranked, len(legal) + 1))
                assert sorted(map(str, order)) == sorted(map(str, legal))
            state.apply(greedy(state.observation(seat), legal, rng))
