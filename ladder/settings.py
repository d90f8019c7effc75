"""Django settings, all from environment variables.

The defaults are safe for a developer's machine only when ``DEBUG=1``; with ``DEBUG`` off (the
default) the process refuses to start without a real ``SECRET_KEY`` and ``ALLOWED_HOSTS``, so a
production deployment can never run on a development secret by accident.
"""

from __future__ import annotations

import os
from pathlib import Path

import dj_database_url
from django.core.exceptions import ImproperlyConfigured

BASE_DIR = Path(__file__).resolve().parent.parent

_TRUE = {"1", "true", "yes", "on"}
_FALSE = {"0", "false", "no", "off", ""}


def env_bool(name: str, default: bool) -> bool:
    raw = os.environ.get(name)
    if raw is None:
        return default
    value = raw.strip().lower()
    if value in _TRUE:
        return True
    if value in _FALSE:
        return False
    raise ImproperlyConfigured(f"{name} must be a boolean (1/0, true/false), not {raw!r}")


def env_int(name: str, default: int) -> int:
    raw = os.environ.get(name)
    if raw is None or raw.strip() == "":
        return default
    try:
        return int(raw)
    except ValueError:
        raise ImproperlyConfigured(f"{name} must be an integer, not {raw!r}") from None


def env_list(name: str, default: list[str]) -> list[str]:
    raw = os.environ.get(name)
    if raw is None:
        return default
    return [item.strip() for item in raw.split(",") if item.strip()]


DEBUG = env_bool("DEBUG", False)

_DEV_SECRET_KEY = "insecure-development-key-never-use-in-production"
SECRET_KEY = os.environ.get("SECRET_KEY", _DEV_SECRET_KEY if DEBUG else "")
ALLOWED_HOSTS = env_list("ALLOWED_HOSTS", ["localhost", "127.0.0.1", "[::1]"] if DEBUG else [])

if not DEBUG:
    if not SECRET_KEY or SECRET_KEY == _DEV_SECRET_KEY or len(SECRET_KEY) < 32:
        raise ImproperlyConfigured(
            "SECRET_KEY must be set to a random string of at least 32 characters when DEBUG is off"
        )
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
    "ladder.accounts",
    "ladder.ladders",
    "ladder.bots",
    "ladder.matches",
    "ladder.ratings",
    "ladder.tournaments",
    "ladder.web",
]

MIDDLEWARE = [
    "django.middleware.security.SecurityMiddleware",
    # Static files straight from the WSGI process (compressed, cache-forever hashed names), so
    # the site needs no separate web server for them; run ``collectstatic`` when deploying.
    "whitenoise.middleware.WhiteNoiseMiddleware",
    "django.contrib.sessions.middleware.SessionMiddleware",
    "django.middleware.common.CommonMiddleware",
    "django.middleware.csrf.CsrfViewMiddleware",
    "django.contrib.auth.middleware.AuthenticationMiddleware",
    "django.contrib.messages.middleware.MessageMiddleware",
    "django.middleware.clickjacking.XFrameOptionsMiddleware",
]

ROOT_URLCONF = "ladder.urls"
LOGIN_URL = "web:login"
LOGIN_REDIRECT_URL = "web:my-bots"
LOGOUT_REDIRECT_URL = "web:home"
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
        os.environ.get("DATABASE_URL", f"sqlite:///{BASE_DIR / 'db.sqlite3'}"),
        conn_max_age=env_int("DATABASE_CONN_MAX_AGE", 60),
    )
}
DEFAULT_AUTO_FIELD = "django.db.models.BigAutoField"

_REDIS_CACHE_URL = os.environ.get("CACHE_URL", "")
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
STATIC_ROOT = Path(os.environ.get("STATIC_ROOT", BASE_DIR / "staticfiles"))
MEDIA_URL = "media/"
MEDIA_ROOT = Path(os.environ.get("MEDIA_ROOT", BASE_DIR / "media"))

# Bot artifacts live in Django storage: the filesystem by default, any S3-compatible store when a
# bucket is configured (django-storages reads the AWS_* variables itself).
_S3_BUCKET = os.environ.get("AWS_STORAGE_BUCKET_NAME", "")
STORAGES = {
    "default": (
        {
            "BACKEND": "storages.backends.s3.S3Storage",
            "OPTIONS": {
                "bucket_name": _S3_BUCKET,
                "endpoint_url": os.environ.get("AWS_S3_ENDPOINT_URL") or None,
                "file_overwrite": False,
            },
        }
        if _S3_BUCKET
        else {"BACKEND": "django.core.files.storage.FileSystemStorage"}
    ),
    "staticfiles": {"BACKEND": "whitenoise.storage.CompressedManifestStaticFilesStorage"},
}

if not DEBUG:
    SESSION_COOKIE_SECURE = env_bool("SESSION_COOKIE_SECURE", True)
    CSRF_COOKIE_SECURE = env_bool("CSRF_COOKIE_SECURE", True)
CSRF_TRUSTED_ORIGINS = env_list("CSRF_TRUSTED_ORIGINS", [])
# HTTPS: where TLS ends at a reverse proxy, it sets X-Forwarded-Proto and the redirect and HSTS
# are switched on here (off by default so a plain-HTTP local deployment still works).
if env_bool("USE_X_FORWARDED_PROTO", False):
    SECURE_PROXY_SSL_HEADER = ("HTTP_X_FORWARDED_PROTO", "https")
SECURE_SSL_REDIRECT = env_bool("SECURE_SSL_REDIRECT", False)
SECURE_HSTS_SECONDS = env_int("SECURE_HSTS_SECONDS", 0)

REST_FRAMEWORK = {
    "DEFAULT_AUTHENTICATION_CLASSES": [
        "rest_framework.authentication.TokenAuthentication",
        "rest_framework.authentication.SessionAuthentication",
    ],
    "DEFAULT_PERMISSION_CLASSES": ["rest_framework.permissions.IsAuthenticatedOrReadOnly"],
    "DEFAULT_FILTER_BACKENDS": ["django_filters.rest_framework.DjangoFilterBackend"],
    "DEFAULT_PAGINATION_CLASS": "rest_framework.pagination.PageNumberPagination",
    "PAGE_SIZE": 50,
    "DEFAULT_SCHEMA_CLASS": "drf_spectacular.openapi.AutoSchema",
    "EXCEPTION_HANDLER": "ladder.api.exceptions.api_exception_handler",
    "DEFAULT_THROTTLE_RATES": {
        "uploads": os.environ.get("THROTTLE_UPLOADS", "30/hour"),
        "challenges": os.environ.get("THROTTLE_CHALLENGES", "60/hour"),
    },
}

SPECTACULAR_SETTINGS = {
    "TITLE": "Monsoon ladder API",
    "DESCRIPTION": "Bots, bot versions, ladders, standings, ratings, matches and challenges.",
    "VERSION": "1",
    "SERVE_INCLUDE_SCHEMA": False,
    "COMPONENT_SPLIT_REQUEST": True,
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
MONSOON_UPLOAD_MAX_BYTES = env_int("MONSOON_UPLOAD_MAX_BYTES", 2 * 1024 * 1024)
MONSOON_UPLOAD_MAX_FILES = env_int("MONSOON_UPLOAD_MAX_FILES", 200)
MONSOON_UPLOAD_MAX_UNPACKED_BYTES = env_int("MONSOON_UPLOAD_MAX_UNPACKED_BYTES", 20 * 1024 * 1024)
# The callable that smoke-tests a new bot version in the sandbox ("module:function").  Issue 8
# wires it to the sandboxed runner; without one, versions stay ``pending`` until one is configured.
MONSOON_VERSION_VALIDATOR = os.environ.get("MONSOON_VERSION_VALIDATOR", "")
# Called after commit with the id of a queued match / a pending version ("module:function"): the
# worker layer points these at its Celery tasks.  Empty means nothing is sent anywhere.
MONSOON_ENQUEUE_MATCH = os.environ.get("MONSOON_ENQUEUE_MATCH", "")
MONSOON_ENQUEUE_VALIDATION = os.environ.get("MONSOON_ENQUEUE_VALIDATION", "")
# Called after commit with the id of a match that reached finished or failed: the tournaments
# advance their rounds from it (a beat task calling ``tournaments.services.tick`` is the backstop).
MONSOON_MATCH_OVER = os.environ.get("MONSOON_MATCH_OVER", "ladder.tournaments.services:match_over")
# How many ranked matches the matchmaker keeps waiting (the workers' capacity).
MONSOON_QUEUE_TARGET = env_int("MONSOON_QUEUE_TARGET", 8)
MONSOON_MATCH_MAX_ATTEMPTS = env_int("MONSOON_MATCH_MAX_ATTEMPTS", 3)
MONSOON_CHALLENGES_PER_HOUR = env_int("MONSOON_CHALLENGES_PER_HOUR", 20)
MONSOON_BOOTSTRAP_SAMPLES = env_int("MONSOON_BOOTSTRAP_SAMPLES", 100)
# Tournaments: re-runs of a match that failed on infrastructure before the tournament pauses, and
# bootstrap replicates behind P(first) and the rank intervals.
MONSOON_TOURNAMENT_MATCH_RERUNS = env_int("MONSOON_TOURNAMENT_MATCH_RERUNS", 2)
MONSOON_TOURNAMENT_BOOTSTRAP_SAMPLES = env_int("MONSOON_TOURNAMENT_BOOTSTRAP_SAMPLES", 200)
MONSOON_STDERR_MAX_BYTES = env_int("MONSOON_STDERR_MAX_BYTES", 64 * 1024)
# Seconds the public standings and match lists may be served from cache (0: never).
MONSOON_API_CACHE_SECONDS = env_int("MONSOON_API_CACHE_SECONDS", 2)
