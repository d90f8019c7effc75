"""Django settings, all from environment variables.

Every variable is a row of ``ladder/settings_table.py`` (type, default, meaning) and is read
here through its ``env_*`` functions, which refuse a name the table lacks; the env example and
docs/settings.md are generated from that table (docs/deploy.md, "Adding a setting").

The defaults are safe for a developer's machine only when ``DEBUG=1``; with ``DEBUG`` off (the
default) the process refuses to start without a real ``SECRET_KEY`` and ``ALLOWED_HOSTS``, so a
production deployment can never run on a development secret by accident.
"""

from __future__ import annotations

import ipaddress
from datetime import timedelta
from pathlib import Path

import dj_database_url
from django.core.exceptions import ImproperlyConfigured

from ladder.core.match_bounds import worker_time_limit_s
from ladder.core.secret_key import DEVELOPMENT_KEY, secret_key_problem
from ladder.settings_table import env_bool, env_float, env_int, env_list, env_path, env_str

BASE_DIR = Path(__file__).resolve().parent.parent

DEBUG = env_bool("DEBUG")

SECRET_KEY = env_str("SECRET_KEY", DEVELOPMENT_KEY if DEBUG else "")
ALLOWED_HOSTS = env_list("ALLOWED_HOSTS", ["localhost", "127.0.0.1", "[::1]"] if DEBUG else [])

if not DEBUG:
    _key_problem = secret_key_problem(SECRET_KEY)
    if _key_problem:
        raise ImproperlyConfigured(f"{_key_problem} (DEBUG is off)")
    if not ALLOWED_HOSTS or "*" in ALLOWED_HOSTS:
        raise ImproperlyConfigured(
            "ALLOWED_HOSTS must list this site's host names (no '*') when DEBUG is off"
        )

INSTALLED_APPS = [
    "django.contrib.admin",
    "django.contrib.auth",
    "django.contrib.contenttypes",
    "django.contrib.sessions",
    "django.contrib.messages",
    "django.contrib.staticfiles",
    "rest_framework",
    "rest_framework.authtoken",
    "django_filters",
    "drf_spectacular",
    "drf_spectacular_sidecar",
    "django_celery_beat",
    "ladder.accounts",
    "ladder.ladders",
    "ladder.bots",
    "ladder.matches",
    "ladder.ratings",
    "ladder.fleet",
    "ladder.tournaments",
    "ladder.versus",
    "ladder.web",
    "axes",
    "django_prometheus",
]

MIDDLEWARE = [
    # First and last: django-prometheus times every request and counts it by view and status.
    "django_prometheus.middleware.PrometheusBeforeMiddleware",
    # /health/live/, /health/ready/ and /metrics/ for probes and Prometheus, which reach the
    # process by its own address: answered before host validation and HTTPS redirects.
    "ladder.operations.middleware.OperationsMiddleware",
    "django.middleware.security.SecurityMiddleware",
    # Oversized bodies are refused (413) from Content-Length before anything is read.
    "ladder.core.body_limits.BodySizeLimitMiddleware",
    # Static files straight from the WSGI process (compressed, cache-forever hashed names), so
    # the site needs no separate web server for them; run ``collectstatic`` when deploying.
    "whitenoise.middleware.WhiteNoiseMiddleware",
    "django.contrib.sessions.middleware.SessionMiddleware",
    "django.middleware.common.CommonMiddleware",
    # Answers a `monsoon` client whose kit is not the engine this server runs with a warning.
    "ladder.core.kit_version.KitVersionMiddleware",
    "django.middleware.csrf.CsrfViewMiddleware",
    "django.contrib.auth.middleware.AuthenticationMiddleware",
    "django.contrib.messages.middleware.MessageMiddleware",
    # A decision on the user's organiser request becomes a message on their next page.
    "ladder.web.notices.DecisionNoticeMiddleware",
    "django.middleware.clickjacking.XFrameOptionsMiddleware",
    # Last: turns a django-axes lockout into the 429 of ladder/accounts/lockout.py.
    "axes.middleware.AxesMiddleware",
    # An API method an endpoint lacks is a 405 before DRF asks for credentials (a 401 said
    # the method existed).
    "ladder.api.methods.ApiMethodNotAllowedMiddleware",
    "django_prometheus.middleware.PrometheusAfterMiddleware",
]
# Brute force: django-axes counts failed logins (API token, web login, admin login) in the
# database per (address, user name) pair and per address over every name, each with its own
# limit (ladder/accounts/lockout.py); past one, that pair or address is refused for the cool-off.
AUTHENTICATION_BACKENDS = [
    "ladder.accounts.backends.LockoutBackend",
    "django.contrib.auth.backends.ModelBackend",
]
MONSOON_LOGIN_FAILURE_LIMIT = env_int("MONSOON_LOGIN_FAILURE_LIMIT")
MONSOON_LOGIN_ADDRESS_FAILURE_LIMIT = env_int(
    "MONSOON_LOGIN_ADDRESS_FAILURE_LIMIT", 5 * MONSOON_LOGIN_FAILURE_LIMIT
)
AXES_LOCKOUT_PARAMETERS = "ladder.accounts.lockout.lockout_parameters"
AXES_FAILURE_LIMIT = "ladder.accounts.lockout.failure_limit"
AXES_COOLOFF_TIME = timedelta(minutes=env_int("MONSOON_LOGIN_COOLOFF_MINUTES"))
# A refused attempt adds no failure and does not move the lockout's end.
AXES_RESET_COOL_OFF_ON_FAILURE_DURING_LOCKOUT = False
# A success forgets its own pair's failures only (lockout.forget_the_pairs_failures).
AXES_RESET_ON_SUCCESS = False
AXES_LOCKOUT_CALLABLE = "ladder.accounts.lockout.lockout_response"
# Cut to the attempt record's 255 characters: a longer name is an ordinary failed login.
AXES_USERNAME_CALLABLE = "ladder.accounts.lockout.attempted_username"
# The client's address: REMOTE_ADDR, unless MONSOON_TRUSTED_PROXIES (how many proxies append to
# X-Forwarded-For in front of gunicorn) says the header can be believed; it is spoofable otherwise.
_TRUSTED_PROXIES = env_int("MONSOON_TRUSTED_PROXIES")
AXES_IPWARE_META_PRECEDENCE_ORDER = (
    ("HTTP_X_FORWARDED_FOR", "REMOTE_ADDR") if _TRUSTED_PROXIES else ("REMOTE_ADDR",)
)
AXES_IPWARE_PROXY_COUNT = _TRUSTED_PROXIES or None

ROOT_URLCONF = "ladder.urls"
LOGIN_URL = "web:login"
LOGIN_REDIRECT_URL = "web:my-bots"
LOGOUT_REDIRECT_URL = "web:home"

# Mail: only password reset links are sent. Without EMAIL_HOST the message goes to the web
# process's log (the console backend), which is what a developer or the demo wants.
EMAIL_HOST = env_str("EMAIL_HOST")
EMAIL_BACKEND = env_str(
    "EMAIL_BACKEND",
    "django.core.mail.backends.smtp.EmailBackend"
    if EMAIL_HOST
    else "django.core.mail.backends.console.EmailBackend",
)
EMAIL_PORT = env_int("EMAIL_PORT")
EMAIL_HOST_USER = env_str("EMAIL_HOST_USER")
EMAIL_HOST_PASSWORD = env_str("EMAIL_HOST_PASSWORD")
EMAIL_USE_TLS = env_bool("EMAIL_USE_TLS")
DEFAULT_FROM_EMAIL = env_str("DEFAULT_FROM_EMAIL")
PASSWORD_RESET_TIMEOUT = env_int("PASSWORD_RESET_TIMEOUT")
WSGI_APPLICATION = "ladder.wsgi.application"
AUTH_USER_MODEL = "accounts.User"

TEMPLATES = [
    {
        "BACKEND": "django.template.backends.django.DjangoTemplates",
        "DIRS": [],
        "APP_DIRS": True,
        "OPTIONS": {
            "context_processors": [
                "django.template.context_processors.request",
                "django.contrib.auth.context_processors.auth",
                "django.contrib.messages.context_processors.messages",
            ]
        },
    }
]

DATABASES = {
    "default": dj_database_url.parse(
        env_str("DATABASE_URL", f"sqlite:///{BASE_DIR / 'db.sqlite3'}"),
        conn_max_age=env_int("DATABASE_CONN_MAX_AGE"),
    )
}
DEFAULT_AUTO_FIELD = "django.db.models.BigAutoField"

# SQLite serves the one-command demo and a developer's machine, where the web process, two worker
# processes and beat all write to one file. Rollback journals make readers and writers block each
# other and a deferred transaction that later wants to write fails at once with "database is
# locked"; WAL lets readers run beside the one writer, IMMEDIATE takes the write lock when the
# transaction starts (so it waits in the busy timeout instead of failing mid-way), and the timeout
# gives a writer time to finish. PostgreSQL needs none of this.
if DATABASES["default"]["ENGINE"] == "django.db.backends.sqlite3":
    DATABASES["default"]["OPTIONS"] = {
        "init_command": "PRAGMA journal_mode=WAL; PRAGMA synchronous=NORMAL;",
        "transaction_mode": "IMMEDIATE",
        "timeout": env_int("SQLITE_BUSY_TIMEOUT"),
        **DATABASES["default"].get("OPTIONS", {}),
    }

_REDIS_CACHE_URL = env_str("CACHE_URL")
CACHES = {
    "default": (
        {"BACKEND": "django.core.cache.backends.redis.RedisCache", "LOCATION": _REDIS_CACHE_URL}
        if _REDIS_CACHE_URL
        else {"BACKEND": "django.core.cache.backends.locmem.LocMemCache"}
    )
}

AUTH_PASSWORD_VALIDATORS = [
    {"NAME": "django.contrib.auth.password_validation.UserAttributeSimilarityValidator"},
    {"NAME": "django.contrib.auth.password_validation.MinimumLengthValidator"},
    {"NAME": "django.contrib.auth.password_validation.CommonPasswordValidator"},
]

LANGUAGE_CODE = "en-gb"
TIME_ZONE = "UTC"
USE_I18N = True
USE_TZ = True

STATIC_URL = "/static/"
STATIC_ROOT = env_path("STATIC_ROOT", BASE_DIR / "staticfiles")
MEDIA_URL = "media/"
MEDIA_ROOT = env_path("MEDIA_ROOT", BASE_DIR / "media")

# Bot artifacts live in Django storage: the filesystem by default, any S3-compatible store when a
# bucket is configured (django-storages reads the AWS_* variables itself).
_S3_BUCKET = env_str("AWS_STORAGE_BUCKET_NAME")
_S3_ENDPOINT = env_str("AWS_S3_ENDPOINT_URL") or None
STORAGES = {
    "default": (
        {
            "BACKEND": "storages.backends.s3.S3Storage",
            "OPTIONS": {
                "bucket_name": _S3_BUCKET,
                "endpoint_url": _S3_ENDPOINT,
                "file_overwrite": False,
            },
        }
        if _S3_BUCKET
        else {"BACKEND": "django.core.files.storage.FileSystemStorage"}
    ),
    "staticfiles": {"BACKEND": "whitenoise.storage.CompressedManifestStaticFilesStorage"},
}
# Game logs (zstd objects named after their match, see ladder/matches/logstore.py): a bucket of
# their own (MATCH_LOG_BUCKET), else the artifacts' bucket under match-logs/, else a folder.
# A retried result overwrites its match's object, hence overwrite on.
_OWN_LOG_BUCKET = env_str("MATCH_LOG_BUCKET")
_LOG_BUCKET = _OWN_LOG_BUCKET or _S3_BUCKET
MATCH_LOG_ROOT = env_path("MATCH_LOG_ROOT", MEDIA_ROOT / "match-logs")
STORAGES["match_logs"] = (
    {
        "BACKEND": "storages.backends.s3.S3Storage",
        "OPTIONS": {
            "bucket_name": _LOG_BUCKET,
            "endpoint_url": _S3_ENDPOINT,
            "location": "" if _OWN_LOG_BUCKET else "match-logs",
            "file_overwrite": True,
            "default_acl": "private",
        },
    }
    if _LOG_BUCKET
    else {
        "BACKEND": "django.core.files.storage.FileSystemStorage",
        "OPTIONS": {"location": MATCH_LOG_ROOT, "allow_overwrite": True, "base_url": None},
    }
)

if not DEBUG:
    SESSION_COOKIE_SECURE = env_bool("SESSION_COOKIE_SECURE")
    CSRF_COOKIE_SECURE = env_bool("CSRF_COOKIE_SECURE")
CSRF_TRUSTED_ORIGINS = env_list("CSRF_TRUSTED_ORIGINS")
# HTTPS: where TLS ends at a reverse proxy, it sets X-Forwarded-Proto and the redirect and HSTS
# are switched on here (off by default so a plain-HTTP local deployment still works).
if env_bool("USE_X_FORWARDED_PROTO"):
    SECURE_PROXY_SSL_HEADER = ("HTTP_X_FORWARDED_PROTO", "https")
SECURE_SSL_REDIRECT = env_bool("SECURE_SSL_REDIRECT")
SECURE_HSTS_SECONDS = env_int("SECURE_HSTS_SECONDS")
# Site-wide decisions (every subdomain HTTPS-only; browsers' preload list), hence off by default.
SECURE_HSTS_INCLUDE_SUBDOMAINS = env_bool("SECURE_HSTS_INCLUDE_SUBDOMAINS")
SECURE_HSTS_PRELOAD = env_bool("SECURE_HSTS_PRELOAD")

REST_FRAMEWORK = {
    "DEFAULT_AUTHENTICATION_CLASSES": [
        "rest_framework.authentication.TokenAuthentication",
        "rest_framework.authentication.SessionAuthentication",
    ],
    "DEFAULT_PERMISSION_CLASSES": ["rest_framework.permissions.IsAuthenticatedOrReadOnly"],
    "DEFAULT_FILTER_BACKENDS": ["ladder.api.filters.StrictFilterBackend"],
    "DEFAULT_PARSER_CLASSES": [
        "ladder.api.parsers.SafeJSONParser",
        "rest_framework.parsers.FormParser",
        "rest_framework.parsers.MultiPartParser",
    ],
    "DEFAULT_PAGINATION_CLASS": "ladder.api.pagination.StrictPageNumberPagination",
    "PAGE_SIZE": 50,
    "DEFAULT_SCHEMA_CLASS": "ladder.api.schema.MonsoonAutoSchema",
    "EXCEPTION_HANDLER": "ladder.api.exceptions.api_exception_handler",
    "DEFAULT_THROTTLE_RATES": {
        "uploads": env_str("THROTTLE_UPLOADS"),
        "upload_attempts": env_str("THROTTLE_UPLOAD_ATTEMPTS"),
        "challenges": env_str("THROTTLE_CHALLENGES"),
        "signups": env_str("THROTTLE_SIGNUPS"),
        "bots": env_str("THROTTLE_BOTS"),
        "password_resets": env_str("THROTTLE_PASSWORD_RESETS"),
    },
}

SPECTACULAR_SETTINGS = {
    "TITLE": "Monsoon ladder API",
    "DESCRIPTION": "Bots, bot versions, ladders, standings, ratings, matches and challenges.",
    "VERSION": "1",
    "SERVE_INCLUDE_SCHEMA": False,
    # Swagger UI and Redoc from drf-spectacular-sidecar's static files, never from a CDN:
    # the docs must work offline and must not run whatever a CDN serves at "@latest".
    "SWAGGER_UI_DIST": "SIDECAR",
    "SWAGGER_UI_FAVICON_HREF": "SIDECAR",
    "REDOC_DIST": "SIDECAR",
    "COMPONENT_SPLIT_REQUEST": True,
    # One content type per request body: JSON (uploads declare multipart themselves). The API
    # still reads form bodies (the documented curl examples), but a schema listing JSON, form
    # and multipart with one shape made generated clients send each field three ways at once.
    "PARSER_WHITELIST": ["ladder.api.parsers.SafeJSONParser"],
    "ENUM_NAME_OVERRIDES": {
        "MatchStatusEnum": "ladder.matches.models.Match.Status",
        "MatchKindEnum": "ladder.matches.models.Match.Kind",
        "VersionStatusEnum": "ladder.bots.models.BotVersion.Status",
        "VersionKindEnum": "ladder.bots.models.BotVersion.Kind",
        "TournamentStatusEnum": "ladder.tournaments.models.Tournament.Status",
        "TournamentFormatEnum": "ladder.tournaments.models.Tournament.Format",
        "EntrantStatusEnum": "ladder.tournaments.models.Entrant.Status",
        "RoundStatusEnum": "ladder.tournaments.models.Round.Status",
    },
}

# --- Monsoon ------------------------------------------------------------------------------------
# Upload limits (zip bombs and oversized uploads are refused before anything is stored).
MONSOON_UPLOAD_MAX_BYTES = env_int("MONSOON_UPLOAD_MAX_BYTES")
MONSOON_UPLOAD_MAX_FILES = env_int("MONSOON_UPLOAD_MAX_FILES")
MONSOON_UPLOAD_MAX_UNPACKED_BYTES = env_int("MONSOON_UPLOAD_MAX_UNPACKED_BYTES")
# Request bodies: every request but a bot upload (ladder/core/body_limits.py) is at most this.
MONSOON_REQUEST_MAX_BYTES = env_int("MONSOON_REQUEST_MAX_BYTES")
DATA_UPLOAD_MAX_MEMORY_SIZE = MONSOON_REQUEST_MAX_BYTES
DATA_UPLOAD_MAX_NUMBER_FIELDS = 200
# --- Workers (Celery) ----------------------------------------------------------------------------
# The broker the web process sends tasks to and the workers consume from: Redis in production,
# ``filesystem://`` for the one-command demo. Without one, nothing is sent anywhere: matches and
# versions wait in the database (tests, a web-only development server).
CELERY_BROKER_URL = env_str("CELERY_BROKER_URL")
_WORKERS = bool(CELERY_BROKER_URL)
# The filesystem transport keeps each message as a file in a folder every process on this host
# shares (``MONSOON_BROKER_FOLDER``): no server, so ``make demo`` needs nothing but Python. It
# reads relative folder names against each process's working directory, so the folders are
# given absolute and created here; one host only, which is why production uses Redis.
_BROKER_FOLDER = env_str("MONSOON_BROKER_FOLDER")
if CELERY_BROKER_URL.startswith("filesystem://"):
    if not _BROKER_FOLDER:
        raise ImproperlyConfigured(
            "CELERY_BROKER_URL=filesystem:// needs MONSOON_BROKER_FOLDER (a folder shared by the "
            "web process, the workers and beat)"
        )
    _broker_root = Path(_BROKER_FOLDER).resolve()
    _BROKER_FOLDERS = {
        "data_folder_in": _broker_root / "queue",
        "data_folder_out": _broker_root / "queue",
        "processed_folder": _broker_root / "processed",
        "control_folder": _broker_root / "control",
    }
    for _folder in _BROKER_FOLDERS.values():
        _folder.mkdir(parents=True, exist_ok=True)
    _BROKER_OPTIONS: dict[str, object] = {k: str(v) for k, v in _BROKER_FOLDERS.items()}
    _BROKER_OPTIONS["store_processed"] = False
    # An empty queue folder is listed again after this many seconds (kombu's default is 1 s).
    _BROKER_OPTIONS["polling_interval"] = 0.25
else:
    _BROKER_OPTIONS = {}
# The worker layer is one Django app (workers/apps.py), installed when a broker is configured: it
# loads the workers' Celery app, through which the ladder sends ids by task name after commit
# (ladder/lifecycle/queue.py). The ladder never imports it; without a broker ids wait in the
# database.
if _WORKERS:
    INSTALLED_APPS.append("workers.apps.WorkersConfig")
# How many ranked matches the matchmaker keeps waiting (the workers' capacity).
MONSOON_QUEUE_TARGET = env_int("MONSOON_QUEUE_TARGET")
MONSOON_MATCH_MAX_ATTEMPTS = env_int("MONSOON_MATCH_MAX_ATTEMPTS")
MONSOON_CHALLENGES_PER_HOUR = env_int("MONSOON_CHALLENGES_PER_HOUR")
# Rows a user may create per hour, counted exactly under a lock on their row
# (ladder/core/quotas.py); the THROTTLE_* request rates above are a cheaper first guard.
MONSOON_BOTS_PER_HOUR = env_int("MONSOON_BOTS_PER_HOUR")
MONSOON_UPLOADS_PER_HOUR = env_int("MONSOON_UPLOADS_PER_HOUR")
# Version tests (ladder.versus): running tests and new tests per user, matches in flight per test
# (pairs of two), the default and largest game caps.
MONSOON_VERSUS_RUNNING_PER_USER = env_int("MONSOON_VERSUS_RUNNING_PER_USER")
MONSOON_VERSUS_PER_DAY = env_int("MONSOON_VERSUS_PER_DAY")
MONSOON_VERSUS_PAIRS_IN_FLIGHT = env_int("MONSOON_VERSUS_PAIRS_IN_FLIGHT")
MONSOON_VERSUS_DEFAULT_MAX_GAMES = env_int("MONSOON_VERSUS_DEFAULT_MAX_GAMES")
MONSOON_VERSUS_MAX_GAMES = env_int("MONSOON_VERSUS_MAX_GAMES")
MONSOON_BOOTSTRAP_SAMPLES = env_int("MONSOON_BOOTSTRAP_SAMPLES")
# Tournaments: re-runs of a match that failed on infrastructure before the tournament pauses, and
# bootstrap replicates behind P(first) and the rank intervals.
MONSOON_TOURNAMENT_MATCH_RERUNS = env_int("MONSOON_TOURNAMENT_MATCH_RERUNS")
# The most matches one tournament may plan: bounds games_per_pairing and Swiss rounds.
MONSOON_TOURNAMENT_MAX_MATCHES = env_int("MONSOON_TOURNAMENT_MAX_MATCHES")
MONSOON_TOURNAMENT_BOOTSTRAP_SAMPLES = env_int("MONSOON_TOURNAMENT_BOOTSTRAP_SAMPLES")
# How often an open tournament page polls its live fragment (progress, standings, rounds).
MONSOON_TOURNAMENT_REFRESH_SECONDS = env_int("MONSOON_TOURNAMENT_REFRESH_SECONDS")
MONSOON_STDERR_MAX_BYTES = env_int("MONSOON_STDERR_MAX_BYTES")
# Seconds the public standings and match lists may be served from cache (0: never).
MONSOON_API_CACHE_SECONDS = env_int("MONSOON_API_CACHE_SECONDS")
# A running match's lease: the worker renews it every quarter of this while it plays; a match
# whose lease ran out (its worker died) goes back to the queue as an infrastructure failure.
MONSOON_MATCH_LEASE_SECONDS = env_int("MONSOON_MATCH_LEASE_SECONDS")
# A match or version still waiting this long after it was queued is sent to the broker again
# (the broker may have lost the message: Redis restarted without persistence). Claiming is
# conditional, so a second message for the same id does nothing.
MONSOON_RESEND_AFTER_SECONDS = env_int("MONSOON_RESEND_AFTER_SECONDS")
# A version stuck in ``validating`` this long (its worker died) goes back to ``pending``.
MONSOON_VALIDATION_LEASE_SECONDS = env_int("MONSOON_VALIDATION_LEASE_SECONDS")
# A validation that fails the same way this many times in a row (not the bot's doing: e.g. its
# stored artifact is missing) rejects the version with that reason instead of retrying forever.
MONSOON_VALIDATION_SAME_FAILURES = env_int("MONSOON_VALIDATION_SAME_FAILURES")
# Each seat's thinking time for a whole match (on top of the per-decision move time and bank): a
# seat that uses it up forfeits (``thinking_budget``) and the match is recorded as usual.
MONSOON_MATCH_THINKING_BUDGET_SECONDS: float = env_int("MONSOON_MATCH_THINKING_BUDGET_SECONDS")
# Start-up time each bot gets to answer ``ready`` (the runner's default time controls).
MONSOON_MATCH_STARTUP_SECONDS = 10.0
# Decisions are charged the seat's CPU time; one is also charged at least its wall-clock time
# over this factor, so a bot that waits instead of computing ends after this many times its
# allowance (docs/bot-protocol.md).
MONSOON_DECISION_WALL_FACTOR = env_int("MONSOON_DECISION_WALL_FACTOR")
# Hard wall-clock limit of one match task, computed from the games' decision bounds, the player
# counts, the budgets and the wall factor (ladder/core/match_bounds.py, docs/workers.md): only a
# fault of the host can exceed it. The soft limit is the bound itself, the hard one a minute
# more; a match that overruns is an infrastructure failure and goes back to the queue.
MONSOON_MATCH_TIME_LIMIT = worker_time_limit_s(
    startup_s=MONSOON_MATCH_STARTUP_SECONDS,
    budget_s=MONSOON_MATCH_THINKING_BUDGET_SECONDS,
    wall_factor=MONSOON_DECISION_WALL_FACTOR,
)
# How often a worker publishes a running match's moves for live spectators (0: never). A match
# shorter than this is never published: its log follows a moment later.
MONSOON_LIVE_INTERVAL_SECONDS = env_float("MONSOON_LIVE_INTERVAL_SECONDS")
# Where a worker keeps unpacked artifacts (by sha256); must be readable by the seat uids.
MONSOON_ARTIFACT_CACHE = env_path("MONSOON_ARTIFACT_CACHE", BASE_DIR / ".cache" / "artifacts")
# "bwrap" (always, on a ladder) or "none": bots as plain processes, for running only your own
# bots on a machine without bubblewrap. Workers log a warning for every unsandboxed match.
MONSOON_SANDBOX = env_str("MONSOON_SANDBOX")
if MONSOON_SANDBOX not in ("bwrap", "none"):
    raise ImproperlyConfigured(
        f"MONSOON_SANDBOX must be 'bwrap' or 'none', not {MONSOON_SANDBOX!r}"
    )

# A production deployment (DEBUG off) refuses settings that only make sense on one developer's
# machine: bots outside the sandbox, and SQLite, which a worker on another host cannot reach and
# which serialises every write (``MONSOON_ALLOW_SQLITE=1`` for a deliberate single-host setup).
if not DEBUG:
    if MONSOON_SANDBOX == "none":
        raise ImproperlyConfigured(
            "MONSOON_SANDBOX=none runs uploaded bots unsandboxed; it is refused when DEBUG is off"
        )
    if env_bool("MONSOON_ALLOW_UNBOUNDED_SEATS"):
        raise ImproperlyConfigured(
            "MONSOON_ALLOW_UNBOUNDED_SEATS=1 lets a bot use many times its memory limit; it is "
            "refused when DEBUG is off (workers need per-seat cgroups: docs/deploy.md)"
        )
    if DATABASES["default"]["ENGINE"] == "django.db.backends.sqlite3" and not env_bool(
        "MONSOON_ALLOW_SQLITE"
    ):
        raise ImproperlyConfigured(
            "DATABASE_URL must name a PostgreSQL database when DEBUG is off (SQLite only with "
            "MONSOON_ALLOW_SQLITE=1)"
        )
    # Throttles and the challenge budget count in the cache: per process without a shared one,
    # so N gunicorn workers would allow N times the limits.
    if not _REDIS_CACHE_URL and not env_bool("MONSOON_ALLOW_LOCAL_CACHE"):
        raise ImproperlyConfigured(
            "CACHE_URL must name a shared (redis://) cache when DEBUG is off: throttles count "
            "per process without one (MONSOON_ALLOW_LOCAL_CACHE=1 for a single-process setup)"
        )
# --- Operations (docs/deploy.md, "Operations") ---------------------------------------------------
# Each readiness check (database, cache, broker) reports "no answer" after this many seconds.
MONSOON_HEALTH_TIMEOUT_SECONDS = env_float("MONSOON_HEALTH_TIMEOUT_SECONDS")
# Who may read /metrics/: requests straight from these networks (never through a proxy), or any
# request with "Authorization: Bearer <MONSOON_METRICS_TOKEN>" when a token is set.
MONSOON_METRICS_ALLOWED_NETWORKS = env_list(
    "MONSOON_METRICS_ALLOWED_NETWORKS", ["127.0.0.0/8", "::1/128"]
)
MONSOON_METRICS_TOKEN = env_str("MONSOON_METRICS_TOKEN")
for _network in MONSOON_METRICS_ALLOWED_NETWORKS:
    try:
        ipaddress.ip_network(_network, strict=False)
    except ValueError:
        raise ImproperlyConfigured(
            f"MONSOON_METRICS_ALLOWED_NETWORKS: {_network!r} is not a network (10.0.0.0/8, ::1)"
        ) from None
# A worker's main process serves its pool's metrics (match durations, decisions, seat memory and
# CPU) on this port for Prometheus (0: none). The pool processes write them to the folder named by
# PROMETHEUS_MULTIPROC_DIR (prometheus-client's multiprocess mode), which the worker needs then.
MONSOON_WORKER_METRICS_PORT = env_int("MONSOON_WORKER_METRICS_PORT")
MONSOON_WORKER_METRICS_ADDRESS = env_str("MONSOON_WORKER_METRICS_ADDRESS")
if MONSOON_WORKER_METRICS_PORT and not env_str("PROMETHEUS_MULTIPROC_DIR"):
    raise ImproperlyConfigured(
        "MONSOON_WORKER_METRICS_PORT needs PROMETHEUS_MULTIPROC_DIR (a folder of the worker's own) "
        "so that every pool process's metrics are served"
    )
# "text" (the default) or "json": one JSON object a line (python-json-logger), with match_id,
# version_ids and worker on every line written while a worker plays a match.
MONSOON_LOG_FORMAT = env_str("MONSOON_LOG_FORMAT").strip().lower()
if MONSOON_LOG_FORMAT not in ("text", "json"):
    raise ImproperlyConfigured(
        f"MONSOON_LOG_FORMAT must be 'text' or 'json', not {MONSOON_LOG_FORMAT!r}"
    )
MONSOON_LOG_LEVEL = env_str("MONSOON_LOG_LEVEL").strip().upper()
LOGGING = {
    "version": 1,
    "disable_existing_loggers": False,
    "filters": {"match": {"()": "ladder.operations.logcontext.MatchContextFilter"}},
    "formatters": {
        "text": {
            "format": "[%(asctime)s: %(levelname)s/%(processName)s] %(name)s: %(message)s%(match)s"
        },
        "json": {"()": "ladder.operations.logcontext.json_formatter"},
    },
    "handlers": {
        "console": {
            "()": "ladder.operations.logcontext.CurrentStderrHandler",
            "formatter": MONSOON_LOG_FORMAT,
            "filters": ["match"],
        }
    },
    "root": {"handlers": ["console"], "level": MONSOON_LOG_LEVEL},
    # Django's own console handler (DEBUG only) would print its lines a second time.
    "loggers": {"django": {"handlers": [], "propagate": True}},
}
# Seconds between worker heartbeats in the fleet table; a worker silent for three is shown gone.
MONSOON_WORKER_HEARTBEAT_SECONDS = env_int("MONSOON_WORKER_HEARTBEAT_SECONDS")
# A worker still shutting down this long after its consumer stopped exits hard (workers/fleet.py):
# long enough for its running matches to finish.
MONSOON_WORKER_STOP_GRACE_SECONDS = env_int(
    "MONSOON_WORKER_STOP_GRACE_SECONDS", MONSOON_MATCH_TIME_LIMIT + 120
)
MONSOON_MATCHMAKE_SECONDS = env_int("MONSOON_MATCHMAKE_SECONDS")
MONSOON_REFIT_SECONDS = env_int("MONSOON_REFIT_SECONDS")
MONSOON_REAP_SECONDS = env_int("MONSOON_REAP_SECONDS")
MONSOON_TOURNAMENT_TICK_SECONDS = env_int("MONSOON_TOURNAMENT_TICK_SECONDS")

# Celery reads every CELERY_* setting (workers/celery_app.py). Results live in the database,
# so there is no result backend; a task is acknowledged only when it has finished, one task
# per worker process is prefetched, and a task whose worker process died is re-queued.
CELERY_TASK_IGNORE_RESULT = True
CELERY_RESULT_BACKEND = None
CELERY_TASK_ACKS_LATE = True
CELERY_TASK_REJECT_ON_WORKER_LOST = True
CELERY_WORKER_PREFETCH_MULTIPLIER = 1
# Celery's Django fix-up would close the database connection around every task (a new PostgreSQL
# connection per match); it closes them only every this many tasks, and workers/db_reuse.py
# closes broken or DATABASE_CONN_MAX_AGE-old ones at each task's start and end, as Django does
# around a request.
CELERY_DB_REUSE_MAX = 1_000_000
# Workers' seat cgroups: an empty cgroup v2 group delegated to the worker (workers/apps.py hands
# it to workers/cgroups.py at start-up); empty: the worker's own root group, when it has one.
MONSOON_CGROUP_PARENT = env_str("MONSOON_CGROUP_PARENT")
# A worker's match slots (pool processes); unset: one per CPU. ``-c`` on the command line wins.
CELERY_WORKER_CONCURRENCY = env_int("CELERY_WORKER_CONCURRENCY") or None
CELERY_TASK_DEFAULT_QUEUE = "default"
# A match goes to a free worker that holds warm seats for its versions when there is one (its
# node's direct queue, ``<node>.dq2``, which every worker consumes: CELERY_WORKER_DIRECT), else
# to the shared queue of the table below (workers/routing.py; the router runs in the sender).
CELERY_WORKER_DIRECT = True
CELERY_TASK_ROUTES = [
    "workers.routing.route_task",
    {
        "monsoon.run_match": {"queue": "matches"},
        "monsoon.validate_bot_version": {"queue": "validation"},
    },
]
CELERY_TASK_SERIALIZER = "json"
CELERY_ACCEPT_CONTENT = ["json"]
CELERY_WORKER_SEND_TASK_EVENTS = env_bool("CELERY_WORKER_SEND_TASK_EVENTS")  # Flower
CELERY_TASK_SEND_SENT_EVENT = True
CELERY_BROKER_CONNECTION_RETRY_ON_STARTUP = True
# Redis hands an unacknowledged task to another worker after this long; it must exceed the
# longest task, or a slow match would be delivered twice (harmless, but wasted work).
# Socket timeouts bound every blocking broker call, so a silent broker cannot wedge a worker.
CELERY_BROKER_TRANSPORT_OPTIONS = {
    "visibility_timeout": MONSOON_MATCH_TIME_LIMIT + 600,
    "socket_timeout": 15,
    "socket_connect_timeout": 5,
    **_BROKER_OPTIONS,
}
# A web request that enqueues while the broker is down must not hang: a short publish retry,
# then the id waits in the database for the reaper to send it again.
CELERY_TASK_PUBLISH_RETRY_POLICY = {
    "max_retries": 2,
    "interval_start": 0,
    "interval_step": 0.5,
    "interval_max": 1,
}
CELERY_BEAT_SCHEDULER = "django_celery_beat.schedulers:DatabaseScheduler"
CELERY_BEAT_SCHEDULE = {
    "matchmake": {"task": "monsoon.matchmake", "schedule": float(MONSOON_MATCHMAKE_SECONDS)},
    "reap": {"task": "monsoon.reap", "schedule": float(MONSOON_REAP_SECONDS)},
    "refit-ratings": {"task": "monsoon.refit_ratings", "schedule": float(MONSOON_REFIT_SECONDS)},
    "tournaments": {
        "task": "monsoon.tournaments_tick",
        "schedule": float(MONSOON_TOURNAMENT_TICK_SECONDS),
    },
    "version-tests": {"task": "monsoon.versus_sweep", "schedule": 60.0},
}
