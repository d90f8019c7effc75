"""Game logs: seed + actions, enough to replay any game exactly.

The format is documented in ``docs/game-log.md``.  :func:`replay` re-simulates a
log and refuses one that does not reproduce its recorded result.
"""

from __future__ import annotations

from collections.abc import Mapping, Sequence
from typing import Any

from engine import ENGINE_VERSION
from engine.core import Action, EngineError, GameState, IllegalAction
from engine.registry import UnknownGame, get_game

LOG_FORMAT = "monsoon.game-log"
LOG_VERSION = 1


class ReplayError(EngineError):
    """A log that is malformed or does not reproduce; the message says where."""


def new_log(
    game: str, variant: str, seed: int, seats: Sequence[str], num_players: int | None = None
) -> dict[str, Any]:
    """The header of a log; decisions and the result are appended as the game goes."""
    return {
        "format": LOG_FORMAT,
        "version": LOG_VERSION,
        "game": game,
        "engine_version": ENGINE_VERSION,
        "variant": variant,
        "seed": seed,
        "num_players": len(seats) if num_players is None else num_players,
        "seats": list(seats),
        "decisions": [],
        "result": None,
    }


VIEWER_DECISION_KEYS = ("seat", "action", "ms", "by")
"""What viewers of a match (replay frames, live spectators) get of each decision; the bot's
``debug`` note stays in the downloadable log."""


def viewer_decision(entry: Mapping[str, Any]) -> dict[str, Any]:
    """A decision cut down to :data:`VIEWER_DECISION_KEYS`."""
    return {key: entry[key] for key in VIEWER_DECISION_KEYS if key in entry}


def record_decision(log: dict[str, Any], seat: int, action: Action, **extra: object) -> None:
    """Append one decision; ``extra`` holds optional fields such as ``ms`` or ``by``."""
    entry = {"seat": seat, "action": action}
    entry.update(extra)
    log["decisions"].append(entry)


def finish_log(log: dict[str, Any], state: GameState, **extra: object) -> dict[str, Any]:
    """Write the result block from a terminal state."""
    result: dict[str, object] = {
        "scores": state.scores(),
        "ranking": state.ranking(),
        "digest": state.digest(),
    }
    result.update(extra)
    log["result"] = result
    return log


def _require(condition: bool, message: str) -> None:
    if not condition:
        raise ReplayError(message)


def _as_object(log: object) -> dict[str, Any]:
    if not isinstance(log, dict):
        raise ReplayError("a game log must be a JSON object")
    return log


def start_state(log: object) -> GameState:
    """Validate a log's header and return the initial state it describes."""
    log = _as_object(log)
    _require(
        log.get("format") == LOG_FORMAT, f"not a Monsoon game log (format must be {LOG_FORMAT!r})"
    )
    _require(
        log.get("version") == LOG_VERSION,
        f"unsupported log version {log.get('version')!r}; this engine reads version {LOG_VERSION}",
    )
    for key in ("game", "variant", "seed", "num_players", "seats", "decisions"):
        _require(key in log, f"log header lacks {key!r}")
    _require(isinstance(log["decisions"], list), "'decisions' must be a list")
    _require(isinstance(log["seats"], list), "'seats' must be a list")
    _require(len(log["seats"]) == log["num_players"], "'seats' must name one entry per player")
    try:
        spec = get_game(log["game"])
        return spec.new_state(log["seed"], log["num_players"], log["variant"])
    except (UnknownGame, EngineError) as exc:
        raise ReplayError(str(exc)) from None


def replay(log: object, *, check_result: bool = True) -> GameState:
    """Re-simulate ``log`` and return its final state.

    Raises :class:`ReplayError` when a decision is out of turn or illegal, when the
    log stops before the game ends, or when the recomputed result differs from the
    recorded one.
    """
    state = start_state(log)
    log = _as_object(log)
    for index, entry in enumerate(log["decisions"]):
        _require(
            isinstance(entry, dict) and "seat" in entry and "action" in entry,
            f"decision {index} must be an object with 'seat' and 'action'",
        )
        expected = state.current_player()
        _require(expected is not None, f"decision {index} comes after the game ended")
        _require(
            entry["seat"] == expected,
            f"decision {index} is by seat {entry['seat']!r} but seat {expected} is to move",
        )
        try:
            state.apply(entry["action"])
        except IllegalAction as exc:
            raise ReplayError(f"decision {index} ({entry['action']!r}) is illegal: {exc}") from None
    _require(
        state.is_terminal(),
        f"the log ends after {len(log['decisions'])} decisions, before the game is over",
    )
    if check_result:
        recorded = log.get("result")
        if not isinstance(recorded, dict):
            raise ReplayError("the log has no result block")
        for key, value in (
            ("scores", state.scores()),
            ("ranking", state.ranking()),
            ("digest", state.digest()),
        ):
            _require(
                recorded.get(key) == value,
                f"replay does not reproduce the log: {key} {value!r} "
                f"!= recorded {recorded.get(key)!r}",
            )
    return state
