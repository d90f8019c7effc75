"""Reference bot ``greedy``: the per-game one-step heuristic of bots.greedy."""

from __future__ import annotations

from bots.builtin import get_policy
from bots.sdk import run
from engine.rng import Rng

TYPE_CHECKING = False  # types only: what a bot imports it pays for at every start
if TYPE_CHECKING:
    from typing import Any

    from engine.core import Action, Observation


class GreedyBot:
    def setup(self, start: dict[str, Any]) -> None:
        self.policy = get_policy("greedy", start["game"])
        self.rng = Rng.derive(0, "reference-greedy", start["game"], start["seat"])

    def act(self, observation: Observation, legal_actions: list[Action]) -> Action:
        return self.policy(observation, legal_actions, self.rng)


if __name__ == "__main__":
    run(GreedyBot)
