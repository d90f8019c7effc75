"""The match a log line is about, on every line written while a worker plays it.

A worker binds the match (its id, the seats' version ids, the worker's name) with
:func:`bind_match` around playing it; :class:`MatchContextFilter`, installed on the log handlers
(``LOGGING`` in ``ladder/settings.py``), copies them onto each record as ``match_id``,
``version_ids`` and ``worker``, so a JSON log line (``MONSOON_LOG_FORMAT=json``) carries them as
fields and a text line ends with them. The binding is a context variable: threads the worker
starts for the match (lease, live publisher) run in a copy of the context and carry it too.
"""

from __future__ import annotations

import contextlib
import contextvars
import logging
import sys
from collections.abc import Iterator, Sequence
from dataclasses import dataclass
from typing import TextIO


@dataclass
class MatchContext:
    """Mutable on purpose: a worker learns the version ids after it has claimed the match, and
    the threads it started in the meantime share this object and see them too."""

    match_id: int
    version_ids: tuple[int, ...]
    worker: str


_current: contextvars.ContextVar[MatchContext | None] = contextvars.ContextVar(
    "monsoon_match", default=None
)


@contextlib.contextmanager
def bind_match(match_id: int, version_ids: Sequence[int], worker: str) -> Iterator[MatchContext]:
    """Every line logged in this context (and in threads started with its copy) names the match."""
    bound = MatchContext(match_id, tuple(version_ids), worker)
    token = _current.set(bound)
    try:
        yield bound
    finally:
        _current.reset(token)


def current_match() -> MatchContext | None:
    return _current.get()


class MatchContextFilter(logging.Filter):
    """Adds ``match_id``, ``version_ids``, ``worker`` and ``match`` (text form) to each record.

    Outside a match the fields are None and ``match`` is empty, so one format serves every line.
    """

    def filter(self, record: logging.LogRecord) -> bool:
        bound = _current.get()
        if bound is None:
            record.match_id = record.version_ids = record.worker = None
            record.match = ""
        else:
            record.match_id = bound.match_id
            record.version_ids = list(bound.version_ids)
            record.worker = bound.worker
            versions = ",".join(str(v) for v in bound.version_ids)
            record.match = f" [match={bound.match_id} versions={versions} worker={bound.worker}]"
        return True


def json_formatter() -> logging.Formatter:
    """One JSON object a line: time, level, logger, process, message and the match's fields."""
    from pythonjsonlogger.core import RESERVED_ATTRS
    from pythonjsonlogger.json import JsonFormatter

    return JsonFormatter(
        ["asctime", "levelname", "name", "processName", "message"],
        rename_fields={
            "asctime": "time",
            "levelname": "level",
            "name": "logger",
            "processName": "process",
        },
        reserved_attrs=[*RESERVED_ATTRS, "match"],
    )


class CurrentStderrHandler(logging.StreamHandler):
    """A console handler that writes to whatever ``sys.stderr`` is when a line is emitted.

    ``logging.StreamHandler`` keeps the stream it was given when the logging configuration was
    applied. Whatever replaces ``sys.stderr`` later (a test's captured output, a daemon that
    redirects it) then never sees the lines, and once that first stream is closed every line
    ends in "--- Logging error ---" instead; looking ``sys.stderr`` up at each line avoids both.
    """

    def __init__(self) -> None:
        super().__init__(sys.stderr)

    @property
    def stream(self) -> TextIO:
        return sys.stderr

    @stream.setter
    def stream(self, _value: object) -> None:
        """Ignored: the stream is always the current ``sys.stderr``."""
