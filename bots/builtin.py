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


def _greedy_policies() -> dict[str, Policy]:
    # Imported lazily so one game's heuristic never slows down another game's start-up.
    from bots.greedy.batavia import batavia_greedy
    from bots.greedy.borneo import borneo_greedy
    from bots.greedy.east_indiaman import east_indiaman_greedy
    from bots.greedy.packet_row import packet_row_greedy

    return {
        "batavia": batavia_greedy,
        "east_indiaman": east_indiaman_greedy,
        "borneo": borneo_greedy,
        "packet_row": packet_row_greedy,
    }


class UnknownBot(ValueError):
    """A bot name that is not built in (or has no version for that game)."""


def builtin_names() -> tuple[str, ...]:
    return ("random", "greedy")


def get_policy(name: str, game: str) -> Policy:
    """The built-in policy ``name`` for ``game``; raises :class:`UnknownBot` saying why."""
    if name == "random":
        return random_policy
    if name == "greedy":
        greedy = _greedy_policies()
        if game not in greedy:
            raise UnknownBot(f"no greedy bot for {game} yet; greedy exists for {', '.join(greedy)}")
        return greedy[game]
    raise UnknownBot(f"unknown built-in bot {name!r}; built-in bots: {', '.join(builtin_names())}")
