"""What the bot protocol costs: start-up, per-decision overhead and a match through the runner.

Plays the same seeded 4-player Batavia matches twice with random bots: once in-process
(``engine.match.play_match``) and once through ``workers.matches.runner.run_match`` with each bot a
separate program (the ``random`` reference bot) speaking the protocol. Prints each figure beside
its target (issue 20):

* bot start-up, launch to ``ready`` (each seat's own), median: at most 50 ms;
* the whole match through the runner: at most 3 times the in-process match;
* the added cost per asked decision (playing phase against in-process, per decision): at most
  100 us.

Then the same match with the cheapest Python bot there can be (``FLOOR_BOT``: imports nothing
but ``sys``, never decodes JSON, answers the first legal action, which it cuts out of the
request's bytes: Batavia's actions are plain strings). Its start-up, and its match's start-up
phase and ending, are what the launcher, the sandbox and the interpreter cost whatever the SDK
imports and the runner does: so a figure above target can be told apart from the runner's own
share. (Its games are short, 56 decisions with a seat change at nearly every one, so its
per-decision figures are not comparable and not printed.)

    .venv/bin/python -m benchmarks.protocol_bench               # plain processes (LocalLauncher)
    .venv/bin/python -m benchmarks.protocol_bench --sandbox     # bubblewrap (workers.sandbox)
"""

from __future__ import annotations

import argparse
import os
import statistics
import tempfile
import time
from dataclasses import dataclass, field
from pathlib import Path

from bots.builtin import random_policy
from engine.match import play_match
from workers.launch import BotProgram, Launcher, LocalLauncher
from workers.matches.reference import reference_bot
from workers.matches.runner import TimeControls, run_match

GAME = "batavia"
PLAYERS = 4
STARTUP_TARGET_MS = 50.0
MATCH_RATIO_TARGET = 3.0
ADDED_TARGET_US = 100.0
CLOCK = TimeControls(move_ms=5_000)
IN_PROCESS_REPEATS = 5
FLOOR_BOT = """\
import sys
out = sys.stdout.buffer
for line in sys.stdin.buffer:
    if line.startswith(b'{"type":"request"'):
        first = line.index(b'"legal_actions":["') + 17
        out.write(b'{"action":' + line[first : line.index(b'"', first + 1) + 1] + b"}\\n")
    elif line.startswith(b'{"type":"start"'):
        out.write(b'{"ready":true}\\n')
    else:
        break
    out.flush()
"""


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


@dataclass
class Runs:
    """What the matches through the runner measured (one entry per match unless noted)."""

    whole: list[float] = field(default_factory=list)
    starts: list[float] = field(default_factory=list)
    """The start-up phase: the first launch to the last ``ready``."""
    plays: list[float] = field(default_factory=list)
    play_cpus: list[float] = field(default_factory=list)
    """The runner thread's CPU time while playing."""
    cleanups: list[float] = field(default_factory=list)
    """After the phases: killing what is left of the seats, removing their cgroups."""
    finishes: list[float] = field(default_factory=list)
    startups: list[float] = field(default_factory=list)
    """Per seat, launch to ``ready`` in ms."""
    round_trips: list[float] = field(default_factory=list)
    """Per asked decision, seconds."""
    decisions: list[int] = field(default_factory=list)
    asked: list[int] = field(default_factory=list)


def _through_runner(bot: BotProgram, launcher: Launcher, matches: int) -> Runs:
    """``matches`` seeded matches of ``bot`` in every seat through the runner."""
    runs = Runs()
    for seed in range(matches):
        began = time.perf_counter()
        outcome = run_match(
            GAME,
            seed,
            [bot] * PLAYERS,
            launcher=launcher,
            time_controls=TimeControls(move_ms=5_000),
        )
        runs.whole.append(time.perf_counter() - began)
        if any(outcome.forfeits):  # a forfeit's fallback moves would flatter the figures
            raise SystemExit(f"{bot.name} forfeited: {outcome.forfeits}")
        runs.starts.append(outcome.phases_s["startup"])
        runs.cleanups.append(runs.whole[-1] - sum(outcome.phases_s.values()))
        runs.plays.append(outcome.phases_s["play"])
        runs.play_cpus.append(outcome.play_cpu_s)
        runs.finishes.append(outcome.phases_s["finish"])
        runs.startups += [ms for ms in outcome.startup_ms if ms is not None]
        asked = [d["ms"] / 1000 for d in outcome.log["decisions"] if "ms" in d]
        runs.round_trips += asked
        runs.asked.append(len(asked))
        runs.decisions.append(len(outcome.log["decisions"]))
    return runs


def _verdict(value: float, target: float) -> str:
    return "ok" if value <= target else "ABOVE TARGET"


def main() -> None:
    parser = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    parser.add_argument("--sandbox", action="store_true", help="bots in bubblewrap")
    parser.add_argument("--matches", type=int, default=5)
    args = parser.parse_args()
    launcher = _launcher(args.sandbox)

    in_process = []  # seconds per decision (the two runs draw different random moves)
    in_process_cpu = []
    # Each in-process match several times: a 10 ms figure is easily doubled by one preemption
    # on a busy machine, and it is the denominator of every ratio below.
    for seed in [*range(args.matches)] * IN_PROCESS_REPEATS:
        began, cpu = time.perf_counter(), time.thread_time()
        _, log = play_match(GAME, seed, [random_policy] * PLAYERS)
        in_process.append((time.perf_counter() - began) / len(log["decisions"]))
        in_process_cpu.append((time.thread_time() - cpu) / len(log["decisions"]))
    per_decision_s = statistics.median(in_process)
    runs = _through_runner(reference_bot("random"), launcher, args.matches)
    with tempfile.TemporaryDirectory(prefix="protocol-bench-") as directory:
        Path(directory, "main.py").write_text(FLOOR_BOT)
        floor_bot = BotProgram(Path(directory), ("python3", "main.py"), "floor")
        floor = _through_runner(floor_bot, launcher, args.matches)

    kind = "bubblewrap" if args.sandbox else "plain processes (LocalLauncher)"
    decisions = statistics.median(runs.decisions)
    engine_s = per_decision_s * decisions
    runner_s = statistics.median(runs.whole)
    play_s = statistics.median(runs.plays)
    finish_s = statistics.median(runs.finishes)
    asked = statistics.median(runs.asked)
    startup = statistics.median(runs.startups)
    ratio = runner_s / engine_s
    added_us = (play_s - engine_s) / asked * 1e6
    load = os.getloadavg()[0]
    print(
        f"{GAME}, {PLAYERS} random bots, {args.matches} matches, bots as {kind}; "
        f"{os.cpu_count()} cores, load average {load:.1f}"
    )
    print(
        f"bot start-up (launch to ready)   median {startup:7.1f} ms   max "
        f"{max(runs.startups):7.1f} ms   target <= {STARTUP_TARGET_MS:.0f} ms: "
        f"{_verdict(startup, STARTUP_TARGET_MS)}"
    )
    print(
        f"decision round trip (runner)     median {statistics.median(runs.round_trips) * 1e6:7.0f}"
        f" us   p99 {_percentile(runs.round_trips, 0.99) * 1e6:7.0f} us   mean "
        f"{statistics.mean(runs.round_trips) * 1e6:7.0f} us"
    )
    print(
        f"decisions per match              {statistics.median(runs.decisions):.0f} "
        f"({asked:.0f} asked, the rest forced)"
    )
    print(f"match wall time, in-process      {engine_s * 1000:7.1f} ms (same decision count)")
    start_s = statistics.median(runs.starts)
    print(
        f"match wall time, through runner  {runner_s * 1000:7.1f} ms: start-up {start_s * 1000:.1f}"
        f" ms, playing {play_s * 1000:.1f} ms, ending (bots exit) {finish_s * 1000:.1f} ms, "
        f"clean-up {statistics.median(runs.cleanups) * 1000:.1f} ms (medians)"
    )
    print(
        f"ratio                            {ratio:7.1f}x whole match   target <= "
        f"{MATCH_RATIO_TARGET:.0f}x: {_verdict(ratio, MATCH_RATIO_TARGET)}   "
        f"({play_s / engine_s:.1f}x playing phase)"
    )
    print(
        f"added cost per asked decision    {added_us:7.0f} us (playing phase vs in-process)   "
        f"target <= {ADDED_TARGET_US:.0f} us: {_verdict(added_us, ADDED_TARGET_US)}"
    )
    runner_cpu_us = (
        (statistics.median(runs.play_cpus) - statistics.median(in_process_cpu) * decisions)
        / asked
        * 1e6
    )
    print(
        f"  of which the runner's own CPU   {runner_cpu_us:7.0f} us (its thread's CPU time while "
        "playing vs in-process; the rest is the bot's work and waiting for a CPU)"
    )
    fixed_s = statistics.median(floor.starts) + statistics.median(floor.finishes)
    print(
        f"floor (a bot of sys only, no JSON decoding, first legal action): start-up median "
        f"{statistics.median(floor.startups):.1f} ms a seat; start-up phase and ending "
        f"{fixed_s * 1000:.1f} ms a match whatever is played, against a whole-match budget of "
        f"{MATCH_RATIO_TARGET * engine_s * 1000:.1f} ms ({MATCH_RATIO_TARGET:.0f}x in-process)"
    )


if __name__ == "__main__":
    main()
