"""Validators for the games' schemas, built once, and the docs renderer as a module."""

from __future__ import annotations

import functools
import importlib.util
from pathlib import Path
from types import ModuleType

from jsonschema import Draft202012Validator

from engine.schemas import entry_schema, load_schema

ROOT = Path(__file__).resolve().parents[2]


@functools.cache
def validator(game: str, entry: str) -> Draft202012Validator:
    """A draft 2020-12 validator for one entry point of a game's schema."""
    return Draft202012Validator(entry_schema(load_schema(game), entry))


def problems(game: str, entry: str, value: object) -> list[str]:
    """Every way ``value`` breaks the schema, each with the JSON path it happens at."""
    return [
        f"{error.json_path}: {error.message}" for error in validator(game, entry).iter_errors(value)
    ]


@functools.cache
def render_schemas() -> ModuleType:
    """``scripts/render_schemas.py`` (scripts/ is not a package)."""
    path = ROOT / "scripts" / "render_schemas.py"
    spec = importlib.util.spec_from_file_location("render_schemas", path)
    assert spec is not None and spec.loader is not None
    module = importlib.util.module_from_spec(spec)
    spec.loader.exec_module(module)
    return module
