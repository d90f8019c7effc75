"""How many ranked matches the queue should hold: enough to keep the fleet's match slots busy
until the matchmaker's next run.

A fixed ``MONSOON_QUEUE_TARGET`` of 8 with the matchmaker every 10 s let one 2-slot worker play
at most 48 matches a minute, while it plays East Indiaman's 0.3 s matches at 300 a minute: the
slots sat idle for 8 s of every 10, and a new version waited on the clock instead of on its
games (``benchmarks/time_to_rank.py``).  The queue is therefore sized from the live workers'
slots and how long recent matches took, never below the target (the floor, and 0 still switches
the matchmaker off) and never above :data:`MAX_QUEUE_FACTOR` times it (a burst of very short
matches, say all forfeits, must not fill the queue with thousands).
"""

from __future__ import annotations

import math
import statistics
from datetime import datetime

from django.conf import settings
from django.db.models import F

from ladder.fleet.models import WorkerNode
from ladder.fleet.selectors import is_alive
from ladder.matches.models import Match

RECENT_MATCHES = 50  # finished ranked matches whose duration sets the pace
MAX_QUEUE_FACTOR = 10  # the queue never holds more than this many times MONSOON_QUEUE_TARGET
SHORTEST_MATCH_SECONDS = 0.05


def live_match_slots(now: datetime | None = None) -> int:
    """Match slots of the workers that are up and serve a ``matches`` queue."""
    nodes = WorkerNode.objects.filter(stopped_at__isnull=True)
    return sum(
        node.slots
        for node in nodes
        if any(str(q).startswith("matches") for q in node.queues or []) and is_alive(node, now)
    )


def typical_match_seconds() -> float | None:
    """Median claim-to-result time of the last :data:`RECENT_MATCHES` finished ranked matches
    (newest ids first, through the primary key: no scan of a million-match table)."""
    durations = [
        d.total_seconds()
        for d in Match.objects.filter(
            status=Match.Status.FINISHED, ranked=True, started_at__isnull=False
        )
        .order_by("-pk")
        .annotate(d=F("finished_at") - F("started_at"))
        .values_list("d", flat=True)[:RECENT_MATCHES]
        if d is not None
    ]
    return statistics.median(durations) if durations else None


def queue_capacity(now: datetime | None = None) -> int:
    """Matches to keep waiting: the slots times the runs' interval over a typical match."""
    floor = settings.MONSOON_QUEUE_TARGET
    slots = live_match_slots(now)
    seconds = typical_match_seconds()
    if floor <= 0 or not slots or seconds is None:
        return max(floor, 0)
    busy = math.ceil(
        slots * settings.MONSOON_MATCHMAKE_SECONDS / max(seconds, SHORTEST_MATCH_SECONDS)
    )
    return min(max(floor, busy), floor * MAX_QUEUE_FACTOR)
