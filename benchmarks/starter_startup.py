"""Sandboxed start-up of each language's starter kit: launch to first answer, median of runs.

Run: ``.venv/bin/python benchmarks/starter_startup.py [--runs 5] [--language java ...]``.

Each kit (``bots/starters/``) is built with its documented command in a temporary directory
and launched with :class:`workers.sandbox.BwrapLauncher` and the ladder's default limits, as a
ladder seat is. *start-up* is the wall time from ``launch()`` to the bot's ``{"ready": true}``
line (the runner's ``startup_ms`` clock: sandbox, runtime start, the bot's own set-up), and
*first move* the round trip of a real Batavia request (the first decision of seed 0) right
after, which for the JVM includes loading and interpreting the code that answers. The budget
is the protocol's default ``startup_ms`` of 10 s; the target printed is a tenth of it, so a
slow host or a bigger bot still has room.
"""

from __future__ import annotations

import argparse
import json
import statistics
import sys
import tempfile
import time
from pathlib import Path

from benchmarks.sandbox_bench import read_line
from bots.starters import KITS, LANGUAGES, build, copy_kit, missing_toolchain
from engine.registry import get_game
from workers.launch import BotProgram, Limits
from workers.sandbox import BwrapLauncher, sandbox_problem

STARTUP_BUDGET_MS = 10_000.0
STARTUP_TARGET_MS = STARTUP_BUDGET_MS / 10


def first_request(game: str = "batavia", seed: int = 0) -> bytes:
    """The first request of a real match: a realistic observation and legal action list."""
    spec = get_game(game)
    state = spec.new_state(seed, spec.min_players, None)
    while len(state.legal_actions()) == 1:
        state.apply(state.legal_actions()[0])
    seat = state.current_player()
    if seat is None:
        raise RuntimeError(f"{game} seed {seed} ends without a decision")
    request = {
        "type": "request",
        "decision": 1,
        "observation": state.observation(seat),
        "legal_actions": state.legal_actions(),
        "time": {"move_ms": 1000, "bank_ms": 10_000},
    }
    return (json.dumps(request) + "\n").encode()


def start_message(game: str = "batavia") -> bytes:
    spec = get_game(game)
    message = {
        "type": "start",
        "protocol": 1,
        "game": game,
        "variant": spec.default_variant,
        "seat": 0,
        "num_players": spec.min_players,
        "seats": [f"seat{i}" for i in range(spec.min_players)],
        "time": {"startup_ms": 10_000, "move_ms": 1000, "bank_ms": 10_000, "max_decisions": 20_000},
    }
    return (json.dumps(message) + "\n").encode()


def measure(program: BotProgram, runs: int) -> tuple[list[float], list[float]]:
    """Per run: launch to ``ready`` (ms) and the first request's round trip (ms)."""
    launcher = BwrapLauncher()
    start, request = start_message(), first_request()
    startups, firsts = [], []
    for _ in range(runs):
        began = time.perf_counter()
        process = launcher.launch(program, slot=0, limits=Limits())
        try:
            process.stdin.write(start)
            process.stdin.flush()
            if json.loads(read_line(process)) != {"ready": True}:
                raise RuntimeError(f"{program.name}: the first answer is not ready")
            ready = time.perf_counter()
            process.stdin.write(request)
            process.stdin.flush()
            if "action" not in json.loads(read_line(process)):
                raise RuntimeError(f"{program.name}: the answer to a request has no action")
            answered = time.perf_counter()
        finally:
            process.terminate_all()
        startups.append((ready - began) * 1000)
        firsts.append((answered - ready) * 1000)
    return startups, firsts


def main(argv: list[str] | None = None) -> int:
    parser = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    parser.add_argument("--runs", type=int, default=5)
    parser.add_argument("--language", action="append", choices=LANGUAGES)
    args = parser.parse_args(argv)
    problem = sandbox_problem()
    if problem:
        print(f"no sandbox on this host: {problem}", file=sys.stderr)
        return 1
    print(
        f"starter start-up in the sandbox, median of {args.runs} (min-max); "
        f"target {STARTUP_TARGET_MS:,.0f} ms, budget {STARTUP_BUDGET_MS:,.0f} ms"
    )
    print(f"{'language':<11} {'start-up ms':>24} {'first move ms':>22}  verdict")
    with tempfile.TemporaryDirectory(prefix="starter-startup-") as scratch:
        for language in args.language or LANGUAGES:
            missing = missing_toolchain(language)
            if missing:
                print(f"{language:<11} skipped: {', '.join(missing)} not installed")
                continue
            directory = copy_kit(language, Path(scratch) / language)
            build(directory, language)
            program = BotProgram(directory, tuple(KITS[language].command()), language)
            startups, firsts = measure(program, args.runs)
            median = statistics.median(startups)
            verdict = "ok" if median <= STARTUP_TARGET_MS else "SLOW"
            spread = f"{median:8.1f} ({min(startups):.1f}-{max(startups):.1f})"
            first = f"{statistics.median(firsts):6.1f} ({min(firsts):.1f}-{max(firsts):.1f})"
            print(f"{language:<11} {spread:>24} {first:>22}  {verdict}")
    return 0


if __name__ == "__main__":
    sys.exit(main())
