"""The ladder's figures for Prometheus, read from the database at each scrape.

The database is the one place that knows them whichever process or host did the work, so
every web process reports the same values and no worker has to be scraped for them. Counts
over all matches are ``counter`` samples (they only grow: Prometheus' ``increase()`` and
``rate()`` work on them); the queues, tests, tournaments and workers are ``gauge`` samples.
Each scrape costs a handful of aggregate queries; the match counts scan the matches table
(``docs/deploy.md``, "Operations", says how often to scrape).
"""

from __future__ import annotations

from collections.abc import Iterator
from datetime import datetime

from django.db.models import Count, IntegerField, Min
from django.utils import timezone
from prometheus_client.core import CounterMetricFamily, GaugeMetricFamily, Metric
from prometheus_client.registry import Collector

from ladder.bots.models import BotVersion
from ladder.fleet.models import WorkerNode
from ladder.matches.models import Match, MatchSeat
from ladder.tournaments.models import Tournament
from ladder.versus.models import VersionTest

VALIDATION_QUEUE = "validation"


def _age(since: datetime | None, now: datetime) -> float:
    return max((now - since).total_seconds(), 0.0) if since is not None else 0.0


class LadderCollector(Collector):
    """Matches over by game and status, forfeits by game and reason, queues, tests, workers."""

    def collect(self) -> Iterator[Metric]:
        now = timezone.now()
        yield from self._matches()
        yield from self._queues(now)
        yield from self._running()
        yield from self._workers(now)

    def _matches(self) -> Iterator[Metric]:
        over = CounterMetricFamily(
            "monsoon_matches",
            "Matches that are over, by game and status (finished, failed, cancelled).",
            labels=["game", "status"],
        )
        rows = (
            Match.objects.filter(status__in=Match.Status.over())
            .order_by()
            .values_list("game", "status")
            .annotate(n=Count("id"))
        )
        for game, status, n in rows:
            over.add_metric([game, status], n)
        yield over
        forfeits = CounterMetricFamily(
            "monsoon_forfeits",
            "Seats that forfeited in finished matches, by game and reason code.",
            labels=["game", "reason"],
        )
        seats = (
            MatchSeat.objects.exclude(forfeit_code="")
            .order_by()
            .values_list("match__game", "forfeit_code")
            .annotate(n=Count("id"))
        )
        counted = {(game, code): n for game, code, n in seats}
        for (game, code), n in sorted(counted.items()):
            forfeits.add_metric([game, code], n)
        yield forfeits

    def _queues(self, now: datetime) -> Iterator[Metric]:
        depth = GaugeMetricFamily(
            "monsoon_queue_depth",
            "Matches queued for a worker by kind, and versions waiting for validation.",
            labels=["queue"],
        )
        oldest = GaugeMetricFamily(
            "monsoon_queue_oldest_age_seconds",
            "Age of the oldest waiting entry of each queue (0 when it is empty).",
            labels=["queue"],
        )
        queued = dict.fromkeys(Match.Kind.values, (0, None))
        rows = (
            Match.objects.filter(status=Match.Status.QUEUED)
            .order_by()
            .values_list("kind")
            .annotate(n=Count("id"), since=Min("queued_at"))
        )
        for kind, n, since in rows:
            queued[kind] = (n, since)
        waiting = BotVersion.objects.filter(status=BotVersion.Status.PENDING).aggregate(
            n=Count("id"), since=Min("uploaded_at")
        )
        queued[VALIDATION_QUEUE] = (waiting["n"], waiting["since"])
        for queue, (n, since) in queued.items():
            depth.add_metric([queue], n)
            oldest.add_metric([queue], _age(since, now) if n else 0.0)
        yield depth
        yield oldest

    def _running(self) -> Iterator[Metric]:
        yield GaugeMetricFamily(
            "monsoon_version_tests_running",
            "Version tests still playing pairs.",
            value=VersionTest.objects.filter(status=VersionTest.Status.RUNNING).count(),
        )
        yield GaugeMetricFamily(
            "monsoon_tournaments_running",
            "Tournaments running (started, not finished or paused).",
            value=Tournament.objects.filter(status=Tournament.Status.RUNNING).count(),
        )

    def _workers(self, now: datetime) -> Iterator[Metric]:
        slots = GaugeMetricFamily(
            "monsoon_worker_slots", "Match slots of each worker still signed on.", labels=["worker"]
        )
        busy = GaugeMetricFamily(
            "monsoon_worker_slots_busy",
            "Matches each worker is playing now (running matches it holds the lease of).",
            labels=["worker"],
        )
        silent = GaugeMetricFamily(
            "monsoon_worker_heartbeat_age_seconds",
            "Seconds since each signed-on worker's last heartbeat.",
            labels=["worker"],
        )
        running: dict[str, int] = {}
        holders = (
            Match.objects.filter(status=Match.Status.RUNNING)
            .order_by()
            .values_list("worker")
            .annotate(n=Count("id", output_field=IntegerField()))
        )
        for holder, n in holders:
            # A match's worker is "<celery worker name>/<pool process id>".
            name = holder.rsplit("/", 1)[0]
            running[name] = running.get(name, 0) + n
        for name, n_slots, last_seen in WorkerNode.objects.filter(
            stopped_at__isnull=True
        ).values_list("name", "slots", "last_seen"):
            slots.add_metric([name], n_slots)
            busy.add_metric([name], running.get(name, 0))
            silent.add_metric([name], _age(last_seen, now))
        yield slots
        yield busy
        yield silent
