"""What the bot protocol costs: start-up, per-decision overhead and a match through the runner.

Plays the same seeded 4-player Batavia matches twice with random bots: once in-process
(``engine.match.play_match``) and once through ``workers.matches.runner.run_match`` with each bot a
separate program (the ``random`` reference bot) speaking the protocol. Prints each figure beside
its target (issue 20):

* bot start-up, launch to ``ready`` (each seat's own), median: at most 50 ms;
* the whole match through the runner: at most 3 times the in-process match;
* the added cost per asked decision (playing phase against in-process, per decision): at most
  100 us.

Each figure twice (issue 29): cold (every seat a fresh sandbox and interpreter, as a bot that
plays one match a process) and warm (the reference bot declares ``"matches": "many"``: a
``workers.seats.SeatPool`` keeps its processes frozen between matches and the next match
reuses them). Then matches per core-hour on the demo's mix of bots (``ladder.ladders.demo``:
the reference ``random``, ``greedy`` and ``mcts`` bots at each game's smallest table, every
line-up once), cold and warm: one worker slot (one core) playing matches back to back, so
3600 s over the mean seconds a match. Target: warm at least twice cold. Every absolute figure
is printed beside a calibration loop timed in the same run (a fixed piece of pure Python), so
a loaded machine shows as a slower loop.

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
import itertools
import os
import statistics
import tempfile
import time
from collections.abc import Callable
from dataclasses import dataclass, field
from pathlib import Path

from bots.builtin import random_policy
from engine.match import play_match
from engine.registry import all_games
from workers.launch import BotProgram, Launcher, LauncherSeats, LocalLauncher, SeatSource
from workers.matches.reference import reference_bot
from workers.matches.runner import DEFAULT_TIME_CONTROLS, TimeControls, run_match
from workers.seats import SeatPool, SeatPoolConfig

GAME = "batavia"
PLAYERS = 4
STARTUP_TARGET_MS = 50.0
MATCH_RATIO_TARGET = 3.0
ADDED_TARGET_US = 100.0
CORE_HOUR_RATIO_TARGET = 2.0
DEMO_POLICIES = ("random", "greedy", "mcts")
"""``ladder.ladders.demo.DEFAULT_POLICIES`` (not imported: the benchmark runs without Django)."""
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


def _calibration_ms() -> float:
    """A fixed piece of pure Python (the median of five), to read the figures against."""
    times = []
    for _ in range(5):
        began = time.perf_counter()
        sum(i * i for i in range(200_000))
        times.append(time.perf_counter() - began)
    return statistics.median(times) * 1000


def _through_runner(
    bot: BotProgram,
    launcher: Launcher,
    matches: int | range,
    seats: SeatSource | None = None,
    runs: Runs | None = None,
) -> Runs:
    """Seeded matches (``range(matches)``) of ``bot`` in every seat through the runner, added
    to ``runs`` when given."""
    runs = runs if runs is not None else Runs()
    for seed in matches if isinstance(matches, range) else range(matches):
        began = time.perf_counter()
        outcome = run_match(
            GAME,
            seed,
            [bot] * PLAYERS,
            launcher=launcher,
            time_controls=TimeControls(move_ms=5_000),
            seats=seats,
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


def demo_mix() -> list[tuple[str, tuple[str, ...]]]:
    """The demo's line-ups: each game's smallest table, every combination of its bots."""
    return [
        (game, lineup)
        for game, spec in sorted(all_games().items())
        for lineup in itertools.combinations(DEMO_POLICIES, min(spec.player_counts))
    ]


def _mix_seconds(
    launcher: Launcher, sources: dict[str, SeatSource], rounds: int
) -> dict[str, dict[str, list[float]]]:
    """Wall seconds of each match of the demo's mix, per seat source and line-up, played back
    to back in this process under the ladder's default clock. Each line-up is played by every
    source in turn, so a load that comes and goes weighs on them alike."""
    times: dict[str, dict[str, list[float]]] = {name: {} for name in sources}
    for round_ in range(rounds):
        for game, lineup in demo_mix():
            bots = [reference_bot(policy) for policy in lineup]
            for name, seats in sources.items():
                began = time.perf_counter()
                outcome = run_match(
                    game,
                    round_,
                    bots,
                    launcher=launcher,
                    seats=seats,
                    time_controls=DEFAULT_TIME_CONTROLS,
                )
                times[name].setdefault(f"{game} {'/'.join(lineup)}", []).append(
                    time.perf_counter() - began
                )
                if any(outcome.forfeits):
                    raise SystemExit(f"{game} {lineup}: a forfeit {outcome.forfeits}")
    return times


def _mean(times: dict[str, list[float]], keep: Callable[[str], bool] = bool) -> float:
    chosen = [t for lineup, values in times.items() if keep(lineup) for t in values]
    return sum(chosen) / len(chosen)


@dataclass
class Figures:
    """One run's headline figures (cold or warm)."""

    startup_ms: float
    ratio: float
    play_ratio: float
    added_us: float
    whole_ms: float
    start_ms: float
    play_ms: float
    finish_ms: float
    cleanup_ms: float


def _figures(runs: Runs, engine_s: float, asked: float) -> Figures:
    play_s = statistics.median(runs.plays)
    whole = statistics.median(runs.whole)
    return Figures(
        startup_ms=statistics.median(runs.startups),
        ratio=whole / engine_s,
        play_ratio=play_s / engine_s,
        added_us=(play_s - engine_s) / asked * 1e6,
        whole_ms=whole * 1000,
        start_ms=statistics.median(runs.starts) * 1000,
        play_ms=play_s * 1000,
        finish_ms=statistics.median(runs.finishes) * 1000,
        cleanup_ms=statistics.median(runs.cleanups) * 1000,
    )


def main() -> None:
    parser = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    parser.add_argument("--sandbox", action="store_true", help="bots in bubblewrap")
    parser.add_argument("--matches", type=int, default=5)
    parser.add_argument(
        "--mix-rounds", type=int, default=1, help="rounds of the demo's mix (0: skip it)"
    )
    args = parser.parse_args()
    launcher = _launcher(args.sandbox)
    calibration_before = _calibration_ms()

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
    # Cold and warm matches alternate, so a load that comes and goes weighs on both alike.
    cold_seats = LauncherSeats(launcher)
    pool = SeatPool(launcher, SeatPoolConfig(max_seats=2 * PLAYERS))
    _through_runner(reference_bot("random"), launcher, 1, pool)  # the first match starts cold
    runs, warm_runs = Runs(), Runs()
    for seed in range(args.matches):
        _through_runner(reference_bot("random"), launcher, range(seed, seed + 1), cold_seats, runs)
        _through_runner(reference_bot("random"), launcher, range(seed, seed + 1), pool, warm_runs)
    if pool.counts.cold != PLAYERS:
        raise SystemExit(f"warm seats were not reused: {pool.counts}")
    pool.close()
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
    cold = _figures(runs, engine_s, asked)
    warm = _figures(warm_runs, engine_s, statistics.median(warm_runs.asked))
    print()
    print(f"{'cold and warm seats':34} {'cold':>10} {'warm':>10}   target")
    rows = [
        ("whole match vs in-process", cold.ratio, warm.ratio, "x", MATCH_RATIO_TARGET, "warm"),
        (
            "start-up a seat (median)",
            cold.startup_ms,
            warm.startup_ms,
            " ms",
            STARTUP_TARGET_MS,
            "cold",
        ),
        ("added per asked decision", cold.added_us, warm.added_us, " us", ADDED_TARGET_US, "both"),
    ]
    for label, cold_value, warm_value, unit, target, judged in rows:
        verdicts = {
            "cold": _verdict(cold_value, target),
            "warm": _verdict(warm_value, target),
        }
        shown = (
            f"cold {verdicts['cold']}, warm {verdicts['warm']}"
            if judged == "both"
            else f"{judged} {verdicts[judged]}"
        )
        print(
            f"{label:34} {cold_value:9.1f}{unit:3} {warm_value:9.1f}{unit:3}   <= {target:g}{unit}:"
            f" {shown}"
        )
    for label, attribute in (
        ("whole match (ms)", "whole_ms"),
        ("  start-up phase (ms)", "start_ms"),
        ("  playing (ms)", "play_ms"),
        ("  ending (ms)", "finish_ms"),
        ("  clean-up (ms)", "cleanup_ms"),
    ):
        print(f"{label:34} {getattr(cold, attribute):10.1f} {getattr(warm, attribute):10.1f}")
    print(f"{'  playing phase vs in-process':34} {cold.play_ratio:9.1f}x {warm.play_ratio:9.1f}x")
    if args.mix_rounds > 0:
        mix = demo_mix()
        mix_pool = SeatPool(launcher, SeatPoolConfig(max_seats=16))
        _mix_seconds(launcher, {"warm": mix_pool}, 1)  # each bot's first match starts cold
        times = _mix_seconds(
            launcher, {"cold": LauncherSeats(launcher), "warm": mix_pool}, args.mix_rounds
        )
        mix_pool.close()
        cold_times, warm_times = times["cold"], times["warm"]
        cold_s, warm_s = _mean(cold_times), _mean(warm_times)
        ratio = cold_s / warm_s
        print(
            f"{'matches per core-hour, demo mix':34} {3600 / cold_s:10.0f} {3600 / warm_s:10.0f}"
            f"   warm >= {CORE_HOUR_RATIO_TARGET:g}x cold: {ratio:.2f}x "
            f"{'ok' if ratio >= CORE_HOUR_RATIO_TARGET else 'BELOW TARGET'}"
        )
        print(
            f"  ({len(mix)} line-ups x {args.mix_rounds} round(s): "
            + ", ".join(f"{game} {'/'.join(lineup)}" for game, lineup in mix)
            + f"; mean match {cold_s * 1000:.0f} ms cold, {warm_s * 1000:.0f} ms warm)"
        )

        def quick(lineup: str) -> bool:
            return "mcts" not in lineup

        cold_q, warm_q = _mean(cold_times, quick), _mean(warm_times, quick)
        print(
            f"{'  line-ups without mcts':34} {3600 / cold_q:10.0f} {3600 / warm_q:10.0f}"
            f"   {cold_q / warm_q:.2f}x (mcts thinks up to 0.2 s a decision: its matches are "
            "its thinking, whatever the start-up costs)"
        )
    print(
        f"calibration loop (pure Python, fixed work): {calibration_before:.1f} ms before, "
        f"{_calibration_ms():.1f} ms after; load average {os.getloadavg()[0]:.1f}"
    )


if __name__ == "__main__":
    main()
