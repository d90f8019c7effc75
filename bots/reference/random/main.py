"""Reference bot ``random``: a uniformly random legal action (bots.builtin.random_policy)."""

from __future__ import annotations

from bots.builtin import random_policy
from bots.sdk import run
from engine.rng import Rng

TYPE_CHECKING = False  # types only: what a bot imports it pays for at every start
if TYPE_CHECKING:
    from typing import Any

    from engine.core import Action, Observation


class RandomBot:
    def setup(self, start: dict[str, Any]) -> None:
        # Seeded per game and seat: a reference bot plays the same way every time.
        self.rng = Rng.derive(0, "reference-random", start["game"], start["seat"])

    def act(self, observation: Observation, legal_actions: list[Action]) -> Action:
        return random_policy(observation, legal_actions, self.rng)


if __name__ == "__main__":
    run(RandomBot)
