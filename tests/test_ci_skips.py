"""In CI a skipped sandbox, e2e or browser test fails the run (tests/ci_skips.py)."""

from __future__ import annotations

import pytest

SKIPPING = """
import pytest

@pytest.mark.skipif(True, reason="no sandbox here: bwrap missing")
def test_needs_the_sandbox():
    pass
"""


@pytest.fixture
def suite(pytester: pytest.Pytester) -> pytest.Pytester:
    pytester.makeini(
        "[pytest]\nmarkers =\n    e2e: e2e\n    browser: browser\n    host_variant: host\n"
    )
    pytester.mkdir("workers").joinpath("test_sandboxed.py").write_text(SKIPPING)
    pytester.mkdir("engine").joinpath("test_rules.py").write_text(SKIPPING)
    browser = "import pytest\npytestmark = pytest.mark.browser\n" + SKIPPING
    pytester.mkdir("web").joinpath("test_pages_in_chromium.py").write_text(browser)
    v1_only = "import pytest\npytestmark = pytest.mark.host_variant\n" + SKIPPING
    pytester.mkdir("cgroups").joinpath("test_v1.py").write_text(v1_only)
    pytester.path.joinpath("workers", "test_v1_host.py").write_text(v1_only)
    return pytester


def test_in_ci_a_sandbox_or_browser_skip_fails_naming_the_reason(
    suite: pytest.Pytester, monkeypatch: pytest.MonkeyPatch
) -> None:
    monkeypatch.setenv("CI", "1")
    result = suite.runpytest("-p", "tests.ci_skips", "-rE")
    result.assert_outcomes(errors=2, skipped=3)  # a skip happens at setup: an error there
    result.stdout.fnmatch_lines(["*skipped in CI*no sandbox here: bwrap missing*"])
    failed = {
        line.split("::")[0].split()[-1] for line in result.outlines if line.startswith("ERROR ")
    }
    assert failed == {"workers/test_sandboxed.py", "web/test_pages_in_chromium.py"}


def test_outside_ci_the_same_tests_only_skip(
    suite: pytest.Pytester, monkeypatch: pytest.MonkeyPatch
) -> None:
    monkeypatch.delenv("CI", raising=False)
    suite.runpytest("-p", "tests.ci_skips").assert_outcomes(skipped=5)
