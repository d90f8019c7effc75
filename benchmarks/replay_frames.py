"""Replay frames per game: what the match page builds once per finished match (then caches).

For a random-bot game of each title (seed 7, the most players), times
``ladder.web.replay.build_replay`` (replay check, frames, each step's sentence, its changes and
the running scores) and prints the frames, the median and worst of 5 runs, and the size of the
JSON the page embeds (and gzipped), against a target of 300 ms per cold build.

Run: ``DJANGO_SETTINGS_MODULE=ladder.settings_test .venv/bin/python -m benchmarks.replay_frames``
(no database is touched).
"""

from __future__ import annotations

import gzip
import json
import os
import statistics
import time

TARGET_MS = 300.0
GAMES = [("batavia", 5), ("east_indiaman", 4), ("borneo", 5), ("packet_row", 5)]
RUNS = 5


def main() -> None:
    os.environ.setdefault("DJANGO_SETTINGS_MODULE", "ladder.settings_test")
    import django

    django.setup()
    from bots.builtin import get_policy
    from engine.match import play_match
    from ladder.web.replay import Replay, build_replay

    print(f"replay frames, random bots, seed 7, {RUNS} runs (target {TARGET_MS:.0f} ms cold)")
    for game, n in GAMES:
        _, log = play_match(game, 7, [get_policy("random", game) for _ in range(n)])
        times = []
        replay: Replay | None = None
        for _ in range(RUNS):
            started = time.perf_counter()
            replay = build_replay(
                log, seat_names=[f"s{i}" for i in range(n)], forfeits=[None] * n,
                reveal_private=True,
            )  # fmt: skip
            times.append((time.perf_counter() - started) * 1000)
        if replay is None:
            raise SystemExit("RUNS must be at least 1")
        embedded = json.dumps(replay.as_data()).encode()
        size, packed = len(embedded) / 1024, len(gzip.compress(embedded)) / 1024
        median = statistics.median(times)
        verdict = "ok" if median <= TARGET_MS else "OVER"
        print(
            f"  {game:<14} {n} players {len(replay.frames):4d} frames  median {median:6.1f} ms"
            f"  worst {max(times):6.1f} ms  JSON {size:4.0f} KiB ({packed:3.0f} gzipped)  {verdict}"
        )


if __name__ == "__main__":
    main()
