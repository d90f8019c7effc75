"""A pytest plugin (registered by tests/conftest.py): in CI, a skipped sandbox, e2e or browser
test fails the run.

Those tests skip where bubblewrap, cgroups, the kits' toolchains or Chromium are missing, which
is right on a laptop and wrong in CI: a CI machine missing them would pass while testing none of
them. CI sets ``CI``; there such a skip becomes a failure that names the skip's reason.
"""

from __future__ import annotations

import os
from collections.abc import Iterator

import pytest

MUST_RUN_FOLDERS = frozenset({"e2e", "workers", "starters", "demo"})
"""Test folders whose tests need the sandbox, real worker processes or the kits' toolchains."""


def must_run_in_ci(item: pytest.Item) -> bool:
    """Whether a skip of ``item`` hides a missing sandbox, e2e stack or browser (a CI defect).

    ``host_variant`` tests run on one kind of host only (cgroup v1 or v2); skipping on the
    other kind is expected.
    """
    if item.get_closest_marker("host_variant") is not None:
        return False
    if item.get_closest_marker("e2e") or item.get_closest_marker("browser"):
        return True
    return item.path.parent.name in MUST_RUN_FOLDERS


@pytest.hookimpl(hookwrapper=True)
def pytest_runtest_makereport(item: pytest.Item, call: pytest.CallInfo[None]) -> Iterator[None]:
    """In CI (``CI`` set), a skipped sandbox, e2e or browser test fails: a CI machine without
    bubblewrap, cgroups or Chromium would otherwise pass while testing none of them."""
    outcome = yield
    report = outcome.get_result()  # type: ignore[attr-defined]
    if not (os.environ.get("CI") and report.skipped) or hasattr(report, "wasxfail"):
        return
    if must_run_in_ci(item):
        reason = report.longrepr[2] if isinstance(report.longrepr, tuple) else report.longrepr
        report.outcome = "failed"
        report.longrepr = f"skipped in CI, where sandbox, e2e and browser tests must run: {reason}"
