"""The one registry of games: every package listed here is playable everywhere."""

from __future__ import annotations

import importlib

from engine.core import EngineError, GameSpec

# One line per game package; each exposes ``GAME: GameSpec`` in its ``__init__``.
GAME_PACKAGES: tuple[str, ...] = (
    "engine.games.batavia",
    "engine.games.east_indiaman",
    "engine.games.borneo",
    "engine.games.packet_row",
)


class UnknownGame(EngineError):
    """A game name that is not registered."""


def all_games() -> dict[str, GameSpec]:
    """Registered games by name, in registration order."""
    specs = (importlib.import_module(path).GAME for path in GAME_PACKAGES)
    return {spec.name: spec for spec in specs}


def get_game(name: str) -> GameSpec:
    games = all_games()
    try:
        return games[name]
    except KeyError:
        raise UnknownGame(f"unknown game {name!r}; known games: {', '.join(games)}") from None
