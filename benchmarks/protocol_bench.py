"""What the bot protocol costs: round trips, start-up, and a match through the runner.

Plays the same seeded 4-player Batavia match twice with random bots: once in-process
(``engine.match.play_match``) and once through ``workers.matches.runner.run_match`` with each bot a
separate program (the ``random`` reference bot) speaking the protocol. Prints the bots'
start-up time, the per-decision round trip measured by the runner (median, p99) and the match
wall times, as a ratio and as the added cost per decision.

    .venv/bin/python -m benchmarks.protocol_bench               # plain processes (LocalLauncher)
    .venv/bin/python -m benchmarks.protocol_bench --sandbox     # bubblewrap (workers.sandbox)
"""

from __future__ import annotations

import argparse
import statistics
import time

from bots.builtin import random_policy
from engine.match import play_match
from workers.launch import Launcher, LocalLauncher
from workers.matches.reference import reference_bot
from workers.matches.runner import TimeControls, run_match

GAME = "batavia"
PLAYERS = 4


def _launcher(sandbox: bool) -> Launcher:
    if not sandbox:
        return LocalLauncher()
    from workers.sandbox import BwrapLauncher, sandbox_problem

    problem = sandbox_problem()
    if problem:
        raise SystemExit(f"no sandbox: {problem}")
    return BwrapLauncher()


def _percentile(values: list[float], fraction: float) -> float:
    ordered = sorted(values)
    return ordered[min(len(ordered) - 1, int(fraction * len(ordered)))]


def main() -> None:
    parser = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    parser.add_argument("--sandbox", action="store_true", help="bots in bubblewrap")
    parser.add_argument("--matches", type=int, default=5)
    args = parser.parse_args()
    launcher = _launcher(args.sandbox)
    bots = [reference_bot("random")] * PLAYERS
    tc = TimeControls(move_ms=5_000)

    in_process, through_runner, startups, round_trips, decisions = [], [], [], [], []
    plays, finishes = [], []
    for seed in range(args.matches):
        began = time.perf_counter()
        _, log = play_match(GAME, seed, [random_policy] * PLAYERS)
        # The two runs draw different random moves: compare per decision.
        in_process.append((time.perf_counter() - began) / len(log["decisions"]))
        began = time.perf_counter()
        outcome = run_match(GAME, seed, bots, launcher=launcher, time_controls=tc)
        through_runner.append(time.perf_counter() - began)
        plays.append(outcome.phases_s["play"])
        finishes.append(outcome.phases_s["finish"])
        if any(outcome.forfeits):  # a forfeit's fallback moves would flatter the figures
            raise SystemExit(f"a reference bot forfeited: {outcome.forfeits}")
        startups += [ms for ms in outcome.startup_ms if ms is not None]
        round_trips += [d["ms"] for d in outcome.log["decisions"] if "ms" in d]
        decisions.append(len(outcome.log["decisions"]))

    kind = "bubblewrap" if args.sandbox else "plain processes (LocalLauncher)"
    asked = len(round_trips) / args.matches
    runner_s = statistics.median(through_runner)
    engine_s = statistics.median(in_process) * statistics.median(decisions)
    play_s = statistics.median(plays)
    print(f"{GAME}, {PLAYERS} random bots, {args.matches} matches, bots as {kind}")
    print(
        f"bot start-up (launch to ready)   median {statistics.median(startups):7.1f} ms   "
        f"max {max(startups):7.1f} ms"
    )
    print(
        f"decision round trip (runner)     median {statistics.median(round_trips) * 1000:7.0f} us"
        f"   p99 {_percentile(round_trips, 0.99) * 1000:7.0f} us"
    )
    print(
        f"decisions per match              {statistics.median(decisions):.0f} "
        f"({asked:.0f} asked, the rest forced)"
    )
    print(f"match wall time, in-process      {engine_s * 1000:7.1f} ms (same decision count)")
    print(
        f"match wall time, through runner  {runner_s * 1000:7.1f} ms: playing "
        f"{play_s * 1000:.1f} ms, ending (bots exit) {statistics.median(finishes) * 1000:.1f} ms,"
        " the rest start-up"
    )
    print(
        f"ratio                            {runner_s / engine_s:7.1f}x whole match, "
        f"{play_s / engine_s:.1f}x playing phase"
    )
    print(
        f"added cost per asked decision    {(play_s - engine_s) / asked * 1e6:7.0f} us "
        "(playing phase vs in-process; target <= 100 us)"
    )


if __name__ == "__main__":
    main()
