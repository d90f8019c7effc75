"""The games' JSON Schemas: what a bot is shown and what it may answer, as data files.

Each game package ships ``schema.json`` (JSON Schema draft 2020-12) beside its code, with
three entry points under ``$defs``: ``observation`` (what a seat is sent), ``public_view``
(what a spectator sees) and ``action`` (one legal answer). The files are data, read with the
standard library only; validating against them is the business of the tests
(``tests/schemas``) and of bot programmers. :func:`key_rows` and :func:`action_rows` read a
schema as tables for people (the docs pages rendered by ``scripts/render_schemas.py``).
"""

from __future__ import annotations

import importlib
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
    package = next(p for p in GAME_PACKAGES if importlib.import_module(p).GAME is spec)
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


# ---------------------------------------------------------------------- reading a schema
def resolve(schema: dict[str, Any], defs: dict[str, Any]) -> dict[str, Any]:
    """A local ``$ref`` followed; the referring schema's own keywords win."""
    while "$ref" in schema and schema["$ref"].startswith("#/$defs/"):
        target = defs[schema["$ref"].removeprefix("#/$defs/")]
        merged = {**target, **{k: v for k, v in schema.items() if k != "$ref"}}
        if "properties" in target and "properties" in schema:
            merged["properties"] = {**target["properties"], **schema["properties"]}
        if "required" in target and "required" in schema:
            merged["required"] = [*target["required"], *schema["required"]]
        schema = merged
    return schema


def non_null(schema: dict[str, Any], defs: dict[str, Any]) -> dict[str, Any]:
    """The branch of ``X or null`` that is not null (the schema itself otherwise)."""
    schema = resolve(schema, defs)
    branches = [b for b in schema.get("anyOf", []) if resolve(b, defs).get("type") != "null"]
    return resolve(branches[0], defs) if len(branches) == 1 else schema


def is_uniform_map(schema: dict[str, Any]) -> bool:
    """An object whose keys are a fixed vocabulary with one value schema (GB, DK, ... -> n).

    Its own description covers its keys, so they get no table row of their own.
    """
    values = list(schema.get("properties", {}).values())
    return len(values) > 1 and all(value == values[0] for value in values)


def code(value: Any) -> str:
    return f"`{json.dumps(value) if not isinstance(value, str) else value}`"


def grouped(reading: str) -> str:
    """``(a or b)`` inside a larger reading, so ``array of (x or null)`` is not misread."""
    return f"({reading})" if " or " in reading else reading


def type_of(schema: dict[str, Any], defs: dict[str, Any]) -> str:
    """A short human reading of a schema's type: ``integer 0 to 4 or null``.

    A definition with a ``title`` (``card label``) is named by it rather than spelled out.
    """
    reference = schema.get("$ref", "")
    named = defs.get(reference.removeprefix("#/$defs/"), {}) if reference else {}
    if "title" in named:
        return str(named["title"])
    schema = resolve(schema, defs)
    if "const" in schema:
        return code(schema["const"])
    if "enum" in schema:
        return "one of " + ", ".join(code(v) for v in schema["enum"])
    if "anyOf" in schema:
        return " or ".join(type_of(branch, defs) for branch in schema["anyOf"])
    kinds = schema.get("type", "any")
    kinds = kinds if isinstance(kinds, list) else [kinds]
    words = []
    for kind in kinds:
        if kind == "integer":
            low, high = schema.get("minimum"), schema.get("maximum")
            span = f" {low} to {high}" if low is not None and high is not None else ""
            span = f" ≥ {low}" if low is not None and high is None else span
            words.append("integer" + span)
        elif kind == "array":
            size = schema.get("minItems")
            count = f" ({size})" if size is not None and size == schema.get("maxItems") else ""
            if "prefixItems" in schema:
                parts = ", ".join(type_of(item, defs) for item in schema["prefixItems"])
                words.append(f"array{count} [{parts}]")
            else:
                words.append(f"array{count} of " + grouped(type_of(schema.get("items", {}), defs)))
        elif kind == "object" and is_uniform_map(schema):
            keys = ", ".join(code(key) for key in schema["properties"])
            value = grouped(type_of(next(iter(schema["properties"].values())), defs))
            words.append(f"object {{{keys}}} → {value}")
        elif kind == "string" and "pattern" in schema:
            words.append("string")
        else:
            words.append(kind)
    return " or ".join(words)


def key_rows(document: dict[str, Any], entry: str) -> list[tuple[str, str, str]]:
    """(key path, type, description) for every key of an entry point, depth first."""
    defs = document["$defs"]
    rows: list[tuple[str, str, str]] = []

    def walk(schema: dict[str, Any], prefix: str) -> None:
        schema = resolve(schema, defs)
        if is_uniform_map(schema):
            # One row per key of the shared value, under ``map.*.``: the map's own row
            # already names the keys (``boards.*.deck_size``).
            value = non_null(next(iter(schema["properties"].values())), defs)
            if "properties" in value:
                walk(value, prefix + "*.")
            return
        for key, sub in schema.get("properties", {}).items():
            path = prefix + key
            description = sub.get("description") or resolve(sub, defs).get("description", "")
            rows.append((path, type_of(sub, defs), description))
            inner = non_null(sub, defs)
            if inner.get("type") == "array" and "items" in inner:
                item = non_null(inner["items"], defs)
                if "properties" in item:
                    walk(item, path + "[].")
            elif "properties" in inner:
                walk(inner, path + ".")

    walk(defs[entry], "")
    return rows


def action_rows(document: dict[str, Any]) -> list[tuple[str, str, str]]:
    """(kind, form, description) per branch of the action schema."""
    rows = []
    for branch in document["$defs"]["action"]["oneOf"]:
        if "const" in branch:
            form = code(branch["const"])
        elif "enum" in branch:
            form = ", ".join(code(v) for v in branch["enum"])
        else:
            form = code(branch["pattern"])
        rows.append((branch["title"], form, branch["description"]))
    return rows
