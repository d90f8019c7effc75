"""Search speed of every game: the engine figures a search bot lives on, against targets.

A search bot (``bots.mcts``) spends its time in three engine calls: it redraws what it cannot
see (``determinize``), copies positions (``clone``), and plays them out at random
(``legal_actions`` + ``apply``). This benchmark measures the three, per game and player count,
in this one process (one core), through the public interface only (:mod:`engine.registry`):

- random play: decisions per second over whole seeded random games from the initial state;
- clone: clones per second of mid-game states;
- determinize: calls per second on mid-game states, each call for one observing seat (the
  seats take turns).

Time is this process's CPU time (``time.process_time``), so a figure is what one core does
even when other processes share it; each figure is the median of ``--repeats`` runs of
``--seconds`` each, because a shared machine's caches and clocks still vary with its load.

    .venv/bin/python -m benchmarks.search_speed            # prints the table, exits 0
    .venv/bin/python -m benchmarks.search_speed --check    # exits 1 if any figure fails
    .venv/bin/python -m benchmarks.search_speed --game batavia --players 4
"""

from __future__ import annotations

import argparse
import statistics
import sys
import time
from collections.abc import Callable
from dataclasses import dataclass
from functools import partial

from engine.core import GameSpec, GameState
from engine.registry import all_games, get_game
from engine.rng import Rng

RANDOM_PLAY_TARGET = 50_000
CLONE_TARGET = 100_000
DETERMINIZE_TARGET = 20_000

MID_GAME_POSITIONS = 24
"""How many mid-game states (from as many seeded games) the clone and determinize runs cycle."""


@dataclass(frozen=True)
class Figure:
    game: str
    players: int
    name: str
    per_second: float
    target: int

    @property
    def passed(self) -> bool:
        return self.per_second >= self.target


def random_play_rate(spec: GameSpec, players: int, seconds: float, seed: int) -> float:
    """Decisions per second of whole random games, setup included, each from a new seed."""
    chooser = Rng(seed)
    game_seed = seed * 100_000
    decisions = 0
    start = time.process_time()
    while True:
        state = spec.new_state(game_seed, players)
        game_seed += 1
        while not state.is_terminal():
            state.apply(chooser.choice(state.legal_actions()))
            decisions += 1
        elapsed = time.process_time() - start
        if elapsed >= seconds:
            return decisions / elapsed


def mid_game_states(spec: GameSpec, players: int, count: int) -> list[GameState]:
    """One state halfway through each of ``count`` seeded random games (not terminal)."""
    states = []
    for seed in range(count):
        chooser = Rng(7919 + seed)
        state = spec.new_state(seed, players)
        actions = []
        while not state.is_terminal():
            action = chooser.choice(state.legal_actions())
            actions.append(action)
            state.apply(action)
        middle = spec.new_state(seed, players)
        for action in actions[: len(actions) // 2]:
            middle.apply(action)
        states.append(middle)
    return states


def call_rate(calls: list[Callable[[], object]], seconds: float) -> float:
    """Calls per second, cycling through ``calls`` until ``seconds`` have passed."""
    done = 0
    start = time.process_time()
    while True:
        for call in calls:
            call()
        done += len(calls)
        elapsed = time.process_time() - start
        if elapsed >= seconds:
            return done / elapsed


def clone_calls(states: list[GameState]) -> list[Callable[[], object]]:
    return [state.clone for state in states]


def determinize_calls(states: list[GameState], seed: int) -> list[Callable[[], object]]:
    """One call per state, the observing seat rotating, each with its own sampler."""
    return [
        partial(state.determinize, index % state.num_players, Rng.derive(seed, index))
        for index, state in enumerate(states)
    ]


def measure(spec: GameSpec, players: int, seconds: float, repeats: int) -> list[Figure]:
    """The three figures for one table, each the median of ``repeats`` runs."""
    states = mid_game_states(spec, players, MID_GAME_POSITIONS)
    play = [random_play_rate(spec, players, seconds, run + 1) for run in range(repeats)]
    clone = [call_rate(clone_calls(states), seconds) for _ in range(repeats)]
    determinize = [call_rate(determinize_calls(states, run), seconds) for run in range(repeats)]
    return [
        Figure(
            spec.name,
            players,
            "random-play decisions/s",
            statistics.median(play),
            RANDOM_PLAY_TARGET,
        ),
        Figure(spec.name, players, "clone/s", statistics.median(clone), CLONE_TARGET),
        Figure(
            spec.name, players, "determinize/s", statistics.median(determinize), DETERMINIZE_TARGET
        ),
    ]


def main(argv: list[str] | None = None) -> int:
    parser = argparse.ArgumentParser(description="Engine search speed against its targets.")
    parser.add_argument("--seconds", type=float, default=1.0, help="length of one run")
    parser.add_argument(
        "--repeats", type=int, default=3, help="runs per figure; the median is shown"
    )
    parser.add_argument("--game", help="only this game (default: every registered game)")
    parser.add_argument("--players", type=int, help="only this player count")
    parser.add_argument("--check", action="store_true", help="exit 1 if any figure is below target")
    args = parser.parse_args(argv)

    specs = [get_game(args.game)] if args.game else list(all_games().values())
    print(f"{'game':<14}{'players':>8}  {'figure':<24}{'measured':>12}{'target':>10}  verdict")
    failed = False
    for spec in specs:
        counts = [args.players] if args.players else list(spec.player_counts)
        for players in counts:
            for figure in measure(spec, players, args.seconds, args.repeats):
                failed |= not figure.passed
                print(
                    f"{figure.game:<14}{figure.players:>8}  {figure.name:<24}"
                    f"{figure.per_second:>12,.0f}{figure.target:>10,}  "
                    f"{'PASS' if figure.passed else 'FAIL'}",
                    flush=True,
                )
    return 1 if args.check and failed else 0


if __name__ == "__main__":
    sys.exit(main())
