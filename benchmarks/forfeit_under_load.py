"""How often a bot that needs 70% of its move time in CPU loses on time, idle and loaded.

Run: ``.venv/bin/python benchmarks/forfeit_under_load.py [--matches N] [--burn N]``.

The bot computes for ``--share`` (0.7) of its move time in its own CPU time at each of its first
``--burn`` decisions of an East Indiaman match against the random bot (200 ms a decision, no
bank), in the sandbox where this host has one. Printed: the share of its matches it forfeited,
with the host idle and with two CPU hogs (``python3 -c 'while True: pass'``) beside it, once
charged as the runner does (the seat's CPU time, wall-clock backstop at 10x) and once with the
backstop at 1x, which charges wall-clock time as the runner did before. Target: 0% charged by
CPU time, loaded or not. Each condition first times a fixed calibration loop (pure Python) in
the same run, so figures from a slower or busier machine can be told apart.
"""

from __future__ import annotations

import argparse
import contextlib
import os
import subprocess
import sys
import tempfile
import time
from collections.abc import Iterator
from pathlib import Path

from workers.launch import BotProgram, Launcher, LocalLauncher
from workers.matches.reference import reference_bot
from workers.matches.runner import TimeControls, run_match

# The same bot the suite's load test plays (tests/workers/test_cpu_clock.py): one program, so
# the figure printed here and the test's verdict are about the same behaviour.
BOT = Path(__file__).resolve().parents[1] / "tests" / "workers" / "bots" / "cpu_share.py"


def calibration_ms() -> float:
    """Wall time of a fixed pure-Python loop (best of three): the machine's speed right now."""
    best = float("inf")
    for _ in range(3):
        began = time.perf_counter()
        total = 0
        for i in range(2_000_000):
            total += i
        best = min(best, time.perf_counter() - began)
    return best * 1000


@contextlib.contextmanager
def hogs(count: int) -> Iterator[None]:
    spinning = [subprocess.Popen([sys.executable, "-c", "while True: pass"]) for _ in range(count)]
    try:
        yield
    finally:
        for hog in spinning:
            hog.kill()
            hog.wait()


def launcher() -> tuple[Launcher, str]:
    from workers.sandbox import BwrapLauncher, sandbox_problem

    if sandbox_problem() is None:
        return BwrapLauncher(), "bwrap sandbox"
    return LocalLauncher(), "local processes (no sandbox here)"


def forfeit_rate(
    launch: Launcher, bot: BotProgram, matches: int, wall_factor: float, move_ms: int
) -> float:
    clock = TimeControls(startup_ms=10_000, move_ms=move_ms, bank_ms=0, wall_factor=wall_factor)
    lost = 0
    for seed in range(matches):
        outcome = run_match(
            "east_indiaman",
            seed,
            [bot, reference_bot("random")],
            launcher=launch,
            time_controls=clock,
        )
        lost += outcome.forfeits[0] is not None
    return lost / matches


def main() -> None:
    parser = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    parser.add_argument("--matches", type=int, default=20)
    parser.add_argument("--burn", type=int, default=3, help="decisions a match that compute")
    parser.add_argument("--share", type=float, default=0.7)
    parser.add_argument("--move-ms", type=int, default=200)
    args = parser.parse_args()
    launch, where = launcher()
    with tempfile.TemporaryDirectory(prefix="monsoon-bench-") as folder:
        Path(folder).chmod(0o755)
        (Path(folder) / "main.py").write_bytes(BOT.read_bytes())
        (Path(folder) / "main.py").chmod(0o644)
        env = {"SHARE": str(args.share), "BURN": str(args.burn)}
        bot = BotProgram(Path(folder), ("python3", "main.py"), "cpu_share", env)
        print(
            f"{args.matches} matches, {args.share:.0%} of {args.move_ms} ms in CPU at each of "
            f"the first {args.burn} decisions, no bank; {where}"
        )
        for label, count in (("idle", 0), ("two CPU hogs", 2)):
            with hogs(count):
                calibration = calibration_ms()
                by_cpu = forfeit_rate(launch, bot, args.matches, 10.0, args.move_ms)
                by_wall = forfeit_rate(launch, bot, args.matches, 1.0, args.move_ms)
                load = os.getloadavg()[0]
            print(
                f"{label:>13}: calibration loop {calibration:6.1f} ms, load {load:4.1f} | forfeit "
                f"rate charged by CPU time {by_cpu:6.1%} | by wall-clock time {by_wall:6.1%}"
            )


if __name__ == "__main__":
    main()
