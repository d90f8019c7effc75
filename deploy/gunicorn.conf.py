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
import sys
from pathlib import Path

# The checkout, for the settings table (gunicorn reads this file before it imports the app).
_CHECKOUT = str(Path(__file__).resolve().parent.parent)
if _CHECKOUT not in sys.path:
    sys.path.insert(0, _CHECKOUT)
from ladder.settings_table import env_int, env_str  # noqa: E402 (needs the path above)

wsgi_app = "ladder.wsgi:application"
bind = env_str("GUNICORN_BIND")
# WEB_CONCURRENCY is the name gunicorn itself and most platforms use for the process count.
workers = env_int("WEB_CONCURRENCY", min(2 * multiprocessing.cpu_count() + 1, 8))
threads = env_int("GUNICORN_THREADS")
worker_class = "gthread"
timeout = env_int("GUNICORN_TIMEOUT")
graceful_timeout = env_int("GUNICORN_GRACEFUL_TIMEOUT")
keepalive = 5
# Request line and header limits (gunicorn's largest); nginx's large_client_header_buffers
# (deploy/nginx/monsoon.conf) refuse anything bigger before it gets here.
limit_request_line = 8190
limit_request_fields = 100
limit_request_field_size = 8190
# Recycle processes now and then, so a slow leak never grows without bound.
max_requests = env_int("GUNICORN_MAX_REQUESTS")
max_requests_jitter = max_requests // 10
accesslog = env_str("GUNICORN_ACCESS_LOG")
errorlog = "-"
loglevel = env_str("GUNICORN_LOG_LEVEL")
# Behind a reverse proxy on another address, list it here so X-Forwarded-* is believed.
forwarded_allow_ips = env_str("FORWARDED_ALLOW_IPS")


# Metrics (docs/deploy.md, "Operations"): with PROMETHEUS_MULTIPROC_DIR set, every gunicorn
# process writes its request metrics to files there and /metrics/ sums them. The folder is
# emptied when gunicorn starts (files of a past run would count as live processes), and a
# process that exits has its live gauges dropped.
def on_starting(server: object) -> None:
    folder = env_str("PROMETHEUS_MULTIPROC_DIR")
    if folder:
        Path(folder).mkdir(parents=True, exist_ok=True)
        for stale in Path(folder).glob("*.db"):
            stale.unlink(missing_ok=True)


def child_exit(server: object, worker: object) -> None:
    if env_str("PROMETHEUS_MULTIPROC_DIR"):
        from prometheus_client import multiprocess

        multiprocess.mark_process_dead(getattr(worker, "pid", 0))
