"""django-axes' lockout check, for requests only."""

from __future__ import annotations

from axes.backends import AxesStandaloneBackend
from django.contrib.auth.base_user import AbstractBaseUser
from django.http import HttpRequest


class LockoutBackend(AxesStandaloneBackend):
    """Axes refuses ``authenticate()`` without a request; with none there is no client to lock out
    (the shell, a management command, the test client's ``login``), so the check is skipped."""

    def authenticate(
        self,
        request: HttpRequest | None = None,
        username: str | None = None,
        password: str | None = None,
        **kwargs: object,
    ) -> AbstractBaseUser | None:
        if request is None:
            return None
        return super().authenticate(request, username, password, **kwargs)
