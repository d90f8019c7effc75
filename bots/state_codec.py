"""A game state as JSON and back: how a search bot gets a forward model over the pipe.

A bot only ever sees its observation, but a search bot wants to play the official engine
forward. When it asks for it (``{"ready": true, "state": true}``), each request also carries
``state``: a *determinization* made by the runner with ``GameState.determinize(seat, rng)``,
i.e. a complete state consistent with the seat's observation, every hidden part redrawn from
what the seat has not seen and the state's RNG replaced. It tells the bot nothing beyond its
observation; the bot resamples it again (``determinize``) for each search iteration.

The encoding is the state's own attributes with JSON type tags for the few Python values JSON
lacks (tuples, dicts with non-string keys, byte strings, the RNG). The game's seed is blanked:
it is hidden information (it fixes every shuffle) and the engine never reads it after set-up.

Only the standard library and ``engine`` are imported: this runs inside the sandbox too.
"""

from __future__ import annotations

from functools import cache
from typing import Any

from engine import ENGINE_VERSION
from engine.core import GameState
from engine.registry import get_game
from engine.rng import Rng

FORMAT = "monsoon.state"
_CACHES = ("_legal",)
"""The legal-action cache: the engine rebuilds it on demand."""


class StateCodecError(ValueError):
    """A ``state`` blob this engine cannot load (other engine version, unknown game...)."""


def _pack(value: object) -> object:
    if value is None or isinstance(value, bool | int | float | str):
        return value
    if isinstance(value, list):
        return [_pack(v) for v in value]
    if isinstance(value, tuple):
        return {"__tuple__": [_pack(v) for v in value]}
    if isinstance(value, dict):
        if all(isinstance(k, str) for k in value) and "__tuple__" not in value:
            return {k: _pack(v) for k, v in value.items()}
        return {"__items__": [[_pack(k), _pack(v)] for k, v in value.items()]}
    if isinstance(value, Rng):
        return {"__rng__": value.state}
    if isinstance(value, bytes):  # e.g. a Packet Row deck: card ids as a byte string
        return {"__bytes__": list(value)}
    raise StateCodecError(f"cannot encode a {type(value).__name__} in a game state")


def _unpack(value: object) -> object:
    if isinstance(value, list):
        return [_unpack(v) for v in value]
    if isinstance(value, dict):
        if "__tuple__" in value:
            return tuple(_unpack(v) for v in value["__tuple__"])
        if "__items__" in value:
            return {_unpack(k): _unpack(v) for k, v in value["__items__"]}
        if "__rng__" in value:
            return Rng(value["__rng__"])
        if "__bytes__" in value:
            return bytes(value["__bytes__"])
        return {k: _unpack(v) for k, v in value.items()}
    return value


def encode_state(state: GameState) -> dict[str, Any]:
    """A JSON-able copy of ``state`` (caches dropped, seed blanked)."""
    attrs: dict[str, object] = {}
    for name, value in vars(state).items():
        if name in _CACHES:
            continue
        attrs[name] = 0 if name == "seed" else _pack(value)
    return {
        "format": FORMAT,
        "engine_version": ENGINE_VERSION,
        "game": state.game_name,
        "attrs": attrs,
    }


@cache
def _state_class(game: str) -> type[GameState]:
    spec = get_game(game)
    return type(spec.new_state(0, spec.min_players))


def decode_state(data: object) -> GameState:
    """The state :func:`encode_state` wrote; raises :class:`StateCodecError` when it cannot."""
    if not isinstance(data, dict) or data.get("format") != FORMAT:
        raise StateCodecError("not an encoded game state")
    if data.get("engine_version") != ENGINE_VERSION:
        raise StateCodecError(
            f"state from engine {data.get('engine_version')}, this is engine {ENGINE_VERSION}"
        )
    state = object.__new__(_state_class(data["game"]))
    attrs = _unpack(data.get("attrs"))
    if not isinstance(attrs, dict):
        raise StateCodecError("an encoded game state without its attributes")
    for name in _CACHES:
        attrs.setdefault(name, None)
    vars(state).update(attrs)
    return state
