"""The Celery application of the workers: ``celery -A workers.celery_app worker``.

Every setting comes from Django's settings (the ``CELERY_*`` names in ``ladder/settings.py``),
so a worker on another machine needs only the environment of the web process: the broker URL,
the database URL and the storage settings. Tasks live in :mod:`workers.matches.tasks` (playing
matches and smoke matches) and :mod:`workers.tasks` (the beat's housekeeping); what a worker
reports about itself (:mod:`workers.fleet`) and its warm seats' advertisement for the router
(:mod:`workers.routing`, named in ``CELERY_TASK_ROUTES``) are connected here.
"""

from __future__ import annotations

import os

from celery import Celery

os.environ.setdefault("DJANGO_SETTINGS_MODULE", "ladder.settings")

app = Celery("monsoon", include=["workers.tasks", "workers.matches.tasks"])
app.config_from_object("django.conf:settings", namespace="CELERY")

from workers import db_reuse, fleet, logs, metrics, routing  # noqa: E402  (the worker's signals)

db_reuse.connect()
fleet.connect()
metrics.connect()
logs.connect()
routing.connect()
