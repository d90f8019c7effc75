"""The tables (game, player count, variant) the engine tests play, and a seeded random playout."""

from __future__ import annotations

from typing import Any

from engine.core import BadSetup, GameSpec, GameState
from engine.registry import all_games
from engine.rng import Rng


def _playable(spec: GameSpec, n: int, variant: str) -> bool:
    """False where the rules forbid that variant at that player count (e.g. Borneo's
    four-merchant variant above 3 players); each game's rule tests check that refusal."""
    try:
        spec.new_state(0, n, variant)
    except BadSetup:
        return False
    return True


GAME_TABLES = [
    (spec.name, n, variant)
    for spec in all_games().values()
    for n in spec.player_counts
    for variant in spec.variants
    if _playable(spec, n, variant)
]


def table_id(table: tuple[str, int, str]) -> str:
    return f"{table[0]}-{table[1]}p-{table[2]}"


def random_playout(state: GameState, rng: Rng, max_steps: int | None = None) -> list[Any]:
    """Play uniformly random legal actions; returns the actions taken."""
    actions: list[Any] = []
    while not state.is_terminal() and (max_steps is None or len(actions) < max_steps):
        action = rng.choice(state.legal_actions())
        state.apply(action)
        actions.append(action)
    return actions
