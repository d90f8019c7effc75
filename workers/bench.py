"""Random-play throughput of the engines (the clock lives here, never in ``engine/``)."""

from __future__ import annotations

import time
from dataclasses import dataclass

from engine.registry import get_game
from engine.rng import Rng


@dataclass(frozen=True)
class Throughput:
    game: str
    num_players: int
    games: int
    decisions: int
    seconds: float

    @property
    def games_per_second(self) -> float:
        return self.games / self.seconds

    @property
    def decisions_per_second(self) -> float:
        return self.decisions / self.seconds


def measure_random_play(
    game: str, num_players: int | None = None, seconds: float = 2.0
) -> Throughput:
    """Play whole random games in this process for about ``seconds`` and count them."""
    spec = get_game(game)
    n = num_players or spec.max_players
    rng = Rng(12345)
    games = decisions = 0
    start = time.perf_counter()
    while (elapsed := time.perf_counter() - start) < seconds or games == 0:
        state = spec.new_state(games, n)
        while not state.is_terminal():
            state.apply(rng.choice(state.legal_actions()))
            decisions += 1
        games += 1
    return Throughput(game, n, games, decisions, elapsed)
