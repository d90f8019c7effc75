"""django-axes' lockout check, for requests only."""

from __future__ import annotations

from axes.backends import AxesStandaloneBackend


class LockoutBackend(AxesStandaloneBackend):
    """Axes refuses ``authenticate()`` without a request; with none there is no client to lock out
    (the shell, a management command, the test client's ``login``), so the check is skipped."""

    def authenticate(self, request=None, username=None, password=None, **kwargs):
        if request is None:
            return None
        return super().authenticate(request, username, password, **kwargs)
