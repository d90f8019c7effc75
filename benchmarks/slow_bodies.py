"""Slow request bodies against gunicorn, with and without the shipped nginx in front (issue 25).

Starts gunicorn with ``deploy/gunicorn.conf.py`` as shipped (``WEB_CONCURRENCY`` unset: its own
default for this machine's cores, 4 threads each) on the benchmark database, and nginx with
``deploy/nginx/monsoon.conf`` as shipped (only ports and the static folder rendered, by
``tests/e2e/proxy_stack.py``). Then, once through nginx and once against gunicorn directly,
the attack: 24 connections that each declare a 100 KB body on ``POST /api/v1/auth/token/``, send
13 bytes and then one more byte a second (so a read timeout between reads never ends them),
while ``GET /api/v1/games/`` is probed every 2 s on a fresh connection with a 15 s timeout.
Prints each probe's latency and, for nginx, how long it took to close the attackers once they
stopped sending. A pure-Python calibration loop timed in the same run says how fast the machine
was at the time.

Run: ``.venv/bin/python -m benchmarks.slow_bodies`` (PostgreSQL and Redis as
``scripts/ensure-services.sh`` sets them up, and nginx, which it installs).
"""

from __future__ import annotations

import argparse
import os
import runpy
import statistics
import subprocess
import sys
import tempfile
import time
from pathlib import Path

from benchmarks.api_load import DB_NAME, ENV
from benchmarks.bench_db import ensure_database
from tests.e2e.proxy_stack import (
    GUNICORN_CONF,
    ROOT,
    SlowBodies,
    nginx_or_install,
    probe,
    shipped_gunicorn_env,
    start_gunicorn,
    start_nginx,
    tail,
)


def calibration_ms() -> float:
    """Milliseconds for a fixed pure-Python loop (best of three)."""
    best = float("inf")
    for _ in range(3):
        started = time.perf_counter()
        total = 0
        for i in range(2_000_000):
            total += i * i % 7
        best = min(best, time.perf_counter() - started)
    return best * 1000


def attack_and_probe(port: int, seconds: float, attackers: int) -> tuple[list[float], int, int]:
    """Latencies (s) of the probes answered 200, the number that were not, and attackers left
    open at the end; the attack keeps running until the caller closes it."""
    attack = SlowBodies(port, attackers)
    attack.trickle(1.0)
    answered: list[float] = []
    failed = 0
    deadline = time.monotonic() + seconds
    try:
        while time.monotonic() < deadline:
            started = time.monotonic()
            try:
                status, took = probe(port, timeout=15)
            except OSError:
                status, took = 0, 15.0
            if status == 200:
                answered.append(took)
            else:
                failed += 1
            time.sleep(max(0.0, 2.0 - (time.monotonic() - started)))
        open_left = attackers - len(attack.closed())
    finally:
        attack.close()
    return answered, failed, open_left


def close_time(port: int, attackers: int, limit: float = 120) -> tuple[float, int]:
    """Seconds from the attackers' last byte until the server closed them all, and how many it
    closed within ``limit``."""
    attack = SlowBodies(port, attackers)
    started = time.monotonic()
    try:
        while time.monotonic() - started < limit and len(attack.closed()) < attackers:
            time.sleep(0.1)
        return time.monotonic() - started, len(attack.closed())
    finally:
        attack.close()


def describe(name: str, answered: list[float], failed: int, open_left: int) -> str:
    if answered:
        ms = sorted(x * 1000 for x in answered)
        figures = (
            f"median {statistics.median(ms):8.1f} ms  max {ms[-1]:8.1f} ms"
            f"  ({len(answered)} answered 200)"
        )
    else:
        figures = "no probe answered"
    return f"  {name:<22} {figures}; {failed} timed out or failed; {open_left} attackers still open"


def main() -> None:
    parser = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    parser.add_argument("--seconds", type=float, default=30, help="attack window per target")
    parser.add_argument("--attackers", type=int, default=24)
    args = parser.parse_args()
    nginx = nginx_or_install()
    ensure_database(DB_NAME)
    env = {**os.environ, **ENV, "GUNICORN_LOG_LEVEL": "warning"}
    env = shipped_gunicorn_env(env)
    shipped = runpy.run_path(str(GUNICORN_CONF))
    shape = f"{shipped['workers']} processes x {shipped['threads']} threads as shipped"
    subprocess.run(
        [sys.executable, "manage.py", "migrate", "--noinput", "-v", "0"],
        cwd=ROOT,
        env=env,
        check=True,
    )
    print(f"calibration: pure-Python loop {calibration_ms():.0f} ms (best of 3)", flush=True)
    with tempfile.TemporaryDirectory(prefix="slow-bodies-") as folder:
        work = Path(folder)
        (work / "static").mkdir()
        gunicorn, upstream = start_gunicorn(env, work / "gunicorn.log")
        proxy = None
        try:
            proxy, port = start_nginx(
                nginx, work / "nginx", upstream_port=upstream, static_root=work / "static"
            )
            quiet = [probe(port)[1] for _ in range(5)]
            print(
                f"no attack, through nginx: median {statistics.median(quiet) * 1000:.1f} ms "
                f"over {len(quiet)} probes",
                flush=True,
            )
            print(
                f"{args.attackers} slow bodies for {args.seconds:.0f} s, GET /api/v1/games/ every "
                f"2 s (15 s timeout), gunicorn {shape}:",
                flush=True,
            )
            print(describe("through nginx", *attack_and_probe(port, args.seconds, args.attackers)))
            seconds, closed = close_time(port, args.attackers)
            print(
                f"  nginx closed {closed} of {args.attackers} stalled attackers after "
                f"{seconds:.1f} s (client_body_timeout as shipped)",
                flush=True,
            )
            print(
                describe(
                    "gunicorn directly", *attack_and_probe(upstream, args.seconds, args.attackers)
                ),
                flush=True,
            )
            print(f"calibration: pure-Python loop {calibration_ms():.0f} ms (best of 3)")
        except Exception:
            print(tail(work / "gunicorn.log"), file=sys.stderr)
            raise
        finally:
            if proxy is not None:
                proxy.stop()
            gunicorn.stop()


if __name__ == "__main__":
    main()
