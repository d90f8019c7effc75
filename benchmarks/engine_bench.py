"""Engine throughput with random bots in-process, per game and player count.

Run: ``.venv/bin/python benchmarks/engine_bench.py [--seconds S]``.  Prints decisions
per second on one core against the target of 20,000.
"""

from __future__ import annotations

import argparse

from engine.registry import all_games
from workers.bench import measure_random_play

TARGET = 20_000


def main() -> None:
    parser = argparse.ArgumentParser(description=__doc__)
    parser.add_argument("--seconds", type=float, default=3.0)
    args = parser.parse_args()
    print(f"{'game':<14}{'players':>8}{'games':>8}{'games/s':>10}{'decisions/s':>14}  target")
    for spec in all_games().values():
        for n in spec.player_counts:
            r = measure_random_play(spec.name, n, args.seconds)
            verdict = "ok" if r.decisions_per_second >= TARGET else "BELOW"
            print(
                f"{spec.name:<14}{n:>8}{r.games:>8}{r.games_per_second:>10.1f}"
                f"{r.decisions_per_second:>14,.0f}  {verdict} ({TARGET:,})"
            )


if __name__ == "__main__":
    main()
