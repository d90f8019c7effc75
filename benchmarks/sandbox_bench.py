"""What the bubblewrap sandbox costs: bot start-up, per-decision round trip, freezing.

Run: ``.venv/bin/python benchmarks/sandbox_bench.py [--starts N] [--round-trips N]``.

Start-up is the wall time from ``launch()`` to the bot's first line (a minimal Python bot
that answers at once), so it includes the interpreter's own start; the target is 50 ms. The
round trip is one JSON line to an echoing bot and its answer back, the transport part of
every decision (median and p99). Both are measured for :class:`BwrapLauncher` and, as the
baseline, for :class:`LocalLauncher` (no isolation).

Freezing: the runner thaws a seat before each decision and freezes it after
(``workers.launch.set_deciding``). Measured here: the two calls' own time, and a round trip
with them (thaw, ask, answer, freeze) against one without, for the seat's cgroup freezer (where
the host has one) and for the signal fallback. Target: at most 100 us added per decision, which
is the order of the runner's own per-decision overhead (about 70 us), 0.01 % of the default
1 s move time, and at most 2 s over the longest match the runner allows (20,000 decisions a
seat).
"""

from __future__ import annotations

import argparse
import os
import select
import statistics
import tempfile
import time
from pathlib import Path

from workers import cgroups
from workers.launch import BotProcess, BotProgram, Launcher, Limits, LocalLauncher
from workers.sandbox import BwrapLauncher, sandbox_problem
from workers.staging import bot_copy, remove_copy

STARTUP_TARGET_MS = 50.0
FREEZE_TARGET_US = 100.0
ECHO_BOT = """\
import sys
sys.stdout.write('{"ready": true}\\n')
sys.stdout.flush()
for line in sys.stdin:
    sys.stdout.write(line)
    sys.stdout.flush()
"""
MESSAGE = b'{"type":"request","decision":1,"legal_actions":[0,1,2,3],"time":{"move_ms":1000}}\n'


def read_line(process: BotProcess, timeout: float = 10.0) -> bytes:
    """One line from the bot's stdout (raw fd reads, as the runner does)."""
    fd = process.stdout.fileno()
    data = b""
    deadline = time.monotonic() + timeout
    while not data.endswith(b"\n"):
        ready, _, _ = select.select([fd], [], [], max(0.0, deadline - time.monotonic()))
        if not ready:
            raise TimeoutError("the bot did not answer")
        chunk = os.read(fd, 65536)
        if not chunk:
            raise EOFError("the bot closed its output")
        data += chunk
    return data


def startup_ms(launcher: Launcher, program: BotProgram, runs: int) -> list[float]:
    times = []
    for _ in range(runs):
        began = time.perf_counter()
        process = launcher.launch(program, slot=0, limits=Limits())
        try:
            read_line(process)
            times.append((time.perf_counter() - began) * 1000)
        finally:
            process.terminate_all()
    return times


def round_trip_us(launcher: Launcher, program: BotProgram, trips: int) -> list[float]:
    process = launcher.launch(program, slot=0, limits=Limits())
    stdin_fd = process.stdin.fileno()
    try:
        read_line(process)
        for _ in range(50):  # warm up
            os.write(stdin_fd, MESSAGE)
            read_line(process)
        times = []
        for _ in range(trips):
            began = time.perf_counter()
            os.write(stdin_fd, MESSAGE)
            read_line(process)
            times.append((time.perf_counter() - began) * 1e6)
        return times
    finally:
        process.terminate_all()


def freeze_costs(launcher: Launcher, program: BotProgram, trips: int) -> dict[str, float]:
    """Median microseconds: thaw() and freeze() alone, round trips with and without them."""
    process = launcher.launch(program, slot=0, limits=Limits())
    stdin_fd = process.stdin.fileno()
    thaw, freeze, plain, cycled = [], [], [], []
    try:
        read_line(process)
        for trip in range(trips + 50):
            began = time.perf_counter()
            os.write(stdin_fd, MESSAGE)
            read_line(process)
            plain_us = (time.perf_counter() - began) * 1e6
            began = time.perf_counter()
            process.freeze()
            frozen = time.perf_counter()
            process.thaw()
            thawed = time.perf_counter()
            os.write(stdin_fd, MESSAGE)
            read_line(process)
            process.freeze()
            refrozen = time.perf_counter()
            process.thaw()
            if trip >= 50:  # warm up first
                plain.append(plain_us)
                freeze.append((frozen - began) * 1e6)
                thaw.append((thawed - frozen) * 1e6)
                cycled.append((refrozen - frozen) * 1e6)
    finally:
        process.terminate_all()
    return {
        "thaw": statistics.median(thaw),
        "freeze": statistics.median(freeze),
        "plain": statistics.median(plain),
        "cycled": statistics.median(cycled),
    }


def seat_group_ms(tree: cgroups.SeatTree, runs: int) -> tuple[float, float]:
    """Median milliseconds to create a seat's cgroup(s) with the default limits, and to remove."""
    made, removed = [], []
    for _ in range(runs):
        began = time.perf_counter()
        seat = tree.seat(Limits())
        created = time.perf_counter()
        seat.remove()
        made.append((created - began) * 1000)
        removed.append((time.perf_counter() - created) * 1000)
    return statistics.median(made), statistics.median(removed)


def copy_ms(source: Path, runs: int) -> float:
    """Median milliseconds to stage a seat's copy of the bot folder ``source`` and delete it
    (every launch does both: the mount table then names no host folder)."""
    times = []
    for _ in range(runs):
        began = time.perf_counter()
        _copy, holder = bot_copy(source)
        remove_copy(holder)
        times.append((time.perf_counter() - began) * 1000)
    return statistics.median(times)


def calibration_ms() -> float:
    """A fixed piece of pure-Python work (sum of 10**6 ints), to judge the machine's speed."""
    began = time.perf_counter()
    sum(range(1_000_000))
    return (time.perf_counter() - began) * 1000


def print_copy_costs(runs: int) -> None:
    """The staging copy of a one-file bot and of a reference bot, beside the calibration loop."""
    reference = Path(__file__).resolve().parents[1] / "bots" / "reference" / "random"
    with tempfile.TemporaryDirectory(prefix="sandbox-bench-copy-") as directory:
        Path(directory, "main.py").write_text(ECHO_BOT)
        small = copy_ms(Path(directory), runs)
    print(
        f"a seat's copy of its bot (stage + delete): one-file bot {small:.2f} ms, "
        f"reference random bot {copy_ms(reference, runs):.2f} ms; "
        f"calibration loop {calibration_ms():.1f} ms"
    )


def p99(values: list[float]) -> float:
    return statistics.quantiles(values, n=100)[98]


def main() -> None:
    parser = argparse.ArgumentParser(description=__doc__)
    parser.add_argument("--starts", type=int, default=20)
    parser.add_argument("--round-trips", type=int, default=2000)
    args = parser.parse_args()
    problem = sandbox_problem()
    if problem:
        raise SystemExit(f"cannot measure the sandbox here: {problem}")
    with tempfile.TemporaryDirectory(prefix="sandbox-bench-") as directory:
        os.chmod(directory, 0o755)
        Path(directory, "main.py").write_text(ECHO_BOT)
        # The same interpreter for both (a pyenv shim on PATH would make "local" look slow).
        program = BotProgram(Path(directory), ("/usr/bin/python3", "main.py"), "echo")
        launchers: dict[str, Launcher] = {
            "bwrap": BwrapLauncher(),
            "local": LocalLauncher(),
        }
        print(
            f"{'launcher':<10}{'start-up median':>17}{'p90':>9}{'round trip median':>19}{'p99':>10}"
        )
        results = {}
        for name, launcher in launchers.items():
            starts = startup_ms(launcher, program, args.starts)
            trips = round_trip_us(launcher, program, args.round_trips)
            results[name] = (statistics.median(starts), statistics.median(trips))
            print(
                f"{name:<10}{statistics.median(starts):>14.1f} ms"
                f"{statistics.quantiles(starts, n=10)[8]:>6.1f} ms"
                f"{statistics.median(trips):>16.1f} us{p99(trips):>7.1f} us"
            )
        start, trip = results["bwrap"]
        verdict = "ok" if start <= STARTUP_TARGET_MS else "ABOVE TARGET"
        print(
            f"sandboxed start-up {start:.1f} ms: {verdict} ({STARTUP_TARGET_MS:.0f} ms); "
            f"sandbox adds {start - results['local'][0]:+.1f} ms to start-up and "
            f"{trip - results['local'][1]:+.1f} us to a round trip (median)"
        )
        tree, why = cgroups.cgroup_tree()
        print(f"seat cgroups: {why}")
        if tree is not None:
            made, removed = seat_group_ms(tree, args.starts)
            print(f"a seat's cgroup: created in {made:.2f} ms, removed in {removed:.2f} ms")
        print_copy_costs(args.starts)
        print(
            f"{'freezing by':<16}{'thaw':>9}{'freeze':>9}{'round trip':>12}"
            f"{'with both':>11}{'added':>9}"
        )
        ways: dict[str, Launcher] = {"local signals": LocalLauncher()}
        if tree is not None and tree.can_freeze:
            ways["cgroup " + tree.kind] = BwrapLauncher()
        ways["bwrap signals"] = BwrapLauncher(cgroup_freezer=False)
        for name, launcher in ways.items():
            costs = freeze_costs(launcher, program, args.round_trips)
            added = costs["cycled"] - costs["plain"]
            verdict = "ok" if added <= FREEZE_TARGET_US else "ABOVE TARGET"
            print(
                f"{name:<16}{costs['thaw']:>6.1f} us{costs['freeze']:>6.1f} us"
                f"{costs['plain']:>9.1f} us{costs['cycled']:>8.1f} us{added:>+6.1f} us "
                f"{verdict} ({FREEZE_TARGET_US:.0f} us)"
            )


if __name__ == "__main__":
    main()
