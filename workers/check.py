"""``python -m workers.check``: can this worker claim and play a match? Exit 0 if so, else 1.

What a match needs, each checked and reported (one JSON object on stdout, like the web's
readiness answer): the database (claiming is a conditional update), the broker (the match ids
come from it), the sandbox (bubblewrap and the seccomp filter work here) and bounded seats (each
seat's memory and processes in a cgroup). With ``--worker NAME`` it also checks that the
Celery worker of that name signed on and beat recently (it is alive and consuming), which is
what a container or systemd health check of a running worker wants; without it, it checks the
host, which is what to run before starting a worker.
"""

from __future__ import annotations

import argparse
import json
import os
import sys
from collections.abc import Callable, Sequence
from datetime import timedelta


def _database() -> str | None:
    from django.db import DatabaseError, connection

    try:
        with connection.cursor() as cursor:
            cursor.execute("SELECT 1")
            cursor.fetchone()
    except DatabaseError as exc:
        first_line = (str(exc).strip().splitlines() or [type(exc).__name__])[0]
        return f"the database did not answer: {first_line}"
    return None


def _broker() -> str | None:
    from django.conf import settings
    from kombu import Connection

    if not settings.CELERY_BROKER_URL:
        return "no broker configured (CELERY_BROKER_URL)"
    transport_options = dict(settings.CELERY_BROKER_TRANSPORT_OPTIONS)
    try:
        with Connection(
            settings.CELERY_BROKER_URL,
            connect_timeout=3,
            transport_options=transport_options,
        ) as conn:
            conn.ensure_connection(max_retries=1)
            # Creating a channel talks to the server (Redis: a round trip), not just the socket.
            conn.default_channel  # noqa: B018
    except Exception as exc:  # kombu wraps every transport's errors differently
        return f"the broker did not answer: {type(exc).__name__}: {exc}"
    return None


def _sandbox() -> str | None:
    from django.conf import settings

    if settings.MONSOON_SANDBOX == "none":
        return None if settings.DEBUG else "MONSOON_SANDBOX=none is refused when DEBUG is off"
    from workers.sandbox import sandbox_problem

    return sandbox_problem()


def _seats() -> str | None:
    from django.conf import settings

    if settings.MONSOON_SANDBOX == "none":
        return None
    from workers.cgroups import seat_bounds_problem

    return seat_bounds_problem()


def _heartbeat(worker: str) -> Callable[[], str | None]:
    def check() -> str | None:
        from django.conf import settings
        from django.utils import timezone

        from ladder.fleet.models import WorkerNode

        node = (
            WorkerNode.objects.filter(name=worker)
            .values("last_seen", "stopped_at", "sandbox_problem")
            .first()
        )
        if node is None:
            return f"no worker named {worker!r} has signed on"
        if node["stopped_at"] is not None:
            return f"worker {worker!r} has signed off"
        silence = timedelta(seconds=3 * settings.MONSOON_WORKER_HEARTBEAT_SECONDS)
        if timezone.now() - node["last_seen"] > silence:
            return f"worker {worker!r} has been silent for over {silence.total_seconds():g} s"
        if node["sandbox_problem"]:
            return f"worker {worker!r} cannot sandbox: {node['sandbox_problem']}"
        return None

    return check


def run_checks(worker: str | None = None) -> dict[str, str]:
    """Each check's name and ``"OK"`` or what failed."""
    checks: dict[str, Callable[[], str | None]] = {
        "database": _database,
        "broker": _broker,
        "sandbox": _sandbox,
        "seats": _seats,
    }
    if worker:
        checks["heartbeat"] = _heartbeat(worker)
    results = {}
    for name, check in checks.items():
        try:
            problem = check()
        except Exception as exc:  # a check that breaks is a failed check, never a traceback
            problem = f"{type(exc).__name__}: {exc}"
        results[name] = problem or "OK"
    return results


def main(argv: Sequence[str] | None = None) -> int:
    parser = argparse.ArgumentParser(
        prog="python -m workers.check",
        description="Whether this host (and, with --worker, this running worker) can claim and "
        "play a match. Exit status 0 when it can, 1 when it cannot.",
    )
    parser.add_argument(
        "--worker",
        help="the Celery worker name (as given by -n, e.g. worker@host) that must be alive",
    )
    args = parser.parse_args(argv)
    os.environ.setdefault("DJANGO_SETTINGS_MODULE", "ladder.settings")
    import django

    django.setup()
    results = run_checks(args.worker)
    ok = all(value == "OK" for value in results.values())
    print(json.dumps({"status": "ok" if ok else "fail", "checks": results}))
    return 0 if ok else 1


if __name__ == "__main__":
    sys.exit(main())
