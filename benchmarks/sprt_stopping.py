"""When the version-test SPRT stops: on one-sided data (pure arithmetic), then on real games.

Run: ``.venv/bin/python benchmarks/sprt_stopping.py``.  No clock: the first figures are exact for
the code as it is; the second part plays version tests in-process with the engine (pairs on one
seed with swapped seats, other seats baseline copies, the game's smallest table) on fixed seeds,
so it prints the same figures every run.  docs/ladder.md quotes them.
"""

from __future__ import annotations

import random
from collections.abc import Callable

from bots.builtin import get_policy
from engine.core import Action, Observation
from engine.match import Policy, play_match
from engine.registry import all_games
from engine.rng import Rng
from ladder.versus import sprt

BANDS = ((0.0, 10.0), (0.0, 20.0), (0.0, 40.0))
CELLS = {"every pair won (2 points)": 4, "every pair split (1 point)": 2}


def pairs_to_stop(cell: int, *, elo0: float, elo1: float, limit: int = 100_000) -> int | None:
    bounds = sprt.wald_bounds(alpha=0.05, beta=0.05)
    for n in range(1, limit):
        counts = [0] * 5
        counts[cell] = n
        llr = sprt.pentanomial_llr(counts, elo0=elo0, elo1=elo1)
        if sprt.decide(llr, bounds) is not sprt.Decision.CONTINUE:
            return n
    return None


def own_random(seed: int) -> Policy:
    """A random player with randomness of its own, as a real bot has (not the match seed's)."""
    rng = random.Random(seed)

    def policy(observation: Observation, legal: list[Action], _rng: Rng) -> Action:
        return rng.choice(legal)

    return policy


def run_test(
    game: str, candidate: Callable[[int], Policy], baseline: Callable[[int], Policy], seed: int
) -> tuple[str, int, list[int]]:
    """A whole version test at the defaults ([0, 20] Elo, 5%/5%, 1000 games)."""
    players = min(all_games()[game].player_counts)
    seats = [(a, b) for a in range(players) for b in range(a + 1, players)]
    bounds = sprt.wald_bounds(alpha=0.05, beta=0.05)
    rng = random.Random(seed)
    pairs = [0] * 5
    for pair in range(500):
        match_seed = rng.randint(0, 2**62)
        first, second = seats[pair % len(seats)]
        scores = []
        for leg, (c_seat, b_seat) in enumerate(((first, second), (second, first))):
            key = pair * 10 + leg * 5
            policies = [baseline(key + i) for i in range(players)]
            policies[c_seat] = candidate(key + c_seat)
            state, _ = play_match(game, match_seed, policies)
            ranking = state.ranking()
            scores.append(sprt.game_score(ranking[c_seat], ranking[b_seat]))
        pairs[sprt.pair_outcome(scores[0], scores[1])] += 1
        decision = sprt.decide(sprt.pentanomial_llr(pairs, elo0=0, elo1=20), bounds)
        if decision is not sprt.Decision.CONTINUE:
            return decision.value, 2 * (pair + 1), pairs
    return "inconclusive", 1000, pairs


def main() -> None:
    print("alpha = beta = 0.05; pairs until the SPRT stops")
    for label, cell in CELLS.items():
        for elo0, elo1 in BANDS:
            n = pairs_to_stop(cell, elo0=elo0, elo1=elo1)
            games = None if n is None else 2 * n
            print(f"  {label:28s} [{elo0:g}, {elo1:g}] Elo: {n} pairs ({games} games)")
    print("whole tests at the defaults, in-process, fixed seeds: decision, games, pentanomial")
    for game in all_games():
        greedy = get_policy("greedy", game)
        for label, candidate, baseline in (
            ("greedy vs random", lambda _k, g=greedy: g, own_random),
            ("random vs random", own_random, own_random),
        ):
            decision, games, pairs = run_test(game, candidate, baseline, seed=2026)
            print(f"  {game:14s} {label}: {decision} after {games} games {pairs}")


if __name__ == "__main__":
    main()
