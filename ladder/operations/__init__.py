"""Operating the ladder: health endpoints, Prometheus metrics, match context on log lines.

Not a Django app (no models): the web process serves ``/health/live/``, ``/health/ready/`` and
``/metrics/`` from :mod:`ladder.operations.middleware`, the ladder's own figures come from the
database through :mod:`ladder.operations.collector`, and :mod:`ladder.operations.logcontext`
puts a match's ids on every log line written while a worker plays it (docs/deploy.md,
"Operations").
"""
