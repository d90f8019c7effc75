"""Worker logging: Django's ``LOGGING`` (``MONSOON_LOG_FORMAT``) instead of Celery's own format.

Celery configures the root logger of a worker itself unless a receiver of its ``setup_logging``
signal does; with ``MONSOON_LOG_FORMAT=json`` this one applies the settings' ``LOGGING``, so a
worker writes the same JSON lines as the web process, with the match's fields
(``ladder.operations.logcontext``). The text format stays Celery's, as before.
"""

from __future__ import annotations

import logging.config

from django.conf import settings


def _django_logging(**_kwargs: object) -> None:
    logging.config.dictConfig(settings.LOGGING)


def connect() -> None:
    if settings.MONSOON_LOG_FORMAT == "json":
        from celery.signals import setup_logging

        setup_logging.connect(_django_logging, weak=False)
