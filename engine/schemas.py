"""The games' JSON Schemas: what a bot is shown and what it may answer, as data files.

Each game package ships ``schema.json`` (JSON Schema draft 2020-12) beside its code, with
three entry points under ``$defs``: ``observation`` (what a seat is sent), ``public_view``
(what a spectator sees) and ``action`` (one legal answer). The files are data, read with the
standard library only; validating against them is the business of the tests
(``tests/schemas``), the docs renderer (``scripts/render_schemas.py``) and bot programmers.
"""

from __future__ import annotations

import importlib.resources
import json
from typing import Any

from engine.registry import GAME_PACKAGES, get_game

SCHEMA_FILE = "schema.json"
ENTRY_POINTS: tuple[str, ...] = ("observation", "public_view", "action")
"""The ``$defs`` every game's schema defines, in the order the docs show them."""


def schema_text(game: str) -> str:
    """The schema file of ``game`` as stored; raises ``UnknownGame`` for an unknown name."""
    spec = get_game(game)
    package = next(p for p in GAME_PACKAGES if p.rsplit(".", 1)[-1] == spec.name)
    return importlib.resources.files(package).joinpath(SCHEMA_FILE).read_text(encoding="utf-8")


def load_schema(game: str) -> dict[str, Any]:
    """The whole schema document of ``game`` (every entry point under ``$defs``)."""
    document: dict[str, Any] = json.loads(schema_text(game))
    return document


def entry_schema(document: dict[str, Any], entry: str) -> dict[str, Any]:
    """A standalone schema for one entry point (``observation``, ``public_view``, ``action``).

    The entry refers to its siblings under ``$defs``, so the result is the document itself
    pointing at that entry: any draft 2020-12 validator resolves the references.
    """
    if entry not in ENTRY_POINTS:
        raise ValueError(f"no schema entry {entry!r}; choose one of {', '.join(ENTRY_POINTS)}")
    return {
        "$schema": document["$schema"],
        "$defs": document["$defs"],
        "$ref": f"#/$defs/{entry}",
    }
