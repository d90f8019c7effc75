"""Whether a ``SECRET_KEY`` is fit for production: read by the settings and a deploy check.

Django signs sessions, password-reset links and CSRF tokens with the key. Its own deploy
check (``security.W009``) only warns about a short key or one of too few distinct characters,
and it cannot know the placeholders people copy from example files; with ``DEBUG`` off the
settings refuse all of these at start-up, and ``check --deploy`` reports them as an error.
"""

from __future__ import annotations

from django.conf import settings
from django.core.checks import CheckMessage, Error

# Django's W009 thresholds.
MIN_LENGTH = 50
MIN_DISTINCT = 5
MAKE_ONE = "python -c 'import secrets; print(secrets.token_urlsafe(50))'"
DEVELOPMENT_KEY = "insecure-development-key-never-use-in-production"
# Keys published in this project's files, and the beginnings of keys that are known templates.
KNOWN_PLACEHOLDERS = frozenset(
    {
        DEVELOPMENT_KEY,
        "replace-with-at-least-32-random-characters-from-a-password-generator",
    }
)
PLACEHOLDER_MARKS = ("django-insecure", "replace-with", "change-me", "changeme", "your-secret")


def secret_key_problem(key: str) -> str | None:
    """What is wrong with ``key`` (a sentence ending in how to make a good one), or None."""
    advice = f"; make one with: {MAKE_ONE}"
    lowered = key.lower()
    if key in KNOWN_PLACEHOLDERS or any(mark in lowered for mark in PLACEHOLDER_MARKS):
        return "SECRET_KEY is a published placeholder, not a secret" + advice
    if len(key) < MIN_LENGTH:
        return (
            f"SECRET_KEY must be set to a random string of at least {MIN_LENGTH} characters "
            f"(it has {len(key)})" + advice
        )
    if len(set(key)) < MIN_DISTINCT:
        return f"SECRET_KEY must have at least {MIN_DISTINCT} different characters" + advice
    return None


def check_secret_key(**kwargs: object) -> list[CheckMessage]:
    """``manage.py check --deploy``: an unfit key is an error (``monsoon.E001``), even with
    ``DEBUG`` on, so a deployment is checked before it is switched to production."""
    problem = secret_key_problem(settings.SECRET_KEY)
    return [Error(problem, id="monsoon.E001")] if problem else []
