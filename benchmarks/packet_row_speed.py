"""Packet Row engine speed with random play: decisions per second on one core.

Run: ``.venv/bin/python benchmarks/packet_row_speed.py [games per player count]``.
The target (issue 5) is at least 20,000 decisions/s per core.  The loop is the one a
search bot or trainer runs: ``legal_actions`` then ``apply``, no observations.
"""

from __future__ import annotations

import sys
import time

from engine.registry import get_game
from engine.rng import Rng


def measure(players: int, games: int) -> tuple[float, float]:
    """Decisions per second and decisions per game over ``games`` seeded random games."""
    spec = get_game("packet_row")
    decisions = 0
    start = time.perf_counter()
    for seed in range(games):
        state = spec.new_state(seed, players)
        rng = Rng.derive(seed, "bench")
        while not state.is_terminal():
            state.apply(rng.choice(state.legal_actions()))
            decisions += 1
    elapsed = time.perf_counter() - start
    return decisions / elapsed, decisions / games


def main() -> None:
    games = int(sys.argv[1]) if len(sys.argv) > 1 else 200
    for players in range(2, 6):
        rate, per_game = measure(players, games)
        print(f"packet_row {players}p: {rate:,.0f} decisions/s ({per_game:.0f} per game)")


if __name__ == "__main__":
    main()
