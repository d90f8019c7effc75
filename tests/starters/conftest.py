"""Builds each language's starter kit once per test session, with its documented commands."""

from __future__ import annotations

from collections.abc import Callable
from pathlib import Path

import pytest

from bots.starters import LANGUAGES, build, copy_kit, missing_toolchain


@pytest.fixture(scope="session")
def built_kits(tmp_path_factory: pytest.TempPathFactory) -> dict[str, Path]:
    """Language -> a built copy of its kit (built on first use)."""
    return {}


@pytest.fixture
def kit_for(
    built_kits: dict[str, Path], tmp_path_factory: pytest.TempPathFactory
) -> Callable[[str], Path]:
    """``kit_for(language)``: the built kit, or a skip when its compiler is genuinely absent."""

    def kit(language: str) -> Path:
        if language not in LANGUAGES:
            raise KeyError(language)
        if language not in built_kits:
            missing = missing_toolchain(language)
            if missing:
                pytest.skip(
                    f"cannot build the {language} starter: {', '.join(missing)} not installed"
                )
            directory = copy_kit(language, tmp_path_factory.mktemp(f"kit-{language}") / language)
            build(directory, language)
            built_kits[language] = directory
        return built_kits[language]

    return kit
