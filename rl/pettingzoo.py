"""Every Monsoon game as a PettingZoo AEC environment with action masks.

Actions are indices into the game's action vocabulary
(:attr:`engine.core.GameSpec.action_vocabulary`), so the action space is a fixed
``Discrete``.  An observation is a numpy array, as PettingZoo's API test asks: the
player's observation as canonical JSON, UTF-8 bytes zero-padded to a fixed length
(a ``Box`` of ``uint8``), lossless and the same for every game: :func:`decode_observation`
turns it back into the dict.  The action mask (1 for each legal action of the agent to
move) is in ``infos[agent]["action_mask"]``, PettingZoo's place for it, and
:meth:`MonsoonAECEnv.action_mask`.

Rewards arrive at the end: +1 for the best rank down to -1 for the worst, linear in
rank, so ties share a reward.

Every game ends within ``GameSpec.max_decisions`` (East Indiaman's exchanges back and forth by
an anti-stall ruling), but that bound can be far above real games, so an episode is also
truncated after ``max_cycles`` decisions, PettingZoo's convention: every agent is marked
truncated and no reward is paid.
"""

from __future__ import annotations

from typing import Any

import numpy as np
from gymnasium import spaces
from pettingzoo import AECEnv

from engine.core import GameState, canonical_json
from engine.registry import get_game

OBSERVATION_BYTES = 32_768
MAX_CYCLES = 10_000


def decode_observation(array: np.ndarray) -> dict[str, Any]:
    """The observation dict from the ``"observation"`` array of this adapter."""
    import json

    raw = bytes(array.astype(np.uint8)).rstrip(b"\x00")
    return json.loads(raw.decode("utf-8"))


def rank_rewards(ranking: list[int]) -> list[float]:
    n = len(ranking)
    return [1.0 - 2.0 * (rank - 1) / (n - 1) for rank in ranking]


class MonsoonAECEnv(AECEnv):
    """One Monsoon game at a fixed player count and variant."""

    def __init__(
        self,
        game: str,
        num_players: int,
        variant: str | None = None,
        render_mode: str | None = None,
        max_cycles: int = MAX_CYCLES,
    ) -> None:
        super().__init__()
        self.max_cycles = max_cycles
        self.game = get_game(game)
        self.num_players = num_players
        self.variant = variant or self.game.default_variant
        self.render_mode = render_mode
        self.metadata = {
            "name": f"monsoon_{game}_v1",
            "render_modes": ["ansi"],
            "is_parallelizable": False,
        }
        self.vocabulary = self.game.action_vocabulary(num_players)
        self._index = {canonical_json(a): i for i, a in enumerate(self.vocabulary)}
        self.possible_agents = [f"player_{i}" for i in range(num_players)]
        size = len(self.vocabulary)
        observation_space = spaces.Box(0, 255, (OBSERVATION_BYTES,), np.uint8)
        self.observation_spaces = {a: observation_space for a in self.possible_agents}
        self.action_spaces = {a: spaces.Discrete(size) for a in self.possible_agents}
        self._episodes = 0
        self.state: GameState | None = None

    @property
    def game_state(self) -> GameState:
        """The engine state of the running episode (``state`` is None before :meth:`reset`)."""
        if self.state is None:
            raise RuntimeError("no episode: call reset() first")
        return self.state

    def observation_space(self, agent: str) -> spaces.Space:
        return self.observation_spaces[agent]

    def action_space(self, agent: str) -> spaces.Space:
        return self.action_spaces[agent]

    def reset(self, seed: int | None = None, options: dict | None = None) -> None:
        if seed is None:
            seed = self._episodes  # deterministic default: episode 0, 1, 2...
        self._episodes += 1
        state = self.game.new_state(seed, self.num_players, self.variant)
        self.state = state
        self.agents = list(self.possible_agents)
        self.rewards = {a: 0.0 for a in self.agents}
        self._cumulative_rewards = {a: 0.0 for a in self.agents}
        self.terminations = {a: False for a in self.agents}
        self.truncations = {a: False for a in self.agents}
        self.agent_selection = self.agents[self._player_to_move(state)]
        self._decisions = 0
        self._refresh_infos()

    def _refresh_infos(self) -> None:
        """Each agent's info carries its action mask (all zeros while it is not to move)."""
        self.infos = {a: {"action_mask": self.action_mask(a)} for a in self.agents}

    @staticmethod
    def _player_to_move(state: GameState) -> int:
        seat = state.current_player()
        if seat is None:  # only a finished game has nobody to move, and it is never stepped
            raise RuntimeError("the game is over: no player to move")
        return seat

    def action_mask(self, agent: str) -> np.ndarray:
        mask = np.zeros(len(self.vocabulary), dtype=np.int8)
        seat = self.possible_agents.index(agent)
        state = self.game_state
        if state.current_player() == seat:
            for action in state.legal_actions():
                mask[self._index[canonical_json(action)]] = 1
        return mask

    def observe(self, agent: str) -> np.ndarray:
        seat = self.possible_agents.index(agent)
        raw = canonical_json(self.game_state.observation(seat)).encode("utf-8")
        if len(raw) > OBSERVATION_BYTES:
            raise ValueError(f"observation of {len(raw)} bytes exceeds {OBSERVATION_BYTES}")
        buffer = np.zeros(OBSERVATION_BYTES, dtype=np.uint8)
        buffer[: len(raw)] = np.frombuffer(raw, dtype=np.uint8)
        return buffer

    def step(self, action: int | None) -> None:
        agent = self.agent_selection
        if self.terminations[agent] or self.truncations[agent]:
            self._was_dead_step(action)
            return
        if action is None or not 0 <= int(action) < len(self.vocabulary):
            raise ValueError(
                f"action must be an index below {len(self.vocabulary)}, not {action!r}"
            )
        self._cumulative_rewards[agent] = 0.0
        state = self.game_state
        state.apply(self.vocabulary[int(action)])
        self._decisions += 1
        if state.is_terminal():
            for a, reward in zip(self.agents, rank_rewards(state.ranking()), strict=True):
                self.rewards[a] = reward
                self.terminations[a] = True
        elif self._decisions >= self.max_cycles:
            self.rewards = {a: 0.0 for a in self.agents}
            self.truncations = {a: True for a in self.agents}
        else:
            self.rewards = {a: 0.0 for a in self.agents}
            self.agent_selection = self.agents[self._player_to_move(state)]
        self._refresh_infos()
        self._accumulate_rewards()

    def render(self) -> str | None:
        if self.render_mode != "ansi" or self.state is None:
            return None
        return canonical_json(self.state.public_view())

    def close(self) -> None:
        self.state = None


def env(
    game: str,
    num_players: int,
    variant: str | None = None,
    *,
    render_mode: str | None = None,
    max_cycles: int = MAX_CYCLES,
) -> MonsoonAECEnv:
    """The PettingZoo-style constructor: ``env("batavia", 4)``."""
    return MonsoonAECEnv(game, num_players, variant, render_mode=render_mode, max_cycles=max_cycles)
