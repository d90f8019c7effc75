"""How long ``/health/ready/`` takes to answer, when every dependency answers and when the broker
hangs (accepts connections, never replies: the worst case for a probe).

The readiness checks run concurrently and each is cut at ``MONSOON_HEALTH_TIMEOUT_SECONDS``
(0.8 s), so the target is an answer within 1 s even then. Figures are printed, never asserted,
beside a calibration loop timed in the same run (a fixed pure-Python workload) so that a figure
from a loaded machine can be told from a slow check.

Run: ``.venv/bin/python -m benchmarks.health_bench`` (SQLite and the local-memory cache, so it
needs no server; the broker is a local socket that never answers).
"""

from __future__ import annotations

import os
import socket
import statistics
import tempfile
import threading
import time

ROUNDS = 20


def calibration_ms() -> float:
    """A fixed workload (sum of squares of 2,000,000 integers), in ms: the machine's speed now."""
    started = time.perf_counter()
    total = 0
    for i in range(2_000_000):
        total += i * i
    return (time.perf_counter() - started) * 1000


def silent_broker() -> tuple[socket.socket, int]:
    """A listener that accepts and never answers: a wedged Redis."""
    listener = socket.create_server(("127.0.0.1", 0))
    held: list[socket.socket] = []

    def accept() -> None:
        while True:
            try:
                conn, _ = listener.accept()
            except OSError:
                return
            held.append(conn)

    threading.Thread(target=accept, daemon=True).start()
    return listener, int(listener.getsockname()[1])


def timed(client: object, rounds: int) -> tuple[list[float], int]:
    times, status = [], 0
    for _ in range(rounds):
        started = time.perf_counter()
        answer = client.get("/health/ready/")  # type: ignore[attr-defined]
        times.append((time.perf_counter() - started) * 1000)
        status = answer.status_code
    return times, status


def main() -> None:
    folder = tempfile.mkdtemp(prefix="monsoon-health-bench-")
    os.environ.update(
        {
            "DEBUG": "1",
            "DATABASE_URL": f"sqlite:///{folder}/bench.sqlite3",
            "DJANGO_SETTINGS_MODULE": "ladder.settings",
        }
    )
    listener, port = silent_broker()
    import django

    django.setup()
    from django.conf import settings
    from django.test import Client

    client = Client()
    print(f"calibration loop: {calibration_ms():.0f} ms")
    for label, broker in (
        ("no broker configured", ""),
        ("broker hangs", f"redis://127.0.0.1:{port}/0"),
    ):
        settings.CELERY_BROKER_URL = broker
        times, status = timed(client, ROUNDS)
        print(
            f"/health/ready/, {label}: status {status}, median {statistics.median(times):.0f} ms,"
            f" max {max(times):.0f} ms over {ROUNDS} requests"
            f" (budget per check {settings.MONSOON_HEALTH_TIMEOUT_SECONDS} s)"
        )
    print(f"calibration loop: {calibration_ms():.0f} ms")
    listener.close()


if __name__ == "__main__":
    main()
