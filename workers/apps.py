"""The worker layer as a Django app: its one entry point into the ladder's processes.

``ladder/settings.py`` installs this app when a broker is configured (``CELERY_BROKER_URL``).
At start-up of every process that runs Django (web, worker, beat, management commands) it hands
the ladder a typed :class:`~ladder.core.hooks.WorkerLink`: the functions that send a match's or
a version's id to the broker after commit; and it hands the worker modules the server settings
they cannot read themselves (``workers/cgroups.py`` is part of the bot authors' kit). The
ladder never imports ``workers``; without a broker this app is not installed and ids wait in
the database for a worker to be set up.

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
        from django.conf import settings

        from ladder.core.hooks import connect_workers
        from workers.cgroups import use_delegated_parent
        from workers.matches.tasks import worker_link

        connect_workers(worker_link())
        # The seat cgroups' parent: a server setting, for a module the bot authors' kit shares.
        use_delegated_parent(settings.MONSOON_CGROUP_PARENT)
