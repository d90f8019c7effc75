"""``/health/live/`` and ``/health/ready/`` through django-health-check, always as JSON.

Liveness checks nothing outside the process: it answers when the process can serve a request,
so a supervisor restarts only a wedged process. Readiness checks what a request needs: the
database, the cache and (when one is configured) the broker, concurrently, each bounded by
``MONSOON_HEALTH_TIMEOUT_SECONDS``; the answer is 200 or 500 with one entry per check, ``"OK"``
or what failed, so a load balancer stops sending traffic and an operator sees why.
"""

from __future__ import annotations

import asyncio
import dataclasses
import datetime
from collections.abc import Iterator
from concurrent.futures import Executor
from pathlib import Path

from django.conf import settings
from django.http import HttpRequest, HttpResponse
from health_check.base import HealthCheck, HealthCheckResult
from health_check.checks import Cache, Database
from health_check.exceptions import ServiceUnavailable
from health_check.views import HealthCheckView


def _budget() -> float:
    return float(settings.MONSOON_HEALTH_TIMEOUT_SECONDS)


class _Bounded(HealthCheck):
    """A check that reports "no answer" instead of waiting past the readiness budget.

    django-health-check waits a check's own timeout plus a second; a readiness probe must
    answer sooner than that, whatever the dependency does.
    """

    async def get_result(self, executor: Executor | None = None) -> HealthCheckResult:
        budget = _budget()
        try:
            return await asyncio.wait_for(super().get_result(executor), budget)
        except TimeoutError:
            return HealthCheckResult(
                check=self,
                error=ServiceUnavailable(f"no answer within {budget:g} s"),
                time_taken=budget,
            )

    def __repr__(self) -> str:
        """The check's name in the JSON answer and the metrics' label: ``database``..."""
        return type(self).__name__.removesuffix("Ready").lower()


@dataclasses.dataclass(repr=False)
class DatabaseReady(_Bounded, Database):
    """``SELECT 1`` on the default database."""


@dataclasses.dataclass(repr=False)
class CacheReady(_Bounded, Cache):
    """A set and get on the default cache (Redis in production: throttles live there)."""


@dataclasses.dataclass(repr=False)
class BrokerReady(_Bounded):
    """The Celery broker answers: a Redis ``PING``, or the filesystem broker's folder exists.

    The URL is never shown (it may hold a password), not even its transport.
    """

    url: str = dataclasses.field(repr=False, default="")
    timeout: datetime.timedelta = dataclasses.field(
        default=datetime.timedelta(seconds=1), repr=False
    )

    async def run(self) -> None:
        if self.url.startswith(("redis://", "rediss://", "unix://")):
            from redis.asyncio import Redis
            from redis.exceptions import RedisError

            budget = _budget()
            client = Redis.from_url(self.url, socket_connect_timeout=budget, socket_timeout=budget)
            try:
                await client.ping()
            except (RedisError, OSError) as exc:
                raise ServiceUnavailable(f"Redis did not answer: {type(exc).__name__}") from exc
            finally:
                await client.aclose()  # type: ignore[attr-defined]  # types-redis predates it
        elif self.url.startswith("filesystem://"):
            folder = Path(str(settings.CELERY_BROKER_TRANSPORT_OPTIONS.get("data_folder_in", "")))
            if not folder.is_dir():
                raise ServiceUnavailable("the filesystem broker's folder is missing")
        else:
            raise ServiceUnavailable("unsupported broker transport for the readiness check")


def readiness_checks() -> list[HealthCheck]:
    checks: list[HealthCheck] = [DatabaseReady(), CacheReady()]
    if settings.CELERY_BROKER_URL:
        checks.append(BrokerReady(url=settings.CELERY_BROKER_URL))
    return checks


def check_name(check: HealthCheck) -> str:
    """``database``, ``cache``, ``broker``: the label of a readiness check in the metrics."""
    return repr(check)


async def run_readiness() -> list[HealthCheckResult]:
    """Every readiness check, concurrently (for ``/metrics/``: ``monsoon_readiness_check_ok``)."""
    return list(await asyncio.gather(*(check.get_result() for check in readiness_checks())))


class JsonHealthView(HealthCheckView):
    """django-health-check's view, answering JSON whatever the client accepts."""

    ready = False

    def get_checks(self) -> Iterator[HealthCheck]:
        return iter(readiness_checks() if self.ready else [])

    async def get(self, request: HttpRequest, *args: object, **kwargs: object) -> HttpResponse:
        with self.get_executor() as executor:
            self.results = await asyncio.gather(
                *(check.get_result(executor) for check in self.get_checks())
            )
        failed = any(result.error for result in self.results)
        return self.render_to_response_json(500 if failed else 200)

    def render_to_response_json(self, status: int) -> HttpResponse:
        from django.http import JsonResponse

        checks = {
            repr(result.check): str(result.error) if result.error else "OK"
            for result in self.results
        }
        verdict = "ok" if status == 200 else "fail"
        return JsonResponse({"status": verdict, "checks": checks}, status=status)


live = JsonHealthView.as_view(ready=False)
ready = JsonHealthView.as_view(ready=True)
