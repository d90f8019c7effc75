"""Late-bound hooks configured in settings: the ladder never imports the worker layer.

Settings name callables as ``"package.module:function"``; the worker layer (issue 8) points them at
its Celery tasks and the sandboxed validator.  Tests inject plain functions instead.
"""

from __future__ import annotations

import importlib
import logging
from collections.abc import Callable
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


def configured_hook(setting_name: str) -> Callable[..., Any] | None:
    """The callable a setting names; a comma-separated list (or a list) of paths gives one
    callable that calls each in turn (see :func:`_call_each`)."""
    value = getattr(settings, setting_name, "")
    paths = value.split(",") if isinstance(value, str) else list(value or [])
    hooks = [load_callable(path.strip()) for path in paths if path.strip()]
    if not hooks:
        return None
    if len(hooks) == 1:
        return hooks[0]
    return lambda object_id: _call_each(hooks, object_id)


def _call_each(hooks: list[Callable[..., Any]], object_id: int) -> None:
    """Every hook runs even if one before it fails; the first failure is raised afterwards."""
    first_error: Exception | None = None
    for hook in hooks:
        try:
            hook(object_id)
        except Exception as exc:  # the others must still run; the first is re-raised below
            logger.exception("hook %r failed for %s", hook, object_id)
            first_error = first_error or exc
    if first_error is not None:
        raise first_error


def after_commit(setting_name: str, object_id: int) -> None:
    """Call the hook named by ``setting_name`` with ``object_id`` once the transaction commits.

    Enqueuing on commit means a worker never sees an id whose row is not yet visible.
    """
    hook = configured_hook(setting_name)
    if hook is None:
        logger.debug("%s is not configured; %s waits in the database", setting_name, object_id)
        return
    transaction.on_commit(lambda: hook(object_id))
