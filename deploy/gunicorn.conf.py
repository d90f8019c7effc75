"""Gunicorn settings for the Monsoon web process: ``gunicorn -c deploy/gunicorn.conf.py``.

Every value can be changed from the environment, so the same file serves docker-compose, the
systemd unit and ``make demo``. Requests are short (pages, the REST API, uploads of at most a
few megabytes; matches run on the workers), so threads over a few processes use the memory
best. A thread is held from a request's first byte to its last, so gunicorn must sit behind a
buffering proxy (deploy/nginx/monsoon.conf) that hands it only complete requests and serves the
static files (WhiteNoise inside these processes is the fallback).
"""

from __future__ import annotations

import multiprocessing
import os


def _int(name: str, default: int) -> int:
    raw = os.environ.get(name, "").strip()
    return int(raw) if raw else default


wsgi_app = "ladder.wsgi:application"
bind = os.environ.get("GUNICORN_BIND", "0.0.0.0:8000")
# WEB_CONCURRENCY is the name gunicorn itself and most platforms use for the process count.
workers = _int("WEB_CONCURRENCY", min(2 * multiprocessing.cpu_count() + 1, 8))
threads = _int("GUNICORN_THREADS", 4)
worker_class = "gthread"
timeout = _int("GUNICORN_TIMEOUT", 30)
graceful_timeout = _int("GUNICORN_GRACEFUL_TIMEOUT", 20)
keepalive = 5
# Request line and header limits (gunicorn's largest); nginx's large_client_header_buffers
# (deploy/nginx/monsoon.conf) refuse anything bigger before it gets here.
limit_request_line = 8190
limit_request_fields = 100
limit_request_field_size = 8190
# Recycle processes now and then, so a slow leak never grows without bound.
max_requests = _int("GUNICORN_MAX_REQUESTS", 2000)
max_requests_jitter = max_requests // 10
accesslog = os.environ.get("GUNICORN_ACCESS_LOG", "-")
errorlog = "-"
loglevel = os.environ.get("GUNICORN_LOG_LEVEL", "info")
# Behind a reverse proxy on another address, list it here so X-Forwarded-* is believed.
forwarded_allow_ips = os.environ.get("FORWARDED_ALLOW_IPS", "127.0.0.1")


# Metrics (docs/deploy.md, "Operations"): with PROMETHEUS_MULTIPROC_DIR set, every gunicorn
# process writes its request metrics to files there and /metrics/ sums them. The folder is
# emptied when gunicorn starts (files of a past run would count as live processes), and a
# process that exits has its live gauges dropped.
def on_starting(server: object) -> None:
    folder = os.environ.get("PROMETHEUS_MULTIPROC_DIR", "")
    if folder:
        from pathlib import Path

        Path(folder).mkdir(parents=True, exist_ok=True)
        for stale in Path(folder).glob("*.db"):
            stale.unlink(missing_ok=True)


def child_exit(server: object, worker: object) -> None:
    if os.environ.get("PROMETHEUS_MULTIPROC_DIR"):
        from prometheus_client import multiprocess

        multiprocess.mark_process_dead(getattr(worker, "pid", 0))
