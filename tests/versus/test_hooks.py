"""``MONSOON_MATCH_OVER`` as a list: every hook runs, in order, even when one before it fails."""

from __future__ import annotations

import pytest
from pytest_django.fixtures import Settings

from ladder.core.hooks import configured_hook

CALLS: list[tuple[str, int]] = []


def first(object_id: int) -> None:
    CALLS.append(("first", object_id))
    raise RuntimeError("the first hook broke")


def second(object_id: int) -> None:
    CALLS.append(("second", object_id))


def test_each_hook_runs_and_the_first_failure_is_raised(settings: Settings) -> None:
    CALLS.clear()
    settings.MONSOON_MATCH_OVER = "tests.versus.test_hooks:first, tests.versus.test_hooks:second"
    hook = configured_hook("MONSOON_MATCH_OVER")
    assert hook is not None
    with pytest.raises(RuntimeError, match="the first hook broke"):
        hook(7)
    assert CALLS == [("first", 7), ("second", 7)]


def test_one_path_is_that_callable_and_empty_is_none(settings: Settings) -> None:
    settings.MONSOON_MATCH_OVER = "tests.versus.test_hooks:second"
    assert configured_hook("MONSOON_MATCH_OVER") is second
    settings.MONSOON_MATCH_OVER = ""
    assert configured_hook("MONSOON_MATCH_OVER") is None
