"""Settings for the test suite: production settings with test-only secrets and PostgreSQL.

``DEBUG`` stays off so the tests exercise the production code paths.
"""

import os
from pathlib import Path

os.environ.setdefault("SECRET_KEY", "test-only-secret-key-0123456789abcdefghijklmnopqrstuvwxyz")
os.environ.setdefault("ALLOWED_HOSTS", "testserver,localhost,127.0.0.1")
os.environ.setdefault("DATABASE_URL", "postgres://postgres@127.0.0.1:5432/monsoon_test")
os.environ.setdefault("SESSION_COOKIE_SECURE", "0")
os.environ.setdefault("CSRF_COOKIE_SECURE", "0")
os.environ.setdefault("MONSOON_ALLOW_LOCAL_CACHE", "1")  # one test process: its memory is shared
# Fixtures create many bots and versions for one user; the tests of these budgets set their own.
os.environ.setdefault("MONSOON_BOTS_PER_HOUR", "1000")
os.environ.setdefault("MONSOON_UPLOADS_PER_HOUR", "1000")

from ladder.settings import *  # noqa: F403

MONSOON_API_CACHE_SECONDS = 0  # tests read their own writes at once
PASSWORD_HASHERS = ["django.contrib.auth.hashers.MD5PasswordHasher"]
# The manifest of hashed static names exists only after ``collectstatic``; tests use plain names.
STORAGES = {
    **STORAGES,  # noqa: F405
    "staticfiles": {"BACKEND": "django.contrib.staticfiles.storage.StaticFilesStorage"},
}
WHITENOISE_AUTOREFRESH = True  # serve from the apps' static folders, no collectstatic needed
WHITENOISE_USE_FINDERS = True
# A worker process started by the end-to-end tests reads the same folder through MEDIA_ROOT.
_MEDIA_FOLDER = (
    "media-" + os.environ["PYTEST_XDIST_WORKER"] if "PYTEST_XDIST_WORKER" in os.environ else "media"
)
MEDIA_ROOT = Path(os.environ.get("MEDIA_ROOT", BASE_DIR / "test-artifacts" / _MEDIA_FOLDER))  # noqa: F405
# Game logs beside it, unless a bucket is configured: a worker the end-to-end tests start on a
# host of its own (tests/e2e/test_remote_worker.py) shares no disk and writes them to S3.
if not (os.environ.get("MATCH_LOG_BUCKET") or os.environ.get("AWS_STORAGE_BUCKET_NAME")):
    STORAGES["match_logs"] = {
        "BACKEND": "django.core.files.storage.FileSystemStorage",
        "OPTIONS": {"location": MEDIA_ROOT / "match-logs", "allow_overwrite": True},
    }

# One test database per checkout: several worktrees (or CI and a developer) on one PostgreSQL
# server never drop each other's test database.
import hashlib  # noqa: E402

DATABASES["default"]["TEST"] = {  # noqa: F405
    "NAME": "test_monsoon_" + hashlib.sha256(str(BASE_DIR).encode()).hexdigest()[:10],  # noqa: F405
}

# The end-to-end tests run their own Redis (they restart it on purpose) on a port of this
# checkout's, and the workers they start get its URL; nothing is sent to it unless a test
# switches the enqueue hooks on.
# Under pytest-xdist each test process (gw0, gw1, ...) gets its own port and media folder too;
# pytest-django gives it its own test database (``..._gw0``). A worker process an e2e test
# starts inherits ``PYTEST_XDIST_WORKER`` and so reads the same values as its test.
_XDIST_WORKER = os.environ.get("PYTEST_XDIST_WORKER", "")
_CHECKOUT = hashlib.sha256(f"{BASE_DIR}:{_XDIST_WORKER}".encode()).hexdigest()  # noqa: F405
E2E_REDIS_PORT = 20000 + int(_CHECKOUT[:6], 16) % 10000
CELERY_BROKER_URL = os.environ.get("CELERY_BROKER_URL") or f"redis://127.0.0.1:{E2E_REDIS_PORT}/0"
