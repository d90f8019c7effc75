"""The operations endpoints, answered before host validation and HTTPS redirects.

Probes and Prometheus reach a web process by its container or host address (``web:8000``,
``127.0.0.1``), which is not one of the site's ``ALLOWED_HOSTS``, and over plain HTTP inside
the deployment; Django would refuse them (400) or redirect them to HTTPS. None of these answers
builds a URL from the Host header, so they are served here, ahead of the middleware that would,
and kept out of the site's URLs. ``/metrics/`` has its own access rule (ladder.operations.metrics).
"""

from __future__ import annotations

from collections.abc import Callable

from asgiref.sync import async_to_sync
from django.http import HttpRequest, HttpResponse, HttpResponseNotAllowed

from ladder.operations import health, metrics

View = Callable[[HttpRequest], HttpResponse]

ENDPOINTS: dict[str, View] = {
    # django-health-check's views are async (the checks run concurrently); this is sync code.
    "/health/live/": async_to_sync(health.live),
    "/health/ready/": async_to_sync(health.ready),
    "/metrics/": metrics.metrics,
}


class OperationsMiddleware:
    def __init__(self, get_response: View) -> None:
        self.get_response = get_response

    def __call__(self, request: HttpRequest) -> HttpResponse:
        view = ENDPOINTS.get(request.path_info)
        if view is None:
            return self.get_response(request)
        if request.method not in ("GET", "HEAD"):
            return HttpResponseNotAllowed(["GET", "HEAD"])
        return view(request)
