"""Play a whole game in-process between policies (no sandbox, no clock).

Used by the command line, benchmarks and tests.  Untrusted bots never come
here: they are played by the sandboxed match runner in ``workers/``, which
drives the same :class:`~engine.core.GameState` interface.
"""

from __future__ import annotations

from collections.abc import Callable, Sequence
from typing import Any

from engine.core import Action, GameState, IllegalAction, Observation
from engine.log import finish_log, new_log, record_decision
from engine.registry import get_game
from engine.rng import Rng

Policy = Callable[[Observation, list[Action], Rng], Action]
"""A decision function: (observation, legal actions, the bot's own RNG) -> action."""


def play_match(
    game: str,
    seed: int,
    policies: Sequence[Policy],
    *,
    seat_names: Sequence[str] | None = None,
    variant: str | None = None,
) -> tuple[GameState, dict[str, Any]]:
    """Play one game to the end and return the final state and its log.

    A policy that returns an illegal action raises :class:`IllegalAction`: in-process
    policies are our own code, so that is a bug to surface, not a forfeit.
    """
    spec = get_game(game)
    state = spec.new_state(seed, len(policies), variant)
    names = (
        list(seat_names) if seat_names is not None else [f"seat{i}" for i in range(len(policies))]
    )
    log = new_log(game, state.variant, seed, names)
    bot_rngs = [Rng.derive(seed, "bot", seat) for seat in range(len(policies))]
    while (seat := state.current_player()) is not None:
        legal = state.legal_actions()
        action = policies[seat](state.observation(seat), legal, bot_rngs[seat])
        if action not in legal:
            raise IllegalAction(f"policy of seat {seat} chose {action!r}, not a legal action")
        state.apply(action)
        record_decision(log, seat, action)
    return state, finish_log(log, state)
