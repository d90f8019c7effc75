"""A worker process keeps its database connection from one task to the next.

Celery's Django fix-up closes every database connection before and after each task unless
``CELERY_DB_REUSE_MAX`` is set, so each match paid for a new PostgreSQL connection (a backend
process forked by the server: 6-7 ms on the idle development machine, far more under load) in
the gap between two matches of one process (``benchmarks/workers_bench.py``). With that
setting (``ladder/settings.py``) the fix-up leaves connections alone, and these receivers give
a task the lifetime rules of a web request instead: Django's ``close_old_connections`` at the
start and end of every task closes a connection that is broken (a database restart) or older
than ``DATABASE_CONN_MAX_AGE``; with 0 (the end-to-end tests) it closes every one, as before.
"""

from __future__ import annotations

from django.db import close_old_connections


def close_stale(sender: object = None, **_kwargs: object) -> None:
    """``task_prerun`` / ``task_postrun``: close connections that are broken or too old.

    Not around a task run in the caller's process (``apply``, eager): the connection is the
    caller's, maybe inside its transaction (the fix-up leaves those alone too).
    """
    if getattr(getattr(sender, "request", None), "is_eager", False):
        return
    close_old_connections()


def connect() -> None:
    """Connect the task boundaries (``workers.celery_app`` does, once)."""
    from celery.signals import task_postrun, task_prerun

    task_prerun.connect(close_stale, weak=False)
    task_postrun.connect(close_stale, weak=False)
