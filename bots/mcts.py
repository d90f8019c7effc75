"""Generic information-set Monte Carlo tree search over the official engine (SO-ISMCTS).

One tree per decision, shared by all determinizations: each iteration draws a fresh state
consistent with what the searching seat knows (``GameState.determinize``), walks the tree
choosing among the children whose action is legal in *this* draw (UCB1 with availability
counts, Cowling, Powley & Whitehouse 2012), adds one node, finishes the game with playout
moves (the game's greedy heuristic when it has one, else random) and credits every node with
the result for the seat that moved into it. The search knows no rules: the engine provides
moves, chance and scores.

The reward is mostly the placement (see :func:`placement_rewards`), so the search plays to
finish as high as possible rather than to maximise raw points.
"""

from __future__ import annotations

import math
import time
from typing import Any

from engine.core import Action, GameState, canonical_json
from engine.match import Policy
from engine.rng import Rng

EXPLORATION = 0.7
PRIOR_VISITS = 10
PLACEMENT_WEIGHT = 0.7
SLOW_HEURISTICS = frozenset({"east_indiaman"})
MAX_ROLLOUT = 2_000
"""A rollout longer than this is scored where it stands (endless exchanges in East Indiaman)."""


def _key(action: Action) -> Any:
    return action if isinstance(action, str | int) else canonical_json(action)


class _Node:
    __slots__ = ("action", "avail", "children", "parent", "player", "total", "visits")

    def __init__(self, parent: _Node | None, action: Action, player: int | None) -> None:
        self.parent = parent
        self.action = action
        self.player = player
        self.children: dict[Any, _Node] = {}
        self.visits = 0
        self.avail = 1
        self.total = 0.0


def placement_rewards(state: GameState) -> list[float]:
    """Per seat, in [0, 1]: mostly the placement (1 first, 0 last), partly the score.

    Placement is what a match is about; the score share (0.3, the seat's score between the
    lowest and the highest) tells apart playouts with the same order, which makes the few
    playouts a decision gets less noisy.
    """
    n = state.num_players
    ranking = state.ranking()
    if n == 1:
        return [1.0]
    scores = state.scores()
    low, high = min(scores), max(scores)
    spread = (high - low) or 1
    return [
        PLACEMENT_WEIGHT * (n - rank) / (n - 1) + (1 - PLACEMENT_WEIGHT) * (score - low) / spread
        for rank, score in zip(ranking, scores, strict=True)
    ]


def _rollout(state: GameState, rng: Rng, policy: Policy | None) -> list[float]:
    for _ in range(MAX_ROLLOUT):
        player = state.current_player()
        if player is None:
            return placement_rewards(state)
        legal = state.legal_actions()
        if len(legal) == 1:
            state.apply(legal[0])
        elif policy is None:
            state.apply(legal[rng.below(len(legal))])
        else:
            state.apply(policy(state.observation(player), legal, rng))
    return [0.5] * state.num_players


def heuristic_playouts_pay(game: str) -> bool:
    """Whether playouts should use the game's heuristic rather than random moves.

    A heuristic playout is worth more than a random one, except where the heuristic is so slow
    that the search gets only a handful of iterations: East Indiaman's greedy costs about eight
    random steps per step (``benchmarks/mcts_vs_greedy.py`` measured both ways there).
    """
    return game not in SLOW_HEURISTICS


def rollout_policy(game: str) -> Policy | None:
    """The game's greedy heuristic when there is one: playouts that resemble real play.

    Random playouts misjudge games where aimless play ends differently from purposeful play
    (Borneo); the heuristic is only the playout policy, the search itself stays generic.
    """
    from bots.builtin import UnknownBot, get_policy

    try:
        return get_policy("greedy", game)
    except UnknownBot:
        return None


def search(
    sample: GameState,
    seat: int,
    rng: Rng,
    *,
    budget_s: float,
    max_iterations: int | None = None,
    min_iterations: int = 1,
    policy: Policy | None = None,
    playouts: bool = True,
) -> tuple[Action, int]:
    """The most visited root action after ``budget_s`` of search; returns (action, iterations).

    ``sample`` is any state consistent with ``seat``'s observation (it is re-determinized every
    iteration, so which one does not matter). The answer is always legal in ``sample``.
    ``policy`` picks which new child to try first (random without) and, with ``playouts``,
    also plays the playouts (else they are random).
    """
    legal = sample.legal_actions()
    if len(legal) == 1:
        return legal[0], 0
    root = _Node(None, None, None)
    deadline = time.perf_counter() + budget_s
    iterations = 0
    while True:
        if max_iterations is not None and iterations >= max_iterations:
            break
        if iterations >= min_iterations and time.perf_counter() >= deadline:
            break
        iterations += 1
        state = sample.determinize(seat, rng)
        node = root
        prior_node: _Node | None = None
        # Selection and expansion.
        while (player := state.current_player()) is not None:
            moves = state.legal_actions()
            if len(moves) == 1:
                state.apply(moves[0])
                continue
            untried = [m for m in moves if _key(m) not in node.children]
            if untried:
                move = untried[rng.below(len(untried))]
                prior = 0
                if policy is not None and not node.children:
                    move = policy(state.observation(player), moves, rng)
                    prior = PRIOR_VISITS
                child = _Node(node, move, player)
                # The heuristic's own choice counts its first playout a few times over: with
                # few iterations the search keeps to it unless playouts clearly refute it.
                child.visits = prior
                if prior:
                    prior_node = child
                node.children[_key(move)] = child
                state.apply(move)
                node = child
                break
            best, best_value = None, -1.0
            for move in moves:
                child = node.children[_key(move)]
                child.avail += 1
                value = child.total / child.visits + EXPLORATION * math.sqrt(
                    math.log(child.avail) / child.visits
                )
                if value > best_value:
                    best, best_value = child, value
            assert best is not None
            state.apply(best.action)
            node = best
        rewards = _rollout(state, rng, policy if playouts else None)
        if prior_node is not None:
            prior_node.total += PRIOR_VISITS * rewards[prior_node.player]
        while node.parent is not None:
            node.visits += 1
            node.total += rewards[node.player]
            node = node.parent
    keys = {_key(move): move for move in legal}
    choices = [child for key, child in root.children.items() if key in keys]
    best_child = max(choices, key=lambda child: (child.visits, child.total))
    return keys[_key(best_child.action)], iterations


class MctsBot:
    """The SDK bot: asks the runner for a determinized state and searches it each decision.

    The per-decision budget is a fifth of the move time, at most 0.2 s (the start message's
    ``time.move_ms``), so the bot never touches its time bank.
    """

    wants_state = True

    def __init__(self, budget_s: float | None = None, min_iterations: int = 1) -> None:
        self.budget_s = budget_s
        self.min_iterations = min_iterations
        self.rng = Rng(int.from_bytes(__import__("os").urandom(8), "big"))
        self.iterations = 0

    def setup(self, start: dict[str, Any]) -> None:
        self.seat = start["seat"]
        self.policy = rollout_policy(start["game"])
        self.playouts = heuristic_playouts_pay(start["game"])
        if self.budget_s is None:
            move_ms = start.get("time", {}).get("move_ms", 1000)
            self.budget_s = min(0.2, move_ms / 5000)

    def act_on_state(self, state: GameState, legal_actions: list[Action]) -> Action:
        assert self.budget_s is not None
        action, iterations = search(state, self.seat, self.rng, budget_s=self.budget_s,
                                   min_iterations=self.min_iterations, policy=self.policy,
                                   playouts=self.playouts)
        self.iterations += iterations
        return action
