"""Late-bound hooks: how the ladder calls code it must not import (the worker layer).

The worker layer connects itself: its Django app (``workers/apps.py``, installed when a broker is
configured) hands :func:`connect_workers` a typed :class:`WorkerLink` at start-up, and the ladder
sends ids to the workers through it after commit. The ladder never imports ``workers``
(an import contract in ``pyproject.toml`` checks it).

A setting that names a callable as ``"package.module:function"`` takes precedence over the link:
tests inject plain functions that way, and ``MONSOON_MATCH_OVER`` names the tournaments' hook.
"""

from __future__ import annotations

import importlib
import logging
from collections.abc import Callable
from dataclasses import dataclass
from typing import Any

from django.conf import settings
from django.core.exceptions import ImproperlyConfigured
from django.db import transaction

logger = logging.getLogger(__name__)


def load_callable(path: str) -> Callable[..., Any]:
    """Import ``"module:function"`` (or ``"module.function"``) and return the callable."""
    module_name, sep, attr = path.partition(":")
    if not sep:
        module_name, _, attr = path.rpartition(".")
    try:
        target = getattr(importlib.import_module(module_name), attr)
    except (ImportError, AttributeError, ValueError) as exc:
        raise ImproperlyConfigured(f"cannot load {path!r}: {exc}") from exc
    if not callable(target):
        raise ImproperlyConfigured(f"{path!r} is not callable")
    return target


@dataclass(frozen=True)
class WorkerLink:
    """The worker layer's entry points, called by the ladder once a transaction has committed."""

    enqueue_match: Callable[[int], None]
    """Hand a queued match's id to the workers (``MONSOON_ENQUEUE_MATCH``)."""
    enqueue_validation: Callable[[int], None]
    """Hand a pending bot version's id to the workers (``MONSOON_ENQUEUE_VALIDATION``)."""

    def hook(self, setting_name: str) -> Callable[[int], None] | None:
        return {
            "MONSOON_ENQUEUE_MATCH": self.enqueue_match,
            "MONSOON_ENQUEUE_VALIDATION": self.enqueue_validation,
        }.get(setting_name)


_worker_link: WorkerLink | None = None


def connect_workers(link: WorkerLink | None) -> WorkerLink | None:
    """Install the worker layer's link (``None`` disconnects it); returns the one it replaces."""
    global _worker_link
    previous, _worker_link = _worker_link, link
    return previous


def configured_hook(setting_name: str) -> Callable[..., Any] | None:
    """The callable a setting names, else the connected workers' entry point, else None."""
    path = getattr(settings, setting_name, "")
    if path:
        return load_callable(path)
    return _worker_link.hook(setting_name) if _worker_link is not None else None


def after_commit(setting_name: str, object_id: int) -> None:
    """Call the hook named by ``setting_name`` with ``object_id`` once the transaction commits.

    Enqueuing on commit means a worker never sees an id whose row is not yet visible.
    """
    hook = configured_hook(setting_name)
    if hook is None:
        logger.debug("%s is not configured; %s waits in the database", setting_name, object_id)
        return
    transaction.on_commit(lambda: hook(object_id))
