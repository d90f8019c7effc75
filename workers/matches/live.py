"""Live spectating: a worker thread that publishes a running match's progress to the ladder.

The runner's loop does nothing for spectators: it hands out a progress source once
(``run_match(watch=...)``), and this thread reads it every ``interval`` seconds, publishing
through ``ladder.matches.services.publish_progress`` only when new decisions were played. A
match shorter than the interval (most ladder matches between fast bots) is never published at
all; its log is there a moment later. A failed publish is logged and tried again at the next
tick, never an error of the match: spectators are not worth a forfeit or a retry.
"""

from __future__ import annotations

import contextvars
import logging
import threading
from collections.abc import Callable

from django.db import DatabaseError, connections

from workers.matches.records import Progress

logger = logging.getLogger(__name__)

ProgressSource = Callable[[], Progress]


class LivePublisher:
    """Publishes a match's progress from a thread while the runner plays it."""

    def __init__(self, match_id: int, worker: str, interval: float) -> None:
        self.match_id, self.worker, self.interval = match_id, worker, interval
        self.source: ProgressSource | None = None
        self.published = 0
        """Decisions in the last successful publish."""
        self._stop = threading.Event()
        self._thread = threading.Thread(
            # In a copy of the context: its log lines name the match (ladder.operations.logcontext).
            target=contextvars.copy_context().run,
            args=(self._run,),
            name=f"live-{match_id}",
            daemon=True,
        )

    def watch(self, source: ProgressSource) -> None:
        """Given to ``run_match`` as ``watch``: where the progress comes from."""
        self.source = source

    def publish_once(self) -> bool:
        """Publish if there is something new; False once the match is no longer ours."""
        from ladder.matches.services import publish_progress

        if self.source is None:
            return True
        progress = self.source()
        if len(progress.decisions) == self.published:
            return True
        data = progress.to_json()
        try:
            ours = publish_progress(
                self.match_id,
                worker=self.worker,
                decisions=data["decisions"],
                forfeits=data["forfeits"],
            )
        except DatabaseError as exc:
            logger.warning("match %s: live progress not published: %s", self.match_id, exc)
            connections.close_all()
            return True
        if ours:
            self.published = len(progress.decisions)
        return ours

    def _run(self) -> None:
        try:
            while not self._stop.wait(self.interval):
                if not self.publish_once():
                    return
        finally:
            connections.close_all()

    def __enter__(self) -> LivePublisher:
        if self.interval > 0:
            self._thread.start()
        return self

    def __exit__(self, *exc: object) -> None:
        self._stop.set()
        if self._thread.is_alive():
            self._thread.join()
