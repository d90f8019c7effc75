"""Proof that a clone shares nothing mutable with its original, for the conformance suite."""

from __future__ import annotations

from collections.abc import Iterator
from typing import Any

from engine.core import GameState

IMMUTABLE = (int, str, bool, float, bytes, type(None), tuple, frozenset)


def mutable_objects(value: Any, path: str = "") -> Iterator[tuple[str, Any]]:
    """Every mutable object reachable from ``value`` (a state's attributes included), by path."""
    if isinstance(value, IMMUTABLE) and not isinstance(value, tuple):
        return
    if isinstance(value, tuple):
        for i, item in enumerate(value):
            yield from mutable_objects(item, f"{path}[{i}]")
        return
    yield path, value
    if isinstance(value, list):
        for i, item in enumerate(value):
            yield from mutable_objects(item, f"{path}[{i}]")
    elif isinstance(value, dict):
        for key, item in value.items():
            yield from mutable_objects(item, f"{path}[{key!r}]")
    elif isinstance(value, set):
        return
    elif hasattr(value, "__dict__"):
        for name, item in vars(value).items():
            yield from mutable_objects(item, f"{path}.{name}")


def shared_objects(original: GameState, clone: GameState) -> list[str]:
    """Paths of mutable objects the clone holds by identity from the original."""
    theirs = {id(obj) for _, obj in mutable_objects(original)}
    return [path for path, obj in mutable_objects(clone) if id(obj) in theirs]


def scramble(state: GameState) -> None:
    """Change every mutable container reachable from ``state`` in place."""
    for _path, obj in list(mutable_objects(state)):
        if isinstance(obj, list):
            obj.append(-1)
            obj.reverse()
        elif isinstance(obj, dict):
            obj["__scrambled__"] = -1
        elif isinstance(obj, set):
            obj.add(-1)
    state.rng.next_u64()
