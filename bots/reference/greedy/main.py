"""Reference bot ``greedy``: the per-game one-step heuristic of bots.greedy."""

from typing import Any

from bots.builtin import get_policy
from bots.sdk import run
from engine.core import Action, Observation
from engine.rng import Rng


class GreedyBot:
    def setup(self, start: dict[str, Any]) -> None:
        self.policy = get_policy("greedy", start["game"])
        self.rng = Rng.derive(0, "reference-greedy", start["game"], start["seat"])

    def act(self, observation: Observation, legal_actions: list[Action]) -> Action:
        return self.policy(observation, legal_actions, self.rng)


if __name__ == "__main__":
    run(GreedyBot)
