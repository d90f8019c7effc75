"""A worker process keeps its database connection between tasks (``workers/db_reuse.py``).

Celery's Django fix-up used to close it around every task, so each match opened a new
PostgreSQL connection in the gap between two matches (``benchmarks/workers_bench.py``).
"""

from __future__ import annotations

from celery.fixups.django import DjangoWorkerFixup  # type: ignore[attr-defined]  # not in celery-types
from celery.signals import task_postrun, task_prerun

from workers import db_reuse
from workers.celery_app import app
from workers.tasks import reap


def test_the_fixup_leaves_a_worker_process_connection_open_across_tasks(monkeypatch):
    fixup = DjangoWorkerFixup(app)
    closed = []
    monkeypatch.setattr(fixup, "_close_database", lambda: closed.append(1))
    for _task in range(500):  # the fix-up's receivers at each task's start and end
        fixup.close_database()
        fixup.close_database()
    assert closed == []


def test_each_task_start_and_end_closes_only_broken_or_old_connections(monkeypatch):
    calls = []
    monkeypatch.setattr(db_reuse, "close_old_connections", lambda: calls.append(1))
    task = reap  # any task of the worker, run by the worker (not eager)
    task_prerun.send(sender=task, task_id="t", task=task, args=(1,), kwargs={})
    task_postrun.send(sender=task, task_id="t", task=task, args=(1,), kwargs={}, retval=None)
    assert len(calls) == 2


def test_a_task_run_in_the_callers_process_leaves_its_connections_alone(monkeypatch):
    calls = []
    monkeypatch.setattr(db_reuse, "close_old_connections", lambda: calls.append(1))
    reap.push_request(is_eager=True)  # Task.apply: in the caller's process and transaction
    try:
        task_prerun.send(sender=reap, task_id="t", task=reap, args=(), kwargs={})
        task_postrun.send(sender=reap, task_id="t", task=reap, args=(), kwargs={}, retval=None)
    finally:
        reap.pop_request()
    assert calls == []
