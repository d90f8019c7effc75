"""How long one match may take a worker, known before it starts.

Read by ``ladder/settings.py`` (the match task's hard time limit and the broker's visibility
timeout) and by the workers, so both use one formula. Pure arithmetic over the engine's
registry: no Django, no clock.

A match's wall time is bounded because every part of it is:

* start-up: the seats are launched one after another (``LAUNCH_S`` each at most, the sandbox
  included) and then get ``startup_s`` together to answer ``ready``;
* thinking: each seat's decisions together are charged at most its whole-match budget
  ``budget_s`` (the runner's allowance for a decision is never more than what is left of it,
  and a seat that used it up forfeits). A decision is charged its CPU time but at least its
  wall time over ``wall_factor`` (a bot that sleeps still pays), so the seats think for at most
  ``players x budget_s x wall_factor`` of wall time;
* the runner's own work (the engine, encoding requests, reading replies whose size is capped):
  at most ``HOST_S_PER_DECISION`` per decision, over at most ``GameSpec.max_decisions(players)``
  decisions, forced and fallback ones included;
* the end: ``END_S`` for the bots to exit, and ``RECORD_S`` for fetching artifacts and the
  result's bookkeeping.

So ``bound = players x (LAUNCH_S + budget_s x wall_factor) + startup_s
+ max_decisions x HOST_S_PER_DECISION + END_S + RECORD_S``; only a fault of the host (a
stalled disk, a machine far slower than the allowance) can make a match exceed it.
"""

from __future__ import annotations

import math

from engine.registry import all_games, get_game

LAUNCH_S = 5.0
"""Launching one seat's sandbox (measured in tens of milliseconds: docs/sandbox.md)."""
HOST_S_PER_DECISION = 0.002
"""The runner's own time per decision, with a wide margin: benchmarks/protocol_bench.py prints
tenths of a millisecond, and the worst allowed reply costs about as much (docs/sandbox.md)."""
END_S = 5.0
RECORD_S = 60.0


def match_time_bound_s(
    game: str, players: int, *, startup_s: float, budget_s: float, wall_factor: float = 1.0
) -> float:
    """The most wall time a match of ``game`` at ``players`` seats may take (module doc)."""
    decisions = get_game(game).max_decisions(players)
    return (
        players * (LAUNCH_S + budget_s * wall_factor)
        + startup_s
        + decisions * HOST_S_PER_DECISION
        + END_S
        + RECORD_S
    )


def worker_time_limit_s(*, startup_s: float, budget_s: float, wall_factor: float = 1.0) -> int:
    """The match task's hard limit: the largest bound over every game and player count."""
    return math.ceil(
        max(
            match_time_bound_s(
                spec.name, n, startup_s=startup_s, budget_s=budget_s, wall_factor=wall_factor
            )
            for spec in all_games().values()
            for n in spec.player_counts
        )
    )
