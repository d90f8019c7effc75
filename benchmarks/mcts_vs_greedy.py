"""Reference ``mcts`` against ``greedy``: win table over seeded games with seat rotation.

One mcts seat against greedy in every other seat, at each game's smallest table; game ``g``
puts mcts in seat ``g % n``, so every seat is played equally. The search sees exactly what it
would see through the runner: a determinization of its own information set per decision.

    .venv/bin/python -m benchmarks.mcts_vs_greedy                    # short run (under a minute)
    .venv/bin/python -m benchmarks.mcts_vs_greedy --games 300 --budget-ms 200 --jobs 2  # full

A win is first place (a shared first place counts as a fraction); "fair share" is 1/n, what
either side would win if they were equally strong.
"""

from __future__ import annotations

import argparse
import math
import multiprocessing
import time

from bots.builtin import get_policy
from bots.mcts import rollout_policy, search
from engine.registry import all_games, get_game
from engine.rng import Rng


def play_one(
    game: str, seed: int, mcts_seat: int, budget_s: float, playouts: str = "auto"
) -> list[int]:
    """One game; returns the engine's ranking.

    ``playouts`` "auto" is what the reference bot does (the game's heuristic plays the
    playouts, as "greedy"); "random" plays them with random moves, to measure that choice.
    """
    spec = get_game(game)
    n = spec.min_players
    state = spec.new_state(seed, n)
    greedy = get_policy("greedy", game)
    rngs = [Rng.derive(seed, "bot", seat) for seat in range(n)]
    sampler = Rng.derive(seed, "determinize")
    playout_policy = rollout_policy(game)
    heuristic_playouts = playouts != "random"
    while (seat := state.current_player()) is not None:
        legal = state.legal_actions()
        if len(legal) == 1:
            action = legal[0]
        elif seat == mcts_seat:
            sample = state.determinize(seat, sampler)
            action, _ = search(
                sample,
                seat,
                rngs[seat],
                budget_s=budget_s,
                policy=playout_policy,
                playouts=heuristic_playouts,
                legal=legal,
            )
        else:
            action = greedy(state.observation(seat), legal, rngs[seat])
        state.apply(action)
    return state.ranking()


def _play(task: tuple[str, int, float, str]) -> tuple[str, int, list[int], float]:
    """One benchmark game (a pool task): game ``g`` seats mcts at ``g % n``, seed ``1000 + g``."""
    game, g, budget_s, playouts = task
    n = get_game(game).min_players
    began = time.perf_counter()
    ranking = play_one(game, 1000 + g, g % n, budget_s, playouts)
    return game, g, ranking, time.perf_counter() - began


def wilson(successes: float, trials: int, z: float = 1.96) -> tuple[float, float]:
    """The Wilson 95% interval of a win rate: honest about a few dozen games, unlike p +- 2se."""
    if trials == 0:
        return 0.0, 1.0
    p = successes / trials
    shrink = 1 + z * z / trials
    centre = (p + z * z / (2 * trials)) / shrink
    half = z * math.sqrt(p * (1 - p) / trials + z * z / (4 * trials * trials)) / shrink
    return max(0.0, centre - half), min(1.0, centre + half)


def main() -> None:
    parser = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    parser.add_argument("--games", type=int, default=4, help="games per game type")
    parser.add_argument("--budget-ms", type=float, default=50, help="search time per decision")
    parser.add_argument("--game", action="append", help="only these games")
    parser.add_argument(
        "--jobs",
        type=int,
        default=1,
        help="processes (games are independent; each search is timed on its own)",
    )
    parser.add_argument(
        "--playouts",
        choices=("auto", "greedy", "random"),
        default="auto",
        help="playout policy (auto: what the reference bot does)",
    )
    args = parser.parse_args()
    games = args.game or list(all_games())
    print(
        f"mcts ({args.budget_ms:g} ms/decision) vs greedy, {args.games} games each, "
        f"seat rotation, smallest table, {args.jobs} process(es), {args.playouts} playouts"
    )
    header = f"{'game':14} {'n':>2} {'games':>5} {'mcts wins':>9} {'mcts %':>7} {'95% CI':>9}"
    print(header + f" {'greedy %':>9} {'fair':>5} {'mcts place':>10} {'s/game':>7}", flush=True)
    budget_s = args.budget_ms / 1000
    for game in games:
        n = get_game(game).min_players
        wins = greedy_wins = places = seconds = 0.0
        tasks = [(game, g, budget_s, args.playouts) for g in range(args.games)]
        if args.jobs > 1:
            with multiprocessing.Pool(args.jobs) as pool:
                results = pool.map(_play, tasks, chunksize=1)
        else:
            results = [_play(task) for task in tasks]
        for _, g, ranking, elapsed in results:
            seat = g % n
            firsts = ranking.count(1)
            if ranking[seat] == 1:
                wins += 1 / firsts
            greedy_wins += sum(1 / firsts for s, r in enumerate(ranking) if r == 1 and s != seat)
            places += ranking[seat]
            seconds += elapsed
        per_greedy = greedy_wins / (n - 1) / args.games
        low, high = wilson(wins, args.games)
        print(
            f"{game:14} {n:>2} {args.games:>5} {wins:>9.1f} {wins / args.games:>7.0%} "
            f"{low:>4.0%}-{high:<4.0%} {per_greedy:>9.0%} {1 / n:>5.0%} "
            f"{places / args.games:>10.2f} {seconds / args.games:>7.1f}",
            flush=True,
        )
    print("greedy % is the average win rate of one greedy seat; 95% CI is Wilson's, of mcts %")


if __name__ == "__main__":
    main()
