"""The one table of Monsoon's environment variables, and the functions that read them.

Every variable a Monsoon process reads from its environment is a :class:`Setting` row of
:data:`SETTINGS`: its name, type, default, meaning and section. ``ladder/settings.py`` and
``deploy/gunicorn.conf.py`` read each one through :func:`env_bool`, :func:`env_int`,
:func:`env_float`, :func:`env_str`, :func:`env_list` or :func:`env_path`, which refuse a name
that is not in the table and parse the value by the row's type, so a type's parsing and a
default live here once. ``scripts/render_settings.py`` writes ``deploy/monsoon.env.example``
and ``docs/settings.md`` from the same rows, and ``tests/deploy/test_settings_table.py`` fails
when those files or the readers drift from it.

This module imports nothing of Django: the web server's config file and the render script
load it without a configured project.
"""

from __future__ import annotations

import os
from collections.abc import Mapping
from dataclasses import dataclass
from pathlib import Path
from typing import Literal, TypeVar

Kind = Literal["bool", "int", "float", "str", "list", "path"]


class SettingError(ValueError):
    """A variable's value cannot be read as its setting's type (or the name is not a setting)."""


@dataclass(frozen=True)
class Section:
    key: str
    title: str
    intro: str = ""


@dataclass(frozen=True)
class Setting:
    """One environment variable.

    ``default`` is the value when the variable is unset (or blank, for numbers and paths);
    ``None`` means the reader computes it (``default_text`` says how). ``example`` is the value
    ``deploy/monsoon.env.example`` shows (the default when ``None``); ``commented`` writes it as
    a comment (an optional setting); ``in_example=False`` leaves it out (demo, tests or set per
    process). ``reader`` names who reads it when that is not ``ladder/settings.py``.
    """

    name: str
    kind: Kind
    default: bool | int | float | str | tuple[str, ...] | None
    meaning: str
    section: str
    default_text: str = ""
    example: str | None = None
    commented: bool = False
    in_example: bool = True
    reader: str = "ladder/settings.py"

    def shown_default(self) -> str:
        """The default as the docs' table shows it."""
        if self.default_text:
            return self.default_text
        if self.kind == "bool":
            return "on" if self.default else "off"
        if self.default in ("", ()):
            return "none"
        if self.kind in ("str", "list", "path"):
            return f"`{env_value(self.default)}`"
        return env_value(self.default)

    def example_value(self) -> str:
        return self.example if self.example is not None else env_value(self.default)


def env_value(value: object) -> str:
    """A default written as an environment variable's text."""
    if value is None:
        return ""
    if isinstance(value, bool):
        return "1" if value else "0"
    if isinstance(value, tuple):
        return ",".join(value)
    return str(value)


GUNICORN = "deploy/gunicorn.conf.py"
WORKERS = "the workers (workers/apps.py)"

SECTIONS = (
    Section(
        "required",
        "Required in production",
        "With `DEBUG` off (the default) a process refuses to start without a good key and the "
        "site's host names.",
    ),
    Section("site", "Site and security"),
    Section("database", "Database, cache, broker"),
    Section("storage", "Storage", "Local folders shared by web and workers, or an S3 bucket."),
    Section("web", "The web server", "Read by `deploy/gunicorn.conf.py`."),
    Section("workers", "Workers"),
    Section("pace", "The ladder's pace", "Read by beat and the tasks it sends."),
    Section("limits", "Limits and quotas"),
    Section("mail", "Mail", "Only password reset links are sent."),
    Section("versus", "Version tests", 'docs/ladder.md, "Version tests".'),
    Section("tournaments", "Tournaments", "docs/tournaments.md."),
    Section("operations", "Operations", 'docs/deploy.md, "Operations".'),
    Section("development", "Development, demo and process-local"),
    Section("foreign", "Read by other programs", "Not by Monsoon's code."),
)

_S = Setting
# fmt: off
SETTINGS: tuple[Setting, ...] = (
    # --- required in production ------------------------------------------------------------------
    _S("SECRET_KEY", "str", None,
       "Django's signing key: 50+ random characters, not a placeholder (a refused key's "
       "error message gives the command that makes a good one)",
       "required", default_text="none (the development key with `DEBUG`)",
       example="replace-with-at-least-32-random-characters-from-a-password-generator"),
    _S("ALLOWED_HOSTS", "list", None, "the site's host names, comma-separated (no `*`)",
       "required", default_text="none (localhost with `DEBUG`)", example="monsoon.example.org"),
    _S("CSRF_TRUSTED_ORIGINS", "list", (),
       "`https://host` origins allowed to post forms (needed behind a TLS proxy)",
       "required", example="https://monsoon.example.org"),
    _S("DEBUG", "bool", False, "development mode; never in production", "required"),
    # --- site and security -----------------------------------------------------------------------
    _S("USE_X_FORWARDED_PROTO", "bool", False,
       "trust the proxy's `X-Forwarded-Proto: https` (TLS ends at a reverse proxy)", "site",
       example="1"),
    _S("SECURE_SSL_REDIRECT", "bool", False, "redirect plain HTTP to HTTPS", "site", example="1"),
    _S("SECURE_HSTS_SECONDS", "int", 0, "HSTS max-age", "site", example="3600"),
    _S("SECURE_HSTS_INCLUDE_SUBDOMAINS", "bool", False,
       "HSTS for every subdomain too (only when every subdomain is HTTPS-only)", "site"),
    _S("SECURE_HSTS_PRELOAD", "bool", False, "allow submission to the browsers' preload list",
       "site"),
    _S("SESSION_COOKIE_SECURE", "bool", True, "session cookie over HTTPS only", "site",
       default_text="on without `DEBUG`"),
    _S("CSRF_COOKIE_SECURE", "bool", True, "CSRF cookie over HTTPS only", "site",
       default_text="on without `DEBUG`"),
    _S("MONSOON_TRUSTED_PROXIES", "int", 0,
       "proxies in front of gunicorn that append to `X-Forwarded-For`; 0 takes the peer address "
       "as the client (the header is spoofable otherwise). Behind one nginx: 1", "site",
       example="1"),
    _S("MONSOON_LOGIN_FAILURE_LIMIT", "int", 10,
       "failed logins (API token, web login, admin login) for one user name from one client "
       "address before that pair is locked out (django-axes, counted in the database); the "
       "name stays open from other addresses and other names from this one", "site"),
    _S("MONSOON_LOGIN_ADDRESS_FAILURE_LIMIT", "int", None,
       "failed logins from one client address over all user names before the address is "
       "locked out for every name (one address trying many names)", "site",
       default_text="5 times `MONSOON_LOGIN_FAILURE_LIMIT` (50)", example="50", commented=True),
    _S("MONSOON_LOGIN_COOLOFF_MINUTES", "int", 15,
       "how long a lockout lasts; the answer is 429 with `Retry-After` (JSON on the API, a page "
       "on the site)", "site"),
    # --- database, cache, broker -----------------------------------------------------------------
    _S("DATABASE_URL", "str", None, "`postgres://user:password@host:5432/name`", "database",
       default_text="SQLite `db.sqlite3` in the checkout",
       example="postgres://monsoon:replace-with-a-database-password@db:5432/monsoon"),
    _S("DATABASE_CONN_MAX_AGE", "int", 60, "seconds a database connection is reused",
       "database"),
    _S("CACHE_URL", "str", "",
       "a Redis URL for a cache shared by the web processes (throttles count in it; required "
       "with `DEBUG` off)", "database", default_text="per-process memory",
       example="redis://redis:6379/1"),
    _S("MONSOON_ALLOW_LOCAL_CACHE", "bool", False,
       "accept a per-process cache with `DEBUG` off (one web process only)", "database"),
    _S("CELERY_BROKER_URL", "str", "",
       "`redis://host:6379/0`; `filesystem://` for one host without servers (the demo)",
       "database", default_text="none: nothing is sent, matches wait in the database",
       example="redis://redis:6379/0"),
    # --- storage ---------------------------------------------------------------------------------
    _S("MEDIA_ROOT", "path", None,
       "uploaded artifacts, when no bucket is set; must be shared by web and workers", "storage",
       default_text="`media/` in the checkout", example="/data/media"),
    _S("STATIC_ROOT", "path", None,
       "where `collectstatic` writes; nginx serves it (`/srv/monsoon/staticfiles` in its site "
       "file), WhiteNoise as a fallback", "storage",
       default_text="`staticfiles/` in the checkout", example="/app/staticfiles"),
    _S("AWS_STORAGE_BUCKET_NAME", "str", "",
       "store artifacts in this S3 bucket instead (django-storages); credentials from "
       "`AWS_ACCESS_KEY_ID`/`AWS_SECRET_ACCESS_KEY` or the instance role", "storage",
       example="monsoon-artifacts", commented=True),
    _S("AWS_S3_ENDPOINT_URL", "str", "", "an S3-compatible service (MinIO, Ceph, ...)",
       "storage", default_text="AWS", example="https://s3.example.org", commented=True),
    _S("MATCH_LOG_ROOT", "path", None,
       "folder for game logs (zstd, one object per match; see docs/scale.md) when no bucket is "
       "set", "storage", default_text="`MEDIA_ROOT/match-logs`",
       example="/data/media/match-logs"),
    _S("MATCH_LOG_BUCKET", "str", "",
       "an S3 bucket for game logs of their own (without it, with `AWS_STORAGE_BUCKET_NAME` set, "
       "logs go under `match-logs/` in the artifacts' bucket)", "storage",
       default_text="the artifacts' bucket", example="monsoon-match-logs", commented=True),
    # --- the web server (gunicorn) ---------------------------------------------------------------
    _S("GUNICORN_BIND", "str", "0.0.0.0:8000",
       "address and port; only nginx may reach it (the compose file sets `0.0.0.0:8000` inside "
       "its network, the systemd unit uses loopback)", "web", example="127.0.0.1:8000",
       reader=GUNICORN),
    _S("WEB_CONCURRENCY", "int", None, "gunicorn processes", "web",
       default_text="twice the CPUs + 1, at most 8", example="3", reader=GUNICORN),
    _S("GUNICORN_THREADS", "int", 4, "threads per process", "web", reader=GUNICORN),
    _S("GUNICORN_TIMEOUT", "int", 30, "seconds before a stuck request's process is restarted",
       "web", reader=GUNICORN),
    _S("GUNICORN_GRACEFUL_TIMEOUT", "int", 20, "seconds to finish requests on shutdown", "web",
       commented=True, reader=GUNICORN),
    _S("GUNICORN_MAX_REQUESTS", "int", 2000,
       "requests before a process is recycled (with 10% jitter)", "web", commented=True,
       reader=GUNICORN),
    _S("GUNICORN_ACCESS_LOG", "str", "-", "access log file (`-`: stdout)", "web",
       commented=True, reader=GUNICORN),
    _S("GUNICORN_LOG_LEVEL", "str", "info", "gunicorn's log level", "web", commented=True,
       reader=GUNICORN),
    _S("FORWARDED_ALLOW_IPS", "str", "127.0.0.1",
       "proxies whose `X-Forwarded-*` headers gunicorn believes (the reverse proxy's address, "
       "when it is not on this host)", "web", example="172.17.0.1", commented=True,
       reader=GUNICORN),
    # --- workers ---------------------------------------------------------------------------------
    _S("CELERY_WORKER_CONCURRENCY", "int", 0,
       "match slots per worker, one pool process each (`-c` wins); 0: one per CPU", "workers",
       default_text="one per CPU", example="2"),
    _S("CELERY_WORKER_SEND_TASK_EVENTS", "bool", True, "task events for Flower", "workers"),
    _S("MONSOON_SANDBOX", "str", "bwrap",
       "`bwrap`; `none` runs bots as plain processes, only for development (refused without "
       "`DEBUG`)", "workers"),
    _S("MONSOON_ARTIFACT_CACHE", "path", None,
       "unpacked artifacts by sha256; must be readable by the seat uids", "workers",
       default_text="`.cache/artifacts` in the checkout", example="/var/cache/monsoon/artifacts"),
    _S("MONSOON_CGROUP_PARENT", "str", "",
       "an empty cgroup v2 group delegated to the worker for per-seat memory and pids limits "
       "(docs/deploy.md, \"What a worker host needs\")", "workers",
       example="/sys/fs/cgroup/system.slice/monsoon-worker.service", commented=True),
    _S("MONSOON_MATCH_THINKING_BUDGET_SECONDS", "int", 60,
       "each seat's thinking time for a whole match; a seat that uses it up forfeits "
       "(`thinking_budget`). The match task's time limit is computed from it (docs/workers.md, "
       "\"How long a match may take\")", "workers"),
    _S("MONSOON_DECISION_WALL_FACTOR", "int", 10,
       "decisions are charged the seat's CPU time, and at least their wall-clock time over this "
       "factor: a bot that waits instead of computing ends after this many times its allowance "
       "(docs/bot-protocol.md, \"Time controls\")", "workers"),
    _S("MONSOON_MATCH_LEASE_SECONDS", "int", 60,
       "a running match's lease, renewed every quarter; a match whose lease ran out (its worker "
       "died) goes back to the queue", "workers"),
    _S("MONSOON_LIVE_INTERVAL_SECONDS", "float", 1.0,
       "how often a worker publishes a running match's moves for live spectators (0: never)",
       "workers"),
    _S("MONSOON_MATCH_MAX_ATTEMPTS", "int", 3,
       "infrastructure failures before a match fails for good", "workers"),
    _S("MONSOON_VALIDATION_LEASE_SECONDS", "int", 600,
       "a version stuck in validation this long goes back to pending", "workers"),
    _S("MONSOON_VALIDATION_SAME_FAILURES", "int", 3,
       "a validation failing the same way (not the bot's doing, e.g. its artifact is missing) "
       "this many times in a row rejects the version with that reason", "workers"),
    _S("MONSOON_WORKER_HEARTBEAT_SECONDS", "int", 15,
       "fleet heartbeat; three missed beats show a worker as gone", "workers"),
    _S("MONSOON_WORKER_STOP_GRACE_SECONDS", "int", None,
       "a worker still shutting down this long after its consumer stopped exits hard for its "
       "supervisor to restart (a broker loss can wedge Celery's shutdown)", "workers",
       default_text="match time limit + 120 (the hard limit + 60)", example="1860"),
    _S("MONSOON_STDERR_MAX_BYTES", "int", 65536, "stderr kept per seat", "workers"),
    _S("MONSOON_WARM_SEATS", "int", 8,
       "warm seats each worker process keeps: processes of bots that play many matches "
       "(`\"matches\": \"many\"`), frozen between matches and reused by the next match "
       "of the same version (docs/workers.md, \"Warm seats\"); 0: every match starts every "
       "bot afresh", "workers", reader="workers/seats.py"),
    _S("MONSOON_WARM_SEAT_MATCHES", "int", 50,
       "matches one warm seat plays before it is ended", "workers", reader="workers/seats.py"),
    _S("MONSOON_WARM_SEAT_IDLE_SECONDS", "int", 300,
       "a warm seat without a match this long is ended", "workers",
       reader="workers/seats.py"),
    _S("MONSOON_WARM_SEAT_MEMORY_MB", "int", 256,
       "memory an idle warm seat may hold; one holding more after its match is ended",
       "workers", reader="workers/seats.py"),
    # --- the ladder's pace -----------------------------------------------------------------------
    _S("MONSOON_QUEUE_TARGET", "int", 8,
       "fewest ranked matches kept waiting (0: no matchmaking); the matchmaker keeps more when "
       "the live workers' slots would otherwise idle until its next run, up to 10 times this",
       "pace"),
    _S("MONSOON_MATCHMAKE_SECONDS", "int", 10, "matchmaker interval", "pace"),
    _S("MONSOON_REAP_SECONDS", "int", 15, "reaper interval (expired leases, lost messages)",
       "pace"),
    _S("MONSOON_RESEND_AFTER_SECONDS", "int", 120,
       "a match or version still waiting this long is sent to the broker again (claiming is "
       "conditional, so a second message does nothing)", "pace"),
    _S("MONSOON_REFIT_SECONDS", "int", 600, "history-wide rating refit interval", "pace"),
    _S("MONSOON_BOOTSTRAP_SAMPLES", "int", 100, "bootstrap samples of the refit's intervals",
       "pace"),
    _S("MONSOON_API_CACHE_SECONDS", "int", 2,
       "public standings and match lists cached this long (0: never)", "pace"),
    # --- limits ----------------------------------------------------------------------------------
    _S("MONSOON_UPLOAD_MAX_BYTES", "int", 2 * 1024 * 1024, "largest upload", "limits",
       default_text="2097152 (2 MiB)"),
    _S("MONSOON_REQUEST_MAX_BYTES", "int", 256 * 1024,
       "largest request body except a bot upload (which may be `MONSOON_UPLOAD_MAX_BYTES` + 64 "
       "KiB); larger ones get 413 from their `Content-Length` before a byte is read", "limits",
       default_text="262144 (256 KiB)"),
    _S("MONSOON_UPLOAD_MAX_FILES", "int", 200, "most files in an archive", "limits"),
    _S("MONSOON_UPLOAD_MAX_UNPACKED_BYTES", "int", 20 * 1024 * 1024,
       "largest unpacked archive", "limits", default_text="20971520 (20 MiB)"),
    _S("MONSOON_CHALLENGES_PER_HOUR", "int", 20,
       "challenges a user may ask for per hour (exact under concurrency: the count locks the "
       "user's row)", "limits"),
    _S("MONSOON_BOTS_PER_HOUR", "int", 20,
       "bots a user may create per hour, on the site and through the API together (counted "
       "exactly like challenges; `THROTTLE_BOTS` is only the cheaper request-rate guard in "
       "front)", "limits"),
    _S("MONSOON_UPLOADS_PER_HOUR", "int", 30,
       "versions a user may upload per hour over all their bots (counted exactly; "
       "`THROTTLE_UPLOADS` counts the same uploads)", "limits"),
    _S("THROTTLE_UPLOADS", "str", "30/hour",
       "upload rate per user, site and API together; a refused upload is not counted", "limits"),
    _S("THROTTLE_UPLOAD_ATTEMPTS", "str", "120/hour",
       "upload attempts per user, refused ones too: bounds the checks a stream of bad files "
       "can cost", "limits"),
    _S("THROTTLE_CHALLENGES", "str", "60/hour", "API challenge rate per user", "limits"),
    _S("THROTTLE_SIGNUPS", "str", "10/hour", "sign-ups per client address (web form)",
       "limits"),
    _S("THROTTLE_BOTS", "str", "20/hour",
       "new bots per user, the site's form and `POST /api/v1/bots/` sharing one budget",
       "limits"),
    _S("THROTTLE_PASSWORD_RESETS", "str", "5/hour",
       "password reset requests per client address (each may send an e-mail)", "limits"),
    # --- mail ------------------------------------------------------------------------------------
    _S("EMAIL_HOST", "str", "",
       "SMTP server for password reset mail; without it the mail is written to the web "
       "process's log", "mail", example="smtp.example.org"),
    _S("EMAIL_PORT", "int", 587, "SMTP port", "mail"),
    _S("EMAIL_HOST_USER", "str", "", "SMTP login", "mail", example="monsoon"),
    _S("EMAIL_HOST_PASSWORD", "str", "", "SMTP password", "mail", example="change-me"),
    _S("EMAIL_USE_TLS", "bool", True, "SMTP with STARTTLS", "mail"),
    _S("DEFAULT_FROM_EMAIL", "str", "monsoon@localhost", "sender of password reset mail", "mail",
       example="monsoon@example.org"),
    _S("EMAIL_BACKEND", "str", None,
       "a Django mail backend path, to send through another service (e.g. the console one "
       "while testing)", "mail", default_text="SMTP with `EMAIL_HOST`, else the console",
       example="django.core.mail.backends.smtp.EmailBackend"),
    _S("PASSWORD_RESET_TIMEOUT", "int", 3 * 24 * 3600,
       "seconds a reset link stays valid (it also stops working once used or after a password "
       "change)", "mail", default_text="259200 (3 days)"),
    # --- version tests ---------------------------------------------------------------------------
    _S("MONSOON_VERSUS_RUNNING_PER_USER", "int", 1, "running version tests per user", "versus"),
    _S("MONSOON_VERSUS_PER_DAY", "int", 5, "new version tests per user in 24 hours", "versus"),
    _S("MONSOON_VERSUS_PAIRS_IN_FLIGHT", "int", 2,
       "pairs of matches (two games, seats swapped) in flight per test", "versus"),
    _S("MONSOON_VERSUS_DEFAULT_MAX_GAMES", "int", 1000,
       "a test's game cap when its request names none", "versus"),
    _S("MONSOON_VERSUS_MAX_GAMES", "int", 4000, "the largest game cap a test may ask for",
       "versus"),
    # --- tournaments -----------------------------------------------------------------------------
    _S("MONSOON_TOURNAMENT_TICK_SECONDS", "int", 5,
       "beat's tournament tick: starts due tournaments, advances rounds (a backstop: a finished "
       "match advances its round at once)", "tournaments"),
    _S("MONSOON_TOURNAMENT_MATCH_RERUNS", "int", 2,
       "re-runs of a match that failed on infrastructure before the tournament pauses",
       "tournaments"),
    _S("MONSOON_TOURNAMENT_BOOTSTRAP_SAMPLES", "int", 200,
       "bootstrap replicates behind P(first) and the rank intervals", "tournaments"),
    _S("MONSOON_TOURNAMENT_MAX_MATCHES", "int", 5000,
       "most matches a tournament plans: `games_per_pairing` and Swiss `rounds` that exceed it "
       "at one table are refused, and a field too large for it is cancelled at the start",
       "tournaments"),
    _S("MONSOON_TOURNAMENT_REFRESH_SECONDS", "int", 10,
       "how often an open tournament page fetches its live fragment (progress, entrants, "
       "standings, cross-table, rounds)", "tournaments"),
    # --- operations ------------------------------------------------------------------------------
    _S("MONSOON_HEALTH_TIMEOUT_SECONDS", "float", 0.8,
       "each readiness check (database, cache, broker) of `/health/ready/` reports \"no answer\" "
       "after this", "operations"),
    _S("MONSOON_METRICS_ALLOWED_NETWORKS", "list", ("127.0.0.0/8", "::1/128"),
       "networks whose direct requests (never through a proxy) may read `/metrics/`",
       "operations"),
    _S("MONSOON_METRICS_TOKEN", "str", "",
       "any request with `Authorization: Bearer <token>` may read `/metrics/` (Prometheus' "
       "`deploy/prometheus/metrics-token` holds the same)", "operations",
       example="replace-with-a-long-random-metrics-token"),
    _S("MONSOON_WORKER_METRICS_PORT", "int", 0,
       "a worker's main process serves its pool's metrics on this port, e.g. 9808 (0 or empty: "
       "none); needs `PROMETHEUS_MULTIPROC_DIR`", "operations", default_text="0 (none)",
       example=""),
    _S("MONSOON_WORKER_METRICS_ADDRESS", "str", "0.0.0.0",  # noqa: S104 (bind it privately)
       "the address that exporter listens on", "operations"),
    _S("MONSOON_LOG_FORMAT", "str", "text",
       "`text` or `json`: one JSON object a line (python-json-logger), with `match_id`, "
       "`version_ids` and `worker` on the lines about a match", "operations", example="json"),
    _S("MONSOON_LOG_LEVEL", "str", "INFO", "the root logger's level", "operations"),
    _S("PROMETHEUS_MULTIPROC_DIR", "str", "",
       "prometheus-client's multiprocess folder: one per web (gunicorn) or worker, emptied when "
       "it starts; the compose file and the units set it per service, not in the shared "
       "environment file", "operations", in_example=False),
    # --- development, demo and process-local -----------------------------------------------------
    _S("MONSOON_ALLOW_SQLITE", "bool", False,
       "accept SQLite with `DEBUG` off (one host only: a worker elsewhere cannot reach the file, "
       "and every write is serialised)", "development", in_example=False),
    _S("SQLITE_BUSY_TIMEOUT", "int", 30,
       "seconds a SQLite writer waits for the lock (WAL and `IMMEDIATE` transactions are always "
       "on for SQLite)", "development", in_example=False),
    _S("MONSOON_BROKER_FOLDER", "str", "",
       "the folder of the `filesystem://` broker (the demo), shared by every process on the host",
       "development", in_example=False),
    _S("MONSOON_ALLOW_UNBOUNDED_SEATS", "bool", False,
       "`1` on a development machine without per-seat cgroups: run sandboxed bots with "
       "per-process limits only (refused without `DEBUG`; also read by `workers/cgroups.py` and "
       "the `monsoon` command)", "development", in_example=False),
    _S("DJANGO_SETTINGS_MODULE", "str", "ladder.settings",
       "the settings module (`ladder.settings_demo` for the demo)", "development",
       in_example=False, reader="Django; set by the image, the units and `manage.py`"),
    # --- read by other programs ------------------------------------------------------------------
    _S("POSTGRES_PASSWORD", "str", "",
       "the database password of the compose file's `db` service (the same as in "
       "`DATABASE_URL`)", "foreign", example="replace-with-a-database-password",
       reader="the postgres image"),
    _S("AWS_ACCESS_KEY_ID", "str", "", "S3 credentials (or the instance role)", "foreign",
       commented=True, reader="boto3 (django-storages)"),
    _S("AWS_SECRET_ACCESS_KEY", "str", "", "S3 credentials (or the instance role)", "foreign",
       commented=True, reader="boto3 (django-storages)"),
    _S("FLOWER_BASIC_AUTH", "str", "", "`user:password` for Flower's web page (the ops extra)",
       "foreign", example="admin:replace-with-a-flower-password", reader="Flower"),
)
# fmt: on
del _S

BY_NAME: dict[str, Setting] = {setting.name: setting for setting in SETTINGS}

_TRUE = {"1", "true", "yes", "on"}
_FALSE = {"0", "false", "no", "off", ""}


def setting(name: str, kind: Kind) -> Setting:
    """The row of ``name``, which must be read as ``kind``."""
    row = BY_NAME.get(name)
    if row is None:
        raise SettingError(f"{name} is not in the settings table (ladder/settings_table.py)")
    if row.kind != kind:
        raise SettingError(f"{name} is a {row.kind} setting, read as {kind}")
    return row


def _raw(name: str, environ: Mapping[str, str] | None) -> str | None:
    return (os.environ if environ is None else environ).get(name)


_T = TypeVar("_T")


def _fallback(row: Setting, fallback: _T | None, kind: type[_T]) -> _T:
    value = row.default if fallback is None else fallback
    if row.kind == "float" and isinstance(value, int) and not isinstance(value, bool):
        value = float(value)
    if not isinstance(value, kind):
        raise SettingError(f"{row.name} has a computed default: its reader must pass one")
    return value


Environ = Mapping[str, str] | None


def env_bool(name: str, fallback: bool | None = None, environ: Environ = None) -> bool:
    """A boolean: 1/true/yes/on or 0/false/no/off (empty: off); unset: the default."""
    row = setting(name, "bool")
    raw = _raw(name, environ)
    if raw is None:
        return _fallback(row, fallback, bool)
    value = raw.strip().lower()
    if value in _TRUE:
        return True
    if value in _FALSE:
        return False
    raise SettingError(f"{name} must be a boolean (1/0, true/false), not {raw!r}")


def _number(name: str, raw: str | None, parse: type[_T], what: str) -> _T | None:
    if raw is None or raw.strip() == "":
        return None
    try:
        return parse(raw)  # type: ignore[call-arg]
    except ValueError:
        raise SettingError(f"{name} must be {what}, not {raw!r}") from None


def env_int(name: str, fallback: int | None = None, environ: Environ = None) -> int:
    """An integer; unset or blank: the default (or ``fallback``, for a computed default)."""
    row = setting(name, "int")
    value = _number(name, _raw(name, environ), int, "an integer")
    return _fallback(row, fallback, int) if value is None else value


def env_float(name: str, fallback: float | None = None, environ: Environ = None) -> float:
    """A number; unset or blank: the default."""
    row = setting(name, "float")
    value = _number(name, _raw(name, environ), float, "a number")
    return _fallback(row, fallback, float) if value is None else value


def env_str(name: str, fallback: str | None = None, environ: Environ = None) -> str:
    """The text as given (empty stays empty); unset: the default."""
    row = setting(name, "str")
    raw = _raw(name, environ)
    return _fallback(row, fallback, str) if raw is None else raw


def env_list(name: str, fallback: list[str] | None = None, environ: Environ = None) -> list[str]:
    """Comma-separated items, blanks dropped (empty: no items); unset: the default."""
    row = setting(name, "list")
    raw = _raw(name, environ)
    if raw is None:
        return list(_fallback(row, None if fallback is None else tuple(fallback), tuple))
    return [item.strip() for item in raw.split(",") if item.strip()]


def env_path(name: str, fallback: Path | None = None, environ: Environ = None) -> Path:
    """A path; unset or blank: ``fallback`` (paths' defaults lie in the checkout)."""
    row = setting(name, "path")
    raw = _raw(name, environ)
    if raw is None or raw.strip() == "":
        if fallback is None:
            raise SettingError(f"{row.name} has a computed default: its reader must pass one")
        return fallback
    return Path(raw)
