"""What the bubblewrap sandbox costs: bot start-up and per-decision round trip.

Run: ``.venv/bin/python benchmarks/sandbox_bench.py [--starts N] [--round-trips N]``.

Start-up is the wall time from ``launch()`` to the bot's first line (a minimal Python bot
that answers at once), so it includes the interpreter's own start; the target is 50 ms. The
round trip is one JSON line to an echoing bot and its answer back, the transport part of
every decision (median and p99). Both are measured for :class:`BwrapLauncher` and, as the
baseline, for :class:`LocalLauncher` (no isolation).
"""

from __future__ import annotations

import argparse
import os
import select
import statistics
import tempfile
import time
from pathlib import Path

from workers.launch import BotProcess, BotProgram, Launcher, Limits, LocalLauncher
from workers.sandbox import BwrapLauncher, sandbox_problem

STARTUP_TARGET_MS = 50.0
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


if __name__ == "__main__":
    main()
