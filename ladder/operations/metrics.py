"""``/metrics/``: the web process's metrics and the ladder's own figures, for Prometheus.

The request metrics are django-prometheus' (requests and latency histograms by view, method and
status). Under gunicorn every worker process counts its own requests, so when
``PROMETHEUS_MULTIPROC_DIR`` is set (prometheus-client's multiprocess mode: each process writes
its samples to files there, ``deploy/gunicorn.conf.py`` removes a dead process's live gauges) the
view sums every process's files; without it the one process's registry is shown. The ladder's
figures (queues, matches, workers) come from the database at each scrape
(:mod:`ladder.operations.collector`), identical whichever process answers.

Access: a request from one of ``MONSOON_METRICS_ALLOWED_NETWORKS`` (direct, not through a
proxy: a request carrying ``X-Forwarded-For`` is never admitted by its address) or with
``Authorization: Bearer <MONSOON_METRICS_TOKEN>``; anything else gets 403.
"""

from __future__ import annotations

import hmac
import ipaddress
import logging
import os
from collections.abc import Iterator
from functools import cache

from asgiref.sync import async_to_sync
from django.conf import settings
from django.http import HttpRequest, HttpResponse
from prometheus_client import (
    CONTENT_TYPE_LATEST,
    REGISTRY,
    CollectorRegistry,
    generate_latest,
    multiprocess,
)
from prometheus_client.core import GaugeMetricFamily, Metric
from prometheus_client.registry import Collector

from ladder.operations.collector import LadderCollector
from ladder.operations.health import check_name, run_readiness

logger = logging.getLogger(__name__)
Network = ipaddress.IPv4Network | ipaddress.IPv6Network


@cache
def _networks(spec: tuple[str, ...]) -> tuple[Network, ...]:
    return tuple(ipaddress.ip_network(item, strict=False) for item in spec)


def allowed(request: HttpRequest) -> bool:
    """Whether this request may read the metrics (see the module's docstring)."""
    token = str(settings.MONSOON_METRICS_TOKEN)
    header = request.headers.get("Authorization", "")
    if token and header.startswith("Bearer "):
        return hmac.compare_digest(header[len("Bearer ") :].strip().encode(), token.encode())
    if "X-Forwarded-For" in request.headers:
        return False
    try:
        address = ipaddress.ip_address(request.META.get("REMOTE_ADDR", ""))
    except ValueError:
        return False
    networks = _networks(tuple(settings.MONSOON_METRICS_ALLOWED_NETWORKS))
    return any(address in network for network in networks)


_ladder_registry = CollectorRegistry()  # no auto-describe: nothing is read until a scrape
_ladder_registry.register(LadderCollector())


def ladder_metrics() -> bytes:
    """The ladder's figures and ``monsoon_ladder_metrics_up`` (0: they could not be read, the
    database being down, say: the scrape still shows the processes' own metrics)."""
    try:
        body = generate_latest(_ladder_registry)
        up = 1
    except Exception:  # a broken figure never costs the scrape its other metrics
        logger.exception("the ladder's metrics could not be read")
        body, up = b"", 0
    return body + (
        b"# HELP monsoon_ladder_metrics_up Whether the ladder's figures could be read.\n"
        b"# TYPE monsoon_ladder_metrics_up gauge\n"
        b"monsoon_ladder_metrics_up %d\n" % up
    )


def process_metrics() -> bytes:
    """The processes' own metrics: every process's files in multiprocess mode, else this one's."""
    if os.environ.get("PROMETHEUS_MULTIPROC_DIR"):
        registry = CollectorRegistry()
        multiprocess.MultiProcessCollector(registry)
        return generate_latest(registry)
    return generate_latest(REGISTRY)


def readiness_metrics() -> bytes:
    """``monsoon_readiness_check_ok{check}``: the readiness checks, so an alert can see them."""
    family = GaugeMetricFamily(
        "monsoon_readiness_check_ok",
        "1 when the web's readiness check passes (database, cache, broker), else 0.",
        labels=["check"],
    )
    for result in async_to_sync(run_readiness)():
        family.add_metric([check_name(result.check)], 0 if result.error else 1)
    registry = CollectorRegistry()
    registry.register(_Fixed([family]))
    return generate_latest(registry)


class _Fixed(Collector):
    def __init__(self, families: list[Metric]) -> None:
        self.families = families

    def collect(self) -> Iterator[Metric]:
        return iter(self.families)


def metrics(request: HttpRequest) -> HttpResponse:
    if not allowed(request):
        return HttpResponse(
            "metrics are open to MONSOON_METRICS_ALLOWED_NETWORKS or a bearer token only\n",
            status=403,
            content_type="text/plain",
        )
    body = process_metrics() + readiness_metrics() + ladder_metrics()
    return HttpResponse(body, content_type=CONTENT_TYPE_LATEST)
