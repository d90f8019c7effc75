"""A random player that thinks for 30 ms a move: matches long enough to be interrupted."""

import time

from bots.builtin import random_policy
from bots.sdk import run
from engine.rng import Rng


class SteadyBot:
    def setup(self, start: dict) -> None:
        self.rng = Rng.derive(0, "steady", start["game"], start["seat"])

    def act(self, observation, legal_actions):
        time.sleep(0.03)
        return random_policy(observation, legal_actions, self.rng)


if __name__ == "__main__":
    run(SteadyBot)
