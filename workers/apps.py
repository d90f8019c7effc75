"""The worker layer as a Django app: its one entry point into the ladder's processes.

``ladder/settings.py`` installs this app when a broker is configured (``CELERY_BROKER_URL``).
At start-up of every process that runs Django (web, worker, beat, management commands) it hands
the ladder a typed :class:`~ladder.core.hooks.WorkerLink`: the functions that send a match's or
a version's id to the broker after commit. The ladder never imports ``workers``; without a
broker this app is not installed and ids wait in the database for a worker to be set up.

The bot validator is not part of the link: the ``monsoon.validate_bot_version`` task passes its
sandboxed smoke match to ``ladder.bots.services.validate_version`` itself.
"""

from __future__ import annotations

from django.apps import AppConfig


class WorkersConfig(AppConfig):
    name = "workers"
    label = "workers"
    verbose_name = "Monsoon workers"

    def ready(self) -> None:
        from ladder.core.hooks import connect_workers
        from workers.matches.tasks import worker_link

        connect_workers(worker_link())
