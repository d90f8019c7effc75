"""What a seat's replies can cost the runner: its CPU per decision for the worst allowed replies.

A reply line is capped at ``workers.matches.protocol.MAX_REPLY_BYTES`` (16 KiB); the runner
reads a seat's output no further than that and a longer line forfeits the seat. This plays
seeded 4-player Batavia matches through ``workers.matches.runner.run_match`` with every seat the
same bot, answering the first legal action:

* ``small``: the shortest reply, ``{"action": ...}``;
* ``largest``: a reply of exactly the cap, the most expensive to decode that is still allowed:
  a full ``debug`` note of escaped surrogate pairs and a padding string of escaped characters;
* ``flood``: one seat sends 100 MiB without a newline at its first decision (it forfeits; the
  others are ``small``), to show the runner stops reading at the cap.

For each it prints the runner thread's CPU time per asked decision with the engine's share
taken out (the same decisions replayed in-process), beside a calibration loop timed in the same
run, so figures from machines of other speeds can be compared.

    .venv/bin/python -m benchmarks.reply_cost               # plain processes (LocalLauncher)
    .venv/bin/python -m benchmarks.reply_cost --sandbox     # bubblewrap (workers.sandbox)
"""

from __future__ import annotations

import argparse
import os
import statistics
import tempfile
import time
from pathlib import Path

from engine.log import replay
from workers.launch import BotProgram, Launcher, LocalLauncher
from workers.matches import protocol
from workers.matches.runner import TimeControls, run_match

GAME = "batavia"
PLAYERS = 4
CLOCK = TimeControls(move_ms=5_000)
CALIBRATION_LOOPS = 2_000_000
BOT = """\
import json, sys
size = int(sys.argv[1])
flood = len(sys.argv) > 2
for line in sys.stdin:
    message = json.loads(line)
    if message["type"] == "start":
        print('{"ready":true}', flush=True)
    elif message["type"] != "request":
        break
    elif flood:
        sys.stdout.write("7" * (100 * 1024 * 1024))
        sys.stdout.flush()
    else:
        action = json.dumps(message["legal_actions"][0])
        if size == 0:
            sys.stdout.write('{"action":' + action + '}\\n')
        else:
            head = '{"action":' + action + ',"debug":"' + "\\\\ud83d\\\\ude00" * 500 + '","pad":"'
            room = size - len(head) - 2
            pad = "\\\\u00e9" * (room // 6) + "e" * (room % 6)
            sys.stdout.write(head + pad + '"}\\n')
        sys.stdout.flush()
"""


def _launcher(sandbox: bool) -> Launcher:
    if not sandbox:
        return LocalLauncher()
    from workers.sandbox import BwrapLauncher, sandbox_problem

    problem = sandbox_problem()
    if problem:
        raise SystemExit(f"no sandbox: {problem}")
    return BwrapLauncher()


def calibration_s() -> float:
    """CPU time of a fixed pure-Python loop (the machine's speed, in this run)."""
    began = time.thread_time()
    total = 0
    for i in range(CALIBRATION_LOOPS):
        total += i & 7
    return time.thread_time() - began


def runner_cpu_per_decision(
    bots: list[BotProgram], launcher: Launcher, matches: int, forfeits: int = 0
) -> float:
    """Median over seeded matches of the runner's own CPU per asked decision, in seconds;
    ``forfeits`` is how many seats are meant to forfeit (anything else is an error)."""
    figures = []
    for seed in range(matches):
        outcome = run_match(GAME, seed, bots, launcher=launcher, time_controls=CLOCK)
        failed = [reason for reason in outcome.forfeits if reason]
        if len(failed) != forfeits or not all(r.startswith("oversized_line") for r in failed):
            raise SystemExit(f"unexpected forfeits: {outcome.forfeits}")
        asked = sum(1 for d in outcome.log["decisions"] if d.get("by") == "bot")
        began = time.thread_time()
        replay(outcome.log)  # the engine's share of the runner's work, measured alone
        engine_s = time.thread_time() - began
        figures.append((outcome.play_cpu_s - engine_s) / max(asked, 1))
    return statistics.median(figures)


def main() -> None:
    parser = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    parser.add_argument("--sandbox", action="store_true", help="bots in bubblewrap")
    parser.add_argument("--matches", type=int, default=5)
    args = parser.parse_args()
    launcher = _launcher(args.sandbox)
    cap = protocol.MAX_REPLY_BYTES
    with tempfile.TemporaryDirectory(prefix="reply-cost-") as directory:
        Path(directory, "main.py").write_text(BOT)

        def bot(*argv: str) -> BotProgram:
            return BotProgram(Path(directory), ("python3", "main.py", *argv), "bot")

        calibration = [calibration_s()]
        small = runner_cpu_per_decision([bot("0")] * PLAYERS, launcher, args.matches)
        largest = runner_cpu_per_decision([bot(str(cap))] * PLAYERS, launcher, args.matches)
        flood_bots = [bot("0", "flood")] + [bot("0")] * (PLAYERS - 1)
        flood = runner_cpu_per_decision(flood_bots, launcher, args.matches, forfeits=1)
        calibration.append(calibration_s())
    kind = "bubblewrap" if args.sandbox else "plain processes (LocalLauncher)"
    print(
        f"{GAME}, {PLAYERS} seats, {args.matches} matches each, bots as {kind}; "
        f"{os.cpu_count()} cores, load average {os.getloadavg()[0]:.1f}"
    )
    print(
        f"calibration: {CALIBRATION_LOOPS:,} loop steps in "
        f"{statistics.median(calibration) * 1000:.1f} ms of CPU (median of {len(calibration)})"
    )
    print(
        f'runner CPU per asked decision, small replies ({{"action": ...}}): {small * 1e6:8.0f} us'
    )
    print(
        f"runner CPU per asked decision, largest allowed replies ({cap} B): {largest * 1e6:8.0f} us"
    )
    print(
        f"runner CPU per asked decision, one seat sending 100 MiB (forfeits): {flood * 1e6:6.0f} us"
    )


if __name__ == "__main__":
    main()
