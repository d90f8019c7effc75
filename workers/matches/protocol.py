"""The bot protocol, version 1: JSON lines between the match runner and a bot program.

Every message is one JSON object on one line (UTF-8, ``\\n``-terminated). The runner writes
to the bot's stdin; the bot answers on stdout; stderr is free for the bot's own diagnostics.
``docs/bot-protocol.md`` is the reference a bot author reads; this module builds the runner's
messages and checks the bot's replies, so both sides share one definition.

Runner -> bot: ``start`` (once), ``request`` (one per decision where the bot has a choice),
``end`` (once). Bot -> runner: ``{"ready": true}`` after ``start``, and
``{"action": ..., "debug": "..."}`` after each ``request``.

The match boundary (bots whose manifest says ``"matches": "many"``): an ``end`` with
``"next": true`` tells the bot that the runner keeps its process for another match. The bot
answers ``{"done": true}`` once its own end-of-match work is over and then writes nothing until
it has read the next ``start`` (which may come much later, or never: the process may be killed
instead). Without ``"next"`` the runner closes the bot's stdin after ``end`` and the bot exits.
"""

from __future__ import annotations

import json
from collections.abc import Sequence
from dataclasses import dataclass
from typing import Any

try:  # the server's workers have it; the bot authors' kit (standard library only) may not
    import orjson
except ImportError:  # pragma: no cover - exercised by the kit's wheel tests
    orjson = None  # type: ignore[assignment]

from engine.core import Action, Observation, canonical_json

PROTOCOL_VERSION = 1
MAX_REPLY_BYTES = 16 * 1024
"""Longest reply line a bot may send, newline excluded. The longest legal action of any game is
under 100 bytes and a full ``debug`` note (``MAX_DEBUG_CHARS`` characters, each at most 12
bytes as JSON escapes a surrogate pair) under 6 KiB, so this is more than twice what a reply
needs. The runner stops reading a seat's output at this many bytes without a newline and the
seat forfeits (``oversized_line``): a longer reply costs the runner no more than a legal one."""
MAX_DEBUG_CHARS = 500
"""A reply's ``debug`` text is cut to this length before it goes into the log."""
MAX_DEBUG_CHARS_PER_MATCH = 10_000
"""Debug text one seat may put into the public log in a whole match; later notes are dropped
(the decision stays, without its ``debug``), so a seat's share of the log is bounded by the
game's decision bound (``GameSpec.max_decisions``) times a log entry, plus this."""


class ProtocolError(Exception):
    """A reply that breaks the protocol; ``code`` is the forfeit reason code."""

    def __init__(self, code: str, message: str) -> None:
        super().__init__(message)
        self.code = code


_ENCODER = json.JSONEncoder(separators=(",", ":"), ensure_ascii=False, check_circular=False)
"""Compact and without the cycle check (messages are trees we build): the fallback of
:func:`encode`."""
_ORJSON_OPTIONS = orjson.OPT_APPEND_NEWLINE | orjson.OPT_NON_STR_KEYS if orjson else 0


def encode(message: dict[str, Any]) -> bytes:
    """One message as one line (JSON escapes every newline inside strings).

    ``orjson`` writes the same compact UTF-8 bytes as ``_ENCODER`` about eight times faster
    (a Batavia request, 2.3 kB: 27 -> 3.5 us), and the request is encoded at every decision.
    What it refuses (an integer beyond 64 bits, a ``str`` subclass, a lone surrogate) goes
    through the standard encoder, which then behaves as it always did.
    """
    if orjson is None:
        return _ENCODER.encode(message).encode() + b"\n"
    try:
        return orjson.dumps(message, option=_ORJSON_OPTIONS)
    except TypeError:  # orjson.JSONEncodeError is a TypeError
        return _ENCODER.encode(message).encode() + b"\n"


def start_message(
    *,
    game: str,
    variant: str,
    seat: int,
    num_players: int,
    seats: Sequence[str],
    startup_ms: int,
    move_ms: int,
    bank_ms: int,
    max_decisions: int,
    match_budget_ms: int | None = None,
) -> dict[str, Any]:
    """What a bot learns before the game: the table, its seat and the clock it plays under.

    ``match_budget_ms`` is the seat's thinking time for the whole match (every decision's time
    counts against it); it is left out when the runner plays without one.
    """
    time = {
        "startup_ms": startup_ms,
        "move_ms": move_ms,
        "bank_ms": bank_ms,
        "max_decisions": max_decisions,
    }
    if match_budget_ms is not None:
        time["match_budget_ms"] = match_budget_ms
    return {
        "type": "start",
        "protocol": PROTOCOL_VERSION,
        "game": game,
        "variant": variant,
        "seat": seat,
        "num_players": num_players,
        "seats": list(seats),
        "time": time,
    }


def request_message(
    *,
    decision: int,
    observation: Observation,
    legal_actions: Sequence[Action],
    move_ms: float,
    bank_ms: float,
    state: dict[str, Any] | None = None,
    budget_ms: float | None = None,
) -> dict[str, Any]:
    """One decision: the seat's observation, its legal actions and the time it has left.

    ``state`` (only for bots that asked for it) is a determinization of the seat's information
    set encoded by ``bots.state_codec``: a forward model for search bots. ``budget_ms`` is
    what is left of the seat's whole-match thinking budget.
    """
    clock: dict[str, float] = {"move_ms": move_ms, "bank_ms": round(bank_ms, 1)}
    if budget_ms is not None:
        clock["budget_ms"] = round(budget_ms, 1)
    message = {
        "type": "request",
        "decision": decision,
        "observation": observation,
        "legal_actions": list(legal_actions),
        "time": clock,
    }
    if state is not None:
        message["state"] = state
    return message


def end_message(
    *,
    scores: Sequence[float],
    ranking: Sequence[int],
    forfeits: Sequence[str | None],
    seat: int,
    next_match: bool = False,
) -> dict[str, Any]:
    """The result: final scores, the match ranking (forfeits last) and who forfeited why.

    ``next_match`` (``"next": true``) keeps the process for another match: the bot answers
    ``{"done": true}`` (:func:`parse_done`) and waits for the next ``start``.
    """
    message: dict[str, Any] = {
        "type": "end",
        "seat": seat,
        "scores": list(scores),
        "ranking": list(ranking),
        "forfeits": list(forfeits),
    }
    if next_match:
        message["next"] = True
    return message


def _parse_object(line: bytes) -> dict[str, Any]:
    try:
        value = json.loads(line)
    except RecursionError:
        raise ProtocolError("malformed_reply", "reply is nested too deeply") from None
    except (UnicodeDecodeError, ValueError) as exc:
        shown = line[:80].decode("utf-8", "replace")
        raise ProtocolError("malformed_reply", f"reply is not JSON ({exc}): {shown!r}") from None
    if not isinstance(value, dict):
        raise ProtocolError(
            "malformed_reply", f"reply must be a JSON object, got {type(value).__name__}"
        )
    return value


def parse_ready(line: bytes) -> bool:
    """Check the answer to ``start``: ``{"ready": true}``; returns whether the bot asked for
    a determinized ``state`` in every request (``{"ready": true, "state": true}``)."""
    value = _parse_object(line)
    if value.get("ready") is not True:
        raise ProtocolError("malformed_reply", 'the answer to "start" must be {"ready": true}')
    wants_state = value.get("state", False)
    if not isinstance(wants_state, bool):
        raise ProtocolError("malformed_reply", '"state" in the ready answer must be true or false')
    return wants_state


def parse_done(line: bytes) -> bool:
    """Whether a line is the answer to an ``end`` with ``"next"``: exactly ``{"done": true}``.

    Anything else means the bot does not follow the match boundary, so its process is not
    kept for another match (the match itself is over: nothing is forfeited).
    """
    try:
        value = _parse_object(line)
    except ProtocolError:
        return False
    return value == {"done": True}


@dataclass(frozen=True)
class Reply:
    """A bot's answer to a request, with the legal action it matched."""

    action: Action
    debug: str | None = None


def parse_reply(line: bytes, legal_actions: Sequence[Action]) -> Reply:
    """Check a reply against the protocol and the legal actions.

    The action is compared as JSON (so a list equals the engine's tuple); the returned action
    is the engine's own legal value. A reply with no ``action`` or a ``debug`` that is not text
    is ``malformed_reply``; an action that is not among ``legal_actions`` is ``illegal_action``.
    """
    value = _parse_object(line)
    if "action" not in value:
        raise ProtocolError("malformed_reply", 'reply has no "action"')
    debug = value.get("debug")
    if debug is not None and not isinstance(debug, str):
        raise ProtocolError("malformed_reply", '"debug" must be a string')
    action = value["action"]
    if action in legal_actions and type(action) is not bool:
        for legal in legal_actions:
            if legal == action and type(legal) is type(action):
                return Reply(legal, debug[:MAX_DEBUG_CHARS] if debug else None)
    try:
        wanted = canonical_json(action)
    except RecursionError:
        raise ProtocolError("malformed_reply", '"action" is nested too deeply') from None
    for legal in legal_actions:
        if canonical_json(legal) == wanted:
            return Reply(legal, debug[:MAX_DEBUG_CHARS] if debug else None)
    shown = wanted if len(wanted) <= 80 else wanted[:77] + "..."
    raise ProtocolError("illegal_action", f"{shown} is not a legal action")
