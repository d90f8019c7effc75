"""The worker layer as a Django app: its one entry point into the ladder's processes.

``ladder/settings.py`` installs this app when a broker is configured (``CELERY_BROKER_URL``).
At start-up of every process that runs Django (web, worker, beat, management commands) it loads
the workers' Celery app (``workers/celery_app.py``): Celery's current app from then on, through
which the ladder sends a match's or a version's id by task name after commit
(``ladder/lifecycle/queue.py``), with the workers' broker settings and routes. It also hands the
worker modules the server settings they cannot read themselves (``workers/cgroups.py`` is part
of the bot authors' kit). The ladder never imports ``workers``; without a broker this app is not
installed and ids wait in the database for a worker to be set up.
"""

from __future__ import annotations

from django.apps import AppConfig


class WorkersConfig(AppConfig):
    name = "workers"
    label = "workers"
    verbose_name = "Monsoon workers"

    def ready(self) -> None:
        from django.conf import settings

        import workers.celery_app  # noqa: F401  (Celery's current app: what the ladder sends with)
        from workers.cgroups import use_delegated_parent

        # The seat cgroups' parent: a server setting, for a module the bot authors' kit shares.
        use_delegated_parent(settings.MONSOON_CGROUP_PARENT)
