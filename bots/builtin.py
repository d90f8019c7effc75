"""The registry of built-in policies usable as ``--bot NAME``."""

from __future__ import annotations

TYPE_CHECKING = False  # typing.TYPE_CHECKING without importing typing: bots import this module
if TYPE_CHECKING:  # types only: a bot that imports this module should start fast
    from engine.core import Action, Observation
    from engine.match import Policy
    from engine.rng import Rng


def random_policy(observation: Observation, legal_actions: list[Action], rng: Rng) -> Action:
    """Uniformly random among the legal actions: the baseline every bot must beat."""
    return rng.choice(legal_actions)


GREEDY_GAMES = ("batavia", "east_indiaman", "borneo", "packet_row")
"""Games with a greedy heuristic: ``bots.greedy.<game>.<game>_greedy``."""


def _greedy_policy(game: str) -> Policy:
    """Only the one game's heuristic is imported (and with it only that game's engine package):
    a bot pays for every import at every start, and three other games' rules are not its own."""
    import importlib

    module = importlib.import_module(f"bots.greedy.{game}")
    policy: Policy = getattr(module, f"{game}_greedy")
    return policy


class UnknownBot(ValueError):
    """A bot name that is not built in (or has no version for that game)."""


def builtin_names() -> tuple[str, ...]:
    return ("random", "greedy")


def get_policy(name: str, game: str) -> Policy:
    """The built-in policy ``name`` for ``game``; raises :class:`UnknownBot` saying why."""
    if name == "random":
        return random_policy
    if name == "greedy":
        if game not in GREEDY_GAMES:
            raise UnknownBot(
                f"no greedy bot for {game} yet; greedy exists for {', '.join(GREEDY_GAMES)}"
            )
        return _greedy_policy(game)
    raise UnknownBot(f"unknown built-in bot {name!r}; built-in bots: {', '.join(builtin_names())}")
