"""Reference ``mcts`` against ``greedy``: win table over seeded games with seat rotation.

One mcts seat against greedy in every other seat, at each game's smallest table; game ``g``
puts mcts in seat ``g % n``, so every seat is played equally. The search sees exactly what it
would see through the runner: a determinization of its own information set per decision.

    .venv/bin/python -m benchmarks.mcts_vs_greedy                    # short run (under a minute)
    .venv/bin/python -m benchmarks.mcts_vs_greedy --games 300 --budget-ms 200   # the full table

A win is first place (a shared first place counts as a fraction); "fair share" is 1/n, what
either side would win if they were equally strong.
"""

from __future__ import annotations

import argparse
import time

from bots.builtin import get_policy
from bots.mcts import heuristic_playouts_pay, rollout_policy, search
from engine.registry import all_games, get_game
from engine.rng import Rng


def play_one(game: str, seed: int, mcts_seat: int, budget_s: float) -> list[int]:
    """One game; returns the engine's ranking."""
    spec = get_game(game)
    n = spec.min_players
    state = spec.new_state(seed, n)
    greedy = get_policy("greedy", game)
    rngs = [Rng.derive(seed, "bot", seat) for seat in range(n)]
    sampler = Rng.derive(seed, "determinize")
    playout_policy = rollout_policy(game)
    heuristic_playouts = heuristic_playouts_pay(game)
    while (seat := state.current_player()) is not None:
        legal = state.legal_actions()
        if len(legal) == 1:
            action = legal[0]
        elif seat == mcts_seat:
            sample = state.determinize(seat, sampler)
            action, _ = search(sample, seat, rngs[seat], budget_s=budget_s,
                               policy=playout_policy, playouts=heuristic_playouts)
        else:
            action = greedy(state.observation(seat), legal, rngs[seat])
        state.apply(action)
    return state.ranking()


def main() -> None:
    parser = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    parser.add_argument("--games", type=int, default=4, help="games per game type")
    parser.add_argument("--budget-ms", type=float, default=50, help="search time per decision")
    parser.add_argument("--game", action="append", help="only these games")
    args = parser.parse_args()
    games = args.game or list(all_games())
    print(f"mcts ({args.budget_ms:g} ms/decision) vs greedy, {args.games} games each, "
          "seat rotation, smallest table")
    header = f"{'game':14} {'n':>2} {'games':>5} {'mcts wins':>9} {'mcts %':>7} {'greedy %':>9}"
    print(header + f" {'fair':>5} {'mcts place':>10} {'s/game':>7}")
    for game in games:
        n = get_game(game).min_players
        wins = greedy_wins = places = 0.0
        began = time.perf_counter()
        for g in range(args.games):
            seat = g % n
            ranking = play_one(game, 1000 + g, seat, args.budget_ms / 1000)
            firsts = ranking.count(1)
            if ranking[seat] == 1:
                wins += 1 / firsts
            greedy_wins += sum(1 / firsts for s, r in enumerate(ranking) if r == 1 and s != seat)
            places += ranking[seat]
        elapsed = time.perf_counter() - began
        per_greedy = greedy_wins / (n - 1) / args.games
        print(f"{game:14} {n:>2} {args.games:>5} {wins:>9.1f} {wins / args.games:>7.0%} "
              f"{per_greedy:>9.0%} {1 / n:>5.0%} {places / args.games:>10.2f} "
              f"{elapsed / args.games:>7.1f}")
    print("greedy % is the average win rate of one greedy seat")


if __name__ == "__main__":
    main()
